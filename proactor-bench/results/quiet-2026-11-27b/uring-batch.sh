#!/bin/bash
# Session 19: at 1 000 ping-pong sessions our io_uring engine (shared leader, tryFirst=auto) reaps 35-100 completions
# per io_uring_enter and the load generator idles (76-83 % of its core, 91-94 % with Netty's io_uring): is it the
# batching? ROUNDS alternated rounds (default 3) under sc.sh of the default, tryFirst=true (every start tried with a
# system call at once, no batching), owner mode, and Netty's io_uring transport.
R=proactor-bench/results/quiet-2026-11-27b
SC=proactor-bench/results/quiet-2026-11-26f/syscalls-1000/sc.sh
E="-jar examples/target/proactor-examples.jar echo-server --port PORT --threads 1"
export OUT=$R/uring-batch
for r in $(seq "${ROUNDS:-3}"); do
  $SC auto-$r 1000 0 512 java -Xms1g -Xmx1g -Dproactor.engine=io_uring $E
  $SC tryfirst-$r 1000 0 512 java -Xms1g -Xmx1g -Dproactor.engine=io_uring -Dproactor.uring.tryFirst=true $E
  $SC owner-$r 1000 0 512 java -Xms1g -Xmx1g -Dproactor.engine=io_uring -Dproactor.leader=owner $E
  $SC netty-$r 1000 0 512 java -Xms1g -Xmx1g -jar proactor-bench/target/proactor-bench.jar netty-io_uring --port PORT --threads 1
done 2>&1 | tee -a $R/uring-batch.txt
