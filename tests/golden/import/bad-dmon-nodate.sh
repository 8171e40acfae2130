# dmon -o T has times but no dates: --start must give the date.
trace-import data/nvidia-smi/dmon-t.txt
rc=$?
ls
exit $rc
