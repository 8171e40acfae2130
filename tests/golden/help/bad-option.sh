trace-flame --bogus
