#!/bin/bash
# usage: ab.sh ROUNDS SESSIONS WINDOW name=cmd ...  (cmd uses PORT)
# prints and appends "round name msgs/s server-cpu% client-cpu% p99us" per run to $AB_LOG (default ab.log);
# summary: python3 ab-summary.py ab.log
rounds=$1; sess=$2; win=$3; shift 3
for r in $(seq $rounds); do
for spec in "$@"; do
name=${spec%%=*}; cmd=${spec#*=}
port=$((43000 + RANDOM % 1000))
c=$(echo "$cmd" | sed "s/PORT/$port/")
taskset -c 0 $c > "${TMPDIR:-/tmp}/ab-$name.server.log" 2>&1 &
spid=$!
for i in $(seq 50); do grep -q listening "${TMPDIR:-/tmp}/ab-$name.server.log" && break; sleep 0.2; done
out=$(taskset -c 1 $(git rev-parse --show-toplevel)/proactor-bench/target/native/loadgen --host 127.0.0.1 --port $port --sessions $sess --block 512 --window $win --seconds 5 --warmup 3 --threads 1 --server-pid $spid 2>/dev/null | grep RESULT)
kill $spid; wait $spid 2>/dev/null
m=$(echo "$out" | grep -o "msgs_per_s=[0-9]*" | cut -d= -f2); sc=$(echo "$out" | grep -o "server_cpu_pct=[0-9.]*" | cut -d= -f2); cc=$(echo "$out" | grep -o " cpu_pct=[0-9.]*" | cut -d= -f2); p99=$(echo "$out" | grep -o "p99_us=[0-9.]*" | cut -d= -f2)
echo "$r $name $m $sc $cc $p99" | tee -a "${AB_LOG:-ab.log}"
done; done
