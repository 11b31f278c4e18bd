#!/bin/bash
# usage: [PERF=record] win.sh NAME [jvm props...]
# The NIO.2 echo program (jdk-nio2, one thread) on CPU 0 driven by the C load generator on CPU 1, 100 sessions x 8
# blocks of 512 B in flight. Default: `perf stat` counts the system calls of both processes for 4 s and prints them
# per message. PERF=record: `perf record -g` of CPU 1 (the client's core) for 4 s, then its top kernel symbols.
name=$1; shift
out=${OUT:-/tmp/win}; mkdir -p "$out"
top=$(git rev-parse --show-toplevel)
port=$((47000 + RANDOM % 1000))
taskset -c 0 java -Xms1g -Xmx1g "$@" -jar "$top/proactor-bench/target/proactor-bench.jar" jdk-nio2 --host 127.0.0.1 \
    --port $port --threads 1 --delay-us 0 > "$out/$name.server.log" 2>&1 &
spid=$!
for i in $(seq 100); do grep -q listening "$out/$name.server.log" && break; sleep 0.2; done
taskset -c 1 "$top/proactor-bench/target/native/loadgen" --host 127.0.0.1 --port $port --sessions 100 --block 512 \
    --window 4096 --seconds 8 --warmup 4 --threads 1 --server-pid $spid > "$out/$name.loadgen.log" 2>&1 &
lpid=$!
sleep 6
E='syscalls:sys_enter_recvfrom,syscalls:sys_enter_read,syscalls:sys_enter_sendto,syscalls:sys_enter_write,syscalls:sys_enter_epoll_wait,syscalls:sys_enter_io_uring_enter'
if [ "$PERF" = record ]; then
  perf record -C 1 -F 2000 -g -o "$out/$name.cpu1.data" -- sleep 4 > /dev/null 2>&1
else
  perf stat -e $E -p $lpid -o "$out/$name.client.stat" -- sleep 4 &
  perf stat -e $E -p $spid -o "$out/$name.server.stat" -- sleep 4
fi
wait $lpid
kill $spid; wait $spid 2>/dev/null
m=$(grep -o 'msgs_per_s=[0-9]*' "$out/$name.loadgen.log" | head -1 | cut -d= -f2)
echo "== $name msgs/s $m"
if [ "$PERF" = record ]; then
  perf report -i "$out/$name.cpu1.data" --no-children --sort sym --stdio 2>/dev/null | grep -E "^ +[0-9]" | head -25
else
  for side in client server; do
    echo -n "  $side per msg:"
    grep syscalls "$out/$name.$side.stat" | awk -v m=$m '{gsub(",","",$1); printf " %s=%.3f", $2, $1/(m*4)}'; echo
  done
fi
