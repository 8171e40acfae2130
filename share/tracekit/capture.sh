#!/bin/sh
# capture.sh: collect a postmortem bundle beside a running workload, so that
# `trace-import BUNDLE && trace-align` puts everything on one timeline with
# no guesswork.  Part of tracekit; see trace-tools(7).
#
# Each part is optional and skipped, with a message, when its tool is
# missing or when -x names it:
#   clock   clock.json: CLOCK_REALTIME/CLOCK_MONOTONIC pairs (with the
#           bracket of each read) at the start, every -i seconds, at the end
#   perf    perf record -k CLOCK_MONOTONIC -g, then perf script --header
#   gpu     nvidia-smi --query-gpu and --query-compute-apps CSV, dmon, pmon
#   nvtop   nvtop snapshots (their times come from nvtop.txt)
#   go      runtime/trace and pprof from a Go program's net/http/pprof (-u)
#
# Usage: capture.sh [-o DIR] [-d SECONDS] [-p PID] [-F HZ] [-i SECONDS]
#                   [-g MS] [-u URL] [-x PART]... [-- COMMAND [ARG...]]

set -u

prog=capture.sh
out=
secs=30
pid=
freq=999
every=5
gpu_ms=100
url=
skip=
pids=
go_pids=
go_ok=0

usage() {
	cat <<EOF
usage: $prog [-o DIR] [-d SECONDS] [-p PID] [-F HZ] [-i SECONDS] [-g MS]
                  [-u URL] [-x PART]... [-- COMMAND [ARG...]]

Collect a postmortem bundle for tracekit: clock pairs, perf samples on
CLOCK_MONOTONIC, GPU telemetry and Go profiles, for SECONDS or for as long
as COMMAND runs.  Then: trace-import DIR && trace-align

  -o DIR      the bundle directory (default: bundle-DATE-TIME)
  -d SECONDS  how long to capture without COMMAND (default: 30)
  -p PID      the process perf records (default: COMMAND, else every CPU)
  -F HZ       perf's sampling frequency (default: 999)
  -i SECONDS  a clock pair every SECONDS (default: 5)
  -g MS       nvidia-smi's interval in milliseconds (default: 100)
  -u URL      a Go program's net/http/pprof base, http://host:6060: fetch
              a runtime trace, a CPU profile and heap profiles
  -x PART     skip a part: clock, perf, gpu, nvtop or go
  -h          print this help
EOF
}

note() {
	echo "$prog: $*" >&2
}

die() {
	note "$@"
	exit 1
}

usage_error() {
	note "$@"
	echo "run '$prog -h' for the options" >&2
	exit 2
}

skipped() {
	case " $skip " in
	*" $1 "*) return 0 ;;
	esac
	return 1
}

have() {
	command -v "$1" >/dev/null 2>&1
}

while getopts o:d:p:F:i:g:u:x:h opt; do
	case $opt in
	o) out=$OPTARG ;;
	d) secs=$OPTARG ;;
	p) pid=$OPTARG ;;
	F) freq=$OPTARG ;;
	i) every=$OPTARG ;;
	g) gpu_ms=$OPTARG ;;
	u) url=${OPTARG%/} ;;
	x)
		case $OPTARG in
		clock|perf|gpu|nvtop|go) skip="$skip $OPTARG" ;;
		*) usage_error "-x: unknown part '$OPTARG'; use clock, perf, gpu, nvtop or go" ;;
		esac
		;;
	h) usage; exit 0 ;;
	*) echo "run '$prog -h' for the options" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))

number() {
	case $2 in
	''|*[!0-9]*|0) usage_error "$1: expected a whole positive number, got '$2'" ;;
	esac
}
number -d "$secs"
number -F "$freq"
number -i "$every"
number -g "$gpu_ms"
if [ -n "$pid" ]; then
	number -p "$pid"
	kill -0 "$pid" 2>/dev/null || die "-p: no process $pid"
fi
[ -n "$out" ] || out=bundle-$(date +%Y%m%d-%H%M%S)
mkdir -p "$out" || die "cannot create '$out'"
manifest=$out/bundle.txt
: > "$manifest" || die "cannot write in '$out'"

say() {
	echo "$*" >> "$manifest"
}

