/*
 * trace-query stalls: the decision tree of a training stall, for each
 * GPU-idle episode (as gpu-idle finds them) or for the --from/--to
 * window: I/O-blocked, scheduling imbalance, GC-bound, contention-bound,
 * CPU-bound, upstream starvation or device-bound, each branch with the
 * numbers that decided it.  The causes come from the attribution engine
 * (attr.h).
 */
#include "config.h"
#include "query/query.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "query/args.h"
#include "query/attr.h"
#include "query/sel.h"

#define STALLS_SEL	(TR_SEL_SOURCE | TR_SEL_PID | TR_SEL_TID | \
			    TR_SEL_COMM | TR_SEL_GOID | TR_SEL_GPU | \
			    TR_SEL_TIME)

static const char *const cols[] = {
	"window", "gpu", "start_ns", "end_ns", "start", "end", "dur_ns",
	"branch", "decided_by", "path", "cause", "cause_share",
	"io_share", "sched_share", "gc_share", "sync_share", "chan_share",
	"cpu_share", "idle_share", "gpu_wait_share", "waker_goid",
	"waker_cause", "waker_share", "running_mean", "runnable_mean",
	"gomaxprocs", "p_busy_min", "p_busy_max", "proc_gc_share",
	"stw_ns", "proc_idle_share", "driver_goid"
};
#define NCOLS	(int)(sizeof cols / sizeof *cols)

static const char *const ev_cols[] = {
	"window", "what", "view", "id", "ts", "dur_ns", "detail"
};

struct win {
	size_t			gi;
	int64_t			lo, hi;
	struct tr_attr_result	r;
	double			pmin, pmax;
	int64_t			nprocs;
};

/* The shares the tree tests, of the window's caused time. */
struct shares {
	double	io, sched, gc, sync, chan, cpu, idle, wait, unknown;
	double	waker;		/* the waker's share in its cause */
	int	waker_cause;	/* -1: no waker */
};

static void
shares_of(const struct tr_attr_result *r, struct shares *s)
{
	const int64_t	*ns = r->cause_ns;
	double		 tot = 0, win = (double)(r->hi - r->lo);
	int		 c;

	for (c = 0; c < TR_NCAUSES; c++)
		tot += (double)ns[c];
	if (tot <= 0)
		tot = 1;
	s->io = (double)(ns[TR_CAUSE_SYSCALL] + ns[TR_CAUSE_NET]) / tot;
	s->sched = (double)ns[TR_CAUSE_SCHED] / tot;
	s->gc = (double)ns[TR_CAUSE_GC] / tot;
	s->sync = (double)ns[TR_CAUSE_SYNC] / tot;
	s->chan = (double)ns[TR_CAUSE_CHAN] / tot;
	s->cpu = (double)ns[TR_CAUSE_CPU] / tot;
	s->idle = (double)ns[TR_CAUSE_IDLE] / tot;
	s->unknown = (double)ns[TR_CAUSE_UNKNOWN] / tot;
	s->wait = win > 0 ? (double)r->gpu_wait_ns / win : 0;
	s->waker_cause = r->has_waker ? (int)r->waker.cause : -1;
	s->waker = r->has_waker ? r->waker.share : 0;
}

static const char *
op(double x, double lim)
{
	return (x >= lim ? ">=" : "<");
}

/* "; chan+sync 98% >= 30%, woken by goroutine 9 in syscall 100%" */
static void
via(struct tr_buf *b, const struct win *w, const struct shares *s,
    const char *what, double share, double lim)
{
	if (s->waker_cause < 0)
		return;
	tr_buf_printf(b, "; %s %.0f%% %s %.0f%%, woken by goroutine %lld in "
	    "%s %.0f%%", what, 100 * share, op(share, lim), 100 * lim,
	    (long long)w->r.waker.goid, tr_cause_names[s->waker_cause],
	    100 * s->waker);
}

/*
 * Walk the tree in order; each test appends its numbers to 'path' and
 * the first that holds is the branch, its numbers in *decided.
 */
static const char *
decide(const struct win *w, const struct shares *s, double lim,
    struct tr_buf *path, char **decided)
{
	const struct tr_attr_context	*c = &w->r.ctx;
	struct tr_buf			 t;
	int				 wk = s->waker_cause, k;
	double				 blocked = s->chan + s->sync;
	int				 viaok = s->waker >= 0.5 &&
	    blocked >= lim;
	static const char *const names[] = {
		"unseen", "device-bound", "io-blocked", "sched-imbalance",
		"gc-bound", "contention", "cpu-bound", "starvation"
	};

