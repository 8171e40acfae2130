# A pprof profile gzip'd and not is one content (the decompressed bytes):
# the second import is a duplicate of the first, the store unchanged.
gzip -dc data/pprof/sample.cpu.pb.gz >sample.cpu.pb
trace-import data/pprof/sample.cpu.pb.gz || exit 1
sha256sum trace.db >before
trace-import sample.cpu.pb || exit 1
sha256sum -c --quiet before || exit 1
trace-query sql "SELECT id, path, compression FROM source"
