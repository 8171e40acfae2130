# Go 1.5's format (http_1_5_good, from Go's testdata) has no symbols:
# refused with a message, exit 1, no store left behind.
trace-import data/gotrace/http_1_5_good
rc=$?
ls
exit $rc
