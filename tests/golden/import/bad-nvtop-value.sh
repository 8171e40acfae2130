# A value that is not a number with its unit.
trace-import -q --tz Europe/Berlin data/nvidia-smi/query-gpu.csv || exit 99
sha256sum trace.db > before
trace-import --start @0 data/nvtop/bad-nvtop-value.json
rc=$?
sha256sum -c --quiet before
ls
exit $rc