# --- clock pairs ---------------------------------------------------------

# One pair as a JSON object: the wall clock read between two reads of the
# monotonic clock.  Python reads integers; Perl's floats lose ~250 ns on
# the wall clock, which the uncertainty says.
clock_pair() {
	if have python3; then
		python3 -c 'import time
a = time.monotonic_ns(); w = time.time_ns(); b = time.monotonic_ns()
print("{\"wall_ns\": %d, \"mono_before_ns\": %d, \"mono_after_ns\": %d}" % (w, a, b))'
	elif have perl && perl -MTime::HiRes=clock_gettime,CLOCK_MONOTONIC \
	    -e 1 2>/dev/null; then
		perl -MTime::HiRes=clock_gettime,CLOCK_MONOTONIC,CLOCK_REALTIME -e '
my $a = clock_gettime(CLOCK_MONOTONIC);
my $w = clock_gettime(CLOCK_REALTIME);
my $b = clock_gettime(CLOCK_MONOTONIC);
printf("{\"wall_ns\": %.0f, \"mono_before_ns\": %.0f, \"mono_after_ns\": %.0f, \"uncertainty_ns\": %.0f}\n",
    $w * 1e9, $a * 1e9, $b * 1e9, ($b - $a) * 1e9 / 2 + 250);'
	else
		return 1
	fi
}

clock_tmp=$out/.clock.pairs
clock_ok=0
if skipped clock; then
	note "clock: skipped (-x clock)"
elif clock_pair > "$clock_tmp" 2>/dev/null; then
	clock_ok=1
	(
		while sleep "$every"; do
			clock_pair >> "$clock_tmp" 2>/dev/null || exit 0
		done
	) &
	pids="$pids $!"
	say "clock.json: wall/monotonic pairs every ${every}s"
else
	note "clock: neither python3 nor perl (Time::HiRes) found: no clock.json; alignment of wall-clock sources will need --pair or an estimate"
	rm -f "$clock_tmp"
fi

finish_clock() {
	[ "$clock_ok" -eq 1 ] || return 0
	clock_pair >> "$clock_tmp" 2>/dev/null
	{
		printf '{\n  "tracekit_clock": 1,\n'
		printf '  "host": "%s",\n' "$(uname -n)"
		z=$(date +%z)
		printf '  "tz": "%s",\n' "$(echo "$z" | sed 's/^\(...\)\(..\)$/\1:\2/')"
		zn=${TZ:-}
		if [ -z "$zn" ] && [ -r /etc/timezone ]; then
			zn=$(head -n 1 /etc/timezone)
		fi
		if [ -z "$zn" ] && [ -L /etc/localtime ]; then
			zn=$(readlink /etc/localtime | sed 's|.*/zoneinfo/||')
		fi
		[ -n "$zn" ] && printf '  "tz_name": "%s",\n' "$zn"
		printf '  "pairs": [\n'
		sed '$!s/$/,/; s/^/    /' "$clock_tmp"
		printf '  ]\n}\n'
	} > "$out/clock.json"
	rm -f "$clock_tmp"
}

# --- GPU telemetry -------------------------------------------------------

if skipped gpu; then
	note "gpu: skipped (-x gpu)"
elif have nvidia-smi; then
	nvidia-smi --query-gpu=timestamp,index,name,uuid,utilization.gpu,utilization.memory,memory.used,memory.total,power.draw,temperature.gpu,clocks.sm \
	    --format=csv -lms "$gpu_ms" > "$out/nvidia-smi.csv" 2>/dev/null &
	pids="$pids $!"
	nvidia-smi --query-compute-apps=timestamp,gpu_uuid,pid,process_name,used_gpu_memory \
	    --format=csv -lms 1000 > "$out/nvidia-smi-apps.csv" 2>/dev/null &
	pids="$pids $!"
	nvidia-smi dmon -o DT -s pucm -d 1 > "$out/dmon.txt" 2>/dev/null &
	pids="$pids $!"
	nvidia-smi pmon -o DT -d 1 > "$out/pmon.txt" 2>/dev/null &
	pids="$pids $!"
	say "nvidia-smi.csv: --query-gpu every ${gpu_ms}ms, local time of zone $(date +%z)"
	say "nvidia-smi-apps.csv, dmon.txt, pmon.txt: every 1s"
