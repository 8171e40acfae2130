# A store whose counter runs are damaged (two runs' JSON broken by hand:
# tests/data/core/bad-v11-points.db): the analyses that read them fail
# with the store and the run named, exit status 1, and leave the store as
# it was; the counter view fails too.
cp data/core/bad-v11-points.db bad.db && chmod u+w bad.db || exit 99
sum=$(cksum < bad.db)
trace-query -d bad.db -F csv gpu-idle
echo "gpu-idle: $?"
trace-query -d bad.db -F csv gpu-mem
echo "gpu-mem: $?"
trace-query -d bad.db -F csv timeline --source 2 --step 10s
echo "timeline: $?"
trace-query -d bad.db -F csv sql "SELECT count(*) FROM gpu_metric"
echo "sql: $?"
[ "$(cksum < bad.db)" = "$sum" ] && echo "the store is as it was"
