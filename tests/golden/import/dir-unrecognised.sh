# A directory: every file inside, sorted and recursively, skipping dot
# files; what no importer recognises is skipped with a note, not an error.
mkdir -p in/sub in/.git
cp data/bad/garbage.bin in/
cp data/core/small.perf.txt in/sub/
cp data/core/small2.perf.txt in/.hidden.perf.txt
cp data/core/small2.perf.txt in/.git/x.perf.txt
: > in/empty.txt
trace-import in
rc=$?
trace-query -F csv sql 'SELECT id, path FROM source'
exit $rc
