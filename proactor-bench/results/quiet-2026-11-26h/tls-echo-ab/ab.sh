#!/bin/bash
# usage: ab.sh OUT JAR_A NAME_A JAR_B NAME_B ROUNDS: tls-echo of both jars, alternated, nothing else running.
out=$1; a=$2; an=$3; b=$4; bn=$5; rounds=${6:-2}
for r in $(seq $rounds); do
  for x in "$a:$an" "$b:$bn"; do
    jar=${x%%:*}; name=${x##*:}
    java -jar $jar tls-echo --runs 2 --seconds 6 --warmup 3 --client-warmup 6 --out $out/$name-r$r > $out/$name-r$r.log 2>&1
    grep "^| proactor-tls\|^| netty" $out/$name-r$r/tls-echo.md | sed "s/^/$name r$r /"
  done
done
