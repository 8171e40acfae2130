# A selection with no samples still gives a valid SVG, which says so.
trace-import -q data/core/small.perf.txt || exit
trace-flame --pid 999999 --title 'pid 999999' > flame.svg
echo "exit $?"
cat flame.svg
