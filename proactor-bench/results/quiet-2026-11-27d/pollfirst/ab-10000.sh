#!/bin/bash
# 10 000 ping-pong sessions: the io_uring engine before and after the POLL_FIRST change, Netty io_uring and the C
# io_uring server, alternated rounds. Usage: ab-10000.sh BEFORE_EXAMPLES_JAR ROUNDS
cd "$(git rev-parse --show-toplevel)"
O=proactor-bench/results/quiet-2026-11-27d/pollfirst; T=proactor-bench/results/quiet-2026-11-26b/io_uring-1000/tools
J="java -Xms1g -Xmx1g -Dproactor.engine=io_uring -jar examples/target/proactor-examples.jar echo-server --port PORT --threads 1"
N="java -Xms1g -Xmx1g -jar proactor-bench/target/proactor-bench.jar netty-io_uring --port PORT --threads 1"
C="proactor-bench/target/native/uring_echo --port PORT --threads 1"
AB_LOG=$O/jar-10000-0.log $T/ab.sh $2 10000 0 "before=${J/examples\/target\/proactor-examples.jar/$1}" "after=$J" \
  "netty=$N" "c-io_uring=$C"
python3 $T/ab-summary.py $O/jar-10000-0.log
