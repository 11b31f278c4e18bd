#!/bin/bash
# Session 20: at 1 000 ping-pong sessions our io_uring engine (shared leader) reaps 35-333 completions per
# io_uring_enter and its replies leave in bursts (session 19). Does a limit on the completions one leader turn
# takes (-Dproactor.uring.turnLimit, the rest stay in the completion queue for the next turn, after the replies
# of these are submitted) smooth it? ROUNDS alternated rounds (default 3) under sc.sh: no limit, LIMITS (default
# "16 64"), and Netty's io_uring transport.
# The limit was an experiment, not kept: apply uring-cap/turn-limit.patch (to 28db768) and rebuild first.
R=proactor-bench/results/quiet-2026-11-27c
SC=proactor-bench/results/quiet-2026-11-26f/syscalls-1000/sc.sh
E="-jar examples/target/proactor-examples.jar echo-server --port PORT --threads 1"
export OUT=$R/uring-cap
for r in $(seq "${ROUNDS:-3}"); do
  $SC nolimit-$r 1000 0 512 java -Xms1g -Xmx1g -Dproactor.engine=io_uring $E
  for l in ${LIMITS:-16 64}; do
    $SC limit$l-$r 1000 0 512 java -Xms1g -Xmx1g -Dproactor.engine=io_uring -Dproactor.uring.turnLimit=$l $E
  done
  $SC netty-$r 1000 0 512 java -Xms1g -Xmx1g -jar proactor-bench/target/proactor-bench.jar netty-io_uring --port PORT --threads 1
done 2>&1 | tee -a $R/uring-cap.txt
