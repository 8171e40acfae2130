# An nvtop -l loop with a second snapshot needs --interval too.
trace-import --start @0 data/nvtop/nvtop-3.3.2-loop.json
rc=$?
ls
exit $rc
