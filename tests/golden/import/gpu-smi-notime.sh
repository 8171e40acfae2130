# A --query-gpu log without the timestamp field: --start and --interval
# date the samples, a GPU seen again starts the next one.
trace-import -q --tz Europe/Berlin --start '2024-05-01 12:00:00' \
    --interval 250ms data/nvidia-smi/query-gpu-notime.csv || exit 99
trace-query sql "SELECT gpu, ts, metric, value FROM gpu_metric ORDER BY ts, gpu, id"
trace-query sql "SELECT json_extract(meta, '$.sampling') AS sampling
    FROM source"
