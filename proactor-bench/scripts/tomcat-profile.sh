#!/bin/bash
# Session 19: user-mode profile of Tomcat's NIO2 connector under wrk -c200 (1 KiB file): async-profiler (AP=path to
# libasyncProfiler.so; Maven Central tools.profiler:async-profiler:4.1:jar:linux-x64), cpu, 200 us, user mode only,
# after WARM warm-up waves (default 2; WARM added in session 20, whose nio profile needed 5 to leave the JIT out);
# 6 s inside a 10 s wave after them; writes OUT/NAME.collapsed.txt and OUT/NAME.wrk.
# usage (repository root): ROOT=dir-with-1k.bin AP=... prof.sh NAME [jvm props]; then python3 owner.py OUT/*.collapsed.txt
name=$1; shift
out=${OUT:-proactor-bench/results/quiet-2026-11-27b/tomcat-prof}; mkdir -p $out
port=$((45000 + RANDOM % 1000))
taskset -c 0 java -Xms1g -Xmx1g "$@" -jar proactor-bench/target/proactor-bench.jar tomcat-http --host 127.0.0.1 \
    --port $port --root "$ROOT" --threads 2 > $out/$name.log 2>&1 &
spid=$!
for i in $(seq 100); do grep -q listening $out/$name.log && break; sleep 0.2; done
for w in $(seq ${WARM:-2}); do taskset -c 1 wrk -t1 -c200 -d8s http://127.0.0.1:$port/1k.bin > /dev/null; done
taskset -c 1 wrk -t1 -c200 -d10s http://127.0.0.1:$port/1k.bin > $out/$name.wrk &
wpid=$!
sleep 2
jcmd $spid JVMTI.agent_load "$AP" "\"start,event=cpu,interval=200us,alluser\"" > /dev/null
sleep 6
jcmd $spid JVMTI.agent_load "$AP" "\"stop,file=$out/$name.collapsed.txt,collapsed\"" > /dev/null
wait $wpid
kill $spid; wait $spid 2>/dev/null
grep Requests/sec $out/$name.wrk
