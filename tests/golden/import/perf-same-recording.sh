# One perf.data printed by perf script in six ways (default; --ns -F
# comm,pid,tid,cpu,time,event,period,ip,sym,dso; the same with tod; -F
# comm,tid,time,ip,sym,srcline; -G; --header) holds the same samples:
# every later rendering is found to be the first one's recording and
# skipped (exit 0, the store unchanged, nothing with -q).  Other
# recordings are not: the same program recorded again (defaultclock),
# the first four samples of this one (core/small.perf.txt), the
# FlameGraph fixtures.  --keep-same-samples imports a rendering anyway
# and marks it in the source's meta.
p=data/perf/local-perf6.1/burn-kmono
cat data/perf/local-perf6.1/burn-kmono-header-clock-lines.txt >header.txt
gzip -dc $p-default.perf.txt.gz >>header.txt
trace-import $p-default.perf.txt.gz || exit 1
sha256sum trace.db >before
for v in ns-F-comm_pid_tid_cpu_time_event_period_ip_sym_dso F-with-tod \
    F-comm_tid_time_ip_sym_srcline G-nocallchain; do
	trace-import $p-$v.perf.txt.gz || exit 1
done
trace-import header.txt || exit 1
trace-import -q $p-G-nocallchain.perf.txt.gz || exit 1
sha256sum -c --quiet before || exit 1
trace-import data/perf/local-perf6.1/burn-defaultclock-default.perf.txt.gz \
    data/core/small.perf.txt data/perf/flamegraph/perf-funcab-cmd-01.txt.gz \
    data/perf/flamegraph/perf-java-stacks-02.txt.gz || exit 1
trace-import --keep-same-samples header.txt || exit 1
trace-query sql "SELECT id, path, json_extract(meta, '$.same_samples_as')
    AS same_samples_as,
    (SELECT count(*) FROM sample WHERE source_id = source.id) AS samples
  FROM source ORDER BY id"
echo '--- summary says which source holds the same samples as another'
trace-query -F csv summary 2>&1 >/dev/null
