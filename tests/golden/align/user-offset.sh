# --offset moves a source from where its anchors put it (here its native
# clock: the trace's logs are ignored and nothing is estimated); the
# statement sticks on later runs until --reset.
trace-import -q data/align/real || exit 1
trace-align --ignore go-log --no-estimate --offset 3=-329557.372s -F csv |
    cut -d, -f1,5,6
trace-align --ignore go-log --no-estimate -F csv | cut -d, -f1,5,6
trace-query -F csv sql "SELECT min(ts) FROM slice"
# On top of exact anchors (the trace's logs), the offset is kept too.
trace-align --offset trace.out=-12.5ms -F csv | cut -d, -f1,5,6 | tail -n 1
trace-align -F csv | tail -n 1 | cut -d, -f1,5,6,12-
trace-align --reset -F csv > /dev/null
trace-align -F csv | cut -d, -f1,5,6 | tail -n 1
