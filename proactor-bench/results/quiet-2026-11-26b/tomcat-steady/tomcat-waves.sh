#!/bin/bash
# usage: tomcat-waves.sh NAME [props...]: tomcat under wrk for 6 x 10 s, counting compilations per 10 s
# needs ROOT=a directory holding 1k.bin (1024 bytes), wrk on the PATH; server on CPU 0, wrk on CPU 1.
# Each line: one 10 s wrk wave (200 new keep-alive connections) against one JVM; wave 1 includes JIT warm-up.
name=$1; shift
port=$((44000 + RANDOM % 1000))
taskset -c 0 java -Xms1g -Xmx1g -XX:+PrintCompilation "$@" -jar $(git rev-parse --show-toplevel)/proactor-bench/target/proactor-bench.jar tomcat-http --host 127.0.0.1 --port $port --root "$ROOT" --threads 2 > "${TMPDIR:-/tmp}/tomcat-waves-$name.log" 2>&1 &
spid=$!
for i in $(seq 100); do grep -q listening "${TMPDIR:-/tmp}/tomcat-waves-$name.log" && break; sleep 0.2; done
for w in 1 2 3 4 5 6; do
  before=$(wc -l < "${TMPDIR:-/tmp}/tomcat-waves-$name.log")
  t0=$(awk '{print $14+$15}' /proc/$spid/stat)
  r=$(taskset -c 1 wrk -t1 -c200 -d10s http://127.0.0.1:$port/1k.bin | grep Requests/sec | awk '{print $2}')
  t1=$(awk '{print $14+$15}' /proc/$spid/stat)
  after=$(wc -l < "${TMPDIR:-/tmp}/tomcat-waves-$name.log")
  nent=$(tail -n +$before "${TMPDIR:-/tmp}/tomcat-waves-$name.log" | head -n $((after-before)) | grep -c "made not entrant")
  echo "$name wave $w: req/s $r, compile lines $((after-before)), made-not-entrant $nent, server cpu $(( (t1-t0)/10 ))%"
done
kill $spid; wait $spid 2>/dev/null
