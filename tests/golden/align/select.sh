# --source (the selection model's -s): only the selected sources are
# aligned and reported; the others stay as they are and serve as
# references.  An unknown source is an error listing the sources (exit
# 1); a statement about an unselected one is a usage error (exit 2);
# -q keeps warnings off stderr.
trace-import -q data/align/real || exit 1
trace-align -s 3 --ignore go-log -F csv | cut -d, -f1,7,8
echo "exit $?"
trace-query -F csv sql "SELECT id, align_method FROM source ORDER BY id"
trace-align -s 999
echo "exit $?"
trace-align -s 1-2 --offset 3=+1ms
echo "exit $?"
trace-align -s 1,2 -F csv | cut -d, -f1,7
trace-align --reset -s 3 -F csv | cut -d, -f1,7,8
trace-query -F csv sql "SELECT count(*) FROM source WHERE align_method IS NOT NULL"
# A source put far away: a warning, unless -q.
trace-align --offset 3==+5s -F csv > /dev/null
trace-align -q -F csv > /dev/null
echo "exit $?"
