# One profile of each kind Go 1.19's runtime/pprof writes (tests/gen/pprof),
# imported as a directory: the profile type comes from the sample types,
# the period type, the default sample type and, for block against mutex,
# the leaf functions.  Labels are kept per sample.
trace-import data/pprof/gen || exit 1
trace-query -F csv sql "SELECT s.path, p.type, p.period_type, p.period_unit,
  p.period, p.sample_types, p.default_type, p.dur > 0 AS has_dur
  FROM source s JOIN profile p ON p.source_id = s.id ORDER BY s.path"
trace-query -F csv sql "SELECT labels, count(*) FROM pprof_sample
  WHERE profile_type = 'cpu' AND sample_type = 'cpu' GROUP BY 1 ORDER BY 1"
trace-query -F csv sql "SELECT count(*) FROM pprof_sample
  WHERE profile_type = 'goroutine' AND labels = '{\"pool\":\"w0\"}'"
