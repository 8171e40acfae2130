#!/usr/bin/env python3
# Fold `go tool pprof -raw` output of a `go tool trace -pprof=KIND` profile
# into one line per stack: COUNT NANOSECONDS FRAMES, the frames root first
# as "function file:line" joined by ';', stacks merged and sorted.  (Go
# 1.23's pprof prints file:line:column; the column, always 0 here, goes.)  The
# golden test gotrace-pprof.sh prints the same from the store.
import re, sys
samples, locs, section = [], {}, None
for line in open(sys.argv[1]):
    line = line.rstrip('\n')
    if line in ('Samples:', 'Locations', 'Mappings'):
        section = line
        continue
    if section == 'Samples:':
        m = re.match(r'\s*(\d+)\s+(\d+):\s*([\d ]*)$', line)
        if m:
            samples.append((int(m.group(1)), int(m.group(2)),
                            [int(x) for x in m.group(3).split()]))
    elif section == 'Locations':
        m = re.match(r'\s*(\d+): 0x[0-9a-f]+ M=\d+ (.*) (\S*?:\d+)(?::\d+)? '
                     r's=\d+$', line)
        if m:
            locs[int(m.group(1))] = '%s %s' % (m.group(2), m.group(3))
        elif line.strip():
            sys.exit('unexpected location line: ' + line)
fold = {}
for n, v, ids in samples:
    key = ';'.join(locs[i] for i in reversed(ids))
    c, t = fold.get(key, (0, 0))
    fold[key] = (c + n, t + v)
for key in sorted(fold):
    print('%d %d %s' % (fold[key][0], fold[key][1], key))
