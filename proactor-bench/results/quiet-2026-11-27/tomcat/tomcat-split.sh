#!/bin/bash
# usage: ROOT=dir-with-1k.bin tomcat-split.sh NAME [jvm props...]: Tomcat's NIO2 connector (tomcat-http, 2 worker
# threads) on CPU 0, wrk -t1 -c200 on CPU 1, three unmeasured 10 s waves, then one measured wave; prints
# NAME req/s, the server's CPU per request split into user mode and kernel (/proc/PID/stat), and wrk's p99.
name=$1; shift
top=$(git rev-parse --show-toplevel); out=${OUT:-/tmp/tomcat-split}; mkdir -p "$out"
port=$((47000 + RANDOM % 1000))
taskset -c 0 java -Xms1g -Xmx1g "$@" -jar "$top/proactor-bench/target/proactor-bench.jar" tomcat-http \
    --host 127.0.0.1 --port $port --root "$ROOT" --threads 2 > "$out/$name.log" 2>&1 &
spid=$!
for i in $(seq 100); do grep -q listening "$out/$name.log" && break; sleep 0.2; done
for w in 1 2 3; do taskset -c 1 wrk -t1 -c200 -d10s http://127.0.0.1:$port/1k.bin > /dev/null; done
ticks() { awk '{print $14, $15}' /proc/$spid/stat; }
read u0 s0 < <(ticks)
taskset -c 1 wrk -t1 -c200 -d10s --latency http://127.0.0.1:$port/1k.bin > "$out/$name.wrk"
read u1 s1 < <(ticks)
kill $spid; wait $spid 2>/dev/null
r=$(grep Requests/sec "$out/$name.wrk" | awk '{print $2}'); p99=$(grep -E '^ +99%' "$out/$name.wrk" | awk '{print $2}')
n=$(grep "requests in" "$out/$name.wrk" | awk '{print $1}')
python3 -c "hz=$(getconf CLK_TCK); n=$n; print(f'$name req/s {$r:.0f} user_us/req {($u1-$u0)/hz*1e6/n:.2f} sys_us/req {($s1-$s0)/hz*1e6/n:.2f} p99 $p99')"
