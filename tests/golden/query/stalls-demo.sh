# stalls on the demo bundle: the three dips of --threshold 50 --min 200ms
# (see gpu-idle-demo) each walk the tree to a branch, with its numbers;
# the --from/--to window of the first dip gives the same diagnosis.
trace-import data/demo 2>/dev/null || exit 99
trace-align >/dev/null 2>&1 || exit 99
trace-query -F csv stalls --threshold 50 --min 200ms
trace-query -F csv stalls --from =746122485997 --to =746322485997
