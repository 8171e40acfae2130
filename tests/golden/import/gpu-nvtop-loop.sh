# nvtop 3.3.2 -l: two snapshots back to back, memory in bytes, a shared
# encode/decode engine, and the processes of each GPU (a command line
# with escaped quotes).
trace-import -q --start '2026-02-08T10:00:00+01:00' --interval 100ms \
    data/nvtop/nvtop-3.3.2-loop.json || exit 99
trace-query sql "SELECT gpu, gpu_name, ts, metric, value FROM gpu_metric
    ORDER BY ts, gpu, id"
trace-query sql "SELECT gpu, pid, process, ts, metric, value FROM gpu_process
    ORDER BY ts, gpu, pid, id"
trace-query sql "SELECT t.kind, t.name, t.ref, t.parent_id, p.pid, t.meta
    FROM track t LEFT JOIN process p ON p.id = t.process_id ORDER BY t.id"
trace-query sql "SELECT format_version, json_extract(meta, '$.sampling')
    AS sampling FROM source"
