# The scenario's truth against its own recording (tests/gen/scenario/
# check.sh, tests/gen/scenario/README): for each of its 21 phases the mean
# utilization.gpu in the window, the driver goroutine's longest state there
# apart from its wait for the GPU (with its mark assists), and the
# goroutine that woke it; every injected phase below 30% with the state
# its cause implies (and the waker truth.json names), normal training above
# 70%.  Fails when the data, the truth or the stored states drift apart.
trace-import data/scenario 2>/dev/null || exit 99
trace-align >/dev/null 2>&1 || exit 99
sh "$TR_SRCDIR/tests/gen/scenario/check.sh" data/scenario/truth.json
