# Every perf script output in data/perf/ imports (FlameGraph's test files
# from perf 3.2 to 4.13 and perf 6.1's five variants): the summary of
# each, then what the source rows record (version, clock, host from the
# "# hostname" header, time range, and whether a last sample cut by the
# end of the file was left out).  The five perf 6.1 variants of the -k
# mono recording are one recording: the first (by name) is imported, the
# other four are skipped as its renderings ("same samples as source 16").
for f in data/perf/flamegraph/*.txt.gz data/perf/local-perf6.1/*.txt.gz \
    data/perf/local-perf6.1/burn-kmono-header-clock-lines.txt; do
	trace-import "$f" || exit 1
done
trace-query sql "SELECT id, substr(path, 11) AS path, format,
    format_version, clock, host, rows, ts_min, ts_max,
    json_extract(meta, '$.incomplete_last_sample') AS cut
  FROM source ORDER BY id"
trace-query sql "SELECT count(*) AS samples, sum(value) AS value,
    count(DISTINCT callsite_id) AS stacks, count(DISTINCT thread_id) AS
    threads FROM sample"
