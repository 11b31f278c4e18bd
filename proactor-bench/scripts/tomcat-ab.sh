#!/bin/bash
# usage: ROOT=dir-with-1k.bin tomcat-ab.sh BEFORE.jar ROUNDS ENGINE...
# Before/after a change: alternated rounds of Tomcat's NIO2 connector on the JDK's provider and on ours over each
# ENGINE, with the bench jar BEFORE.jar (built from the commit before the change) and the working tree's; one JVM per
# line, measured by tomcat-stat.sh. From the repository root after `mvn -B package -DskipTests`.
stat=$(cd "$(dirname "$0")" && pwd)/tomcat-stat.sh
before=$1; rounds=$2; shift 2
P="-Djava.nio.channels.spi.AsynchronousChannelProvider=dev.proactor.nio2.ProactorAsynchronousChannelProvider"
for r in $(seq "$rounds"); do
  "$stat" jdk
  for e in "$@"; do
    JAR=$before "$stat" "$e-before" $P -Dproactor.engine=$e
    "$stat" "$e-after" $P -Dproactor.engine=$e
  done
done
