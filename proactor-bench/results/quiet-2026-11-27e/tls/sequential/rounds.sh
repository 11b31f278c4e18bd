#!/bin/bash
# Session 22, before the runs were interleaved (--server-warmup added, each server still measured after the
# other): session 21's TLS rounds (tls-echo, ours and Netty's SslHandler on nio and epoll, windowed and ping-pong,
# 100 sessions of 1 KiB) again, each server warmed up before its first run (--server-warmup, default 10 s), ROUNDS
# times, nothing else running. From the repository root after mvn package.
O=proactor-bench/results/quiet-2026-11-27e/tls/sequential
for r in $(seq ${1:-3}); do
  java -jar proactor-bench/target/proactor-bench.jar tls-echo --runs 2 --seconds 6 --warmup 3 --client-warmup 6 \
    --out $O/r$r > $O/r$r.log 2>&1
  grep "^| proactor-tls\|^| netty" $O/r$r/tls-echo.md | sed "s/^/r$r /" | tee -a $O/summary.txt
done
