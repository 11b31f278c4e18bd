"""usage: python3 ab-summary.py LOG
Medians per server of an ab.sh log: msgs/s, total and user-mode server CPU per message, p99 (and p99.9 where the log
has it)."""
import collections, statistics, sys
rows = collections.defaultdict(list)
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) >= 9:
        rows[f[1]].append([float(x) for x in f[2:10]])
print(f"{'server':28s} {'runs':>4s} {'msgs/s':>9s} {'cpu%':>6s} {'user%':>6s} {'us/msg':>7s} {'user us/msg':>11s} {'p99 us':>9s} {'p99.9 us':>9s}")
for name, runs in rows.items():
    med = [statistics.median(c) for c in zip(*runs)]
    p999 = f"{med[7]:9.0f}" if len(med) > 7 else f"{'-':>9s}"
    print(f"{name:28s} {len(runs):4d} {med[0]:9.0f} {med[1]:6.1f} {med[2]:6.1f} {med[5]:7.2f} {med[6]:11.2f} {med[4]:9.0f} {p999}")
