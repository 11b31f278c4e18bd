#!/bin/bash
# Session 21: the tls-echo matrix (ours and Netty's SslHandler on nio and epoll, windowed and ping-pong, 100 sessions
# of 1 KiB) ROUNDS times with the current jar, nothing else running. From the repository root after mvn package.
# O (the output directory) may be given in the environment; session 22's rounds run this script with their own.
O=${O:-proactor-bench/results/quiet-2026-11-27d/tls}
for r in $(seq ${1:-3}); do
  java -jar proactor-bench/target/proactor-bench.jar tls-echo --runs 2 --seconds 6 --warmup 3 --client-warmup 6 \
    --out $O/r$r > $O/r$r.log 2>&1
  grep "^| proactor-tls\|^| netty" $O/r$r/tls-echo.md | sed "s/^/r$r /" | tee -a $O/summary.txt
done
