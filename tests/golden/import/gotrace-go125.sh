# Go 1.25: sync batches with the frequency and a clock snapshot per
# generation (trace time, CLOCK_MONOTONIC, wall clock), kept in the
# source's metadata as exact anchors for trace-align.
trace-import data/gotrace/go125-sync.trace || exit 99
trace-query -F csv sql "SELECT format_version, clock,
    json_extract(meta, '\$.ticks_per_second') AS freq,
    json_extract(meta, '\$.generations') AS generations FROM source"
trace-query -F csv sql "SELECT json_extract(j.value, '\$.generation') AS gen,
    json_extract(j.value, '\$.trace_ns') AS trace_ns,
    json_extract(j.value, '\$.mono_ns') AS mono_ns,
    json_extract(j.value, '\$.wall_ns') AS wall_ns
    FROM source, json_each(source.meta, '\$.clock_snapshots') j"
