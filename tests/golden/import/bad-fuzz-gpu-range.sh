# Found by fuzzing (tests/fuzz/fuzz-nvidia-smi-csv, 2026-12-01): a pid of
# 5.1e26 in --query-compute-apps CSV was converted to int64_t before its
# range was checked (UBSan: outside the range of representable values;
# smi-crash-fec1cb5e.csv is libFuzzer's input).  The same check, now
# shared (tr_gpu_whole), guards nvtop's pids and the GPU indexes and pids
# of --query-gpu, dmon and pmon: each input is refused with its location,
# exit 1, and no store is left.
for f in smi-crash-fec1cb5e.csv smi-apps-bigpid.csv smi-bigindex.csv \
    pmon-bigpid.txt dmon-biggpu.txt nvtop-bigpid.json; do
	trace-import --tz UTC --start @1 --interval 1s "data/bad/fuzz/$f"
	echo "$f: exit $?"
done
ls
