# A file that is not a store is refused and left alone.
printf 'my notes\n' > notes.db
trace-query -d notes.db summary
rc=$?
cat notes.db
exit $rc
