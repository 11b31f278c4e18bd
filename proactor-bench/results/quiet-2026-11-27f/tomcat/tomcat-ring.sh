#!/bin/bash
# usage: ROOT=dir-with-1k.bin tomcat-ring.sh [ROUNDS]
# Session 23: Tomcat's NIO2 connector (heap buffers) on our provider over io_uring, heap reads into the engine's
# provided-buffer ring (default) against the poll-then-recv path (proactor.uring.providedBuffers=0); ROUNDS (default
# 5) alternated rounds of session 13's tomcat-stat.sh (2 worker threads on CPU 0, wrk -c200 on CPU 1, 1 KiB file).
stat=$(dirname "$0")/../../quiet-2026-11-26e/tomcat-offload/tomcat-stat.sh
P="-Djava.nio.channels.spi.AsynchronousChannelProvider=dev.proactor.nio2.ProactorAsynchronousChannelProvider"
export OUT=$(dirname "$0")/runs
for r in $(seq "${1:-5}"); do
  "$stat" ring-$r $P -Dproactor.engine=io_uring
  "$stat" poll-$r $P -Dproactor.engine=io_uring -Dproactor.uring.providedBuffers=0
done
