#!/bin/bash
# usage: run.sh NAME SESSIONS [jvm props: -Dslots=N receives in flight, -Dchain=true|false chained callbacks (unset: the default), -De=engine]
# One demultiplexor thread (CPU 0) serves a TCP echo (plain accept loop) and a UDP echo; the C load generator drives
# SESSIONS TCP ping-pong sessions and a Java client keeps 64 datagrams in flight against the UDP echo (both on CPU 1)
# and prints the UDP echoes per second. Needs mvn package; compiles the two classes into $CLASSES (/tmp/udp-starve).
top=$(git rev-parse --show-toplevel); here=$(cd "$(dirname "$0")" && pwd)
classes=${CLASSES:-/tmp/udp-starve}; mkdir -p $classes
javac -cp $top/examples/target/proactor-examples.jar -d $classes $here/DgStarve.java $here/DgClient.java || exit 1
name=$1; sess=$2; shift 2
tp=$((43000 + RANDOM % 500)); up=$((43600 + RANDOM % 300))
taskset -c 0 java -Xms1g -Xmx1g "$@" -cp $top/examples/target/proactor-examples.jar:$classes DgStarve $tp $up > $classes/$name.log 2>&1 &
spid=$!
for i in $(seq 100); do grep -q listening $classes/$name.log && break; sleep 0.2; done
if [ "$sess" -gt 0 ]; then
taskset -c 1 $top/proactor-bench/target/native/loadgen --host 127.0.0.1 --port $tp --sessions $sess --block 512 --window 0 --seconds 12 --warmup 3 --threads 1 --ready-timeout 60 > $classes/$name.loadgen.log 2>&1 &
lpid=$!
sleep 6
fi
taskset -c 1 java -cp $classes DgClient $up 64 5
[ "$sess" -gt 0 ] && wait $lpid
kill $spid; wait $spid 2>/dev/null
[ "$sess" -gt 0 ] && echo "   tcp $(grep -o 'msgs_per_s=[0-9]*' $classes/$name.loadgen.log)"
