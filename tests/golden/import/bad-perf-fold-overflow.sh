# perf script: two stacks, each within int64, that fold to one name (an
# unknown symbol at two addresses of one DSO) and whose sum is not (the
# folds, sample_fold).
# Named input, exit 1, and the store is byte-identical.
trace-import -q data/core/small.perf.txt || exit 99
sha256sum trace.db > before
trace-import data/perf/bad-perf-fold-overflow.txt
rc=$?
sha256sum -c --quiet before || exit 98
exit $rc
