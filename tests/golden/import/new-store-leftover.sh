# trace-import first removes the temporary files that killed imports left
# while making its store (no process holds them: see trace-import(1), A
# NEW STORE), and what SQLite left beside them; not another store's.
printf 'partial' > .trace.db.incomplete-Ab12Cd
printf 'w' > .trace.db.incomplete-Ab12Cd-wal
printf 'j' > .trace.db.incomplete-Zz99Yy-journal
printf 'other' > .other.db.incomplete-Ab12Cd
trace-import data/core/small.perf.txt
ls -A | grep db
