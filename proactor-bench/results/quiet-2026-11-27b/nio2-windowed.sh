#!/bin/bash
# Session 19: the NIO.2 echo program's windowed row (100 sessions, 8 blocks of 512 B in flight each), the JDK's
# provider against ours on epoll and io_uring, ROUNDS alternated rounds (default 4); session 18's ab.sh.
R=proactor-bench/results/quiet-2026-11-27b
AB=proactor-bench/results/quiet-2026-11-27/cpu-ab
J="-jar proactor-bench/target/proactor-bench.jar jdk-nio2 --port PORT --threads 1"
N2=-Djava.nio.channels.spi.AsynchronousChannelProvider=dev.proactor.nio2.ProactorAsynchronousChannelProvider
AB_LOG=$R/nio2-s100-w8.log $AB/ab.sh "${ROUNDS:-4}" 100 4096 \
  "jdk-nio2=java -Xms1g -Xmx1g $J" \
  "nio2-on-proactor-epoll=java -Xms1g -Xmx1g $N2 -Dproactor.engine=epoll $J" \
  "nio2-on-proactor-io_uring=java -Xms1g -Xmx1g $N2 -Dproactor.engine=io_uring $J"
python3 $AB/summary.py $R/nio2-s100-w8.log
