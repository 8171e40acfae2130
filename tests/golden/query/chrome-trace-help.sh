# chrome-trace --help needs no store; -l lists it.
trace-query chrome-trace --help
trace-query -l | grep '^chrome-trace'
