# An nvtop -l capture cut inside a GPU object.
trace-import -q --tz Europe/Berlin data/nvidia-smi/query-gpu.csv || exit 99
sha256sum trace.db > before
trace-import --start @0 --interval 100ms data/nvtop/bad-nvtop-truncated.json
rc=$?
sha256sum -c --quiet before
ls
exit $rc
