# Found by fuzzing (tests/fuzz/fuzz-input, 2026-11-29): detecting the
# format crashed (SIGSEGV: the perf-script probe reported a bad pid or tid
# through tr_input_error() with no input) when the first sample header's
# pid or tid is out of range.  Each must end in exit 1 and leave no store.
# (Detection now calls such a file unrecognised; with --format perf-script
# the message is "FILE:1:6: tid out of range: ...".)
for f in data/bad/fuzz/perf-probe-tid.txt \
    data/bad/fuzz/input-crash-de0832b1.bin; do
	trace-import "$f" 2> /dev/null
	echo "$f: exit $?"
done
ls
