# Bad option values of gpu-idle: usage errors (exit 2) naming the option
# and what was expected; an unknown goroutine is an error of the store's
# data (exit 1).
trace-import data/demo/trace.out data/demo/nvidia-smi.csv 2>/dev/null ||
    exit 99
for o in "--threshold 101" "--threshold -5" "--gap xyz" "--min -1s" \
    "--treshold 5" "extra"; do
	trace-query -F csv gpu-idle $o
	echo "$o: $?"
done
trace-query -F csv gpu-idle --goroutine 999
# --driver with --goroutine, without a value (exit 2); see also
# gpu-idle-driver.sh.
trace-query -F csv gpu-idle --driver main --goroutine 1
echo "--driver main --goroutine 1: $?"
trace-query -F csv gpu-idle --driver
echo "--driver: $?"