	tr_buf_init(&t);
	for (k = 0; k < 8; k++) {
		int	hold = 0;

		tr_buf_reset(&t);
		switch (k) {
		case 0:
			hold = s->unknown >= 0.5;
			tr_buf_printf(&t, "unknown %.0f%% %s 50%%",
			    100 * s->unknown, op(s->unknown, 0.5));
			break;
		case 1:
			hold = s->wait >= 0.5;
			tr_buf_printf(&t, "GPU wait %.0f%% of the window %s "
			    "50%%", 100 * s->wait, op(s->wait, 0.5));
			break;
		case 2:
			hold = s->io >= lim || (viaok &&
			    (wk == TR_CAUSE_SYSCALL || wk == TR_CAUSE_NET));
			tr_buf_printf(&t, "syscall+net %.0f%% %s %.0f%%",
			    100 * s->io, op(s->io, lim), 100 * lim);
			via(&t, w, s, "chan+sync", blocked, lim);
			break;
		case 3:
			hold = s->sched >= lim;
			tr_buf_printf(&t, "sched %.0f%% %s %.0f%% (%.1f "
			    "running, %.1f runnable on %lld Ps, P busy "
			    "%.0f-%.0f%%)", 100 * s->sched, op(s->sched, lim),
			    100 * lim, c->running_mean, c->runnable_mean,
			    (long long)c->gomaxprocs, 100 * w->pmin,
			    100 * w->pmax);
			break;
		case 4:
			hold = s->gc >= lim;
			tr_buf_printf(&t, "gc %.0f%% %s %.0f%% (GC on %.0f%%, "
			    "STW %.1fms)", 100 * s->gc, op(s->gc, lim),
			    100 * lim, 100 * c->gc_share,
			    (double)c->stw_ns / 1e6);
			break;
		case 5:
			hold = s->sync >= lim || (viaok &&
			    wk == TR_CAUSE_SYNC);
			tr_buf_printf(&t, "sync %.0f%% %s %.0f%%",
			    100 * s->sync, op(s->sync, lim), 100 * lim);
			via(&t, w, s, "chan+sync", blocked, lim);
			break;
		case 6:
			hold = s->cpu >= lim || (viaok && wk == TR_CAUSE_CPU);
			tr_buf_printf(&t, "cpu %.0f%% %s %.0f%%",
			    100 * s->cpu, op(s->cpu, lim), 100 * lim);
			via(&t, w, s, "chan+sync", blocked, lim);
			break;
		case 7:
			hold = s->idle >= lim || c->idle_share >= 0.5 ||
			    (viaok && wk >= 0);
			tr_buf_printf(&t, "idle %.0f%% %s %.0f%%, nothing "
			    "runnable %.0f%% %s 50%%", 100 * s->idle,
			    op(s->idle, lim), 100 * lim,
			    100 * c->idle_share, op(c->idle_share, 0.5));
			via(&t, w, s, "chan+sync", blocked, lim);
			break;
		}
		tr_buf_printf(path, "%s%s: %s%s", path->len ? "; " : "",
		    names[k], t.data, hold ? " (yes)" : "");
		if (hold) {
			*decided = t.data;
			return (names[k]);
		}
	}
	tr_buf_release(&t);
	*decided = tr_xasprintf("no branch reached %.0f%%: dominant %s "
	    "%.0f%%", 100 * lim, tr_cause_names[w->r.cause],
	    100 * w->r.share);
	return ("mixed");
}

