#!/bin/bash
name=$1; sess=$2; win=$3; shift 3
port=$((46000 + RANDOM % 1000))
cmd=$(echo "$*" | sed "s/PORT/$port/")
taskset -c 0 $cmd > /tmp/pf-$name.server.log 2>&1 &
spid=$!
for i in $(seq 100); do grep -q listening /tmp/pf-$name.server.log && break; sleep 0.2; done
taskset -c 1 /work/main/proactor-bench/target/native/loadgen --host 127.0.0.1 --port $port --sessions $sess --block 512 --window $win --seconds 10 --warmup 5 --threads 1 --server-pid $spid > /tmp/pf-$name.loadgen.log 2>&1 &
lpid=$!
sleep 9
perf record -F 4000 -g -p $spid -o /tmp/pf-$name.data -- sleep 4 > /dev/null 2>&1
wait $lpid
kill $spid; wait $spid 2>/dev/null
echo "== $name $(grep -o 'msgs_per_s=[0-9]*\|server_cpu_pct=[0-9.]*\| cpu_pct=[0-9.]*\|p99_us=[0-9.]*' /tmp/pf-$name.loadgen.log | tr '\n' ' ')"
