# The same profile zstd-compressed imports the same rows; importing the
# raw bytes afterwards is a duplicate (same decoded content).
trace-import data/pprof/tiny.pb.zst || exit 1
trace-import data/pprof/tiny.pb || exit 1
trace-query -F csv sql "SELECT id, format, compression, rows FROM source"
trace-query -F csv sql "SELECT sample_type, sum(value) FROM pprof_sample
  GROUP BY 1 ORDER BY 1"
