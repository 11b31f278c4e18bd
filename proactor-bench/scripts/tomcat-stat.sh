#!/bin/bash
# usage: ROOT=dir-with-1k.bin [JAR=bench.jar] [OUT=dir] tomcat-stat.sh NAME [jvm props...]
# (JAR: the bench jar to run, default the working tree's; OUT: where the server log, wrk and perf output go, default
# proactor-bench/raw/tomcat-stat)
# Tomcat's NIO2 connector (proactor-bench tomcat-http, 2 worker threads) on CPU 0, wrk (1 thread, 200 keep-alive
# connections, 10 s) on CPU 1: three unmeasured waves warm the JIT, then one wave is measured while `perf stat`
# counts the server's context switches, system calls and CPU time. Needs ROOT=a directory holding 1k.bin (1024
# bytes), wrk and perf on the PATH, and the bench jar built (mvn -B package -DskipTests).
# Prints: NAME req/s ctxsw/req syscalls/req cpu_us/req p99 (wrk's latency distribution) user_us/req sys_us/req
# (the server's CPU per request over the measured wave split into user mode and kernel, from /proc/PID/stat).
name=$1; shift
top=$(git rev-parse --show-toplevel)
out=${OUT:-$top/proactor-bench/raw/tomcat-stat}; mkdir -p "$out"
port=$((45000 + RANDOM % 1000))
taskset -c 0 java -Xms1g -Xmx1g "$@" -jar "${JAR:-$top/proactor-bench/target/proactor-bench.jar}" tomcat-http \
    --host 127.0.0.1 --port $port --root "$ROOT" --threads 2 > "$out/$name.log" 2>&1 &
spid=$!
for i in $(seq 100); do grep -q listening "$out/$name.log" && break; sleep 0.2; done
for w in 1 2 3; do taskset -c 1 wrk -t1 -c200 -d10s http://127.0.0.1:$port/1k.bin > /dev/null; done
perf stat -e context-switches,raw_syscalls:sys_enter,task-clock -p $spid -o "$out/$name.stat" -- sleep 9 &
ppid=$!
ticks() { awk '{print $14, $15}' /proc/$spid/stat; }
read -r u0 s0 < <(ticks)
taskset -c 1 wrk -t1 -c200 -d10s --latency http://127.0.0.1:$port/1k.bin > "$out/$name.wrk"
read -r u1 s1 < <(ticks)
wait $ppid
r=$(grep Requests/sec "$out/$name.wrk" | awk '{print $2}')
p99=$(grep -E '^ +99%' "$out/$name.wrk" | awk '{print $2}')
cs=$(grep context-switches "$out/$name.stat" | awk '{gsub(",","",$1); print $1}')
sc=$(grep raw_syscalls "$out/$name.stat" | awk '{gsub(",","",$1); print $1}')
tc=$(grep task-clock "$out/$name.stat" | awk '{gsub(",","",$1); print $1}')
done=$(grep "requests in" "$out/$name.wrk" | awk '{print $1}')
python3 -c "r=$r; n=r*9; hz=$(getconf CLK_TCK); w=$done; print(f'$name req/s {r:.0f} ctxsw/req {$cs/n:.2f} syscalls/req {$sc/n:.2f} cpu_us/req {$tc*1000/n:.2f} p99 $p99 user_us/req {($u1-$u0)/hz*1e6/w:.2f} sys_us/req {($s1-$s0)/hz*1e6/w:.2f}')"
kill $spid; wait $spid 2>/dev/null
