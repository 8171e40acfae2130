# A value that is not a number in a numeric column.
trace-import -q --tz Europe/Berlin data/nvidia-smi/query-gpu.csv || exit 99
sha256sum trace.db > before
trace-import data/nvidia-smi/bad-smi-number.csv
rc=$?
sha256sum -c --quiet before
ls
exit $rc
