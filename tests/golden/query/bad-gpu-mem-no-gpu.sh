# A store without GPU memory (a heap profile only): exit 1 and the
# message; with a selection that leaves none, the same for the selection;
# an unknown pid or GPU.
trace-import data/scenario/heap-050.pb.gz 2>/dev/null || exit 99
trace-query gpu-mem
echo "exit $?"
trace-import --tz UTC data/gpumem/gpu.csv 2>/dev/null || exit 99
trace-query gpu-mem --gpu 1 --from 1h
echo "exit $?"
# A pid or GPU the store does not know: data errors naming the choices.
trace-query gpu-mem --pid 999
echo "exit $?"
trace-query gpu-mem --gpu 7
echo "exit $?"
