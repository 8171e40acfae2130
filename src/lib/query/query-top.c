/*
 * trace-query top: go tool pprof -top over any selection of pprof
 * profiles in the store.  Values are raw integers in the sample type's
 * unit (nanoseconds, bytes, count); percentages are of pprof's total.
 */
#include "config.h"
#include "query/query.h"

#include "query/pprof.h"

static const char *const top_columns[] = {
	"flat", "flat%", "sum%", "cum", "cum%", "name", "inline"
};

static int
run(struct tr_db *db, int argc, char **argv, struct tr_out *out,
    struct tr_error *err)
{
	struct tr_pprof_args	a;
	struct tr_pprof_report	rep;
	int64_t			sum = 0;
	size_t			i;
	int			rc = -1;

	if (tr_pprof_args_parse(db, argc, argv, 0, &a, err) != 0)
		goto out;
	if (a.npos != 0) {
		tr_error_set(err, TR_EUSAGE, "top: unexpected argument '%s'",
		    a.pos[0]);
		goto out;
	}
	if (tr_pprof_top(db, &a.sel, NULL, &a.opts, &rep, err) != 0)
		goto out;
	tr_out_columns(out, 7, top_columns);
	for (i = 0; i < rep.n; i++) {
		const struct tr_pprof_row	*r = &rep.rows[i];

		sum += r->flat;
		tr_out_int(out, r->flat);
		tr_out_real(out, tr_pprof_percent(r->flat, rep.total));
		tr_out_real(out, tr_pprof_percent(sum, rep.total));
		tr_out_int(out, r->cum);
		tr_out_real(out, tr_pprof_percent(r->cum, rep.total));
		tr_out_text(out, r->name);
		tr_out_text(out, r->inl);
		tr_out_end_row(out);
	}
	tr_pprof_report_release(&rep);
	rc = tr_out_finish(out);
out:
	tr_pprof_args_release(&a);
	return (rc);
}

const struct tr_query tr_query_top = {
	.name = "top",
	.usage = "[OPTION...]",
	.summary = "top functions by flat and cumulative value (pprof -top)",
	.run = run,
};