static int
emit(struct tr_attr *a, struct tr_out *out, struct win *v, size_t n,
    const struct tr_attr_driver *drv, double lim, int evidence)
{
	size_t	i, k;
	int	rc;

	tr_out_set_name(out, "stalls");
	tr_out_columns(out, NCOLS, cols);
	tr_out_column_unit(out, 2, TR_UNIT_TS);
	tr_out_column_unit(out, 3, TR_UNIT_TS);
	tr_out_column_unit(out, 6, TR_UNIT_NS);
	tr_out_column_unit(out, 11, TR_UNIT_SHARE);
	for (k = 12; k <= 19; k++)
		tr_out_column_unit(out, (int)k, TR_UNIT_SHARE);
	tr_out_column_unit(out, 22, TR_UNIT_SHARE);
	tr_out_column_unit(out, 26, TR_UNIT_SHARE);
	tr_out_column_unit(out, 27, TR_UNIT_SHARE);
	tr_out_column_unit(out, 28, TR_UNIT_SHARE);
	tr_out_column_unit(out, 29, TR_UNIT_NS);
	tr_out_column_unit(out, 30, TR_UNIT_SHARE);
	for (i = 0; i < n; i++) {
		const struct win		*w = &v[i];
		const struct tr_attr_context	*c = &w->r.ctx;
		const struct tr_attr_driver	*d = &drv[w->gi];
		struct shares			 s;
		struct tr_buf			 path;
		char				*dec = NULL, *t;
		const char			*br;

		shares_of(&w->r, &s);
		tr_buf_init(&path);
		br = decide(w, &s, lim, &path, &dec);
		tr_out_int(out, (int64_t)i + 1);
		tr_out_int(out, tr_attr_gpu(a, w->gi)->gpu);
		tr_out_int(out, w->lo);
		tr_out_int(out, w->hi);
		if ((t = tr_attr_iso(a, w->lo)) != NULL)
			tr_out_text(out, t);
		else
			tr_out_null(out);
		free(t);
		if ((t = tr_attr_iso(a, w->hi)) != NULL)
			tr_out_text(out, t);
		else
			tr_out_null(out);
		free(t);
		tr_out_int(out, w->hi - w->lo);
		tr_out_text(out, br);
		tr_out_text(out, dec);
		tr_out_text(out, path.data);
		tr_out_text(out, tr_cause_names[w->r.cause]);
		tr_out_real(out, w->r.share);
		tr_out_real(out, s.io);
		tr_out_real(out, s.sched);
		tr_out_real(out, s.gc);
		tr_out_real(out, s.sync);
		tr_out_real(out, s.chan);
		tr_out_real(out, s.cpu);
		tr_out_real(out, s.idle);
		tr_out_real(out, s.wait);
		if (w->r.has_waker) {
			tr_out_int(out, w->r.waker.goid);
			tr_out_text(out, tr_cause_names[w->r.waker.cause]);
			tr_out_real(out, w->r.waker.share);
		} else {
			tr_out_null(out);
			tr_out_null(out);
			tr_out_null(out);
		}
		if (c->have_go) {
			tr_out_real(out, c->running_mean);
			tr_out_real(out, c->runnable_mean);
			tr_out_int(out, c->gomaxprocs);
			tr_out_real(out, w->pmin);
			tr_out_real(out, w->pmax);
			tr_out_real(out, c->gc_share);
			tr_out_int(out, c->stw_ns);
			tr_out_real(out, c->idle_share);
		} else
			for (k = 0; k < 8; k++)
				tr_out_null(out);
		if (d->found)
			tr_out_int(out, d->goid);
		else
			tr_out_null(out);
		tr_out_end_row(out);
		free(dec);
		tr_buf_release(&path);
	}
	rc = tr_out_finish(out);
	if (!evidence || rc != 0)
		return (rc);
	tr_out_set_name(out, "evidence");
	tr_out_columns(out, 7, ev_cols);
	tr_out_column_unit(out, 4, TR_UNIT_TS);
	tr_out_column_unit(out, 5, TR_UNIT_NS);
	for (i = 0; i < n; i++)
		for (k = 0; k < v[i].r.nev; k++) {
			const struct tr_attr_evidence	*e = &v[i].r.ev[k];

			tr_out_int(out, (int64_t)i + 1);
			tr_out_text(out, e->what);
			tr_out_text(out, e->table);
			tr_out_int(out, e->id);
			tr_out_int(out, e->ts);
			tr_out_int(out, e->dur);
			tr_out_text(out, e->detail ? e->detail : "");
			tr_out_end_row(out);
		}
	return (tr_out_finish(out));
}

