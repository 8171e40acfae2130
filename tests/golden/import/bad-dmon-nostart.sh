# dmon without -o DT carries no time: --start and --interval are
# required.
trace-import data/nvidia-smi/dmon-old.txt
rc=$?
ls
exit $rc
