# A dmon value that is neither a number nor '-'.
trace-import -q --tz Europe/Berlin data/nvidia-smi/query-gpu.csv || exit 99
sha256sum trace.db > before
trace-import data/nvidia-smi/bad-dmon-number.txt
rc=$?
sha256sum -c --quiet before
ls
exit $rc
