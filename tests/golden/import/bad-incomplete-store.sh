# Nor does trace-import import into such a temporary file, or make one
# its store.
printf 'partial' > .trace.db.incomplete-Ab12Cd
trace-import -d .trace.db.incomplete-Ab12Cd data/core/small.perf.txt
echo "exit $?"
trace-import -d .new.db.incomplete-Ab12Cd data/core/small.perf.txt
rc=$?
cat .trace.db.incomplete-Ab12Cd
echo
ls -A | grep db
exit $rc
