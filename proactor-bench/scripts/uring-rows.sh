#!/bin/bash
# usage: [ROUNDS=8] [OUT=dir] uring-rows.sh
# The io_uring rows against their peers in alternated rounds (ab.sh): our io_uring engine (shared ring, the default),
# Netty's io_uring transport and the C io_uring server at 1 000 ping-pong sessions of 512 B and at 100 ping-pong
# sessions of 8 KiB, CPU per message. From the repository root after `mvn -B package -DskipTests`, nothing else
# running. Measured: results/2026-11-27-uring-rows/.
here=$(cd "$(dirname "$0")" && pwd)
cd "$(git rev-parse --show-toplevel)"
out=${OUT:-proactor-bench/raw/uring-rows}; mkdir -p "$out"
J="java -Xms1g -Xmx1g -Dproactor.engine=io_uring -jar examples/target/proactor-examples.jar echo-server --port PORT --threads 1"
N="java -Xms1g -Xmx1g -jar proactor-bench/target/proactor-bench.jar netty-io_uring --port PORT --threads 1"
C="proactor-bench/target/native/uring_echo --port PORT --threads 1"
for row in "1000 0 512" "100 0 8192"; do
  set -- $row
  log=$out/rows-$1-$2-b$3.log
  BLOCK=$3 AB_LOG=$log "$here/ab.sh" "${ROUNDS:-8}" $1 $2 "ours=$J" "netty=$N" "c-io_uring=$C"
  python3 "$here/ab-summary.py" "$log"
  python3 "$here/ab-ratios.py" "$log" netty
done
