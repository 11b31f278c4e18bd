#!/bin/bash
# usage: ROOT=dir-with-1k.bin ab.sh BEFORE.jar ROUNDS ENGINE...: alternated rounds of Tomcat's NIO2 connector on
# the JDK's provider and on ours over each ENGINE, with the bench jar BEFORE.jar (built from the commit before the
# change) and the working tree's; one JVM per line, measured by tomcat-stat.sh.
here=$(dirname "$0"); before=$1; rounds=$2; shift 2
P="-Djava.nio.channels.spi.AsynchronousChannelProvider=dev.proactor.nio2.ProactorAsynchronousChannelProvider"
for r in $(seq "$rounds"); do
  "$here/tomcat-stat.sh" jdk
  for e in "$@"; do
    JAR=$before "$here/tomcat-stat.sh" "$e-before" $P -Dproactor.engine=$e
    "$here/tomcat-stat.sh" "$e-after" $P -Dproactor.engine=$e
  done
done
