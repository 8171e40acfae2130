module tracekit/demo

go 1.19
