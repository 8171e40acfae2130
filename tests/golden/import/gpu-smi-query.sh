# nvidia-smi --query-gpu CSV with units in the values, two GPUs
# interleaved, [N/A] and [Not Supported], pstate, a hex bitmask, and the
# header repeated where two logs were concatenated; times are local in
# Berlin (winter: UTC+1).  Counters in base units on one track per GPU.
trace-import --tz Europe/Berlin data/nvidia-smi/query-gpu.csv || exit 99
trace-query sql "SELECT gpu, gpu_name, ts, metric, value FROM gpu_metric
    ORDER BY ts, gpu, id"
trace-query sql "SELECT kind, name, ref, meta FROM track ORDER BY id"
trace-query sql "SELECT format, format_version, clock, ts_min, ts_max, rows,
    meta FROM source"
