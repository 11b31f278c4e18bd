#!/bin/bash
# Session 22: the TLS rounds (tls-echo, ours and Netty's SslHandler on nio and epoll, windowed and ping-pong,
# 100 sessions of 1 KiB) with every server started at once, warmed up (--server-warmup, default 10 s) and measured
# in interleaved runs (each run: every server in turn, reversed in even runs), ROUNDS times, nothing else running.
# From the repository root after mvn package.
# The same command as session 21 (its script), with this output directory.
O=proactor-bench/results/quiet-2026-11-27e/tls proactor-bench/results/quiet-2026-11-27d/tls/rounds.sh "$@"
# Rounds 1-3 ran with the jar before client_reads_per_msg, round 4 (the same command, tls/r4) with it.
