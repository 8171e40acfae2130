trace-import --list-formats
