trace-align --help
