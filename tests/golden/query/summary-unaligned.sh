# summary of a store where a clock record (CLOCK_MONOTONIC with wall-clock
# pairs: the store's timeline and its wall clock) sits beside heap
# profiles that trace-align has not placed yet: the profiles' start and
# end are their own wall clock (2026-12-01 18:26:32, when they were
# taken), not their store ns read through the clock record's wall clock
# (which gave 2083-11-01), and a note says which rows are off the
# timeline; after trace-align they are on it, a few ms from where they
# were.
trace-import -q data/scenario/clock.json data/scenario/heap-000.pb.gz \
    data/scenario/heap-001.pb.gz || exit 99
trace-query -F csv summary
trace-query -F csv summary --all
trace-align -q || exit 1
trace-query -F csv summary
