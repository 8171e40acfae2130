# The whole export of a small perf store, exactly: the host's process
# (perf printed no pid), a thread per tid named by its command, an
# instant per sample named by its leaf function, its stack in
# stackFrames, time stamps in microseconds from the store's start.
trace-import -q data/core/small.perf.txt || exit 99
trace-query chrome-trace
trace-query chrome-trace > t.json && chrome-check t.json
