#!/bin/bash
# usage: [OUT=dir] [RATE=msgs/s] [AP=/path/to/libasyncProfiler.so | RECORD=1] server-perf.sh NAME SESSIONS WINDOW_BYTES BLOCK CMD...
# (PORT in CMD is replaced; OUT, default proactor-bench/raw/server-perf, receives the logs and profiles)
# The server command runs on CPU 0, the C load generator on CPU 1 (10 s after 5 s warm-up; RATE: paced to that
# many messages per second in total, its --rate, else unpaced). Without AP: perf stat
# counts the server's system calls, context switches and CPU for 4 s in the middle and prints them per echoed
# message. With AP (async-profiler, on Maven Central as tools.profiler:async-profiler): the profiler is attached
# to the server (cpu, 200 us) for those 4 s instead and writes OUT/NAME.flat.txt. With RECORD=1:
# perf record of the server's threads (kernel and user, 2 kHz, -g) for those 4 s instead, self time by symbol in
# OUT/NAME.top.txt (its first line: the samples in all, for comparing servers at one rate). From the repository root after `mvn -B package -DskipTests`; needs perf (and
# kernel.perf_event_paranoid <= 1).
name=$1; sess=$2; win=$3; blk=$4; shift 4
port=$((45000 + RANDOM % 1000))
cmd=$(echo "$*" | sed "s/PORT/$port/")
out=${OUT:-$(git rev-parse --show-toplevel)/proactor-bench/raw/server-perf}; mkdir -p $out
taskset -c 0 $cmd > $out/$name.server.log 2>&1 &
spid=$!
for i in $(seq 100); do grep -q listening $out/$name.server.log && break; sleep 0.2; done
taskset -c 1 $(git rev-parse --show-toplevel)/proactor-bench/target/native/loadgen --host 127.0.0.1 --port $port --sessions $sess --block $blk --window $win --seconds 10 --warmup 5 --threads 1 --ready-timeout 60 --server-pid $spid ${RATE:+--rate $RATE} > $out/$name.loadgen.log 2>&1 &
lpid=$!
sleep 9
if [ -n "$RECORD" ]; then
  perf record -F 2000 -g -p $spid -o $out/$name.perf.data -- sleep 4 > /dev/null 2>&1
elif [ -n "$AP" ]; then
  jcmd $spid JVMTI.agent_load $AP "\"start,event=cpu,interval=200us\"" > /dev/null
  sleep 4
  jcmd $spid JVMTI.agent_load $AP "\"stop,file=$out/$name.flat.txt,flat=400,traces=0\"" > /dev/null
else
  E='syscalls:sys_enter_recvfrom,syscalls:sys_enter_read,syscalls:sys_enter_readv,syscalls:sys_enter_sendto,syscalls:sys_enter_write,syscalls:sys_enter_writev,syscalls:sys_enter_epoll_wait,syscalls:sys_enter_epoll_ctl,syscalls:sys_enter_io_uring_enter,syscalls:sys_enter_futex,context-switches,task-clock'
  perf stat -e $E -p $spid -o $out/$name.server.stat -- sleep 4
fi
wait $lpid
kill $spid; wait $spid 2>/dev/null
m=$(grep -o 'msgs_per_s=[0-9]*' $out/$name.loadgen.log | head -1 | cut -d= -f2)
echo "== $name $(grep -o 'msgs_per_s=[0-9]*\|server_cpu_pct=[0-9.]*\| cpu_pct=[0-9.]*\|p99_us=[0-9.]*' $out/$name.loadgen.log | tr '\n' ' ')"
if [ -n "$RECORD" ]; then
  echo "# samples $(perf script -i $out/$name.perf.data -F tid 2>/dev/null | wc -l)" > $out/$name.top.txt
  perf report -i $out/$name.perf.data --no-children --sort sym --stdio -g none 2>/dev/null | grep -E '^ +[0-9]' \
      | head -250 >> $out/$name.top.txt
  rm -f $out/$name.perf.data
elif [ -z "$AP" ]; then
  echo -n "   per msg:"
  grep -E "syscalls|context|task-clock" $out/$name.server.stat | awk -v m=$m '{gsub(",","",$1); v=$1/(m*4); if ($2=="msec") {printf " cpu_us=%.2f", $1*1000/(m*4)} else if (v>0.0005) printf " %s=%.3f", $2, v}' | sed 's/syscalls:sys_enter_//g'; echo
fi
