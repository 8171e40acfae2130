# A --start that is not a time.
trace-import --start 'next tuesday' --interval 1s data/nvidia-smi/query-gpu-notime.csv
rc=$?
ls
exit $rc
