# timeline's usage errors exit 2 and name the problem: a step of zero, a
# step that is not a duration or is negative, a misspelt option, an
# operand.
trace-import data/core/small.perf.txt 2>/dev/null || exit 99
trace-query timeline --step 0; echo "rc=$?"
trace-query timeline --step x; echo "rc=$?"
trace-query timeline --step -1s; echo "rc=$?"
trace-query timeline --stp 1s; echo "rc=$?"
trace-query timeline extra; echo "rc=$?"
