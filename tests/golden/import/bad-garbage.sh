# Binary garbage: not a recognised format, exit 1, and a store that already
# held a source is byte-identical afterwards.  The message lists the
# formats; the list is checked against --list-formats and shown as FORMATS,
# so that adding an importer does not change this case.
trace-import -q data/core/small.perf.txt || exit 99
sha256sum trace.db > before
trace-import data/bad/garbage.bin 2> err
rc=$?
formats=$(trace-import --list-formats | cut -d ' ' -f 1 | paste -s -d ,)
sed "s/one of: $(echo "$formats" | sed 's/,/, /g')\$/one of: FORMATS/" err >&2
sha256sum -c --quiet before
ls
exit $rc
