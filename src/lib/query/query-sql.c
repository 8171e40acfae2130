/*
 * trace-query sql "SELECT ...": any one read-only statement.
 */
#include "config.h"
#include "query/query.h"

static int
run(struct tr_db *db, int argc, char **argv, struct tr_out *out,
    struct tr_error *err)
{
	if (argc != 2)
		return (tr_error_set(err, TR_EUSAGE,
		    "sql takes one argument, the statement"));
	return (tr_query_sql(db, argv[1], out, err));
}

const struct tr_query tr_query_sql_entry = {
	.name = "sql",
	.usage = "STATEMENT",
	.summary = "run one SQL statement over the store (read-only)",
	.run = run,
};
