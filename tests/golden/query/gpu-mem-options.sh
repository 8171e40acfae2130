# The verdict's thresholds are options (tests/data/gpumem: 1002 leaks
# 4 MiB a second for 299 s, 1004 plateaus, 1003 is a sawtooth): a longer
# --min-span than the log makes the leak "unknown", a --late-share above
# its 50% makes it a plateau, a --min-growth above every change makes
# all flat, a --release above the sawtooth's 93% takes it to the growth
# rules; each rule says its option.
trace-import --tz UTC data/gpumem/apps.csv data/gpumem/gpu.csv \
    2>/dev/null || exit 99
for o in "--min-span 10m" "--late-share 60" "--min-growth 20000" \
    "--release 95"; do
	echo "# $o"
	trace-query -F json gpu-mem $o 2>/dev/null |
	    grep '^,\{0,1\}{"row":' | grep '"pid":[0-9]' |
	    sed 's/.*"pid":\([0-9]*\),.*"verdict":"\([a-z]*\)","rule":"\([^"]*\)".*/\1 \2: \3/'
done
