# --reset puts every row back on its source's native clock, to the ns.
trace-import -q data/align/real || exit 1
sums="SELECT (SELECT sum(ts) FROM slice), (SELECT sum(ts) FROM sample),
  (SELECT sum(ts) FROM counter), (SELECT sum(dur) FROM slice),
  (SELECT min(ts_min) || ' ' || max(ts_max) FROM source)"
trace-query -F csv sql "$sums" > native
trace-align -F csv > /dev/null || exit 1
trace-query -F csv sql "$sums" > aligned
cmp -s native aligned && echo "alignment moved nothing?"
trace-align --reset -F csv | cut -d, -f1,7,8
trace-query -F csv sql "$sums" > reset
cmp native reset && echo "every time is back where it was imported"
trace-query -F csv sql "SELECT count(*) FROM source WHERE align_method IS NOT NULL OR clock_offset <> 0 OR json_type(meta, '\$.align') IS NOT NULL"
