# Found by fuzzing (tests/fuzz/fuzz-nvidia-smi-pmon, 2026-11-29): a gap of
# 200 years between two rows overflows int64 in the gap statistics
# (gpu-import.c gaps_summary: gap * 2; UBSan "signed integer overflow"),
# so that gap is not counted as long: long_gaps must be 1 here.  The
# fuzzer's own input must import too (a sanitizer build shows its UB).
trace-import -q --tz UTC data/bad/fuzz/pmon-gap.txt
trace-query -F csv sql "SELECT json_extract(meta, '$.sampling.long_gaps')
    AS long_gaps, json_extract(meta, '$.sampling.max_gap_ns') AS max_gap_ns
    FROM source"
trace-import -q --tz UTC -d raw.db data/bad/fuzz/pmon-crash-1812cc5c.txt
echo "exit $?"
