#!/bin/bash
# The io_uring engine before and after the POLL_FIRST change, Netty io_uring and the C io_uring server on one row,
# alternated rounds, CPU per message (session 18's ab.sh). Usage: [BLOCK=512] ab-rows.sh BEFORE_EXAMPLES_JAR ROUNDS SESSIONS WINDOW_BYTES
cd "$(git rev-parse --show-toplevel)"
O=proactor-bench/results/quiet-2026-11-27d/pollfirst; AB=proactor-bench/results/quiet-2026-11-27/cpu-ab
J="java -Xms1g -Xmx1g -Dproactor.engine=io_uring -jar examples/target/proactor-examples.jar echo-server --port PORT --threads 1"
N="java -Xms1g -Xmx1g -jar proactor-bench/target/proactor-bench.jar netty-io_uring --port PORT --threads 1"
C="proactor-bench/target/native/uring_echo --port PORT --threads 1"
log=$O/rows-$3-$4-b${BLOCK:-512}.log
AB_LOG=$log $AB/ab.sh $2 $3 $4 "before=${J/examples\/target\/proactor-examples.jar/$1}" "after=$J" "netty=$N" "c-io_uring=$C"
python3 $AB/summary.py $log
python3 proactor-bench/results/quiet-2026-11-27d/nio2/ratios.py $log netty
