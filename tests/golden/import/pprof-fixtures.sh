# google/pprof's fixtures: a Go CPU profile, a C++ CPU profile without a
# samples/count type and without time, a Go heap profile whose locations
# have no lines, and a 1.2 MB CPU profile with deep recursive stacks.
# One profile row each, typed, on the wall clock; every value stored.
for f in sample.cpu cppbench.cpu_no_samples_type go.nomappings.crash \
    large.cpu; do
	trace-import data/pprof/$f.pb.gz || exit 1
done
trace-query -F csv sql "SELECT s.id, s.format, s.clock, s.ts_min, s.ts_max,
  p.type, p.ts, p.dur, p.period, p.period_type, p.period_unit,
  p.sample_types, p.default_type,
  json_array_length(json_extract(p.meta, '$.mappings')) AS mappings,
  json_extract(p.meta, '$.samples') AS pb_samples,
  json_extract(p.meta, '$.locations') AS pb_locations,
  json_extract(p.meta, '$.drop_frames') AS drop_frames
  FROM source s JOIN profile p ON p.source_id = s.id ORDER BY s.id"
trace-query -F csv sql "SELECT profile_id, sample_type, count(*), sum(value)
  FROM pprof_sample GROUP BY 1, 2 ORDER BY 1, min(id)"
