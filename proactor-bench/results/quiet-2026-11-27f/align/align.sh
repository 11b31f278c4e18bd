#!/bin/bash
# Session 23: does the alignment of the per-session read buffer change our io_uring echo server's cost at 1 000
# ping-pong sessions? Session 22's kernel profile found _copy_from_iter / _copy_to_iter at 3.0 / 2.6 % of our samples
# against Netty's 1.1 / 1.6 (Netty's pooled buffers sit at aligned offsets in their chunk; ours come from malloc,
# 16-byte aligned). Alternated rounds: ours as is, ours with page-aligned direct buffers (the JDK's
# sun.nio.PageAlignDirectMemory), Netty io_uring. From the repository root after mvn package.
cd "$(git rev-parse --show-toplevel)"
J="java -Xms1g -Xmx1g -Dproactor.engine=io_uring ${JOPTS:-} -jar examples/target/proactor-examples.jar echo-server --port PORT --threads 1"
A="java -Xms1g -Xmx1g -Dproactor.engine=io_uring -Dsun.nio.PageAlignDirectMemory=true ${JOPTS:-} -jar examples/target/proactor-examples.jar echo-server --port PORT --threads 1"
N="java -Xms1g -Xmx1g -jar proactor-bench/target/proactor-bench.jar netty-io_uring --port PORT --threads 1"
AB=proactor-bench/results/quiet-2026-11-27/cpu-ab; L=${L:-proactor-bench/results/quiet-2026-11-27f/align/align.log}
AB_LOG=$L $AB/ab.sh ${ROUNDS:-4} ${SESSIONS:-1000} 0 "ours=$J" "ours-aligned=$A" "netty=$N"
python3 $AB/summary.py $L; python3 proactor-bench/results/quiet-2026-11-27d/nio2/ratios.py $L netty
