# A directory with nothing recognisable: notes only, and no store left.
mkdir in empty
cp data/bad/garbage.bin in/
trace-import in empty
rc=$?
ls
exit $rc
