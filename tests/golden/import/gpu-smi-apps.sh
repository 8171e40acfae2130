# nvidia-smi --query-compute-apps CSV: per-process GPU memory over time.
# The GPUs' indices come from the --query-gpu log of the same capture,
# matched by uuid; the processes join the process table by pid.
trace-import -q --tz Europe/Berlin data/nvidia-smi/query-gpu.csv || exit 99
trace-import -q --tz Europe/Berlin data/nvidia-smi/query-apps.csv || exit 99
trace-query sql "SELECT gpu, pid, process, ts, metric, value FROM gpu_process
    ORDER BY ts, gpu, pid, id"
trace-query sql "SELECT host, pid, name FROM process ORDER BY pid"
trace-query sql "SELECT t.kind, t.name, t.ref, p.pid, t.meta FROM track t
    JOIN process p ON p.id = t.process_id ORDER BY t.id"
trace-query sql "SELECT json_extract(meta, '$.query') AS query,
    json_extract(meta, '$.sampling') AS sampling FROM source WHERE id = 2"
