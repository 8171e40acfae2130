# A selection with no samples exits 1 (trace-flame(1), EXIT STATUS) and
# still gives a valid SVG, which says so.
trace-import -q data/core/small.perf.txt || exit
trace-flame --from 1h --title 'from 1h' > flame.svg
echo "exit $?"
cat flame.svg
