#!/bin/sh
# tests/gen/gpumem/gen.sh [OUTDIR]: write a SYNTHETIC nvidia-smi bundle of
# GPU memory with known behaviour, in the real formats of
# `nvidia-smi --query-compute-apps=timestamp,gpu_uuid,pid,process_name,
# used_gpu_memory --format=csv -l 1` (apps.csv) and `nvidia-smi
# --query-gpu=timestamp,index,uuid,memory.used,memory.total --format=csv
# -l 1` (gpu.csv): two GPUs, four processes, 300 samples a second apart
# from 2026-12-01 09:00:00 (local time, read with --tz UTC), and
# truth.txt, one line per process:
#
#   pid gpu verdict slope_bytes_per_min growth_bytes
#
#   1001 GPU 0  python3 serve.py  flat: 3000 MiB, +-1 MiB of noise
#   1002 GPU 0  leaky-infer       leak: 2000 MiB, +4 MiB a second
#                                 (251658240 B/min), +-1 MiB of noise
#   1003 GPU 0  trainer           sawtooth: 1000 MiB, +64 MiB a second
#                                 for 20 s, then back to 1000 MiB
#   1004 GPU 1  embedder          plateau: 500 MiB growing by 2048 MiB
#                                 in shrinking steps (x0.9) to 10 MiB,
#                                 then flat
#
# The noise is a Park-Miller generator (seed 42) in awk's exact double
# arithmetic, so mawk and gawk write the same bytes.
out=${1:-tests/data/gpumem}
mkdir -p "$out" || exit 1
awk -v out="$out" 'BEGIN {
	x = 42
	n = 300
	ua = "GPU-0a1b2c3d-0000-4000-8000-00000000000a"
	ub = "GPU-0a1b2c3d-0000-4000-8000-00000000000b"
	apps = out "/apps.csv"; gpu = out "/gpu.csv"; truth = out "/truth.txt"
	print "timestamp, gpu_uuid, pid, process_name, " \
	    "used_gpu_memory [MiB]" > apps
	print "timestamp, index, uuid, memory.used [MiB], " \
	    "memory.total [MiB]" > gpu
	pl = 500; chunk = 256
	for (i = 0; i < n; i++) {
		s = i % 60
		ts = sprintf("2026/12/01 09:%02d:%02d.000", int(i / 60), s)
		a = 3000 + noise()
		b = 2000 + 4 * i + noise()
		c = 1000 + 64 * (i % 20)
		if (i > 0 && chunk >= 10) {
			pl += chunk
			chunk = chunk * 0.9
		}
		d = int(pl)
		printf "%s, %s, 1001, python3 serve.py, %d MiB\n", ts, ua, \
		    a > apps
		printf "%s, %s, 1002, leaky-infer, %d MiB\n", ts, ua, b > apps
		printf "%s, %s, 1003, trainer, %d MiB\n", ts, ua, c > apps
		printf "%s, %s, 1004, embedder, %d MiB\n", ts, ub, d > apps
		printf "%s, 0, %s, %d MiB, 81920 MiB\n", ts, ua, \
		    a + b + c + 437 > gpu
		printf "%s, 1, %s, %d MiB, 81920 MiB\n", ts, ub, d + 437 > gpu
	}
	print "1001 0 flat 0 0" > truth
	printf "1002 0 leak 251658240 %.0f\n", 4 * (n - 1) * 1048576 > truth
	print "1003 0 sawtooth 0 0" > truth
	printf "1004 1 plateau 0 %.0f\n", (int(pl) - 500) * 1048576 > truth
}
# -1, 0 or +1 MiB.
function noise() {
	x = (x * 16807) % 2147483647
	return x % 3 - 1
}'
