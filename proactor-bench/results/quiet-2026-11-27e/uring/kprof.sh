#!/bin/bash
# Session 22: where the extra kernel time per message of our io_uring engine goes at 1 000 ping-pong sessions, against
# Netty io_uring, since the POLL_FIRST change: perf record of the server for 4 s inside the measurement (session 19's
# sc.sh with RECORD=1; kernel and user, self time by symbol in OUT/NAME.top.txt), then perf stat (system calls per
# message) in the same alternated order. From the repository root after mvn package; needs perf.
cd "$(git rev-parse --show-toplevel)"
SC=proactor-bench/results/quiet-2026-11-26f/syscalls-1000/sc.sh
export OUT=proactor-bench/results/quiet-2026-11-27e/uring/kprof
J="java -Xms1g -Xmx1g -Dproactor.engine=io_uring -jar examples/target/proactor-examples.jar echo-server --port PORT --threads 1"
N="java -Xms1g -Xmx1g -jar proactor-bench/target/proactor-bench.jar netty-io_uring --port PORT --threads 1"
for r in 1 2; do
  RECORD=1 $SC ours-$r 1000 0 512 $J
  RECORD=1 $SC netty-$r 1000 0 512 $N
done
for r in 1 2; do
  $SC ours-stat-$r 1000 0 512 $J
  $SC netty-stat-$r 1000 0 512 $N
done
