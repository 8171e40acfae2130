# An unknown --format is a usage error (exit 2) listing the formats.
trace-import --format no-such-format data/core/small.perf.txt
rc=$?
ls
exit $rc
