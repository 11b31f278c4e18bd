#!/bin/bash
# Session 19: why the NIO.2 echo on our epoll engine leaves its core idle at 100 ping-pong sessions (90.8 % against
# the JDK provider's 95 % in nio2-s100.log): session 16's sc.sh (system calls, context switches, CPU per message,
# perf stat for 4 s inside the measurement) for the JDK's provider, ours on epoll, and our raw echo server on epoll.
R=proactor-bench/results/quiet-2026-11-27b
SC=proactor-bench/results/quiet-2026-11-26f/syscalls-1000/sc.sh
J="-jar proactor-bench/target/proactor-bench.jar jdk-nio2 --port PORT --threads 1"
N2=-Djava.nio.channels.spi.AsynchronousChannelProvider=dev.proactor.nio2.ProactorAsynchronousChannelProvider
export OUT=$R/nio2-epoll-sc
for r in $(seq "${ROUNDS:-2}"); do
  $SC jdk-nio2-$r 100 0 512 java -Xms1g -Xmx1g $J
  $SC nio2-epoll-$r 100 0 512 java -Xms1g -Xmx1g $N2 -Dproactor.engine=epoll $J
  $SC raw-epoll-$r 100 0 512 java -Xms1g -Xmx1g -Dproactor.engine=epoll -jar examples/target/proactor-examples.jar echo-server --port PORT --threads 1
done 2>&1 | tee -a $R/nio2-epoll-sc.txt
