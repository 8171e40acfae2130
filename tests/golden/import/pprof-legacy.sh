# A profile without sample types whose samples have one value each: the
# value is taken to be of the period type (cpu/nanoseconds), as legacy
# CPU profiles are.
trace-import data/pprof/legacy.pb || exit 1
trace-query -F csv sql "SELECT type, sample_types FROM profile"
trace-query -F csv sql "SELECT sample_type, value FROM pprof_sample
  ORDER BY id"
trace-query -F csv top
