# trace-align's statements about a source are --source-tz and
# --source-pid (trace-tools(7), OPTION NAMES); the old spellings --tz and
# --pid are deprecated synonyms (with a note) and give the same alignment.
# Bad values name the option in its new spelling.
TZ=Europe/Berlin trace-import -q data/demo || exit 1
trace-align -n --source-tz UTC -F csv | cut -d, -f1,5-8 > new.csv
trace-align -n --tz UTC -F csv | cut -d, -f1,5-8 > old.csv
cmp new.csv old.csv && sed -n '1p;10p' new.csv
trace-align -n --source-tz 9=UTC -F csv | cut -d, -f1,5-8 | sed -n 10p
trace-align -n --source-tz Mars/Olympus_Mons; echo "rc=$?"
trace-align -n --source-tz 10=UTC; echo "rc=$?"
trace-align -n --source-pid x; echo "rc=$?"
trace-align -n --source-pid 99=1; echo "rc=$?"
trace-import -q -d real.db data/align/real || exit 1
pid=$(trace-query -d real.db -F csv sql "SELECT DISTINCT p.pid FROM \
    perf_sample p" | tail -n 1)
trace-align -d real.db -n --ignore go-log --source-pid "trace.out=$pid" \
    -F csv | cut -d, -f1,7,11 > new.csv
trace-align -d real.db -n --ignore go-log --pid "trace.out=$pid" \
    -F csv | cut -d, -f1,7,11 > old.csv
cmp new.csv old.csv && tail -n 1 new.csv
# The usage names the new spellings only.
trace-align --help | grep -e '--source-\|--tz\|--pid'
