#!/bin/bash
# usage: [O=dir] [JAR=proactor-bench.jar] tls-rounds.sh [ROUNDS]
# The tls-echo matrix (this project's TlsChannel and Netty's SslHandler on nio and epoll, 8 blocks in flight and
# ping-pong, 100 sessions of 1 KiB; every server warmed up, runs interleaved) ROUNDS times (default 3), nothing else
# running. From the repository root after `mvn -B package -DskipTests`. Each round writes O/rN/ (tls-echo.md,
# tls-echo.csv, tls-echo-runs.csv) and appends its table lines to O/summary.txt; ratios over the rounds:
# python3 proactor-bench/scripts/tls-ratios.py O/r1 O/r2 ... Measured: results/2026-11-27-tls-interleaved/.
O=${O:-proactor-bench/raw/tls-rounds}
JAR=${JAR:-proactor-bench/target/proactor-bench.jar}
mkdir -p "$O"
for r in $(seq ${1:-3}); do
  java -jar "$JAR" tls-echo --runs 2 --seconds 6 --warmup 3 --client-warmup 6 --out $O/r$r > $O/r$r.log 2>&1
  grep "^| proactor-tls\|^| netty" $O/r$r/tls-echo.md | sed "s/^/r$r /" | tee -a $O/summary.txt
done
