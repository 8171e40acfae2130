# nvidia-smi dmon -o T: times without dates; --start gives the date, and
# the times roll over midnight into the next day (Berlin, UTC+1).
trace-import -q --tz Europe/Berlin --start 2024-12-31 \
    data/nvidia-smi/dmon-t.txt || exit 99
trace-query sql "SELECT strftime('%Y-%m-%d %H:%M:%S', ts / 1000000000,
    'unixepoch') AS utc, metric, value FROM gpu_metric ORDER BY ts, gpu, id"
