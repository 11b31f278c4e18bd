#!/bin/bash
# usage: ROOT=dir-with-1k.bin rounds.sh: three alternated rounds of the JDK's provider and ours on every engine
# (and io_uring in owner mode), one JVM per line, each measured by tomcat-stat.sh.
here=$(dirname "$0")
P="-Djava.nio.channels.spi.AsynchronousChannelProvider=dev.proactor.nio2.ProactorAsynchronousChannelProvider"
for r in 1 2 3; do
  "$here/tomcat-stat.sh" jdk
  for e in nio epoll linux-aio io_uring; do "$here/tomcat-stat.sh" $e $P -Dproactor.engine=$e; done
  "$here/tomcat-stat.sh" io_uring-owner $P -Dproactor.engine=io_uring -Dproactor.leader=owner
done
