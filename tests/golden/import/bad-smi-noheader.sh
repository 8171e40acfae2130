# CSV written with noheader and imported without --fields: the message
# says what to give; no store is left behind.
trace-import data/nvidia-smi/query-gpu-noheader.csv
rc=$?
ls
exit $rc
