#!/bin/bash
# The io_uring engine before and after "POLL_FIRST only after a try found the socket empty", with Netty io_uring,
# alternated rounds. Usage: ab-jar.sh BEFORE_EXAMPLES_JAR ROUNDS SESSIONS WINDOW_BYTES
cd "$(git rev-parse --show-toplevel)"
O=proactor-bench/results/quiet-2026-11-27d/pollfirst; T=proactor-bench/results/quiet-2026-11-26b/io_uring-1000/tools
B=$1; R=$2; S=$3; W=$4
J="java -Xms1g -Xmx1g -Dproactor.engine=io_uring -jar examples/target/proactor-examples.jar echo-server --port PORT --threads 1"
N="java -Xms1g -Xmx1g -jar proactor-bench/target/proactor-bench.jar netty-io_uring --port PORT --threads 1"
AB_LOG=$O/jar-$S-$W.log $T/ab.sh $R $S $W "before=${J/examples\/target\/proactor-examples.jar/$B}" "after=$J" "netty=$N"
python3 $T/ab-summary.py $O/jar-$S-$W.log
