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
	char			*stype;
	int64_t			 sum = 0, shown;
	size_t			 i, n;

	if (a->stacks) {
		if (tr_pprof_stacks(db, sel, base, &a->opts, &st, &n, &stype,
		    err) != 0)
			return (-1);
		free(stype);
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
	for (i = 0; i < rep.n; i++) {
		const struct tr_pprof_row	*r = &rep.rows[i];

		sum += r->flat;
		if (bp > 0) {
			tr_out_int(out, bp);
			tr_out_int(out, np);
		}
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
	return (0);
}

static int
run(struct tr_db *db, int argc, char **argv, struct tr_out *out,
    struct tr_error *err)
{
	struct tr_pprof_args	 a;
	struct tr_pprof_sel	 base, sel;
	int64_t			*bids = NULL, *nids = NULL, *ids = NULL;
	size_t			 n = 0, i;
	int			 rc = -1, skip;

	if (tr_pprof_args_parse(db, argc, argv, TR_PPROF_ARGS_DIFF, &a,
	    err) != 0)
		goto out;
	skip = a.series ? 0 : 2;
	if (a.stacks)
		tr_out_columns(out, 6 - skip, stack_columns + skip);
	else
		tr_out_columns(out, 9 - skip, top_columns + skip);
	if (a.series) {
		if (a.npos != 0) {
			tr_error_set(err, TR_EUSAGE, "pprof-diff --series "
			    "takes no BASE and NEW; select profiles with "
			    "--source, --profile, --type, --from, --to");
			goto out;
		}
		if (tr_pprof_profiles(db, &a.sel, &ids, &n, err) != 0)
			goto out;
		if (n < 2) {
			tr_error_set(err, TR_EDATA, "a series needs at least "
			    "two profiles; the selection has %zu", n);
			goto out;
		}
		for (i = 1; i < n; i++) {
			tr_pprof_sel_init(&base);
			tr_pprof_sel_init(&sel);
			base.profile_ids = &ids[i - 1];
			base.nprofile_ids = 1;
			sel.profile_ids = &ids[i];
			sel.nprofile_ids = 1;
			if (diff_one(db, &a, &base, &sel, ids[i - 1], ids[i],
			    out, err) != 0)
				goto out;
		}
	} else {
		if (a.npos != 2) {
			tr_error_set(err, TR_EUSAGE, "usage: pprof-diff "
			    "[OPTION...] BASE NEW, or pprof-diff --series "
			    "[OPTION...]");
			goto out;
		}
		/* The selection options narrow both groups. */
		base = a.sel;
		sel = a.sel;
		if (tr_pprof_parse_group(db, a.pos[0], &base, &bids,
		    err) != 0 || tr_pprof_parse_group(db, a.pos[1], &sel,
		    &nids, err) != 0)
			goto out;
		if (diff_one(db, &a, &base, &sel, 0, 0, out, err) != 0)
			goto out;
	}
	rc = tr_out_finish(out);
out:
	free(ids);
	free(bids);
	free(nids);
	tr_pprof_args_release(&a);
	return (rc);
}

const struct tr_query tr_query_pprof_diff = {
	.name = "pprof-diff",
	.usage = "BASE NEW",
	.summary = "what grew between pprof profiles (pprof -diff_base)",
	.run = run,
};
