# A schema version 2 store whose derived tables cannot be computed (a run
# of goroutine states is not JSON: tests/data/core/bad-v2-run.db):
# trace-import says which run, exits 1 and leaves the store at version 2,
# so the same failure comes again and the read-only tools still ask for
# the migration.
cp data/core/bad-v2-run.db old.db && chmod u+w old.db || exit 99
trace-import -d old.db data/core/small.perf.txt
echo "exit $?"
trace-import -d old.db data/core/small.perf.txt
echo "exit $?"
trace-query -d old.db -F csv sql "SELECT count(*) FROM source"
