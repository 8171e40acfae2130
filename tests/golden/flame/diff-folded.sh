# A differential of two known profiles (tests/gen/flame/diff-data.sh):
# before 100 samples, after 200; normalised to the after's total the base
# doubles, so the deltas are +40 ms (compute), -20 ms (io, idle, old_path)
# and +20 ms (new_path).  The same two-count folded lines whether the two
# are sources of one store, two stores or two time ranges, and equal to
# FlameGraph's difffolded.pl -n of the two folded files (sorted).
trace-import -q data/flame/diff-before.perf.txt \
    data/flame/diff-after.perf.txt || exit
trace-flame -s 2 --diff-base '-s 1' --folded > sources.txt || exit
cat sources.txt
cmp sources.txt data/flame/diff.difffolded && echo "= difffolded.pl -n"
echo "raw counts:"
trace-flame -q -s 2 --diff-base '--source 1' --no-normalize --folded
trace-import -q -d before.db data/flame/diff-before.perf.txt || exit
trace-import -q -d after.db data/flame/diff-after.perf.txt || exit
trace-flame -q -d after.db --diff-base '-d before.db' --folded |
    cmp - sources.txt && echo "two stores: the same"
trace-flame -q --from 9s --diff-base '--to 9s' --folded |
    cmp - sources.txt && echo "two time ranges: the same"
# Against itself: every delta 0.
trace-flame -q -s 2 --diff-base '-s 2' --folded
