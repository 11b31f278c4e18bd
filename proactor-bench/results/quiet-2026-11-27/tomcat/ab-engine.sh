#!/bin/bash
# usage: ROOT=dir-with-1k.bin ab-engine.sh BEFORE.jar ROUNDS ENGINE: alternated rounds of Tomcat's NIO2 connector
# on our provider over ENGINE with the bench jar BEFORE.jar and the working tree's (no JDK line), tomcat-stat.sh.
here=$(dirname "$0"); before=$1; rounds=$2; e=$3
P="-Djava.nio.channels.spi.AsynchronousChannelProvider=dev.proactor.nio2.ProactorAsynchronousChannelProvider"
for r in $(seq "$rounds"); do
  JAR=$before "$here/tomcat-stat.sh" "$e-before" $P -Dproactor.engine=$e
  "$here/tomcat-stat.sh" "$e-after" $P -Dproactor.engine=$e
done
