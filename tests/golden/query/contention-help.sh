# The help of contention lists its options.
trace-query contention --help
