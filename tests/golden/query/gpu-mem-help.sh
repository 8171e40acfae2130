trace-query gpu-mem --help
