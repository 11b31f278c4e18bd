#!/bin/bash
# usage: ROOT=dir-with-1k.bin AP=/path/to/libasyncProfiler.so [WARM=2] [OUT=dir] tomcat-profile.sh NAME [jvm props]
# User-mode profile of Tomcat's NIO2 connector under wrk -c200 (1 KiB file): async-profiler (AP; Maven Central
# tools.profiler:async-profiler:4.1:jar:linux-x64), cpu, 200 us, user mode only, after WARM warm-up waves (5 leave the
# JIT out on our provider); 6 s inside a 10 s wave after them; writes OUT/NAME.collapsed.txt and OUT/NAME.wrk (OUT
# default proactor-bench/raw/tomcat-profile). Then: python3 proactor-bench/scripts/profile-owner.py OUT/*.collapsed.txt
# From the repository root after `mvn -B package -DskipTests`.
name=$1; shift
out=${OUT:-proactor-bench/raw/tomcat-profile}; mkdir -p $out
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
