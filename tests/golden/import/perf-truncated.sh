# A perf script file cut inside its last sample (no empty line after the
# stack, its last frame line cut mid-way): the sample is left out, as
# stackcollapse-perf.pl does, and the import line says so with the line
# of its header; the other three samples are stored, with the cut line
# recorded in the source's meta.  Beside it, the whole file gives four.
trace-import data/perf/truncated-sample.perf.txt || exit 1
trace-query sql "SELECT count(*) AS samples, sum(value) AS value,
    max(ts) AS last_ts FROM sample"
trace-query sql "SELECT json_extract(meta, '$.incomplete_last_sample')
    AS cut FROM source"
trace-import -d whole.db data/core/small.perf.txt || exit 1
trace-query -d whole.db sql "SELECT count(*) AS samples FROM sample"
