#!/bin/bash
# Session 23, the figure quoted in README and RESULTS.md: the heap-buffer echo server on io_uring with the
# provided-buffer ring (default) against the poll-then-recv path (providedBuffers=0), ROUNDS alternated rounds
# (default 12), 1 000 ping-pong sessions of 512 B. From the repository root after mvn package.
cd "$(git rev-parse --show-toplevel)"
E="java -Xms1g -Xmx1g -Dproactor.engine=io_uring -jar examples/target/proactor-examples.jar echo-server --port PORT --threads 1 --heap"
AB=proactor-bench/results/quiet-2026-11-27/cpu-ab; L=${L:-proactor-bench/results/quiet-2026-11-27f/heap/readring-ab.log}
AB_LOG=$L $AB/ab.sh ${ROUNDS:-12} ${SESSIONS:-1000} 0 "readring=$E" "neither=${E/-jar/-Dproactor.uring.providedBuffers=0 -jar}"
python3 $AB/summary.py $L; python3 proactor-bench/results/quiet-2026-11-27d/nio2/ratios.py $L neither
