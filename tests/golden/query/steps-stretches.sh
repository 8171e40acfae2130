# steps --stretches N: of the scenario's nine stretches of slow steps
# (steps-scenario.sh), only the N longest are attributed, in time order,
# keeping their numbers among all nine; a note says so.  The longest two
# are 1 and 5 (the GC storm and the CPU-heavy phase): the same numbers,
# spans and causes as without --stretches.
trace-import data/scenario 2>/dev/null || exit 99
trace-align >/dev/null 2>&1 || exit 99
trace-query -F csv steps --region step --top 0 > all.csv || exit 1
trace-query -F csv steps --region step --top 0 --stretches 2 2> err.txt \
    > two.csv || exit 1
grep stretches err.txt
sed -n '/^stretch,/,/^$/p' all.csv | sed '1d;/^$/d' | cut -d, -f1,9 |
    sort -t, -k2,2nr | head -n 2 | sort -n
sed -n '/^stretch,/,/^$/p' two.csv | sed '1d;/^$/d' | cut -d, -f1,9,12
