#!/bin/bash
# usage: ROOT=dir-with-1k.bin [NAMES="jdk nio epoll ..."] [FIRST=1] tomcat-rounds.sh [ROUNDS]
# (NAMES default: "jdk nio epoll linux-aio io_uring io_uring-owner")
# Tomcat's NIO2 connector on the JDK's provider ("jdk") and on ours over each engine ("io_uring-owner": io_uring with
# proactor.leader=owner), ROUNDS alternated rounds (default 3) of one JVM each, the order rotated from round to round
# so that no provider always runs first; each JVM measured by tomcat-stat.sh (2 Tomcat workers on CPU 0, wrk -c200 on
# CPU 1, a 1 KiB file; needs wrk and perf). FIRST numbers the first round (for a second batch of rounds). From the
# repository root after `mvn -B package -DskipTests`. Measured: results/2026-11-27-tomcat-engines/ (NAMES="jdk nio
# epoll io_uring", ROUNDS=4 twice) and results/2026-11-26-tomcat-offload/.
here=$(cd "$(dirname "$0")" && pwd)
P="-Djava.nio.channels.spi.AsynchronousChannelProvider=dev.proactor.nio2.ProactorAsynchronousChannelProvider"
read -r -a names <<< "${NAMES:-jdk nio epoll linux-aio io_uring io_uring-owner}"
n=${#names[@]}
first=${FIRST:-1}
for r in $(seq "$first" $((first + ${1:-3} - 1))); do
  for i in $(seq 0 $((n - 1))); do
    name=${names[$(( (i + r - 1) % n ))]}
    case $name in
      jdk) "$here/tomcat-stat.sh" "jdk-$r" ;;
      io_uring-owner) "$here/tomcat-stat.sh" "$name-$r" $P -Dproactor.engine=io_uring -Dproactor.leader=owner ;;
      *) "$here/tomcat-stat.sh" "$name-$r" $P -Dproactor.engine=$name ;;
    esac
  done
done
