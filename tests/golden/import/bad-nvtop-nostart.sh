# nvtop snapshots carry no time at all: --start is required.
trace-import data/nvtop/nvtop-3.2.0.json
rc=$?
ls
exit $rc