static int
run(struct tr_db *db, int argc, char **argv, struct tr_out *out,
    struct tr_error *err)
{
	struct tr_attr_episode_args ea;
	double			 share = 30;
	struct tr_arg		 opts[TR_ATTR_EPISODE_NOPTS + 2];
	int			 no;
	struct tr_sel		 sel;
	struct tr_args		 args;
	struct tr_attr		*a = NULL;
	struct tr_attr_driver	*drv = NULL;
	struct win		*v = NULL;
	size_t			 n = 0, ngpus = 0, gi, i;
	int			 rc = -1;

	tr_attr_episode_args_init(&ea);
	no = tr_attr_episode_opts(&ea, TR_ATTR_EPISODE_THRESHOLD |
	    TR_ATTR_EPISODE_GAPMIN, opts);
	memset(&opts[no], 0, sizeof *opts);
	opts[no].name = "share";
	opts[no].kind = TR_ARG_PERCENT;
	opts[no].dst = &share;
	opts[no].max = 100;
	opts[no].metavar = "PCT";
	opts[no++].help = "a branch's share of the driver's time "
	    "(default 30%)";
	no += tr_attr_episode_opts(&ea, TR_ATTR_EPISODE_EVIDENCE, &opts[no]);
	memset(&opts[no], 0, sizeof *opts);
	tr_sel_init(&sel, STALLS_SEL);
	memset(&args, 0, sizeof args);
	args.name = "stalls";
	args.synopsis = "[OPTION...]";
	args.about = "The decision tree of a training stall, for each "
	    "GPU-idle episode or for\nthe window of --from and --to, with "
	    "the numbers that decided each\nbranch (trace-query(1), "
	    "stalls).";
	args.args = opts;
	args.sel = &sel;
	args.max_pos = 0;
	if (tr_args_parse(&args, argc, argv, err) != 0)
		goto out;
	if (args.help) {
		rc = 0;
		goto out;
	}
	if ((a = tr_attr_open_gpu(db, &sel, "stalls", out, err)) == NULL)
		goto out;
	ngpus = tr_attr_ngpus(a);
	drv = tr_xcalloc(ngpus, sizeof *drv);
	for (gi = 0; gi < ngpus; gi++) {
		struct tr_attr_episode	*eps = NULL;
		size_t			 ne = 0, k;

		if (tr_attr_find_driver(a, gi, sel.goid, ea.threshold, &drv[gi],
		    err) != 0)
			goto out;
		if (sel.has_from && sel.has_to) {
			/* The window itself, once (for the first GPU). */
			if (gi > 0)
				break;
			eps = tr_xcalloc(1, sizeof *eps);
			eps[0].gi = gi;
			eps[0].start = sel.from;
			eps[0].end = sel.to;
			ne = 1;
		} else
			tr_attr_episodes_by(a, gi, &ea, &eps, &ne);
		v = tr_xrealloc(v, (n + ne + 1) * sizeof *v);
		for (k = 0; k < ne; k++) {
			struct win	*w = &v[n];

			memset(w, 0, sizeof *w);
			w->gi = gi;
			w->lo = eps[k].start;
			w->hi = eps[k].end;
			if (tr_attr_window(a, &drv[gi], gi, w->lo, w->hi,
			    ea.evidence, &w->r, err) != 0 ||
			    tr_attr_procs(a, w->lo, w->hi, &w->pmin,
			    &w->pmax, &w->nprocs, err) != 0) {
				n++;
				free(eps);
				goto out;
			}
			n++;
		}
		free(eps);
	}
	if (n == 0)
		tr_out_note(out, "no GPU-idle episode to diagnose: the GPU "
		    "stayed above %g%%", ea.threshold);
	if (emit(a, out, v, n, drv, share / 100, ea.evidence) != 0) {
		tr_error_set(err, TR_EIO, "error writing output: %s",
		    errno != 0 ? strerror(errno) : "write failed");
		goto out;
	}
	rc = 0;
out:
	for (i = 0; i < n; i++)
		tr_attr_result_release(&v[i].r);
	free(v);
	if (drv != NULL)
		for (gi = 0; gi < ngpus; gi++)
			tr_attr_driver_release(&drv[gi]);
	free(drv);
	tr_attr_free(a);
	tr_args_release(&args);
	tr_sel_release(&sel);
	return (rc);
}

const struct tr_query tr_query_stalls = {
	.name = "stalls",
	.usage = "[OPTION...]",
	.summary = "the decision tree of each stall, with its numbers",
	.run = run,
	.windows = "stalls",
};
