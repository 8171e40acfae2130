# gpu-idle on the demo bundle (a SYNTHETIC nvidia-smi log every 100 ms):
# with the defaults no dip lasts 500 ms, so there is no episode and the
# totals say so; with --threshold 50 --min 200ms the three dips of the
# loader's stalls are episodes, and the driver found is goroutine 1
# (runtime.main, sleeping in main.step: the demo's stand-in for a kernel).
trace-import data/demo 2>/dev/null || exit 99
trace-align >/dev/null 2>&1 || exit 99
trace-query -F csv gpu-idle
trace-query -F csv gpu-idle --threshold 50 --min 200ms
