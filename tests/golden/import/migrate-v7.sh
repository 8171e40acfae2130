# A store of schema version 7 (a row per counter point: two nvidia-smi
# logs and a pmon log, made by the tracekit of that version) is migrated
# to version 8 by the first trace-import that writes to it, even one that
# only skips an input imported before: its points move into counter_run,
# up to 256 of a track and metric a run, and the analyses say what they
# said of the version 7 store (their outputs below are byte for byte
# those of the tracekit of version 7 on it).
cp data/core/v7-gpu.db old.db && chmod u+w old.db || exit 99
trace-query -d old.db -F csv gpu-mem
trace-import -d old.db --tz UTC data/gpumem/gpu.csv
trace-query -d old.db -F csv sql "PRAGMA user_version"
trace-query -d old.db -F csv sql "SELECT r.source_id, t.kind, t.ref,
    (SELECT s FROM str WHERE id = r.name_id) AS metric, count(*) AS runs,
    sum(r.n) AS points, min(r.ts) AS ts, max(r.end_ts) AS end_ts FROM
    counter_run r JOIN track t ON t.id = r.track_id GROUP BY 1, 2, 3, 4
    ORDER BY 1, 2, 3, 4"
trace-query -d old.db -F csv sql "SELECT gpu, pid, ts, metric, value FROM
    gpu_process ORDER BY ts, gpu, pid, id"
trace-query -d old.db -F csv gpu-mem
trace-query -d old.db -F csv gpu-idle
trace-query -d old.db -F csv timeline --source 2 --step 10s
trace-query -d old.db -F csv timeline --source 1 --step 1s
