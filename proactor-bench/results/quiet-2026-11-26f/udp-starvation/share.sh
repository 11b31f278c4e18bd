#!/bin/bash
# usage: share.sh ENGINE SESSIONS [WINDOW [SECONDS]] [jvm props: -Dchain=true|false]
# Runs DgShare (everything on one demultiplexor thread, pinned to CPU 0) and prints its line. Needs mvn package.
top=$(git rev-parse --show-toplevel); here=$(cd "$(dirname "$0")" && pwd)
classes=${CLASSES:-/tmp/dgshare}; mkdir -p $classes
javac -cp $top/examples/target/proactor-examples.jar -d $classes $here/DgShare.java || exit 1
engine=$1; sessions=$2; window=${3:-16}; seconds=${4:-5}; shift 4
taskset -c 0 java -Xms1g -Xmx1g "$@" -cp $top/examples/target/proactor-examples.jar:$classes DgShare $engine $sessions $window $seconds
