#!/bin/bash
# Session 23: system calls per message of the heap-buffer echo server on io_uring: with the provided-buffer ring and
# the send blocks (default), with the ring only (sendBlocks=0), with neither; 1 000 ping-pong sessions of 512 B,
# ROUNDS alternated (default 2); the send blocks need heap-ring.patch (dropped: no gain);
# session 19's sc.sh (perf stat). From the repository root after mvn package; needs perf.
cd "$(git rev-parse --show-toplevel)"
SC=proactor-bench/results/quiet-2026-11-26f/syscalls-1000/sc.sh
export OUT=proactor-bench/results/quiet-2026-11-27f/heap/sc
E="java -Xms1g -Xmx1g -Dproactor.engine=io_uring -jar examples/target/proactor-examples.jar echo-server --port PORT --threads 1 --heap"
for r in $(seq ${ROUNDS:-2}); do  # each run prints its figures per message
  $SC both-$r 1000 0 512 $E
  $SC readring-$r 1000 0 512 ${E/-jar/-Dproactor.uring.sendBlocks=0 -jar}
  $SC neither-$r 1000 0 512 ${E/-jar/-Dproactor.uring.providedBuffers=0 -Dproactor.uring.sendBlocks=0 -jar}
done
