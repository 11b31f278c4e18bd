#!/bin/bash
# Session 19: does the per-session buffer's size move the io_uring engine's CPU per message at 1 000 ping-pong
# sessions (the kernel's copies into and out of 1 000 buffers 16 KiB apart)? ROUNDS alternated rounds (default 3)
# of our echo server with --buffer 16384 (its default) and --buffer 1024, and Netty's io_uring transport (pooled
# buffers) for reference; session 18's ab.sh. Run from the repository root after mvn package, nothing else running.
R=proactor-bench/results/quiet-2026-11-27b
AB=proactor-bench/results/quiet-2026-11-27/cpu-ab
E="java -Xms1g -Xmx1g -Dproactor.engine=io_uring -jar examples/target/proactor-examples.jar echo-server --port PORT --threads 1"
AB_LOG=$R/buffer-ab.log $AB/ab.sh "${ROUNDS:-3}" 1000 0 \
  "io_uring-16k=$E --buffer 16384" \
  "io_uring-1k=$E --buffer 1024" \
  "netty-io_uring=java -Xms1g -Xmx1g -jar proactor-bench/target/proactor-bench.jar netty-io_uring --port PORT --threads 1"
python3 $AB/summary.py $R/buffer-ab.log
