#!/bin/bash
# usage: [SESSIONS=1000] [BLOCK=512] [OUT=proactor-bench/raw/cpu-split] cpu-split.sh [ROUNDS]
# Server CPU per message split into user mode and kernel at SESSIONS ping-pong sessions: the C epoll and io_uring
# servers, the plain JDK NIO reactor, Netty epoll and io_uring, and this project's epoll and io_uring engines, in
# ROUNDS alternated rounds (default 3) of ab.sh. From the repository root after `mvn -B package -DskipTests`, with
# nothing else on the machine (about 5 minutes for 3 rounds). Measured: results/2026-11-27-cpu-split/.
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-proactor-bench/raw/cpu-split}; mkdir -p "$out"
log=$out/s${SESSIONS:-1000}-b${BLOCK:-512}.log
B="java -Xms1g -Xmx1g -jar proactor-bench/target/proactor-bench.jar"
E="-jar examples/target/proactor-examples.jar echo-server --port PORT --threads 1"
AB_LOG=$log "$here/ab.sh" "${1:-3}" "${SESSIONS:-1000}" 0 \
  "c-epoll=proactor-bench/target/native/epoll_echo --port PORT --threads 1" \
  "tp-reactor=$B tp-reactor --port PORT --threads 1" \
  "netty-epoll=$B netty-epoll --port PORT --threads 1" \
  "proactor-epoll=java -Xms1g -Xmx1g -Dproactor.engine=epoll $E" \
  "c-io_uring=proactor-bench/target/native/uring_echo --port PORT --threads 1" \
  "netty-io_uring=$B netty-io_uring --port PORT --threads 1" \
  "proactor-io_uring=java -Xms1g -Xmx1g -Dproactor.engine=io_uring $E"
python3 "$here/ab-summary.py" "$log"
