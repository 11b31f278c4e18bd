#!/bin/bash
# usage: tomcat-ctx-switches.sh ENGINE   (nio | epoll | io_uring | linux-aio | jdk; env JAR, PORT)
# Context switches per request of each thread of the Tomcat NIO2 server under wrk -c200 (1 KiB file), on one
# provider: starts tomcat-http pinned to CPU 0, warms it up for 20 s, then reads every thread's voluntary and
# involuntary switch counts from /proc around an 8 s measured wrk run (CPU 1) and divides by the requests served.
# From the repository root after `mvn -B package -DskipTests`. Prints threads with more than one switch per 100
# requests. Measured: results/2026-11-25-tomcat-nio2-uring-leader/.
set -euo pipefail
ENGINE=${1:?engine}
JAR=${JAR:-proactor-bench/target/proactor-bench.jar}
PORT=${PORT:-39123}
ROOT=$(mktemp -d)
head -c 1024 /dev/urandom > "$ROOT/1k.bin"
PROVIDER=(-Djava.nio.channels.spi.AsynchronousChannelProvider=dev.proactor.nio2.ProactorAsynchronousChannelProvider
          -Dproactor.engine="$ENGINE")
[ "$ENGINE" = jdk ] && PROVIDER=()
taskset -c 0 java -Xms1g -Xmx1g "${PROVIDER[@]}" -jar "$JAR" tomcat-http --host 127.0.0.1 --port "$PORT" \
    --root "$ROOT" --threads 2 > "$ROOT/server.log" 2>&1 &
PID=$!
trap 'kill $PID 2>/dev/null; rm -rf "$ROOT"' EXIT
sleep 4
taskset -c 1 wrk -t1 -c200 -d20s "http://127.0.0.1:$PORT/1k.bin" > /dev/null
snap() {
    for t in /proc/$PID/task/*; do
        echo "$(basename "$t") $(tr ' ' '_' < "$t/comm") $(awk '/^voluntary/ {v=$2} /^nonvoluntary/ {n=$2} END {print v, n}' "$t/status")"
    done | sort
}
snap > "$ROOT/before"
taskset -c 1 wrk -t1 -c200 -d8s "http://127.0.0.1:$PORT/1k.bin" > "$ROOT/wrk.out"
snap > "$ROOT/after"
REQ=$(awk '/requests in/ {print $1}' "$ROOT/wrk.out")
echo "engine $ENGINE: $REQ requests, $(grep Requests/sec "$ROOT/wrk.out")"
join "$ROOT/before" "$ROOT/after" | awk -v r="$REQ" '{dv = $6 - $3; di = $7 - $4;
    if (dv + di > r / 100) printf "  %-20s voluntary/request %.3f  involuntary/request %.3f\n", $2, dv / r, di / r}'
