#!/usr/bin/env bash
# usage: echo-matrix.sh [OUT]   (OUT: output directory, default proactor-bench/raw/echo-matrix)
# The echo matrix of record: every engine of ours against Netty (nio, epoll, io_uring), the JDK's NIO.2, the plain
# JDK NIO reactor and both C limit servers, six rows (1 × 2 blocks in flight; 100 × 8 KiB, 1 KiB ping-pong; 100 × 8
# blocks in flight; 1 000 and 10 000 ping-pong), three runs of each server per row. From the repository root after
# `mvn -B package -DskipTests`, with nothing else on the machine; about 45 minutes. Each row writes results.md,
# results.csv, charts and logs under OUT; copy the CSVs and a summary into results/<date-topic>/ (see
# results/2026-11-27-echo-matrix/).
set -euo pipefail
O=${1:-proactor-bench/raw/echo-matrix}
M="java -jar proactor-bench/target/proactor-bench.jar matrix --runs 3 --seconds 5 --warmup 3"
S=proactor-nio-epoll,proactor-epoll,proactor-io_uring,proactor-io_uring-owner,proactor-linux-aio,netty-nio,netty-epoll,netty-io_uring,jdk-nio2,tp-reactor,c-epoll,c-io_uring
$M --servers $S --sessions 1 --block 512 --window 2x --out $O/s1-b512-w2
$M --servers $S --sessions 100 --block 8192 --window 0 --out $O/s100-b8192-pingpong
$M --servers $S --sessions 100 --block 1024 --window 0 --out $O/s100-b1024-pingpong
$M --servers $S --sessions 100 --block 512 --window 8x --out $O/s100-b512-w8
$M --servers $S --sessions 1000 --block 512 --window 0 --out $O/s1000-pingpong
$M --servers proactor-nio-epoll,proactor-epoll,proactor-io_uring,proactor-io_uring-owner,netty-io_uring,c-epoll,c-io_uring \
  --sessions 10000 --block 512 --window 0 --ready-timeout 60 --out $O/s10000-pingpong
