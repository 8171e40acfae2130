# A file that does not exist: the system's reason, exit 1, no store.
trace-import no-such-file.txt
rc=$?
ls
exit $rc
