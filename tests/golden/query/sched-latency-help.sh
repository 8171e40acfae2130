# The help of sched-latency lists its options.
trace-query sched-latency --help
