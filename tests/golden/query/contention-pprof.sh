# contention without a Go trace: the block and mutex profiles alone, by
# stack (the mutex profile's stacks are where the holders unlocked), and
# a note on what they cannot tell.
trace-import data/scenario/block.pb.gz data/scenario/mutex.pb.gz \
    2>/dev/null || exit 99
trace-query -F table contention
