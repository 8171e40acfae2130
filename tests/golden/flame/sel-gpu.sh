# --gpu N on trace-flame: the samples of the processes that per-process
# GPU telemetry (nvidia-smi --query-compute-apps) saw on GPU N, said on
# stderr; the same graph as --pid of that process.  A store without
# per-process GPU data cannot tell (exit 1), an unknown GPU is named with
# the choices, and trace-query top refuses --gpu (pprof profiles do not
# say which process they sampled).  First the GPU logs in the order that
# gives the per-process track its GPU, then the bundle directory.
trace-import -q data/scenario/nvidia-smi.csv \
    data/scenario/nvidia-smi-apps.csv data/scenario/perf.txt.gz \
    data/scenario/clock.json || exit 99
trace-align -q > /dev/null || exit 99
trace-flame --folded --gpu 0 > gpu.folded; echo "rc=$?"
trace-flame --folded --pid 21272 2> /dev/null > pid.folded
# stacks and their total (ns of cpu-clock), which is that of the perf
# samples of the trainer's threads
cmp gpu.folded pid.folded &&
    awk '{ n += $NF } END { printf "%d %.0f\n", NR, n }' gpu.folded
trace-query -F csv sql "SELECT comm, count(*), sum(value) FROM perf_sample
    WHERE comm = 'trainer' GROUP BY 1"
trace-flame --folded --gpu 0 --from 10s --to 12s |
    awk '{ n += $NF } END { printf "%d %.0f\n", NR, n }'
trace-flame --folded --gpu 0 --comm gpusim > /dev/null; echo "rc=$?"
trace-flame --folded --gpu 1; echo "rc=$?"
trace-import -q -d nosmi.db data/scenario/nvidia-smi.csv \
    data/scenario/perf.txt.gz || exit 99
trace-flame -d nosmi.db --folded --gpu 0; echo "rc=$?"
trace-query top --gpu 0; echo "rc=$?"
# The whole bundle (nvidia-smi-apps.csv sorts before nvidia-smi.csv; the
# importer gives its track the GPU's index when that CSV comes): the
# same graph.
trace-import -q -d bundle.db data/scenario || exit 99
trace-align -q -d bundle.db > /dev/null || exit 99
trace-flame -d bundle.db --folded --gpu 0 2> /dev/null | cmp - gpu.folded &&
    echo "bundle: the same"
