# A schema version 10 store whose per-stack aggregates name a call site
# that does not exist (tests/data/core/bad-v10-fold.db): the migration to
# version 11 cannot fold them.  trace-import says where, exits 1 and
# leaves the store byte for byte as it was.
cp data/core/bad-v10-fold.db old.db && chmod u+w old.db || exit 99
sum=$(cksum < old.db)
trace-import -d old.db data/core/small2.perf.txt
echo "exit $?"
[ "$(cksum < old.db)" = "$sum" ] && echo "the store is as it was"
