#!/bin/sh
# Write tests/data/flame/diff-before.perf.txt and diff-after.perf.txt, two
# synthetic perf script outputs of one program "app" (pid 100) with known
# counts per stack (1 ms cpu-clock samples, 2 ms apart):
#   stack                    before  after
#   main;work;compute            40    120
#   main;work;io                 20     20
#   main;idle                    30     40
#   main;old_path                10      0
#   main;new_path                 0     20
# 100 samples before (from 1s), 200 after (from 10s), so that normalised
# to the after's total the base doubles and the deltas are +40 (compute),
# -20 (io, idle, old_path) and +20 (new_path).  Run from the top of the
# source tree: sh tests/gen/flame/diff-data.sh
set -eu
out=tests/data/flame
gen() {
	awk -v t0="$1" -v spec="$2" 'BEGIN {
		n = split(spec, parts, " ")
		t = t0
		for (i = 1; i <= n; i++) {
			split(parts[i], kv, "=")
			k = split(kv[1], fr, ";")
			for (j = 0; j < kv[2]; j++) {
				printf "app   100 [000] %12.6f:    1000000 " \
				    "cpu-clock: \n", t
				for (m = k; m >= 1; m--)
					printf "\t%16x %s+0x%x (/opt/app/app)\n", \
					    4096 + 16 * m + 256 * length(fr[m]), \
					    fr[m], m
				printf "\n"
				t += 0.002
			}
		}
	}'
}
# Interleaved, as a profile is: the stacks take turns.
gen 1 "main;work;compute=10 main;work;io=5 main;idle=10 main;old_path=5 \
main;work;compute=30 main;work;io=15 main;idle=20 main;old_path=5" \
    > "$out/diff-before.perf.txt"
gen 10 "main;work;compute=60 main;idle=20 main;new_path=10 main;work;io=20 \
main;work;compute=60 main;idle=20 main;new_path=10" \
    > "$out/diff-after.perf.txt"
