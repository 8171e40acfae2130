# A local time that does not exist in the zone: 02:30 on the night
# Berlin's clocks jump from 02:00 to 03:00.
trace-import -q --tz Europe/Berlin data/nvidia-smi/query-gpu.csv || exit 99
sha256sum trace.db > before
trace-import --tz Europe/Berlin data/nvidia-smi/bad-smi-dstgap.csv
rc=$?
sha256sum -c --quiet before
ls
exit $rc
