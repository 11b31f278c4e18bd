#!/bin/bash
# Session 22, before the runs were interleaved (--server-warmup added, each server still measured after the
# other): session 21's TLS rounds (tls-echo, ours and Netty's SslHandler on nio and epoll, windowed and ping-pong,
# 100 sessions of 1 KiB) again, each server warmed up before its first run (--server-warmup, default 10 s), ROUNDS
# times, nothing else running. From the repository root after mvn package.
# The same command as session 21 (its script), with this output directory.
O=proactor-bench/results/quiet-2026-11-27e/tls/sequential proactor-bench/results/quiet-2026-11-27d/tls/rounds.sh "$@"
