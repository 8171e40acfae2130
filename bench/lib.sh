# bench/lib.sh: what the bench scripts share.  Sourced, with $0 the
# script: . "$(dirname "$0")/lib.sh"

# bench_path TOOL...: TR_BINDIR (default: ./src/tools when run from a
# build tree, else PATH) first on PATH; exit 2 when a TOOL is not there.
bench_path() {
	if [ -n "${TR_BINDIR:-}" ]; then
		PATH="$TR_BINDIR:$PATH"
	elif [ -x ./src/tools/trace-import ]; then
		PATH="$(pwd)/src/tools:$PATH"
	fi
	for t in "$@"; do
		command -v "$t" >/dev/null || {
			echo "$(basename "$0"): no $t (set TR_BINDIR)" >&2
			exit 2
		}
	done
}

# bench_scratch: $dir, BENCH_DIR or a new directory under $TMPDIR,
# removed at exit unless BENCH_KEEP=1.
bench_scratch() {
	if [ -n "${BENCH_DIR:-}" ]; then
		dir=$BENCH_DIR
		mkdir -p "$dir" || exit 1
	else
		dir=$(mktemp -d "${TMPDIR:-/tmp}/$(basename "$0" .sh).XXXXXX") ||
		    exit 1
	fi
	[ "${BENCH_KEEP:-0}" = 1 ] || trap 'rm -rf "$dir"' EXIT
}
