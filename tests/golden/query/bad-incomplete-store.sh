# What a killed trace-import left while making a store is no store, even
# when it reads as one: refused by its name, and left alone.
trace-import -q -d made.db data/core/small.perf.txt
cp made.db .trace.db.incomplete-Ab12Cd
trace-query -d .trace.db.incomplete-Ab12Cd summary
rc=$?
cmp made.db .trace.db.incomplete-Ab12Cd && echo unchanged
exit $rc
