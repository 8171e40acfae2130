# Sourced by the scripts in tests/reliability: tools, a scratch directory,
# and helpers.  make check sets TR_BINDIR and TR_DATA; by hand:
#   TR_BINDIR=BUILD/src/tools TR_DATA=SRC/tests/data sh tests/reliability/X
set -u
: "${TR_BINDIR:?set TR_BINDIR to the directory of the built tools}"
: "${TR_DATA:?set TR_DATA to tests/data}"
IMPORT=$TR_BINDIR/trace-import
QUERY=$TR_BINDIR/trace-query
unset TRACE_DB
scratch=$(mktemp -d "${TMPDIR:-/tmp}/tr-rel.XXXXXX") || exit 99
trap 'rm -rf "$scratch"' EXIT
cd "$scratch" || exit 99

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# q DB SQL: one value from the store (trace-query, read-only).
q() {
	"$QUERY" -d "$1" -F csv sql "$2" | sed 1d
}

# check_store DB: PRAGMA integrity_check says ok.
check_store() {
	r=$(q "$1" "SELECT integrity_check FROM pragma_integrity_check") ||
	    fail "$1: cannot query"
	[ "$r" = ok ] || fail "$1: integrity_check: $r"
}

# counts DB: "sources samples frames callsites" of the store.
counts() {
	q "$1" "SELECT (SELECT count(*) FROM source) || ' ' ||
	    (SELECT count(*) FROM sample) || ' ' ||
	    (SELECT count(*) FROM frame) || ' ' ||
	    (SELECT count(*) FROM callsite) AS c"
}

# gen_perf N SEED: a perf script of N samples with stacks of 3 to 11
# frames drawn from about a thousand functions; SEED changes the command
# name and so the content.
gen_perf() {
	awk -v n="$1" -v s="$2" 'BEGIN {
		hdr = "prog%s %d/%d [%03d] %.6f: 1001001 cpu-clock:\n"
		for (i = 0; i < n; i++) {
			printf hdr, s, 100 + i % 7, 200 + i % 13, i % 4,
			    1000 + i * 0.001001
			d = 3 + i % 9
			for (j = 0; j < d; j++)
				printf "\t%x f%d_%d+0x%x (/usr/bin/prog)\n",
				    4096 + j * 16 + i % 50, j,
				    (i * 7 + j) % 97, j
			printf "\n"
		}
	}'
}

# now_ms: milliseconds since some fixed point (for timing kills).
now_ms() {
	echo $(($(date +%s%N) / 1000000))
}
