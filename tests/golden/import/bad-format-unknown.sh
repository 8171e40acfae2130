# An unknown --format is a usage error (exit 2) listing the formats (checked
# against --list-formats and shown as FORMATS); no store is created.
trace-import --format no-such-format data/core/small.perf.txt 2> err
rc=$?
formats=$(trace-import --list-formats | cut -d ' ' -f 1 | paste -s -d ,)
sed "s/formats: $(echo "$formats" | sed 's/,/, /g')\$/formats: FORMATS/" err >&2
ls
exit $rc
