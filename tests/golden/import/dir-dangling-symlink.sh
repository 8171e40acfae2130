# A directory with a dangling symbolic link: the link is skipped with a
# note, as any other file that is not an input, and the rest imports
# (this used to abort the whole import: exit 1, no store).
mkdir in || exit 99
cp data/core/small.perf.txt in/a.perf.txt || exit 99
ln -s nowhere.txt in/b-gone.txt || exit 99
trace-import -d t.db in
echo "exit $?"
trace-query -d t.db -F csv sql "SELECT id, path, format FROM source"
# Quiet: the note goes too.
trace-import -q -d q.db in
echo "exit $?"
