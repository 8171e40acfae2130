# nvidia-smi pmon without -o: samples are told apart by a GPU and process
# coming round again; a second process appears in the third sample.
trace-import -q --start @1700000000 --interval 1s data/nvidia-smi/pmon.txt \
    || exit 99
trace-query sql "SELECT gpu, pid, process, ts, metric, value FROM gpu_process
    ORDER BY ts, gpu, pid, id"
