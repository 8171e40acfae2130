# Blanks, semicolons and comments after the statement are not a second one.
trace-import -q data/core/small.perf.txt || exit 99
trace-query sql 'SELECT count(*) AS samples FROM sample; -- all of them
  /* that is all */ ;'
