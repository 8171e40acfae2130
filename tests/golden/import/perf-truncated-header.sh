# A perf script file cut inside the header line of its last sample (the
# last line, no newline after it) takes the path of a file cut inside the
# last sample's callchain: the sample is left out and the import line says
# so with the line of its header.  With callchains (core/small.perf.txt
# cut inside line 19, the time stamp) and in -G output, where a header
# cut inside its frame ('leaf_m') would otherwise pass for a sample.
trace-import data/perf/truncated-header.perf.txt || exit 1
trace-import -d g.db data/perf/truncated-header-G.perf.txt || exit 1
for db in trace.db g.db; do
	trace-query -d $db sql "SELECT count(*) AS samples, sum(value) AS
	    value, max(ts) AS last_ts,
	    (SELECT json_extract(meta, '$.incomplete_last_sample')
	      FROM source) AS cut FROM sample"
done
trace-query -d g.db sql "SELECT DISTINCT name FROM frame ORDER BY 1"
