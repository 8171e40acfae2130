/*
 * trace-query top: go tool pprof -top over any selection of pprof
 * profiles in the store.  The table shows values in the sample type's
 * unit as people read them (35.99s, 70.6MB, counts plain); CSV and JSON
 * keep the integers (nanoseconds, bytes, count).  Percentages are of
 * pprof's total.
 */
#include "config.h"
#include "query/query.h"

#include <string.h>

#include "query/pprof.h"

static const char *const top_columns[] = {
	"flat", "flat%", "sum%", "cum", "cum%", "name", "inline"
};

enum tr_out_unit
tr_pprof_out_unit(const char *unit)
{
	if (unit == NULL)
		return (TR_UNIT_NONE);
	if (strcmp(unit, "nanoseconds") == 0)
		return (TR_UNIT_NS);
	if (strcmp(unit, "bytes") == 0)
		return (TR_UNIT_BYTES);
	return (TR_UNIT_NONE);
}

/*
 * The -top rows of a report; with 'bp' > 0 each row starts with the
 * base and new profile ids (pprof-diff --series).
 */
void
tr_pprof_write_top(struct tr_out *out, const struct tr_pprof_report *rep,
    int64_t bp, int64_t np)
{
	enum tr_out_unit	u = tr_pprof_out_unit(rep->unit);
	int			c = bp > 0 ? 2 : 0;
	int64_t			sum = 0;
	size_t			i;

	/* flat and cum in the sample type's unit (the table only). */
	tr_out_column_unit(out, c, u);
	tr_out_column_unit(out, c + 3, u);
	for (i = 0; i < rep->n; i++) {
		const struct tr_pprof_row	*r = &rep->rows[i];

		sum += r->flat;
		if (bp > 0) {
			tr_out_int(out, bp);
			tr_out_int(out, np);
		}
		tr_out_int(out, r->flat);
		tr_out_real(out, tr_pprof_percent(r->flat, rep->total));
		tr_out_real(out, tr_pprof_percent(sum, rep->total));
		tr_out_int(out, r->cum);
		tr_out_real(out, tr_pprof_percent(r->cum, rep->total));
		tr_out_text(out, r->name);
		tr_out_text(out, r->inl);
		tr_out_end_row(out);
	}
}

static void
help(void)
{
	struct tr_pprof_args	a;

	tr_pprof_args_init(&a, "top", 0);
	tr_args_print_help(&a.args);
	tr_pprof_args_release(&a);
}

static int
run(struct tr_db *db, int argc, char **argv, struct tr_out *out,
    struct tr_error *err)
{
	struct tr_pprof_args	a;
	struct tr_pprof_report	rep;
	struct tr_pprof_sel	ps;
	int			rc;

	tr_pprof_args_init(&a, "top", 0);
	if ((rc = tr_pprof_args_begin(&a, argc, argv, db, err)) <= 0)
		goto out;
	rc = -1;
	tr_query_notes(out, a.sel.notes.data);
	tr_query_notes(out, a.sel.snapshot_notes.data);
	tr_pprof_sel_of(&ps, &a.sel);
	if (tr_pprof_top(db, &ps, NULL, &a.opts, &rep, err) != 0)
		goto out;
	tr_out_columns(out, 7, top_columns);
	tr_pprof_write_top(out, &rep, 0, 0);
	tr_pprof_report_release(&rep);
	rc = tr_out_finish_err(out, err);
out:
	tr_pprof_args_release(&a);
	return (rc);
}

const struct tr_query tr_query_top = {
	.name = "top",
	.usage = "[OPTION...]",
	.summary = "top functions by flat and cumulative value (pprof -top)",
	.run = run,
	.help = help,
};
