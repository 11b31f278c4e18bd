#!/bin/bash
# Syscalls per echoed message at 1000 sessions x 512 B ping-pong, server on CPU 0, loadgen on CPU 1.
cd /work/main
J=/usr/lib/jvm/java-17-openjdk-amd64/bin/java
LG=proactor-bench/target/native/loadgen
run() { # name port cmd...
  name=$1; port=$2; shift 2
  taskset -c 0 "$@" > /tmp/sc-$name.server.log 2>&1 &
  pid=$!
  sleep 3
  taskset -c 1 $LG --host 127.0.0.1 --port $port --sessions 1000 --block 512 --window 0 --seconds 8 --warmup 3 --threads 1 --ready-timeout 60 --server-pid $pid > /tmp/sc-$name.lg.log 2>&1 &
  lg=$!
  sleep 6   # connect + warm-up
  perf stat -e raw_syscalls:sys_enter,syscalls:sys_enter_read,syscalls:sys_enter_write,syscalls:sys_enter_recvfrom,syscalls:sys_enter_sendto,syscalls:sys_enter_epoll_wait,syscalls:sys_enter_epoll_pwait,syscalls:sys_enter_epoll_ctl,syscalls:sys_enter_io_uring_enter,syscalls:sys_enter_futex -p $pid -x, -o /tmp/sc-$name.perf -- sleep 4
  wait $lg
  kill $pid; wait $pid 2>/dev/null
  echo "== $name $(grep -o 'msgs_per_s=[0-9.]*' /tmp/sc-$name.lg.log | head -1)"; grep sys_enter /tmp/sc-$name.perf | cut -d, -f1,3
}
run proactor-epoll 41001 $J -Xms1g -Xmx1g -Dproactor.engine=epoll -jar examples/target/proactor-examples.jar echo-server --port 41001 --threads 1
run proactor-nio 41002 $J -Xms1g -Xmx1g -Dproactor.engine=nio -Dproactor.waitStrategy=epoll -jar examples/target/proactor-examples.jar echo-server --port 41002 --threads 1
run proactor-io_uring 41003 $J -Xms1g -Xmx1g -Dproactor.engine=io_uring -jar examples/target/proactor-examples.jar echo-server --port 41003 --threads 1
run tp-reactor 41004 $J -Xms1g -Xmx1g -jar proactor-bench/target/proactor-bench.jar tp-reactor --host 127.0.0.1 --port 41004 --threads 1
run netty-epoll 41005 $J -Xms1g -Xmx1g -jar proactor-bench/target/proactor-bench.jar netty-epoll --host 127.0.0.1 --port 41005 --threads 1
