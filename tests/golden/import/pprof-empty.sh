# A profile with a sample type but no samples, mappings, time or period
# imports as a profile row with nothing else.
trace-import data/pprof/empty-profile.pb || exit 1
trace-query -F csv sql "SELECT p.type, p.ts, p.dur, p.period, p.period_type,
  p.sample_types, p.meta, s.ts_min, s.ts_max, s.clock
  FROM profile p JOIN source s ON s.id = p.source_id"
trace-query -F csv sql "SELECT count(*) FROM sample"
