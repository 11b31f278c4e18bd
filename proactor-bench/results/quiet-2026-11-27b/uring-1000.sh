#!/bin/bash
# Session 19: does the io_uring engine wait at 1 000 ping-pong sessions? ROUNDS alternated rounds (default 3) of the
# C io_uring server, Netty's io_uring transport and our io_uring engine (shared leader and owner mode), each under
# session 16's sc.sh: perf stat of the server's system calls, context switches and CPU for 4 s inside the measurement,
# printed per echoed message. Run from the repository root after mvn package, with nothing else on the machine.
R=proactor-bench/results/quiet-2026-11-27b
SC=proactor-bench/results/quiet-2026-11-26f/syscalls-1000/sc.sh
B="java -Xms1g -Xmx1g -jar proactor-bench/target/proactor-bench.jar"
E="-jar examples/target/proactor-examples.jar echo-server --port PORT --threads 1"
export OUT=$R/uring-1000
for r in $(seq "${ROUNDS:-3}"); do
  $SC c-io_uring-$r 1000 0 512 proactor-bench/target/native/uring_echo --port PORT --threads 1
  $SC netty-io_uring-$r 1000 0 512 $B netty-io_uring --port PORT --threads 1
  $SC proactor-io_uring-$r 1000 0 512 java -Xms1g -Xmx1g -Dproactor.engine=io_uring $E
  $SC proactor-io_uring-owner-$r 1000 0 512 java -Xms1g -Xmx1g -Dproactor.engine=io_uring -Dproactor.leader=owner $E
done 2>&1 | tee -a $R/uring-1000.txt
