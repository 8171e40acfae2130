# Found by fuzzing (tests/fuzz/fuzz-nvtop, 2026-11-29): an nvtop process
# object without "pid" crashed trace-import (SIGSEGV: json_kind(NULL) in
# import-nvtop.c while wording the error).  Each must end in exit 1 and
# leave no store.  (The message is not compared yet.)
for f in data/bad/fuzz/nvtop-nopid.json data/bad/fuzz/nvtop-crash-16447faf.json
do
	trace-import --start @1 --interval 1s "$f" 2> /dev/null
	echo "$f: exit $?"
done
ls