else
	note "gpu: nvidia-smi not found: no GPU telemetry"
fi

if skipped nvtop; then
	note "nvtop: skipped (-x nvtop)"
elif have nvtop; then
	# nvtop prints no times: note when it started and its interval.
	nvtop -l -d 10 > "$out/nvtop.json" 2>/dev/null &
	pids="$pids $!"
	say "nvtop.json: nvtop -l -d 10, started at @$(date +%s.%N)," \
	    "interval 1s: trace-import --start @SECONDS --interval 1s nvtop.json"
else
	note "nvtop: not found: no nvtop snapshots"
fi

# --- the Go program ------------------------------------------------------

if skipped go; then
	note "go: skipped (-x go)"
elif [ -z "$url" ]; then
	note "go: no -u URL: to get a runtime trace and profiles, serve net/http/pprof in the program (import _ \"net/http/pprof\") and give -u http://HOST:PORT; for an exact trace clock, log pairs with trace.Log(ctx, \"tracekit.clock\", \"mono=NS wall=NS\")"
elif have curl; then
	curl -fsS -o "$out/trace.out" "$url/debug/pprof/trace?seconds=$secs" &
	go_pids="$go_pids $!"
	curl -fsS -o "$out/cpu.pb.gz" "$url/debug/pprof/profile?seconds=$secs" &
	go_pids="$go_pids $!"
	curl -fsS -o "$out/heap-start.pb.gz" "$url/debug/pprof/heap" ||
	    note "go: cannot fetch $url/debug/pprof/heap"
	go_ok=1
	say "trace.out, cpu.pb.gz: ${secs}s from $url; heap-start.pb.gz, heap-end.pb.gz"
else
	note "go: curl not found: cannot fetch from $url"
fi

# --- perf, and the workload ----------------------------------------------

status=0
if [ $# -gt 0 ] && [ -z "$pid" ]; then
	what="$*"
else
	what=
fi
if skipped perf; then
	note "perf: skipped (-x perf)"
	perf_ok=0
elif have perf; then
	perf_ok=1
else
	note "perf: not found: no CPU samples (apt-get install linux-perf)"
	perf_ok=0
fi

if [ "$perf_ok" -eq 1 ]; then
	if [ -n "$what" ]; then
		perf record -q -k CLOCK_MONOTONIC -g -F "$freq" \
		    -o "$out/perf.data" -- "$@"
		status=$?
	elif [ -n "$pid" ]; then
		perf record -q -k CLOCK_MONOTONIC -g -F "$freq" -p "$pid" \
		    -o "$out/perf.data" -- sleep "$secs"
		status=$?
	else
		perf record -q -k CLOCK_MONOTONIC -g -F "$freq" -a \
		    -o "$out/perf.data" -- sleep "$secs"
		status=$?
	fi
elif [ -n "$what" ]; then
	"$@"
	status=$?
else
	sleep "$secs"
fi

# --- the end -------------------------------------------------------------

if [ "$go_ok" -eq 1 ]; then
	curl -fsS -o "$out/heap-end.pb.gz" "$url/debug/pprof/heap" ||
	    note "go: cannot fetch $url/debug/pprof/heap"
	# The trace and the CPU profile end by themselves after SECONDS.
	for p in $go_pids; do
		wait "$p" || note "go: a fetch from $url failed"
	done
fi
for p in $pids; do
	kill "$p" 2>/dev/null
done
finish_clock
if [ -f "$out/perf.data" ]; then
	if perf script --header --ns -F +pid -i "$out/perf.data" \
	    > "$out/perf.txt" 2>/dev/null; then
		gzip -f "$out/perf.txt"
		say "perf.txt.gz: perf record -k CLOCK_MONOTONIC -g -F $freq," \
		    "perf script --header --ns -F +pid"
	else
		note "perf: perf script failed: perf.data is kept"
	fi
fi
say "import: trace-import $out && trace-align"
note "bundle in $out:" "$(cd "$out" && find . -maxdepth 1 -type f ! -name '.*' | sed 's|^\./||' | sort | tr '\n' ' ')"
exit "$status"
