#!/bin/bash
# Diagnostic used for the "Tomcat NIO2: the tail was connection set-up" section of RESULTS.md (not part of the
# benchmark harness). Starts Tomcat's NIO2 connector (the bench jar's tomcat-http) on CPU 0 with the JDK's provider
# or ours on ENGINE, warms it up with wrk, then measures with wrk (finer percentiles, percentiles.lua) and with
# http-burst-client.c (200 new connections, first requests included; writes requests slower than 20 ms to
# slow-ENGINE-N.txt: local port, send and receive CLOCK_MONOTONIC ns).
# usage: tomcat-tail.sh jdk|nio|epoll|io_uring|linux-aio PORT   (env: JAR, ROUNDS, WARM)
set -eu
E=$1; P=$2
HERE=$(cd "$(dirname "$0")" && pwd)
JAR=${JAR:-$HERE/../../../target/proactor-bench.jar}
WWW=$(mktemp -d); head -c 1024 /dev/urandom > "$WWW/1k.bin"
gcc -O2 -o "$WWW/burst" "$HERE/http-burst-client.c"
OPTS="-Xms1g -Xmx1g"
if [ "$E" != jdk ]; then
  OPTS="$OPTS -Djava.nio.channels.spi.AsynchronousChannelProvider=dev.proactor.nio2.ProactorAsynchronousChannelProvider -Dproactor.engine=$E"
fi
taskset -c 0 java $OPTS -jar "$JAR" tomcat-http --port "$P" --root "$WWW" --threads 2 > "$WWW/server.log" 2>&1 &
SP=$!
sleep 3
taskset -c 1 wrk -t1 -c200 -d"${WARM:-10}"s "http://127.0.0.1:$P/1k.bin" > /dev/null
for i in $(seq "${ROUNDS:-2}"); do
  taskset -c 1 wrk -t1 -c200 -d4s -s "$HERE/percentiles.lua" "http://127.0.0.1:$P/1k.bin" | grep "p50="
done
for i in $(seq "${ROUNDS:-2}"); do
  taskset -c 1 "$WWW/burst" "$P" 200 4 "slow-$E-$i.txt"
done
kill $SP; wait $SP 2>/dev/null || true
rm -rf "$WWW"
