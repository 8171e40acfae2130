# steps --region of a Go trace that is not the store's longest, with no
# GPU telemetry: the regions' goroutine drives, in the regions' own
# trace (it was looked up in the longest trace: "no goroutine 9 in the Go
# trace (source 2)").  The answer equals the one with --source naming it.
trace-import -q data/gotrace/go122-annotations.trace \
    data/gotrace/gen122.trace || exit 1
trace-query -F csv steps --region region0 >both.csv || exit 1
trace-query -F csv steps --region region0 --source 1 >one.csv || exit 1
cmp both.csv one.csv && echo "same as --source 1"
cat both.csv
