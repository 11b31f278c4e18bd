#!/bin/bash
# Session 19: the NIO.2 echo program at 100 ping-pong sessions of 512 B, the JDK's provider against ours on epoll and
# io_uring, ROUNDS alternated rounds (default 8), CPU per message logged; session 18's ab.sh and summary.py.
# Run from the repository root after mvn package, with nothing else on the machine (about 40 s per round).
R=proactor-bench/results/quiet-2026-11-27b
AB=proactor-bench/results/quiet-2026-11-27/cpu-ab
J="-jar proactor-bench/target/proactor-bench.jar jdk-nio2 --port PORT --threads 1"
N2=-Djava.nio.channels.spi.AsynchronousChannelProvider=dev.proactor.nio2.ProactorAsynchronousChannelProvider
AB_LOG=$R/nio2-s100.log $AB/ab.sh "${ROUNDS:-8}" 100 0 \
  "jdk-nio2=java -Xms1g -Xmx1g $J" \
  "nio2-on-proactor-epoll=java -Xms1g -Xmx1g $N2 -Dproactor.engine=epoll $J" \
  "nio2-on-proactor-io_uring=java -Xms1g -Xmx1g $N2 -Dproactor.engine=io_uring $J"
python3 $AB/summary.py $R/nio2-s100.log
