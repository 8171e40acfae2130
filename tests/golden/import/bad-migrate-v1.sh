# A schema version 1 store that cannot be migrated (one slice's args is not
# JSON: tests/data/core/bad-v1-args.db): trace-import says so, exits 1 and
# leaves the store at version 1, so the same failure comes again and the
# read-only tools still ask for the migration.
cp data/core/bad-v1-args.db old.db && chmod u+w old.db || exit 99
trace-import -d old.db data/core/small.perf.txt
echo "exit $?"
trace-import -d old.db data/core/small.perf.txt
echo "exit $?"
trace-query -d old.db -F csv sql "SELECT count(*) FROM source"
