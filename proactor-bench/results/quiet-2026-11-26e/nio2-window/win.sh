#!/bin/bash
# usage: win.sh NAME [props]: NIO.2 echo, 100 sessions x 8 blocks of 512 B; perf stat syscalls of client and server
name=$1; shift
mkdir -p ${OUT:-/tmp/win}
port=$((47000 + RANDOM % 1000))
taskset -c 0 java -Xms1g -Xmx1g "$@" -jar $(git rev-parse --show-toplevel)/proactor-bench/target/proactor-bench.jar jdk-nio2 --host 127.0.0.1 --port $port --threads 1 --delay-us 0 > ${OUT:-/tmp/win}/$name.server.log 2>&1 &
spid=$!
for i in $(seq 100); do grep -q listening ${OUT:-/tmp/win}/$name.server.log && break; sleep 0.2; done
E='syscalls:sys_enter_recvfrom,syscalls:sys_enter_read,syscalls:sys_enter_sendto,syscalls:sys_enter_write,syscalls:sys_enter_epoll_wait,syscalls:sys_enter_io_uring_enter'
taskset -c 1 $(git rev-parse --show-toplevel)/proactor-bench/target/native/loadgen --host 127.0.0.1 --port $port --sessions 100 --block 512 --window 4096 --seconds 8 --warmup 4 --threads 1 --server-pid $spid > ${OUT:-/tmp/win}/$name.loadgen.log 2>&1 &
lpid=$!
sleep 6
perf stat -e $E -p $lpid -o ${OUT:-/tmp/win}/$name.client.stat -- sleep 4 &
perf stat -e $E -p $spid -o ${OUT:-/tmp/win}/$name.server.stat -- sleep 4
wait $lpid
kill $spid; wait $spid 2>/dev/null
m=$(grep -o 'msgs_per_s=[0-9]*' ${OUT:-/tmp/win}/$name.loadgen.log | head -1 | cut -d= -f2)
[ -z "$m" ] && m=$(grep -o '[0-9]* msg/s' ${OUT:-/tmp/win}/$name.loadgen.log | head -1 | cut -d' ' -f1)
echo "== $name msgs/s $m"
for side in client server; do
  echo -n "  $side per msg:"; grep syscalls ${OUT:-/tmp/win}/$name.$side.stat | awk -v m=$m '{gsub(",","",$1); n=$1/(m*4); printf " %s=%.3f", $2, n}'; echo
done
