#!/bin/sh
# Write NAME.dumpsum next to every old-format trace in tests/data/gotrace
# (run from the top of the source tree, with Go 1.19 installed): the line
# count and CRC-32 of `go tool trace -d NAME | LC_ALL=C sort`, which
# check-import-gotrace compares with the events the importer reports, so
# that big traces need no committed dump.  gen121.trace ("go 1.21 trace")
# needs Go 1.21's tool: GO121 (default /usr/lib/go-1.21/bin/go, from
# bookworm-backports' golang-1.21-go).
set -eu
go121=${GO121:-/usr/lib/go-1.21/bin/go}
cd tests/data/gotrace
for f in gen119.trace gen121.trace go119-fixture.trace http_1_*_good stress_*_good \
    user_task_region_*_good; do
	case $f in *_1_5_good) continue ;; esac
	go=go
	[ "$f" = gen121.trace ] && go=$go121
	"$go" tool trace -d "$f" 2>/dev/null | LC_ALL=C sort | python3 -c '
import sys, zlib
d = sys.stdin.buffer.read()
print(d.count(b"\n"), zlib.crc32(d))' > "${f%.trace}.dumpsum"
done
