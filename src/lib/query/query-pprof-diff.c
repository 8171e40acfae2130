/*
 * trace-query pprof-diff: go tool pprof -top -diff_base=BASE NEW over
 * profiles in the store: which functions (or, with --stacks, which stacks)
 * grew from BASE to NEW.  BASE and NEW are profile groups ("12", "p3-7",
 * "s2", comma-separated).  --series compares each profile of the selection
 * with the one before it (by time): a heap series shows growth by stack.
 */
#include "config.h"
#include "query/query.h"

#include <stdlib.h>

#include "query/pprof.h"
#include "base/util.h"

static const char *const top_columns[] = {
	"base_profile", "profile", "flat", "flat%", "sum%", "cum", "cum%",
	"name", "inline"
};
static const char *const stack_columns[] = {
	"base_profile", "profile", "delta", "base", "new", "stack"
};

/* Write one comparison; 'bp', 'np' > 0 add the series columns. */
static int
diff_one(struct tr_db *db, const struct tr_pprof_args *a,
    const struct tr_pprof_sel *base, const struct tr_pprof_sel *sel,
    int64_t bp, int64_t np, struct tr_out *out, struct tr_error *err)
{
	struct tr_pprof_report	 rep;
	struct tr_pprof_stack	*st;
	char			*stype, *unit;
	enum tr_out_unit	 u;
	int64_t			 shown;
	size_t			 i, n;
	int			 c;

	if (a->stacks) {
		if (tr_pprof_stacks(db, sel, base, &a->opts, &st, &n, &stype,
		    &unit, err) != 0)
			return (-1);
		/* delta, base and new in the sample type's unit. */
		u = tr_pprof_out_unit(unit);
		for (c = bp > 0 ? 2 : 0; c < (bp > 0 ? 5 : 3); c++)
			tr_out_column_unit(out, c, u);
		free(stype);
		free(unit);
		for (i = 0, shown = 0; i < n && (a->opts.nodecount == 0 ||
		    shown < a->opts.nodecount); i++) {
			/* Stacks that did not change say nothing here. */
			if (st[i].value == st[i].base)
				continue;
			if (bp > 0) {
				tr_out_int(out, bp);
				tr_out_int(out, np);
			}
			tr_out_int(out, st[i].value - st[i].base);
			tr_out_int(out, st[i].base);
			tr_out_int(out, st[i].value);
			tr_out_text(out, st[i].stack);
			tr_out_end_row(out);
			shown++;
		}
		tr_pprof_stacks_free(st, n);
		return (0);
	}
	if (tr_pprof_top(db, sel, base, &a->opts, &rep, err) != 0)
		return (-1);
	tr_pprof_write_top(out, &rep, bp, np);
	tr_pprof_report_release(&rep);
	return (0);
}

/* The selection narrowed to profile group 'group', resolved. */
static int
group(struct tr_db *db, const struct tr_sel *all, const char *text,
    struct tr_sel *g, struct tr_out *out, struct tr_error *err)
{
	tr_sel_copy(g, all);	/* run() initialised it */
	g->profile_text = text;
	if (tr_sel_resolve(g, db, err) != 0)
		return (-1);
	tr_query_notes(out, g->snapshot_notes.data);
	return (0);
}

static void
help(void)
{
	struct tr_pprof_args	a;

	tr_pprof_args_init(&a, "pprof-diff", TR_PPROF_ARGS_DIFF);
	tr_args_print_help(&a.args);
	tr_pprof_args_release(&a);
}

static int
run(struct tr_db *db, int argc, char **argv, struct tr_out *out,
    struct tr_error *err)
{
	struct tr_pprof_args	 a;
	struct tr_pprof_sel	 base, sel;
	struct tr_sel		 gb, gn;
	size_t			 i;
	int			 rc, skip;

	tr_pprof_args_init(&a, "pprof-diff", TR_PPROF_ARGS_DIFF);
	tr_sel_init(&gb, 0);
	tr_sel_init(&gn, 0);
	/* The selection is resolved below: for the series or each group. */
	if ((rc = tr_pprof_args_begin(&a, argc, argv, NULL, err)) <= 0)
		goto out;
	rc = -1;
	if (a.series && a.args.npos != 0) {
		tr_error_set(err, TR_EUSAGE, "pprof-diff --series takes no "
		    "BASE and NEW; select profiles with --source, --profile, "
		    "--type, --from, --to");
		goto out;
	}
	if (!a.series && a.args.npos != 2) {
		tr_error_set(err, TR_EUSAGE, "usage: pprof-diff [OPTION...] "
		    "BASE NEW, or pprof-diff --series [OPTION...]");
		goto out;
	}
	skip = a.series ? 0 : 2;
	if (a.stacks)
		tr_out_columns(out, 6 - skip, stack_columns + skip);
	else
		tr_out_columns(out, 9 - skip, top_columns + skip);
	if (a.series) {
		/* A series compares snapshots one by one: keep them all. */
		if (!a.sel.snapshots_given)
			a.sel.snapshots = TR_SNAP_ALL;
		if (tr_sel_resolve(&a.sel, db, err) != 0)
			goto out;
		if (a.sel.nprofiles < 2) {
			tr_error_set(err, TR_EDATA, "a series needs at least "
			    "two profiles; the selection has %zu",
			    a.sel.nprofiles);
			goto out;
		}
		for (i = 1; i < a.sel.nprofiles; i++) {
			base.profile_ids = &a.sel.profiles[i - 1];
			base.nprofile_ids = 1;
			sel.profile_ids = &a.sel.profiles[i];
			sel.nprofile_ids = 1;
			if (diff_one(db, &a, &base, &sel, a.sel.profiles[i - 1],
			    a.sel.profiles[i], out, err) != 0)
				goto out;
		}
	} else {
		/* The selection options narrow both groups. */
		if (group(db, &a.sel, a.args.pos[0], &gb, out, err) != 0 ||
		    group(db, &a.sel, a.args.pos[1], &gn, out, err) != 0)
			goto out;
		tr_pprof_sel_of(&base, &gb);
		tr_pprof_sel_of(&sel, &gn);
		if (diff_one(db, &a, &base, &sel, 0, 0, out, err) != 0)
			goto out;
	}
	rc = tr_out_finish_err(out, err);
out:
	tr_sel_release(&gb);
	tr_sel_release(&gn);
	tr_pprof_args_release(&a);
	return (rc);
}

const struct tr_query tr_query_pprof_diff = {
	.name = "pprof-diff",
	.usage = "BASE NEW",
	.summary = "what grew between pprof profiles (pprof -diff_base)",
	.run = run,
	.help = help,
};
