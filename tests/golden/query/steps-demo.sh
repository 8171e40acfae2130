# steps on the demo bundle: its task "train-step" (one per batch), its
# region "gpu", and the driver's GPU waits (main.step's sleep) give the
# latency percentiles, the stretches of slow steps and the slowest.
trace-import data/demo 2>/dev/null || exit 99
trace-align >/dev/null 2>&1 || exit 99
trace-query -F csv steps --task train-step --top 3
trace-query -F csv steps --region gpu --top 1 --slow 1.5
trace-query -F csv steps --top 2
