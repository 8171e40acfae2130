# One meaning per option name: -F/--output-format is the output format of
# trace-query and trace-align; --format (trace-import's input parser) is
# not an output option there.
trace-import -q data/core/small.perf.txt || exit 99
trace-query --output-format json sql "SELECT 1 AS one"
trace-query --output-format=csv sql "SELECT 1 AS one"
trace-align -n --output-format xml; echo "exit $?"
trace-query --format json sql "SELECT 1" 2>&1 | head -n 1
trace-align --format json 2>&1 | head -n 1
