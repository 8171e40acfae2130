# Other invalid JSON: jansson's message at the line and column in the
# file.
trace-import -q --tz Europe/Berlin data/nvidia-smi/query-gpu.csv || exit 99
sha256sum trace.db > before
trace-import --start @0 data/nvtop/bad-nvtop-syntax.json
rc=$?
sha256sum -c --quiet before
ls
exit $rc
