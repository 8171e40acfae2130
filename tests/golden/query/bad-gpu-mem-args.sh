# Bad option values of gpu-mem: usage errors (exit 2) naming the option
# and what was expected.
trace-import --tz UTC data/gpumem/gpu.csv 2>/dev/null || exit 99
for a in "--min-growth abc" "--min-growth -1" "--late-share 120" \
    "--release x%" "--min-span soon" "--stacks 5000" "--min-share 101" \
    "--steps -2" "--treshold 3" "--evidence=yes" "extra"; do
	trace-query -F csv gpu-mem $a
	echo "$a: $?"
done
