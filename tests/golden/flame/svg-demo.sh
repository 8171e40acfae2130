# The demo's perf samples as an SVG with Go colours and kernel frames
# annotated: the frames at least 40 px wide, each with its tooltip, place,
# colour and label (runtime aqua, main.* green, kernel orange, C red).
trace-import -q data/demo/perf.txt.gz || exit
trace-flame --colors go --all --minwidth 40 --title 'demo <perf> & "go"' \
    > flame.svg || exit
grep -c '^<g><title>' flame.svg
sed -n -e '/^<svg /p' -e '/ id="title"/p' -e '/^<g><title>/p' flame.svg
