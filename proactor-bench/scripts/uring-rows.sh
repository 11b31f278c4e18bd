#!/bin/bash
# Session 22: the two rows where session 21's matrix had the io_uring engine under Netty's io_uring (1 000 × 512 B
# ping-pong 0.94, 100 × 8 KiB ping-pong 0.98, three runs per server) in more alternated rounds of our io_uring
# engine (shared ring, the default), Netty io_uring and the C io_uring server, CPU per message (session 18's ab.sh).
# Usage: rows.sh [ROUNDS]; from the repository root after mvn package, nothing else running.
cd "$(git rev-parse --show-toplevel)"
O=proactor-bench/results/quiet-2026-11-27e/uring; AB=proactor-bench/results/quiet-2026-11-27/cpu-ab
J="java -Xms1g -Xmx1g -Dproactor.engine=io_uring -jar examples/target/proactor-examples.jar echo-server --port PORT --threads 1"
N="java -Xms1g -Xmx1g -jar proactor-bench/target/proactor-bench.jar netty-io_uring --port PORT --threads 1"
C="proactor-bench/target/native/uring_echo --port PORT --threads 1"
for row in "1000 0 512" "100 0 8192"; do
  set -- $row
  log=$O/rows-$1-$2-b$3.log
  BLOCK=$3 AB_LOG=$log $AB/ab.sh ${ROUNDS:-8} $1 $2 "ours=$J" "netty=$N" "c-io_uring=$C"
  python3 $AB/summary.py $log
  python3 proactor-bench/results/quiet-2026-11-27d/nio2/ratios.py $log netty
done
