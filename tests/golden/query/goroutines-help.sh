# The help of goroutines lists its options.
trace-query goroutines --help
