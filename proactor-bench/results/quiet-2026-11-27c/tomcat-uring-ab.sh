#!/bin/bash
# usage: ROOT=dir-with-1k.bin tomcat-uring-ab.sh BEFORE.jar [ROUNDS]
# Session 20: Tomcat's NIO2 connector (heap buffers) on our provider over io_uring with the bench jar BEFORE.jar
# (heap reads pending as RECVs into a block of each connection's own) and the working tree's (a POLL_ADD, then one
# recv through a shared block), with the JDK's provider in each round for scale; ROUNDS (default 4) alternated
# rounds of session 13's tomcat-stat.sh (2 worker threads on CPU 0, wrk -c200 on CPU 1). With EPOLL=1, ours on
# epoll too (unchanged by this commit: its heap transfers already went through shared blocks). FIRST: number of the
# first round (for a second batch of rounds into the same directory).
stat=$(dirname "$0")/../quiet-2026-11-26e/tomcat-offload/tomcat-stat.sh
before=$1
P="-Djava.nio.channels.spi.AsynchronousChannelProvider=dev.proactor.nio2.ProactorAsynchronousChannelProvider"
export OUT=$(dirname "$0")/tomcat-uring-ab
first=${FIRST:-1}
for r in $(seq "$first" $((first + ${2:-4} - 1))); do
  "$stat" jdk-$r
  JAR=$before "$stat" uring-before-$r $P -Dproactor.engine=io_uring
  "$stat" uring-after-$r $P -Dproactor.engine=io_uring
  if [ -n "$EPOLL" ]; then "$stat" epoll-$r $P -Dproactor.engine=epoll; fi
done
