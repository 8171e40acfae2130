module tracekit/aligngen

go 1.19
