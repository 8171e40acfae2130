# nvidia-smi dmon -s pucvmet of an older driver (temp, pviol, tviol, fb,
# bar1, sbecc, dbecc, pci, rxpci, txpci) for four GPUs, printed without
# -o: --start and --interval date the samples.
trace-import -q --start 2016-11-14T10:00:00Z --interval 1s \
    data/nvidia-smi/dmon-old.txt || exit 99
trace-query sql "SELECT gpu, ts, metric, value FROM gpu_metric WHERE gpu = 3
    ORDER BY ts, gpu, id"
trace-query sql "SELECT gpu, count(*), min(ts), max(ts) FROM gpu_metric
    GROUP BY gpu ORDER BY gpu"
trace-query sql "SELECT json_extract(meta, '$.units') AS units,
    json_extract(meta, '$.sampling') AS sampling FROM source"
