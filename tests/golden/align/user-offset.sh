# --offset SOURCE==OFFSET counts from the native clock (here the trace's
# logs are ignored and nothing is estimated); the statement sticks on
# later runs until --reset.  SOURCE=OFFSET counts from the current
# alignment: the kept offset, or exact anchors (the trace's logs), and is
# kept on top of them.
trace-import -q data/align/real || exit 1
trace-align --ignore go-log --no-estimate --offset 3==-329557.372s -F csv |
    cut -d, -f1,7,8
trace-align --ignore go-log --no-estimate -F csv | cut -d, -f1,7,8
trace-query -F csv sql "SELECT min(ts) FROM slice"
# Relative to the kept offset: 12.5 ms earlier than it.
trace-align --offset trace.out=-12.5ms -F csv | tail -n 1 | cut -d, -f1,7,8,14-
trace-align --reset -F csv > /dev/null
# Relative to the exact anchors, and kept on top of them.
trace-align --offset trace.out=-12.5ms -F csv | cut -d, -f1,7,8 | tail -n 1
trace-align -F csv | tail -n 1 | cut -d, -f1,7,8,14-
trace-align --reset -F csv > /dev/null
trace-align -F csv | cut -d, -f1,7,8 | tail -n 1
