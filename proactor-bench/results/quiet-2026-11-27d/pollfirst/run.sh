#!/bin/bash
# io_uring at 1 000 ping-pong sessions: the default (reads to the ring with POLL_FIRST), reads without POLL_FIRST,
# owner mode, and Netty io_uring, alternated rounds. Usage: run.sh ROUNDS [SESSIONS]
cd "$(git rev-parse --show-toplevel)"
O=proactor-bench/results/quiet-2026-11-27d/pollfirst; T=proactor-bench/results/quiet-2026-11-26b/io_uring-1000/tools
S=${2:-1000}
J="java -Xms1g -Xmx1g -Dproactor.engine=io_uring -jar examples/target/proactor-examples.jar echo-server --port PORT --threads 1"
N="java -Xms1g -Xmx1g -jar proactor-bench/target/proactor-bench.jar netty-io_uring --port PORT --threads 1"
AB_LOG=$O/ab-$S.log $T/ab.sh ${1:-4} $S 0 "default=$J" "nopollfirst=${J/-jar/-Dproactor.uring.pollFirst=false -jar}" \
  "owner=${J/-jar/-Dproactor.leader=owner -jar}" "netty=$N"
python3 $T/ab-summary.py $O/ab-$S.log
