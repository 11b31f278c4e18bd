#!/bin/bash
name=$1; shift
mkdir -p ${OUT:-/tmp/win}
port=$((47000 + RANDOM % 1000))
taskset -c 0 java -Xms1g -Xmx1g "$@" -jar $(git rev-parse --show-toplevel)/proactor-bench/target/proactor-bench.jar jdk-nio2 --host 127.0.0.1 --port $port --threads 1 --delay-us 0 > ${OUT:-/tmp/win}/$name.server.log 2>&1 &
spid=$!
for i in $(seq 100); do grep -q listening ${OUT:-/tmp/win}/$name.server.log && break; sleep 0.2; done
taskset -c 1 $(git rev-parse --show-toplevel)/proactor-bench/target/native/loadgen --host 127.0.0.1 --port $port --sessions 100 --block 512 --window 4096 --seconds 8 --warmup 4 --threads 1 --server-pid $spid > ${OUT:-/tmp/win}/$name.loadgen.log 2>&1 &
lpid=$!
sleep 6
perf record -C 1 -F 2000 -g -o ${OUT:-/tmp/win}/$name.cpu1.data -- sleep 4 > /dev/null 2>&1
wait $lpid
kill $spid; wait $spid 2>/dev/null
echo "== $name $(grep -o 'msgs_per_s=[0-9]*' ${OUT:-/tmp/win}/$name.loadgen.log)"
perf report -i ${OUT:-/tmp/win}/$name.cpu1.data --no-children --sort sym --stdio 2>/dev/null | grep -E "^ +[0-9]" | head -25
