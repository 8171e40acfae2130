trace-query --help
