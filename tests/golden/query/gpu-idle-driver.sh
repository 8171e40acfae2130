# gpu-idle with the driver named by a Go trace region: the scenario's
# training loop runs each step in region (and task) "step" on goroutine
# 23, main.driver (tests/data/scenario/truth.json, driver_goid), so
# --driver step picks it, chosen says --driver, and the episodes and
# their causes are those of the driver found by correlation.
trace-import data/scenario 2>/dev/null || exit 99
trace-align >/dev/null 2>&1 || exit 99
trace-query -F csv gpu-idle --driver step > out.csv || exit 1
trace-query -F csv gpu-idle > found.csv || exit 1
sed -n '/^gpu,driver_goid/,/^$/p' out.csv
for f in out found; do
	sed -n '/^episode,gpu,start_ns/,/^$/p' $f.csv | cut -d, -f1-4,10 \
	    > $f.ep
done
cmp out.ep found.ep && echo "episodes and causes: as found by correlation"
wc -l < out.ep
# steps and stalls take it too.
trace-query -F csv steps --region step --driver step --top 0 |
    sed -n '/^boundaries/,/^$/p'
trace-query -F json stalls --driver step | grep -o '"driver_goid":[0-9]*' |
    sort | uniq -c
# A name no region or task has.
trace-query -F csv gpu-idle --driver nosuch
echo "--driver nosuch: $?"
# A store without a Go trace cannot name a region.
trace-import -d nogo.db data/scenario/nvidia-smi.csv 2>/dev/null || exit 99
trace-query -d nogo.db -F csv gpu-idle --driver step
echo "no Go trace: $?"
