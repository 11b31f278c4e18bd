#!/bin/bash
# Session 22: does the per-session read buffer's size change our io_uring echo server's kernel copy cost at 1 000
# ping-pong sessions (kprof.sh: _copy_from_iter / _copy_to_iter 3.0 / 2.6 % of its samples against Netty's 1.1 / 1.6,
# whose pooled buffers are reused)? Four alternated rounds, 16 KiB (default) and 1 KiB buffers, Netty io_uring.
cd "$(git rev-parse --show-toplevel)"
J="java -Xms1g -Xmx1g -Dproactor.engine=io_uring -jar examples/target/proactor-examples.jar echo-server --port PORT --threads 1"
N="java -Xms1g -Xmx1g -jar proactor-bench/target/proactor-bench.jar netty-io_uring --port PORT --threads 1"
AB=proactor-bench/results/quiet-2026-11-27/cpu-ab; L=proactor-bench/results/quiet-2026-11-27e/uring/buffer.log
AB_LOG=$L $AB/ab.sh ${ROUNDS:-4} 1000 0 "ours-16k=$J" "ours-1k=$J --buffer 1024" "netty=$N"
python3 $AB/summary.py $L; python3 proactor-bench/results/quiet-2026-11-27d/nio2/ratios.py $L netty
