# Drawing options on two samples: an icicle (roots at the top) of the
# stacks merged from the leaf (--reverse), 600 px wide, 20 px frames, the
# count named "ns" (the values are cpu-clock periods), a subtitle; and the
# document around the frames.
trace-import -q data/core/small.perf.txt || exit
trace-flame --inverted --reverse --width 600 --height 20 --countname ns \
    --subtitle 'leaf first' > flame.svg || exit
sed '/^<script/,$d' flame.svg
tail -n 2 flame.svg
