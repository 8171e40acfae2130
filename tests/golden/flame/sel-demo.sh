# The one selection model on the demo bundle (trace-query(1), SELECTION
# and TIMES), aligned: relative times count from the store's start for
# every source (the README's --comm ... --from ... --to needs no -s); one
# window given as store-relative, wall-clock (the store's zone, --tz,
# ISO 8601 with Z, @epoch) and absolute store ns selects the same samples;
# --pid finds perf samples recorded without a pid (by the main thread and
# its command name) and says so; unknown names are errors (exit 1) that
# list the choices; a repeated single-valued option is a usage error.
trace-import -q data/demo || exit 99
trace-align > /dev/null 2>&1 || exit 99
sum() { awk '{ n += $NF } END { print NR " stacks, " n }'; }
echo "--- --comm demo --from 1s --to 1.5s"
trace-flame --comm demo --from 1s --to 1.5s --folded | sum
echo "--- one window, five ways"
off=$(trace-query -F csv sql "SELECT -clock_offset FROM source WHERE id = 2" |
    tail -n 1)
trace-flame --folded --from 13:40:52.5 --to 13:40:53 2>/dev/null | sum
trace-flame --folded --tz Europe/Berlin --from 14:40:52.500 \
    --to 14:40:53 2>/dev/null | sum
trace-flame --folded --from 2026-11-29T13:40:52.5Z \
    --to 2026-11-29T13:40:53Z 2>/dev/null | sum
trace-flame --folded --from @1795959652.5 --to @1795959653 2>/dev/null | sum
trace-flame --folded --from =$((1795959652500000000 - off)) \
    --to =$((1795959653000000000 - off)) 2>/dev/null | sum
echo "--- --pid 14187 (perf script printed no pid)"
trace-flame --folded --pid 14187 | sum
trace-flame --folded | sum
echo "--- errors"
trace-flame --folded -s 999; echo "rc=$?"
trace-flame --folded -e nosuch; echo "rc=$?"
trace-flame --folded --pid 1; echo "rc=$?"
trace-flame --folded --comm nosuch; echo "rc=$?"
trace-flame --folded --from 25:00; echo "rc=$?"
trace-flame --folded --pid 1 --pid 2; echo "rc=$?"
trace-flame --folded -e cpu --sample-index cpu; echo "rc=$?"
trace-flame --folded --from 2s --to 1s; echo "rc=$?"
