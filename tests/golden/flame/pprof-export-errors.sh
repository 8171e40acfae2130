# Exports that cannot be: profiles of different sample types without
# --sample-index, an empty selection, an unwritable file (nothing left).
trace-import -q data/pprof/gen/heap.pb.gz data/pprof/gen/cpu.pb.gz || exit 99
trace-flame --pprof out.pb.gz; echo "rc=$?"
trace-flame --pprof out.pb.gz --sample-index nothing; echo "rc=$?"
trace-flame --pprof out.pb.gz -s 1 --label worker=none; echo "rc=$?"
trace-flame --pprof nodir/out.pb.gz -s 1; echo "rc=$?"
ls
