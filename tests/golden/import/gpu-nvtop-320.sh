# nvtop 3.2.0 -s: one snapshot of three GPUs with nulls, "CPU Fan" for an
# integrated GPU and a fan speed in RPM.
trace-import --start '2026-02-08 10:00:00' data/nvtop/nvtop-3.2.0.json \
    || exit 99
trace-query sql "SELECT gpu, gpu_name, ts, metric, value FROM gpu_metric
    ORDER BY ts, gpu, id"
trace-query sql "SELECT format, format_version, meta FROM source"
