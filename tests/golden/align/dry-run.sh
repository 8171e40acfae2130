# --dry-run prints what would be applied and writes nothing.
trace-import -q data/align/real || exit 1
sha256sum trace.db > before
trace-align -n -F csv | cut -d, -f1,3,4,7,8
rc=$?
sha256sum -c --quiet before
trace-query -F csv sql "SELECT count(*) FROM source WHERE align_method IS NOT NULL"
exit $rc
