# A flame chart of one goroutine from the Go trace's CPU samples (Go 1.23
# trace, goroutine 1: 10 samples, main.burn, 3 of them preempted): the
# runs in time order; without --goroutine the samples of 4 goroutines are
# an error naming them (exit 1).
trace-import -q data/gotrace/gen123.trace || exit
trace-flame --flamechart --goroutine 1 --folded; echo "exit $?"
trace-query -F csv sql "SELECT count(*) FROM sample
    WHERE json_extract(labels, '$.goid') = 1"
trace-flame --flamechart --goroutine 1 > chart.svg || exit
xmllint --noout chart.svg && echo "valid XML"
grep -o '<title>[^<]*</title>' chart.svg
trace-flame --flamechart --folded; echo "exit $?"
