#!/bin/bash
# Session 22: the TLS rounds (tls-echo, ours and Netty's SslHandler on nio and epoll, windowed and ping-pong,
# 100 sessions of 1 KiB) with every server started at once, warmed up (--server-warmup, default 10 s) and measured
# in interleaved runs (each run: every server in turn, reversed in even runs), ROUNDS times, nothing else running.
# From the repository root after mvn package.
O=proactor-bench/results/quiet-2026-11-27e/tls
for r in $(seq ${1:-3}); do
  java -jar proactor-bench/target/proactor-bench.jar tls-echo --runs 2 --seconds 6 --warmup 3 --client-warmup 6 \
    --out $O/r$r > $O/r$r.log 2>&1
  grep "^| proactor-tls\|^| netty" $O/r$r/tls-echo.md | sed "s/^/r$r /" | tee -a $O/summary.txt
done
# Rounds 1-3 ran with the jar before client_reads_per_msg, round 4 (the same command, $O/r4) with it.
