trace-import --help
