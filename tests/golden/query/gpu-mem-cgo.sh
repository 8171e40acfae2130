# gpu-mem on a Go program that holds device memory through cgo
# (tests/data/gpumem-cgo, tests/gen/gpumem-cgo: each step C allocates
# 8 MiB the Go heap never sees and calls back into Go, where
# main.goStep keeps 64 KiB; main.warm grows in the first steps only),
# with its SYNTHETIC compute-apps CSV: a leak, main.goStep first (r 1)
# and marked cgo, main.warm after it, and the note on cgo; the CSV names
# the GPU by uuid only, which a note says.
trace-import --tz UTC data/gpumem-cgo 2>/dev/null || exit 99
trace-query -F json gpu-mem > out.json || exit 1
awk -v name=cgo -v verdict=leak -v slope= -v stack=main.goStep \
    -f "${0%/*}/gpu-mem-truth.awk" out.json || exit 1
grep -o '"heap_stacks":\[{"rank":1,"stack":"main.goStep[^]]*' out.json |
    grep -o '"r":[^,]*,"cgo":[a-z]*'
trace-query -F csv gpu-mem --steps 0 | sed -n '/^row,rank,stack/,$p'
