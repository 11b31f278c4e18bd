# usage: python3 profile-owner.py FILE.collapsed.txt ...   (e.g. the output of tomcat-profile.sh)
# Splits a collapsed user-mode profile of Tomcat by owner: each sample goes to the nearest frame (from the leaf up)
# that is Tomcat's (org/apache), the provider's (dev/proactor, or the JDK's sun/nio/ch) or other; then lists the
# provider's leaf frames.
import collections, sys
def owner(frames):
    for x in reversed(frames):
        if x.startswith('org/apache'):
            return 'tomcat'
        if x.startswith('dev/proactor') or x.startswith('sun/nio/ch'):
            return 'provider'
    return 'other'
for f in sys.argv[1:]:
    by, leaves, total = collections.Counter(), collections.Counter(), 0
    for line in open(f):
        stack, n = line.rstrip().rsplit(' ', 1)
        frames, n = stack.split(';'), int(n)
        o = owner(frames)
        by[o] += n
        total += n
        if o == 'provider':
            leaves[frames[-1]] += n
    print(f, total, 'samples:', ' '.join(f'{k}={100 * v / total:.1f}%' for k, v in by.most_common()))
    for k, v in leaves.most_common(12):
        print(f'  {100 * v / total:5.2f}%  {k}')
