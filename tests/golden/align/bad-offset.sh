# Statements that cannot be read, or name no source: exit 2, store as it was.
trace-import -q data/align/real || exit 1
sha256sum trace.db > before
trace-align --offset 3+12ms
echo "exit $?"
trace-align --offset nosuch=+12ms
echo "exit $?"
trace-align --pair trace.out:soon=1:742
echo "exit $?"
trace-align --ignore everything
echo "exit $?"
trace-align --min-confidence 2
echo "exit $?"
trace-align --reset --force
echo "exit $?"
sha256sum -c --quiet before
