# nvidia-smi dmon -o DT (recent drivers: gtemp, mtemp, jpg, ofa), '-' for
# missing values, trailing blanks, a blank line and the header pair
# repeated; two GPUs; the default zone is the process's TZ (UTC here).
trace-import data/nvidia-smi/dmon-dt.txt || exit 99
trace-query sql "SELECT gpu, gpu_name, ts, metric, value FROM gpu_metric
    ORDER BY ts, gpu, id"
trace-query sql "SELECT meta FROM source"
