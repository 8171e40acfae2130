# A store without GPU telemetry: gpu-idle says so and fails.
trace-import data/demo/trace.out 2>/dev/null || exit 99
trace-query -F csv gpu-idle
