#!/bin/bash
# Session 19: Tomcat's NIO2 connector on the JDK's provider and on ours over nio and epoll (the two cells under
# 1.05x in session 18), ROUNDS alternated rounds (default 3) of one JVM each; session 13's tomcat-stat.sh (wrk -c200,
# 1 KiB file). Needs ROOT=a directory holding 1k.bin, wrk and perf. Appends to tomcat.txt.
R=proactor-bench/results/quiet-2026-11-27b
stat=proactor-bench/results/quiet-2026-11-26e/tomcat-offload/tomcat-stat.sh
P="-Djava.nio.channels.spi.AsynchronousChannelProvider=dev.proactor.nio2.ProactorAsynchronousChannelProvider"
for r in $(seq "${ROUNDS:-3}"); do
  $stat jdk
  $stat nio $P -Dproactor.engine=nio
  $stat epoll $P -Dproactor.engine=epoll
done | tee -a $R/tomcat.txt
