#!/bin/bash
# usage: prof.sh NAME SESSIONS WINDOW BLOCK CMD... ; async-profiler cpu for 4 s in the middle
# As sc.sh, with async-profiler (cpu, 200 us) attached to the server for 4 s in the middle: NAME.flat.txt.
name=$1; sess=$2; win=$3; blk=$4; shift 4
port=$((45000 + RANDOM % 1000))
cmd=$(echo "$*" | sed "s/PORT/$port/")
out=${OUT:-/tmp/sc}; mkdir -p $out; AP=${AP:?set AP to libasyncProfiler.so (async-profiler, on Maven Central as tools.profiler:async-profiler)}
taskset -c 0 $cmd > $out/$name.server.log 2>&1 &
spid=$!
for i in $(seq 100); do grep -q listening $out/$name.server.log && break; sleep 0.2; done
taskset -c 1 $(git rev-parse --show-toplevel)/proactor-bench/target/native/loadgen --host 127.0.0.1 --port $port --sessions $sess --block $blk --window $win --seconds 10 --warmup 5 --threads 1 --ready-timeout 60 --server-pid $spid > $out/$name.loadgen.log 2>&1 &
lpid=$!
sleep 9
jpid=$(pgrep -P $spid java || echo $spid)
jcmd $spid JVMTI.agent_load $AP "\"start,event=cpu,interval=200us\"" > /dev/null
sleep 4
jcmd $spid JVMTI.agent_load $AP "\"stop,file=$out/$name.flat.txt,flat=400,traces=0\"" > /dev/null
wait $lpid
kill $spid; wait $spid 2>/dev/null
echo "== $name $(grep -o 'msgs_per_s=[0-9]*\|server_cpu_pct=[0-9.]*\| cpu_pct=[0-9.]*\|p99_us=[0-9.]*' $out/$name.loadgen.log | tr '\n' ' ')"
