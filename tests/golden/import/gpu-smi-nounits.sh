# --format=csv,nounits: units only in the header; header names as
# nvidia-smi prints them (clocks.current.graphics for clocks.gr), no index
# column (the GPUs are told apart by name, their index is unknown: -1),
# the timestamp last.
trace-import -q data/nvidia-smi/query-gpu-nounits.csv || exit 99
trace-query sql "SELECT gpu, gpu_name, ts, metric, value FROM gpu_metric
    ORDER BY ts, gpu, id"
trace-query sql "SELECT json_extract(meta, '$.columns') AS columns,
    json_extract(meta, '$.units') AS units FROM source"
