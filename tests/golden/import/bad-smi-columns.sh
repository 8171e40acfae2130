# A --query-gpu row with a field missing: located message, exit 1, and
# the store that already held a source is byte-identical afterwards.
trace-import -q --tz Europe/Berlin data/nvidia-smi/query-gpu.csv || exit 99
sha256sum trace.db > before
trace-import data/nvidia-smi/bad-smi-columns.csv
rc=$?
sha256sum -c --quiet before
ls
exit $rc
