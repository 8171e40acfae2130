# A gzipped Go trace on standard input streams like a file, and importing
# the same content again is a no-op.
gzip -c data/gotrace/min119.trace > t.gz
trace-import - < t.gz || exit 99
trace-import data/gotrace/min119.trace
trace-query -F csv sql "SELECT path, format, compression, size FROM source"
