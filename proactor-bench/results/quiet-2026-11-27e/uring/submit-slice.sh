#!/bin/bash
# Session 22, a throw-away A/B: submit-slice.patch (apply it, mvn package) makes a pool thread submit the entries
# written so far, without waiting, once 32 or more wait (-Dproactor.uring.submitSlice=32), so that the replies of a
# long leader turn leave in slices instead of at the turn's end. Six alternated rounds at 1 000 sessions against the
# unpatched default and Netty io_uring (session 18's ab.sh). Did not help; the patch was not kept.
cd "$(git rev-parse --show-toplevel)"
J="java -Xms1g -Xmx1g -Dproactor.engine=io_uring -jar examples/target/proactor-examples.jar echo-server --port PORT --threads 1"
JS="java -Xms1g -Xmx1g -Dproactor.engine=io_uring -Dproactor.uring.submitSlice=32 -jar examples/target/proactor-examples.jar echo-server --port PORT --threads 1"
N="java -Xms1g -Xmx1g -jar proactor-bench/target/proactor-bench.jar netty-io_uring --port PORT --threads 1"
AB=proactor-bench/results/quiet-2026-11-27/cpu-ab
AB_LOG=proactor-bench/results/quiet-2026-11-27e/uring/submit-slice.log $AB/ab.sh 6 1000 0 "ours=$J" "slice32=$JS" "netty=$N"
python3 $AB/summary.py proactor-bench/results/quiet-2026-11-27e/uring/submit-slice.log
