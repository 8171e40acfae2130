# perf samples exported as a profile.proto: sample types samples/count and
# the event (cpu-clock counts nanoseconds), one sample per store row,
# [unknown] frames as locations without lines.  Imported back, the totals
# equal the folded stacks'.
trace-import -q data/core/small.perf.txt || exit 99
trace-flame --folded
trace-flame --pprof perf.pb.gz || exit 1
trace-import -q -d back.db perf.pb.gz || exit 1
trace-query -d back.db -F csv sql "SELECT type, period_type, period_unit,
  sample_types FROM profile"
trace-query -d back.db -F csv sql "SELECT sample_type, count(*), sum(value)
  FROM pprof_sample GROUP BY 1 ORDER BY 1"
trace-query -d back.db -F csv top --sample-index cpu-clock
