#!/bin/bash
# Session 21: the unchanged NIO.2 echo program on the JDK's provider and on ours over all four engines, issue 18's
# three rows (1 000 and 100 ping-pong sessions, 100 sessions x 8 blocks of 512 B), ROUNDS alternated rounds each
# (default 4), CPU per message and p99.9 logged (session 18's ab.sh). From the repository root after mvn package,
# with nothing else on the machine (about 75 s per round and row).
R=proactor-bench/results/quiet-2026-11-27d/nio2
AB=proactor-bench/results/quiet-2026-11-27/cpu-ab
J="-jar proactor-bench/target/proactor-bench.jar jdk-nio2 --port PORT --threads 1"
N2=-Djava.nio.channels.spi.AsynchronousChannelProvider=dev.proactor.nio2.ProactorAsynchronousChannelProvider
for row in "${@:-1000 0}"; do
  set -- $row
  log=$R/nio2-s$1-w$2.log
  AB_LOG=$log $AB/ab.sh "${ROUNDS:-4}" $1 $2 \
    "jdk=java -Xms1g -Xmx1g $J" \
    "nio=java -Xms1g -Xmx1g $N2 -Dproactor.engine=nio $J" \
    "epoll=java -Xms1g -Xmx1g $N2 -Dproactor.engine=epoll $J" \
    "io_uring=java -Xms1g -Xmx1g $N2 -Dproactor.engine=io_uring $J" \
    "linux-aio=java -Xms1g -Xmx1g $N2 -Dproactor.engine=linux-aio $J"
  python3 $AB/summary.py $log
  python3 $R/ratios.py $log jdk
done
