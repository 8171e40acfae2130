# A directory of heap profiles of one process over time: one profile each,
# placed on the timeline by time_nanos, in time order.
trace-import -q data/pprof/series || exit 1
trace-query -F csv sql "SELECT p.id, s.path, p.type,
  p.ts - (SELECT min(ts) FROM profile) AS since_first_ns,
  (SELECT sum(value) FROM sample x WHERE x.profile_id = p.id
    AND x.event_id = (SELECT id FROM str WHERE s = 'inuse_space'))
    AS inuse_space
  FROM profile p JOIN source s ON s.id = p.source_id ORDER BY p.ts"
