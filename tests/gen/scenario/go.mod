module tracekit/scenario

go 1.19
