#!/bin/bash
# usage: kprof.sh NAME SESSIONS CMD...   (PORT in CMD is replaced; run from the repository root)
# perf record of the server (all its threads, kernel and user, 2 kHz, 4 s inside the measurement) under the C load
# generator at SESSIONS ping-pong sessions of 512 B; writes OUT/NAME.top.txt (self time by symbol) and prints msgs/s.
name=$1; sess=$2; shift 2
port=$((46000 + RANDOM % 1000))
cmd=$(echo "$*" | sed "s/PORT/$port/")
out=${OUT:-/tmp/kprof}; mkdir -p $out
taskset -c 0 $cmd > $out/$name.server.log 2>&1 &
spid=$!
for i in $(seq 100); do grep -q listening $out/$name.server.log && break; sleep 0.2; done
taskset -c 1 proactor-bench/target/native/loadgen --host 127.0.0.1 --port $port --sessions $sess --block 512 --window 0 \
    --seconds 10 --warmup 5 --threads 1 --ready-timeout 60 --server-pid $spid > $out/$name.loadgen.log 2>&1 &
lpid=$!
sleep 9
perf record -F 2000 -g -p $spid -o $out/$name.perf.data -- sleep 4 > /dev/null 2>&1
wait $lpid
kill $spid; wait $spid 2>/dev/null
perf report -i $out/$name.perf.data --no-children --sort sym --stdio -g none 2>/dev/null | grep -E '^ +[0-9]' | head -60 > $out/$name.top.txt
rm -f $out/$name.perf.data
echo "== $name $(grep -o 'msgs_per_s=[0-9]*\|server_cpu_pct=[0-9.]*\|p99_us=[0-9.]*' $out/$name.loadgen.log | tr '\n' ' ')"
