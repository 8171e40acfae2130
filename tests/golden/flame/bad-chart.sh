# --flamechart errors: several threads (exit 1, the busiest named), no
# sample in the selection (exit 1, an empty chart), pprof samples without
# time stamps left out with a note, and the modes it does not combine
# with (exit 2).
trace-import -q data/demo/perf.txt.gz data/pprof/gen/cpu.pb.gz || exit
trace-flame --flamechart --folded; echo "exit $?"
trace-flame --flamechart --tid 14189 --from 100s > empty.svg
echo "exit $?"
grep -c 'no samples' empty.svg
trace-flame --flamechart -s 2 --folded; echo "exit $?"
trace-flame --flamechart --blocked sync; echo "exit $?"
trace-flame --flamechart --pprof x.pb; echo "exit $?"
