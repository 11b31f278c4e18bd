#!/bin/bash
# usage: [ROUNDS=4] [OUT=dir] nio2-rounds.sh ["SESSIONS WINDOW_BYTES" ...]   (default row: "1000 0")
# The unchanged NIO.2 echo program (the bench's jdk-nio2, a one-thread group) on the JDK's provider and on ours over
# each engine (nio, epoll, io_uring, linux-aio), ROUNDS alternated rounds per row of ab.sh, CPU per message and p99.9
# logged; the rows of results/2026-11-27-nio2-all-engines/ are "1000 0" "100 0" "100 4096". From the repository root
# after `mvn -B package -DskipTests`, with nothing else on the machine (about 75 s per round and row).
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-proactor-bench/raw/nio2-rounds}; mkdir -p "$out"
J="-jar proactor-bench/target/proactor-bench.jar jdk-nio2 --port PORT --threads 1"
N2=-Djava.nio.channels.spi.AsynchronousChannelProvider=dev.proactor.nio2.ProactorAsynchronousChannelProvider
for row in "${@:-1000 0}"; do
  set -- $row
  log=$out/nio2-s$1-w$2.log
  AB_LOG=$log "$here/ab.sh" "${ROUNDS:-4}" $1 $2 \
    "jdk=java -Xms1g -Xmx1g $J" \
    "nio=java -Xms1g -Xmx1g $N2 -Dproactor.engine=nio $J" \
    "epoll=java -Xms1g -Xmx1g $N2 -Dproactor.engine=epoll $J" \
    "io_uring=java -Xms1g -Xmx1g $N2 -Dproactor.engine=io_uring $J" \
    "linux-aio=java -Xms1g -Xmx1g $N2 -Dproactor.engine=linux-aio $J"
  python3 "$here/ab-summary.py" "$log"
  python3 "$here/ab-ratios.py" "$log" jdk
done
