#!/bin/bash
# Session 20: Tomcat's NIO2 connector on the JDK's provider and on ours over nio, epoll and io_uring, ROUNDS
# alternated rounds (default 4) of one JVM each, the order rotated from round to round so no provider always runs
# first; session 13's tomcat-stat.sh (wrk -c200, 1 KiB file, 2 Tomcat workers). Needs ROOT=a directory holding
# 1k.bin, wrk and perf. Appends to tomcat.txt. FIRST: number of the first round (rounds 5-8 ran with FIRST=5).
R=proactor-bench/results/quiet-2026-11-27c
stat=proactor-bench/results/quiet-2026-11-26e/tomcat-offload/tomcat-stat.sh
P="-Djava.nio.channels.spi.AsynchronousChannelProvider=dev.proactor.nio2.ProactorAsynchronousChannelProvider"
export OUT=$R/tomcat
names=(jdk nio epoll io_uring)
first=${FIRST:-1}
for r in $(seq "$first" $((first + ${ROUNDS:-4} - 1))); do
  for i in 0 1 2 3; do
    n=${names[$(( (i + r - 1) % 4 ))]}
    if [ $n = jdk ]; then $stat jdk-$r; else $stat $n-$r $P -Dproactor.engine=$n; fi
  done
done | tee -a $R/tomcat.txt
