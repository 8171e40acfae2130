# Local times across both DST changes in Berlin: 02:00-03:00 on
# 2023-10-29 happens twice (the second time one hour later in UTC), and
# on 2024-03-31 clocks jump from 02:00 to 03:00.
trace-import -q --tz Europe/Berlin data/nvidia-smi/query-gpu-dst.csv || exit 99
trace-query sql "SELECT ts, strftime('%Y-%m-%d %H:%M:%S', ts / 1000000000,
    'unixepoch') AS utc, value FROM gpu_metric ORDER BY ts, gpu, id"
trace-query sql "SELECT json_extract(meta, '$.tz') AS tz,
    json_extract(meta, '$.tz_from') AS tz_from,
    json_extract(meta, '$.tz_ambiguous_times') AS ambiguous FROM source"
