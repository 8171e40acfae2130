trace-flame --help
