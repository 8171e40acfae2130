# Parity with FlameGraph's stackcollapse-perf.pl: each perf script output
# in data/perf/flamegraph/ is imported, and trace-flame --folded with the
# option equivalent to stackcollapse-perf.pl's --pid, --tid, --kernel,
# --jit, --all and --addrs must print data/perf/flamegraph/results/
# NAME-collapsed-OPT.txt byte for byte: same frames, order and counts
# (tests/data/README says which expectations are not upstream's).  One
# line per case; trace-flame's notes (several events) are shown.
for f in data/perf/flamegraph/*.txt.gz; do
	n=${f##*/}
	n=${n%.txt.gz}
	rm -f trace.db
	trace-import -q "$f" || exit 1
	for o in pid tid kernel jit all addrs; do
		case $o in
		pid|tid) fo=--show-$o ;;
		*) fo=--$o ;;
		esac
		trace-flame --folded $fo >got 2>err || exit 1
		[ $o = pid ] && cat err
		gzip -dc "data/perf/flamegraph/results/$n-collapsed-$o.txt.gz" \
		    >want || exit 1
		if cmp -s want got; then
			echo "ok $n $fo: $(wc -l <got) stacks"
		else
			echo "FAIL $n $fo:"
			diff want got | head -n 10
		fi
	done
done
