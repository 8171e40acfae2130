# A timestamp that is not a date (February 30th).
trace-import -q --tz Europe/Berlin data/nvidia-smi/query-gpu.csv || exit 99
sha256sum trace.db > before
trace-import data/nvidia-smi/bad-smi-date.csv
rc=$?
sha256sum -c --quiet before
ls
exit $rc
