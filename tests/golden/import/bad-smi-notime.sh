# A --query-gpu log without timestamps needs --start and --interval.
trace-import data/nvidia-smi/query-gpu-notime.csv
rc=$?
ls
exit $rc
