#!/bin/bash
# Session 18: server CPU per message split into user mode and kernel, 1 000 ping-pong sessions of 512 B, every
# socket interface's C server, the plain JDK NIO reactor, Netty and our engine on it; three alternated rounds.
# Run from the repository root after mvn package, with nothing else on the machine (about 5 minutes).
R=proactor-bench/results/quiet-2026-11-27/cpu-ab
B="java -Xms1g -Xmx1g -jar proactor-bench/target/proactor-bench.jar"
E="-jar examples/target/proactor-examples.jar echo-server --port PORT --threads 1"
AB_LOG=$R/s1000.log $R/ab.sh 3 1000 0 \
  "c-epoll=proactor-bench/target/native/epoll_echo --port PORT --threads 1" \
  "tp-reactor=$B tp-reactor --port PORT --threads 1" \
  "netty-epoll=$B netty-epoll --port PORT --threads 1" \
  "proactor-epoll=java -Xms1g -Xmx1g -Dproactor.engine=epoll $E" \
  "c-io_uring=proactor-bench/target/native/uring_echo --port PORT --threads 1" \
  "netty-io_uring=$B netty-io_uring --port PORT --threads 1" \
  "proactor-io_uring=java -Xms1g -Xmx1g -Dproactor.engine=io_uring $E"
python3 $R/summary.py $R/s1000.log
