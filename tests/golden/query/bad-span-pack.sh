# A store whose go_span_pack is damaged (the goroutines of region0's chunk
# cut to 4 bytes by hand: tests/data/core/bad-v11-goids.db): steps, which
# reads the steps from the pack, fails with the store and the row named,
# exit status 1, and leaves the store as it was; a region whose chunk is
# whole still reads, and go_span (TRACEKIT_NO_PACK=1) still answers.
cp data/core/bad-v11-goids.db bad.db && chmod u+w bad.db || exit 99
sum=$(cksum < bad.db)
trace-query -d bad.db -F csv steps --region region0
echo "steps region0: $?"
trace-query -d bad.db -F csv steps --region region1 | head -n 2
TRACEKIT_NO_PACK=1 trace-query -d bad.db -F csv steps --region region0 |
    head -n 2
[ "$(cksum < bad.db)" = "$sum" ] && echo "the store is as it was"
