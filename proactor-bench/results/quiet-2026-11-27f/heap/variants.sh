#!/bin/bash
# Session 23: the heap-buffer echo server on io_uring in ROUNDS alternated rounds (default 8), 1 000 ping-pong
# sessions of 512 B: with the provided-buffer ring and the send blocks (default), the ring only (sendBlocks=0),
# neither (the poll-then-system-call paths of before). The send blocks ("both") need heap-ring.patch (they were
# dropped: no gain); on main, sendBlocks is ignored and "both" runs as "readring". From the repository root after
# mvn package.
cd "$(git rev-parse --show-toplevel)"
E="java -Xms1g -Xmx1g -Dproactor.engine=io_uring -jar examples/target/proactor-examples.jar echo-server --port PORT --threads 1 --heap"
AB=proactor-bench/results/quiet-2026-11-27/cpu-ab; L=${L:-proactor-bench/results/quiet-2026-11-27f/heap/variants.log}
AB_LOG=$L $AB/ab.sh ${ROUNDS:-8} ${SESSIONS:-1000} 0 "both=$E" "readring=${E/-jar/-Dproactor.uring.sendBlocks=0 -jar}" \
  "neither=${E/-jar/-Dproactor.uring.providedBuffers=0 -Dproactor.uring.sendBlocks=0 -jar}" "$@"
python3 $AB/summary.py $L; python3 proactor-bench/results/quiet-2026-11-27d/nio2/ratios.py $L neither
