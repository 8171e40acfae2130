# nvidia-smi pmon -s um -o DT: processes per GPU with fb and ccpm, C, G
# and C+G types, a command name with a blank, and a '-' row for an idle
# GPU.
trace-import -q data/nvidia-smi/pmon-dt.txt || exit 99
trace-query sql "SELECT gpu, pid, process, ts, metric, value FROM gpu_process
    ORDER BY ts, gpu, pid, id"
trace-query sql "SELECT kind, name, ref, meta FROM track ORDER BY id"
trace-query sql "SELECT json_extract(meta, '$.sampling') AS sampling
    FROM source"
