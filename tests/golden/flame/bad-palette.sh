# A palette file that is not NAME->rgb(R,G,B) lines: an error at its line
# and column, exit 1, and the file left as it was; a missing one starts
# empty.
trace-import -q data/core/small.perf.txt || exit
printf 'main->rgb(1,2,3)\nouter rgb(1,2,3)\n' > p1.map
trace-flame --palette p1.map > /dev/null; echo "exit $?"
printf 'main->rgb(1,2,3)\nouter->rgb(1,2,300)\n' > p2.map
trace-flame --palette p2.map > /dev/null; echo "exit $?"
printf 'main->#fff\n' > p3.map
trace-flame --palette p3.map > /dev/null; echo "exit $?"
cat p1.map p2.map p3.map
trace-flame --palette new.map > /dev/null; echo "exit $?"
cat new.map
