# The Chrome JSON export opens in speedscope: its own importer (the npm
# package speedscope, 1.25; tests/tools/speedscope-import.js drives it
# under node) makes a profile of every thread that has slices, named by
# the export's process and thread names, whose total weight is the
# thread's slices in microseconds as chrome-check sums them.  Skipped
# without node or speedscope (npm install -g speedscope; or
# SPEEDSCOPE_DIR=.../node_modules/speedscope).
command -v node > /dev/null || exit 77
dir=${SPEEDSCOPE_DIR:-$(npm root -g 2> /dev/null)/speedscope}
bundle=$(ls "$dir"/dist/release/speedscope-*.js 2> /dev/null | head -n 1)
[ -n "$bundle" ] || exit 77
trace-import -q data/gotrace/gen119.trace data/core/small.perf.txt || exit 99
trace-query -q chrome-trace > t.json || exit 1
chrome-check t.json | sed '$d' > tracks || exit 1
node "${TR_SRCDIR:?}/tests/tools/speedscope-import.js" "$bundle" t.json \
    > ss || exit 1
head -n 1 ss
# The threads with slices by chrome-check, and speedscope's profiles; a
# goroutine's states follow each other, so its profile weighs their sum
# (speedscope's weight is a thread's span: Ps and GC have gaps).
awk -F '\t' '$3 == "X" { t[$1 " (pid), " $2] = 1 }
    $3 == "X" && $4 == "goroutine" { us[$1 " (pid), " $2] += $6 / 1000 }
    END { for (k in t) printf "%s\t%s\n", k,
	k in us ? sprintf("%.0f", us[k]) : "-" }' tracks | sort > want
awk -F '\t' 'NR > 1 && !/^warnings/ {
	n = $1; sub(/ \(pid [0-9]+\), /, " (pid), ", n)
	sub(/ \(tid [0-9]+\)$/, "", n); print n "\t" $3 }' ss |
    sort > got.raw
awk -F '\t' 'FNR == NR { g[$1] = 1; t++; if ($2 != "-") w[$1] = $2; next }
    { n++; if (!($1 in g)) miss++
      else if ($1 in w) { k++; if (sprintf("%.0f", $2) == w[$1]) eq++ } }
    END { printf "profiles %d, threads with slices %d, missing %d; " \
	"goroutines %d, weights equal %d\n", n, t, miss, k, eq }' \
    want got.raw
