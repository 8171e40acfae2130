# gpu-mem on nvidia-smi pmon (tests/data/nvidia-smi/pmon-dt.txt: the fb
# column per process, two samples a second apart, one process seen once):
# per-process rows from pmon, each "unknown" since a fit needs 3 samples.
trace-import --tz UTC data/nvidia-smi/pmon-dt.txt 2>/dev/null || exit 99
trace-query -F csv gpu-mem --steps 1
