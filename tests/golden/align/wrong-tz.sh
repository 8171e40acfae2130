# A wrong time zone does not pass silently.  The demo bundle imported
# under TZ=Europe/Berlin reads nvidia-smi's local times an hour off
# (the capture ran in UTC): the table names the zone and that it was
# taken from TZ at import, the GPU source's uncertainty is its 100 ms
# sampling interval (not the 468 ns of the wall/monotonic pairs), it is
# said to lie apart from every other source (stderr and evidence), and
# the Go trace estimated against it says so.  The relative times count
# from the store's start, with the wall clock beside them (in UTC here).
TZ=Europe/Berlin trace-import -q data/demo || exit 1
trace-align -F table
echo "exit $?"
echo '# the GPU source as JSON'
trace-align -n -F json -s 9
echo '# stated, the zone is right: back by the hour, no warning'
trace-align --source-tz UTC -F csv | cut -d, -f1,5-8,10 | sed -n '1p;10p'
trace-align -F csv | cut -d, -f1,5-8,10 | sed -n '10p'
echo '# imported in the right zone: nothing to warn about'
trace-import -q -d ok.db data/demo || exit 1
trace-align -d ok.db -F csv | cut -d, -f1,5-8,10 | sed -n '1p;10p'
