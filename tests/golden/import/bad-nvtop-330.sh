# nvtop 3.3.0 and 3.3.1 wrote invalid JSON (no commas after mem_util,
# mem_total and mem_used): the message names that and how to repair it.
trace-import -q --tz Europe/Berlin data/nvidia-smi/query-gpu.csv || exit 99
sha256sum trace.db > before
trace-import --start @0 data/nvtop/bad-nvtop-3.3.0.json
rc=$?
sha256sum -c --quiet before
ls
exit $rc
