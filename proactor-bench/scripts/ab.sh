#!/bin/bash
# usage: [BLOCK=512] [AB_LOG=FILE] ab.sh ROUNDS SESSIONS WINDOW_BYTES name=cmd ...
# Alternated rounds of echo servers under the C load generator (server on CPU 0, load generator on CPU 1, 5 s after
# 3 s warm-up per run), reporting CPU per message. Each name=cmd is one server; PORT in cmd is replaced by a free
# port; the servers take turns within every round, so a drift of the machine lands on all of them alike.
# Run from the repository root after `mvn -B package -DskipTests`, with nothing else on the machine.
# Appends "round name msgs/s server-cpu% server-user-cpu% client-cpu% p99us total-us/msg user-us/msg p99.9us" per run
# to AB_LOG (default proactor-bench/raw/ab.log), the servers' output beside it; medians: scripts/ab-summary.py LOG;
# ratios: scripts/ab-ratios.py LOG BASE.
rounds=$1; sess=$2; win=$3; shift 3
root=$(git rev-parse --show-toplevel)
log=${AB_LOG:-$root/proactor-bench/raw/ab.log}
mkdir -p "$(dirname "$log")"
for r in $(seq "$rounds"); do
  for spec in "$@"; do
    name=${spec%%=*}; cmd=${spec#*=}
    port=$((43000 + RANDOM % 1000))
    slog="$(dirname "$log")/ab-$name.server.log"
    taskset -c 0 ${cmd//PORT/$port} > "$slog" 2>&1 &
    spid=$!
    for i in $(seq 100); do grep -q listening "$slog" && break; sleep 0.1; done
    out=$(taskset -c 1 "$root"/proactor-bench/target/native/loadgen --host 127.0.0.1 --port $port --sessions "$sess" \
        --block "${BLOCK:-512}" --window "$win" --seconds 5 --warmup 3 --threads 1 --server-pid $spid 2>/dev/null | grep RESULT)
    kill $spid; wait $spid 2>/dev/null
    v() { echo "$out" | grep -o " $1=[0-9.-]*" | cut -d= -f2; }
    m=$(v msgs_per_s); sc=$(v server_cpu_pct); su=$(v server_user_cpu_pct); cc=$(v cpu_pct); p99=$(v p99_us); p999=$(v p999_us)
    tu=$(python3 -c "print(round($sc*1e4/$m,2), round($su*1e4/$m,2))")
    echo "$r $name $m $sc $su $cc $p99 $tu $p999" | tee -a "$log"
  done
done
