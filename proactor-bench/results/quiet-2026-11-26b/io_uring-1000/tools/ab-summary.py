import collections,statistics,sys
d=collections.defaultdict(list)
for l in open(sys.argv[1]):
    r,n,m,sc,cc,p=l.split(); d[n].append((int(m),float(sc),float(cc),float(p)))
for n,v in d.items():
    print("%-10s median %7d  srv-us/msg %.2f  p99 %7.0f  msgs %s cli %s"%(n, statistics.median([x[0] for x in v]), statistics.median([x[1]/100*1e6/x[0] for x in v]), statistics.median([x[3] for x in v]), [x[0] for x in v], [x[2] for x in v]))
