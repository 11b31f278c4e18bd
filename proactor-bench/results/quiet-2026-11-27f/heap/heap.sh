#!/bin/bash
# Session 23: the echo server with each connection's buffer on the Java heap (--heap, as NIO.2 and servlet programs
# keep theirs) against the same server with direct buffers, on io_uring (and epoll), with Netty io_uring as the
# reference; SESSIONS ping-pong sessions of 512 B (default 1 000), ROUNDS alternated rounds (default 3). Extra
# servers "name=cmd" may be given as arguments. From the repository root after mvn package.
cd "$(git rev-parse --show-toplevel)"
E="java -Xms1g -Xmx1g ${JOPTS:-} -jar examples/target/proactor-examples.jar echo-server --port PORT --threads 1"
N="java -Xms1g -Xmx1g -jar proactor-bench/target/proactor-bench.jar netty-io_uring --port PORT --threads 1"
AB=proactor-bench/results/quiet-2026-11-27/cpu-ab; L=${L:-proactor-bench/results/quiet-2026-11-27f/heap/heap.log}
AB_LOG=$L $AB/ab.sh ${ROUNDS:-3} ${SESSIONS:-1000} 0 \
  "uring-direct=${E/-jar/-Dproactor.engine=io_uring -jar}" \
  "uring-heap=${E/-jar/-Dproactor.engine=io_uring -jar} --heap" \
  "epoll-heap=${E/-jar/-Dproactor.engine=epoll -jar} --heap" \
  "netty=$N" "$@"
python3 $AB/summary.py $L; python3 proactor-bench/results/quiet-2026-11-27d/nio2/ratios.py $L netty
