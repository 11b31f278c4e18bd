"""usage: python3 tls-ratios.py DIR...   (each DIR holds a tls-echo-runs.csv, e.g. the rounds of tls-rounds.sh)
Ours ÷ Netty per transport and mode over the rounds: the ratio of the medians of msgs/s and of server CPU µs per
message over every run, and the per-run ratios (run k of a round against Netty's run k of the same round)."""
import csv, statistics, sys, collections
msgs = collections.defaultdict(list); cpu = collections.defaultdict(list); per = collections.defaultdict(list)
for d in sys.argv[1:]:
    rows = list(csv.DictReader(open(d + '/tls-echo-runs.csv')))
    by = {(r['server'], r['transport'], r['mode'], r['run']): r for r in rows}
    for (srv, tr, mode, run), r in by.items():
        side = 'ours' if srv == 'proactor-tls' else 'netty'
        msgs[(tr, mode, side)].append(float(r['msgs_per_s']))
        cpu[(tr, mode, side)].append(float(r['server_cpu_us_per_msg']))
        if side == 'ours':
            n = by.get(('netty-tls-' + tr, tr, mode, run))
            if n:
                per[(tr, mode)].append(float(r['msgs_per_s']) / float(n['msgs_per_s']))
for tr in ('nio', 'epoll'):
    for mode in ('window', 'ping-pong'):
        o, n = msgs[(tr, mode, 'ours')], msgs[(tr, mode, 'netty')]
        if not o or not n:
            continue
        oc, nc = statistics.median(cpu[(tr, mode, 'ours')]), statistics.median(cpu[(tr, mode, 'netty')])
        p = sorted(per[(tr, mode)])
        print(f"{tr:5s} {mode:9s} runs {len(o)}: msgs/s {statistics.median(o):8.0f} vs {statistics.median(n):8.0f} "
              f"= {statistics.median(o) / statistics.median(n):.2f}  per run {p[0]:.2f}-{p[-1]:.2f} "
              f"(median {statistics.median(p):.2f}, {sum(x >= 1 for x in p)}/{len(p)} >= 1)  "
              f"server us/msg {oc:.2f} vs {nc:.2f} = {oc / nc:.2f}")
