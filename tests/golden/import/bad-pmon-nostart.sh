# pmon without -o T carries no time.
trace-import data/nvidia-smi/pmon.txt
rc=$?
ls
exit $rc
