# --series compares each heap snapshot with the one before it: inuse_space
# growth by stack (--stacks) and by function.  Groups: the first two
# snapshots against the last two.
trace-import -q data/pprof/series || exit 99
trace-query -F csv pprof-diff --series --type heap \
    --sample-index inuse_space --stacks --nodecount 2
trace-query -F csv pprof-diff --series --type heap \
    --sample-index inuse_space --nodecount 2
trace-query -F csv pprof-diff --sample-index inuse_space --stacks p1-2 5,6
