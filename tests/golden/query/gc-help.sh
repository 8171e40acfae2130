# The help of gc (trace-query gc --help) lists its options.
trace-query gc --help
