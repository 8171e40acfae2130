# --format=csv,noheader,nounits: the columns come from --fields (the
# --query-gpu list), units from what nvidia-smi uses for each field.
trace-import -q --fields timestamp,index,utilization.gpu,memory.used,power.draw \
    data/nvidia-smi/query-gpu-noheader.csv || exit 99
trace-query sql "SELECT gpu, ts, metric, value FROM gpu_metric ORDER BY ts, gpu, id"
