"""usage: python3 ab-ratios.py LOG BASELINE
Ratios to the server named BASELINE in an ab.sh log (also the older six-field format): the ratio of the medians of
msgs/s, and the per-round ratios (each server's run divided by the baseline's run of the same round)."""
import collections, statistics, sys
runs = collections.defaultdict(dict)
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) >= 6 and f[2].isdigit():
        runs[f[1]][f[0]] = float(f[2])
base = runs[sys.argv[2]]
for name, byround in runs.items():
    if name == sys.argv[2]:
        continue
    per = [byround[r] / base[r] for r in byround if r in base]
    ratio = statistics.median(byround.values()) / statistics.median(base.values())
    print(f"{name:12s} ratio of medians {ratio:5.2f}  per round {', '.join(f'{x:.2f}' for x in per)}"
          f"  (median {statistics.median(per):.2f})")
