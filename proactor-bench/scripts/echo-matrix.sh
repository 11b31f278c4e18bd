#!/usr/bin/env bash
# Session 21's quiet run of every engine and peer (both C limits), the rows of the native-speed issue (session 17's
# run.sh without the NIO.2 servers, which nio2/nio2-all.sh measured in alternated rounds). Run from the repository
# root after `mvn package`, with nothing else on the machine. About 45 minutes.
set -euo pipefail
O=proactor-bench/results/quiet-2026-11-27d/matrix
M="java -jar proactor-bench/target/proactor-bench.jar matrix --runs 3 --seconds 5 --warmup 3"
S=proactor-nio-epoll,proactor-epoll,proactor-io_uring,proactor-io_uring-owner,proactor-linux-aio,netty-nio,netty-epoll,netty-io_uring,jdk-nio2,tp-reactor,c-epoll,c-io_uring
$M --servers $S --sessions 1 --block 512 --window 2x --out $O/s1-b512-w2
$M --servers $S --sessions 100 --block 8192 --window 0 --out $O/s100-b8192-pingpong
$M --servers $S --sessions 100 --block 1024 --window 0 --out $O/s100-b1024-pingpong
$M --servers $S --sessions 100 --block 512 --window 8x --out $O/s100-b512-w8
$M --servers $S --sessions 1000 --block 512 --window 0 --out $O/s1000-pingpong
$M --servers proactor-nio-epoll,proactor-epoll,proactor-io_uring,proactor-io_uring-owner,netty-io_uring,c-epoll,c-io_uring \
  --sessions 10000 --block 512 --window 0 --ready-timeout 60 --out $O/s10000-pingpong
