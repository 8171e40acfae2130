# A pmon row whose pid is not a number.
trace-import -q --tz Europe/Berlin data/nvidia-smi/query-gpu.csv || exit 99
sha256sum trace.db > before
trace-import --start @0 --interval 1s data/nvidia-smi/bad-pmon-pid.txt
rc=$?
sha256sum -c --quiet before
ls
exit $rc
