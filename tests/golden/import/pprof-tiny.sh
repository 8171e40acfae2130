# A raw (uncompressed) profile.proto made field by field (mkbad.py): found
# by content; inlined lines are frames of their own, innermost last in the
# stack and flagged; a location without lines is "[unknown]" at its
# address in its mapping; labels with a unit; mappings, comments and
# drop/keep frames in the profile's meta.
trace-import data/pprof/tiny.pb || exit 1
trace-query -F csv sql "SELECT type, ts, dur, period, period_type,
  period_unit, sample_types, meta FROM profile"
trace-query -F csv sql "SELECT s.id, s.sample_type, s.value, s.labels,
  (SELECT group_concat(name, ';') FROM (SELECT f.name FROM stack st
    JOIN frame f ON f.id = st.frame_id WHERE st.callsite_id = s.callsite_id
    ORDER BY st.depth)) AS stack
  FROM pprof_sample s ORDER BY s.id"
trace-query -F csv sql "SELECT name, module, file, line, printf('%x', addr)
  AS addr, inlined FROM frame ORDER BY id"
