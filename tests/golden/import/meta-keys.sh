# The keys of the JSON meta of source, profile and track, as importers
# write them, against the lists of trace-store(5), subsection Metadata.
# One input of every format (and the variants that add keys: a perf
# --header, -F tod, another rendering kept with --keep-same-samples, a cut
# sample, a quirk; Go traces of the old format, with tasks, of Go 1.25;
# compute-apps before --query-gpu, a GPU without an index, a local time
# that occurs twice; pmon; nvtop with processes; clock.json with and
# without a zone name).  The output is the sorted key list, per table and
# format (track: kind), so that a new key shows as a diff; a key that the
# page does not list under its table and format (or kind) is named on
# stderr and fails the case.  The page lists keys in two-level tag lists:
# after '.Li TABLE.meta' a list whose items name formats or kinds, each
# with a list whose items name keys ('*' in a name stands for any rest).
imp() { trace-import -q "$@" || exit 99; }
imp data/scenario/perf.txt.gz
imp data/perf/local-perf6.1/burn-kmono-F-with-tod.perf.txt.gz
imp --keep-same-samples data/perf/local-perf6.1/burn-kmono-default.perf.txt.gz
imp data/perf/truncated-sample.perf.txt
imp data/perf/quirks/empty-line.perf.txt
imp data/pprof/tiny.pb
imp data/gotrace/gen119.trace
imp data/gotrace/go122-annotations.trace
imp data/gotrace/go125-sync.trace
imp --tz Europe/Berlin data/nvidia-smi/query-apps.csv
imp --tz Europe/Berlin data/nvidia-smi/query-gpu.csv
# The same log without its index column: the index comes by uuid.
sed 's/^\([^,]*\), [^,]*,/\1,/' data/nvidia-smi/query-gpu.csv >noindex.csv
imp --tz Europe/Berlin noindex.csv
imp --tz Europe/Berlin data/nvidia-smi/query-gpu-dst.csv
imp --tz Europe/Berlin data/nvidia-smi/dmon-dt.txt
imp --tz Europe/Berlin data/nvidia-smi/pmon-dt.txt
imp --start '2026-02-08T10:00:00+01:00' --interval 100ms \
    data/nvtop/nvtop-3.3.2-loop.json
imp data/scenario/clock.json
cat >zone.json <<'EOF'
{"tracekit_clock": 1, "host": "gpu-7", "tz": "+01:00",
 "tz_name": "Europe/Paris",
 "pairs": [{"wall_ns": 1795959651226464071, "mono_ns": 742520949745}]}
EOF
imp zone.json
trace-query -F csv sql "SELECT 'source' AS tbl, s.format AS ctx, j.key
    FROM source s, json_each(s.meta) j
  UNION SELECT 'profile', s.format, j.key
    FROM profile p JOIN source s ON s.id = p.source_id, json_each(p.meta) j
  UNION SELECT 'track', t.kind, j.key FROM track t, json_each(t.meta) j
  ORDER BY 1, 2, 3" >keys.csv || exit 99
cat keys.csv
awk '
function words(line, out,	n, i, t, k) {
	n = split(line, t, /[ \t]+/)
	k = 0
	for (i = 2; i <= n; i++) {
		sub(/,$/, "", t[i])
		if (t[i] == "" || t[i] ~ /^[A-Z][a-z]+$/ || t[i] ~ /^[,;:()]$/)
			continue
		out[++k] = t[i]
	}
	return (k)
}
FNR == NR {
	while ($0 ~ /\\$/ && (getline more) > 0)
		$0 = substr($0, 1, length($0) - 1) more
	if ($0 ~ /^\.S[hs] /) {
		in_ss = $0 == ".Ss Metadata"
		next
	}
	if (!in_ss)
		next
	if ($0 ~ /^\.Bl/)
		depth++
	else if ($0 ~ /^\.El/)
		depth--
	else if (depth == 0 && $0 ~ /^\.Li [a-z]+\.meta/) {
		tbl = $2
		sub(/\.meta.*/, "", tbl)
	} else if (depth == 1 && $0 ~ /^\.It /) {
		delete ctx
		nctx = words($0, ctx)
	} else if (depth == 2 && $0 ~ /^\.It /) {
		nk = words($0, key)
		for (c = 1; c <= nctx; c++)
			for (i = 1; i <= nk; i++)
				doc[tbl, ctx[c], ++ndoc[tbl, ctx[c]]] = key[i]
		listed += nk
	}
	next
}
FNR == 1 { next }
{
	split($0, f, ",")
	found = 0
	for (i = 1; i <= ndoc[f[1], f[2]]; i++) {
		re = doc[f[1], f[2], i]
		gsub(/\./, "\\.", re)
		gsub(/\*/, ".*", re)
		if (f[3] ~ ("^" re "$"))
			found = 1
	}
	if (!found) {
		print "meta-keys: " f[1] ".meta of " f[2] ": key \"" f[3] \
		    "\" is not listed in trace-store(5), Metadata" | "cat 1>&2"
		bad = 1
	}
}
END {
	if (listed == 0) {
		print "meta-keys: no keys found in trace-store(5)" | "cat 1>&2"
		bad = 1
	}
	exit (bad)
}' "${TR_SRCDIR:?}/man/trace-store.5" keys.csv
