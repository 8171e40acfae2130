/*
 * trace-query gpu-idle: the episodes in which a GPU's utilisation stayed
 * below a threshold, each attributed to what the GPU-driving goroutine
 * did instead of waiting for the GPU (attr.h), with the process around
 * it, a verdict, and last the totals over all episodes.
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

#define GPU_IDLE_SEL	(TR_SEL_SOURCE | TR_SEL_PID | TR_SEL_TID | \
			    TR_SEL_COMM | TR_SEL_GOID | TR_SEL_GPU | \
			    TR_SEL_TIME)

static const char *const driver_cols[] = {
	"gpu", "driver_goid", "name", "created", "wait", "wait_stack",
	"score", "coverage", "chosen"
};

static const char *const ep_cols[] = {
	"episode", "gpu", "start_ns", "end_ns", "start", "end", "dur_ns",
	"samples", "util_mean", "cause", "cause_share",
	"cpu_ns", "gc_ns", "sched_ns", "chan_ns", "sync_ns", "syscall_ns",
	"net_ns", "sleep_ns", "idle_ns", "unknown_ns", "gpu_wait_ns",
	"driver_goid", "verdict"
};
#define EP_NCOLS	(int)(sizeof ep_cols / sizeof *ep_cols)

static const char *const stack_cols[] = {
	"episode", "rank", "cause", "value_ns", "stack"
};

static const char *const chain_cols[] = {
	"episode", "depth", "goid", "name", "wait_ns", "cause", "share"
};

static const char *const ctx_cols[] = {
	"episode", "gc_share", "stw_ns", "assist_ns", "running_mean",
	"runnable_mean", "runnable_max", "gomaxprocs", "syscall_ns",
	"idle_share", "cpu_samples", "cpu_sample_ns"
};

static const char *const tot_cols[] = {
	"gpu", "episodes", "dur_ns", "span_ns", "idle_share", "cause",
	"cause_share", "cpu_ns", "gc_ns", "sched_ns", "chan_ns", "sync_ns",
	"syscall_ns", "net_ns", "sleep_ns", "idle_ns", "unknown_ns",
	"gpu_wait_ns", "verdict"
};

static const char *const ev_cols[] = {
	"episode", "what", "view", "id", "ts", "dur_ns", "detail"
};

struct ep {
	struct tr_attr_episode	e;
	struct tr_attr_result	r;
	size_t			d;	/* its driver */
};

static void
unit(struct tr_out *out, int col, enum tr_out_unit u)
{
	tr_out_column_unit(out, col, u);
}

static void
text_or_null(struct tr_out *out, char *s)
{
	if (s == NULL)
		tr_out_null(out);
	else
		tr_out_text(out, s);
	free(s);
}

static void
put_causes(struct tr_out *out, const int64_t ns[TR_NCAUSES])
{
	int	c;

	for (c = 0; c < TR_NCAUSES; c++)
		tr_out_int(out, ns[c]);
}

static int
emit_episodes(struct tr_attr *a, struct tr_out *out, struct ep *ev,
    size_t n, const struct tr_attr_driver *drv)
{
	size_t	i;
	int	c;

	tr_out_set_name(out, "episodes");
	tr_out_columns(out, EP_NCOLS, ep_cols);
	unit(out, 2, TR_UNIT_TS);
	unit(out, 3, TR_UNIT_TS);
	unit(out, 6, TR_UNIT_NS);
	unit(out, 8, TR_UNIT_PERCENT);
	unit(out, 10, TR_UNIT_SHARE);
	for (c = 0; c <= TR_NCAUSES; c++)
		unit(out, 11 + c, TR_UNIT_NS);
	for (i = 0; i < n; i++) {
		const struct ep			*p = &ev[i];
		const struct tr_attr_gpu	*g = tr_attr_gpu(a, p->e.gi);
		const struct tr_attr_driver	*d = &drv[p->d];

		tr_out_int(out, (int64_t)i + 1);
		tr_out_int(out, g->gpu);
		tr_out_int(out, p->e.start);
		tr_out_int(out, p->e.end);
		text_or_null(out, tr_attr_iso(a, p->e.start));
		text_or_null(out, tr_attr_iso(a, p->e.end));
		tr_out_int(out, p->e.end - p->e.start);
		tr_out_int(out, (int64_t)(p->e.last - p->e.first + 1));
		tr_out_real(out, p->e.util_mean);
		tr_out_text(out, tr_cause_names[p->r.cause]);
		tr_out_real(out, p->r.share);
		put_causes(out, p->r.cause_ns);
		tr_out_int(out, p->r.gpu_wait_ns);
		if (d->found)
			tr_out_int(out, d->goid);
		else
			tr_out_null(out);
		tr_out_text(out, p->r.verdict);
		tr_out_end_row(out);
	}
	return (tr_out_finish(out));
}

static int
emit_details(struct tr_out *out, struct ep *ev, size_t n, int evidence)
{
	size_t	i, k;
	int	j, rc = 0;

	tr_out_set_name(out, "stacks");
	tr_out_columns(out, 5, stack_cols);
	unit(out, 3, TR_UNIT_NS);
	for (i = 0; i < n; i++)
		for (j = 0; j < ev[i].r.nstacks; j++) {
			tr_out_int(out, (int64_t)i + 1);
			tr_out_int(out, j + 1);
			tr_out_text(out, tr_cause_names[ev[i].r.cause]);
			tr_out_int(out, ev[i].r.stacks[j].ns);
			tr_out_text(out, ev[i].r.stacks[j].text);
			tr_out_end_row(out);
		}
	rc |= tr_out_finish(out);

	tr_out_set_name(out, "wakers");
	tr_out_columns(out, 7, chain_cols);
	unit(out, 4, TR_UNIT_NS);
	unit(out, 6, TR_UNIT_SHARE);
	for (i = 0; i < n; i++) {
		const struct tr_attr_waker	*w = &ev[i].r.waker;

		if (!ev[i].r.has_waker)
			continue;
		tr_out_int(out, (int64_t)i + 1);
		tr_out_int(out, 1);
		tr_out_int(out, w->goid);
		tr_out_text(out, w->name ? w->name : "");
		tr_out_int(out, w->wait_ns);
		tr_out_text(out, tr_cause_names[w->cause]);
		tr_out_real(out, w->share);
		tr_out_end_row(out);
		if (!w->deeper)
			continue;
		tr_out_int(out, (int64_t)i + 1);
		tr_out_int(out, 2);
		tr_out_int(out, w->goid2);
		tr_out_text(out, w->name2 ? w->name2 : "");
		tr_out_null(out);
		tr_out_text(out, tr_cause_names[w->cause2]);
		tr_out_real(out, w->share2);
		tr_out_end_row(out);
	}
	rc |= tr_out_finish(out);

	tr_out_set_name(out, "context");
	tr_out_columns(out, 12, ctx_cols);
	unit(out, 1, TR_UNIT_SHARE);
	unit(out, 2, TR_UNIT_NS);
	unit(out, 3, TR_UNIT_NS);
	unit(out, 8, TR_UNIT_NS);
	unit(out, 9, TR_UNIT_SHARE);
	unit(out, 11, TR_UNIT_NS);
	for (i = 0; i < n; i++) {
		const struct tr_attr_context	*c = &ev[i].r.ctx;

		tr_out_int(out, (int64_t)i + 1);
		if (c->have_go) {
			tr_out_real(out, c->gc_share);
			tr_out_int(out, c->stw_ns);
			tr_out_int(out, c->assist_ns);
			tr_out_real(out, c->running_mean);
			tr_out_real(out, c->runnable_mean);
			tr_out_int(out, c->runnable_max);
			tr_out_int(out, c->gomaxprocs);
			tr_out_int(out, c->syscall_ns);
			tr_out_real(out, c->idle_share);
		} else
			for (j = 0; j < 9; j++)
				tr_out_null(out);
		tr_out_int(out, c->cpu_samples);
		tr_out_int(out, c->cpu_sample_ns);
		tr_out_end_row(out);
	}
	rc |= tr_out_finish(out);

	if (!evidence)
		return (rc);
	tr_out_set_name(out, "evidence");
	tr_out_columns(out, 7, ev_cols);
	unit(out, 4, TR_UNIT_TS);
	unit(out, 5, TR_UNIT_NS);
	for (i = 0; i < n; i++)
		for (k = 0; k < ev[i].r.nev; k++) {
			const struct tr_attr_evidence	*e = &ev[i].r.ev[k];

			tr_out_int(out, (int64_t)i + 1);
			tr_out_text(out, e->what);
			tr_out_text(out, e->table);
			tr_out_int(out, e->id);
			tr_out_int(out, e->ts);
			tr_out_int(out, e->dur);
			tr_out_text(out, e->detail ? e->detail : "");
			tr_out_end_row(out);
		}
	return (rc | tr_out_finish(out));
}

static int
emit_totals(struct tr_attr *a, struct tr_out *out, struct ep *ev, size_t n)
{
	size_t	gi, i;
	int	c;

	tr_out_set_name(out, "totals");
	tr_out_columns(out, 19, tot_cols);
	unit(out, 2, TR_UNIT_NS);
	unit(out, 3, TR_UNIT_NS);
	unit(out, 4, TR_UNIT_SHARE);
	unit(out, 6, TR_UNIT_SHARE);
	for (c = 0; c <= TR_NCAUSES; c++)
		unit(out, 7 + c, TR_UNIT_NS);
	for (gi = 0; gi < tr_attr_ngpus(a); gi++) {
		const struct tr_attr_gpu	*g = tr_attr_gpu(a, gi);
		int64_t				 ns[TR_NCAUSES], dur = 0,
						 span, wait = 0, cnt = 0;
		enum tr_cause			 dom;
		double				 share;
		char				*v;

		memset(ns, 0, sizeof ns);
		for (i = 0; i < n; i++) {
			if (ev[i].e.gi != gi)
				continue;
			cnt++;
			dur += ev[i].e.end - ev[i].e.start;
			wait += ev[i].r.gpu_wait_ns;
			for (c = 0; c < TR_NCAUSES; c++)
				ns[c] += ev[i].r.cause_ns[c];
		}
		span = tr_attr_span(a, gi);
		dom = tr_attr_dominant(ns, &share);
		tr_out_int(out, g->gpu);
		tr_out_int(out, cnt);
		tr_out_int(out, dur);
		tr_out_int(out, span);
		tr_out_real(out, span > 0 ? (double)dur / (double)span : 0);
		if (cnt > 0) {
			tr_out_text(out, tr_cause_names[dom]);
			tr_out_real(out, share);
		} else {
			tr_out_null(out);
			tr_out_null(out);
		}
		put_causes(out, ns);
		tr_out_int(out, wait);
		if (cnt == 0)
			v = tr_xasprintf("no idle episode: the GPU stayed "
			    "busy");
		else
			v = tr_xasprintf("%lld episode%s, %.1fs idle (%.0f%% "
			    "of %.1fs): mostly %s (%.0f%%)", (long long)cnt,
			    cnt == 1 ? "" : "s", (double)dur / 1e9,
			    span > 0 ? 100.0 * (double)dur / (double)span :
			    0, (double)span / 1e9, tr_cause_names[dom],
			    100 * share);
		tr_out_text(out, v);
		free(v);
		tr_out_end_row(out);
	}
	return (tr_out_finish(out));
}

static int
emit_drivers(struct tr_attr *a, struct tr_out *out,
    const struct tr_attr_driver *drv)
{
	size_t	gi;

	tr_out_set_name(out, "driver");
	tr_out_columns(out, 9, driver_cols);
	unit(out, 7, TR_UNIT_SHARE);
	for (gi = 0; gi < tr_attr_ngpus(a); gi++) {
		const struct tr_attr_driver	*d = &drv[gi];

		if (!d->found)
			continue;
		tr_out_int(out, tr_attr_gpu(a, gi)->gpu);
		tr_out_int(out, d->goid);
		tr_out_text(out, d->name ? d->name : "");
		tr_out_text(out, d->created ? d->created : "");
		tr_out_text(out, tr_cause_names[d->wait]);
		tr_out_text(out, d->wait_stack ? d->wait_stack : "");
		tr_out_real(out, d->score);
		tr_out_real(out, d->coverage);
		tr_out_text(out, d->given ? "--goroutine" : "correlation");
		tr_out_end_row(out);
	}
	return (tr_out_finish(out));
}

static int
run(struct tr_db *db, int argc, char **argv, struct tr_out *out,
    struct tr_error *err)
{
	struct tr_attr_episode_args ea;
	struct tr_arg		 opts[TR_ATTR_EPISODE_NOPTS + 1];
	struct tr_sel		 sel;
	struct tr_args		 args;
	struct tr_attr		*a = NULL;
	struct tr_attr_driver	*drv = NULL;
	struct ep		*ev = NULL;
	size_t			 nev = 0, ngpus = 0, gi, i;
	int			 rc = -1;

	tr_attr_episode_args_init(&ea);
	memset(&opts[tr_attr_episode_opts(&ea, TR_ATTR_EPISODE_THRESHOLD |
	    TR_ATTR_EPISODE_GAPMIN | TR_ATTR_EPISODE_EVIDENCE, opts)], 0,
	    sizeof *opts);
	tr_sel_init(&sel, GPU_IDLE_SEL);
	memset(&args, 0, sizeof args);
	args.name = "gpu-idle";
	args.synopsis = "[OPTION...]";
	args.about = "Episodes in which a GPU's utilization.gpu stayed below "
	    "the threshold,\neach attributed to what the GPU-driving "
	    "goroutine did instead of\nwaiting for the GPU (trace-query(1), "
	    "gpu-idle).";
	args.args = opts;
	args.sel = &sel;
	args.max_pos = 0;
	if (tr_args_parse(&args, argc, argv, err) != 0)
		goto out;
	if (args.help) {
		rc = 0;
		goto out;
	}
	if ((a = tr_attr_open_gpu(db, &sel, "gpu-idle", out, err)) == NULL)
		goto out;
	ngpus = tr_attr_ngpus(a);
	drv = tr_xcalloc(ngpus, sizeof *drv);
	for (gi = 0; gi < ngpus; gi++) {
		const struct tr_attr_gpu	*g = tr_attr_gpu(a, gi);
		struct tr_attr_episode		*eps = NULL;
		size_t				 n = 0, k;

		if (tr_attr_find_driver(a, gi, sel.goid, ea.threshold, &drv[gi],
		    err) != 0)
			goto out;
		tr_out_note(out, "GPU %lld: utilization.gpu every %.0fms: "
		    "episode edges are estimates within a sample, +-%.0fms",
		    (long long)g->gpu, (double)g->interval / 1e6,
		    (double)g->interval / 1e6);
		if (tr_attr_has_go(a) && !drv[gi].found)
			tr_out_note(out, "GPU %lld: no goroutine's waiting "
			    "follows the GPU's utilisation: no driver",
			    (long long)g->gpu);
		else if (drv[gi].found && drv[gi].score < 0.5)
			tr_out_note(out, "GPU %lld: the driver, goroutine "
			    "%lld, correlates poorly with the GPU (%.2f): "
			    "its causes are uncertain", (long long)g->gpu,
			    (long long)drv[gi].goid, drv[gi].score);
		tr_attr_episodes_by(a, gi, &ea, &eps, &n);
		ev = tr_xrealloc(ev, (nev + n + 1) * sizeof *ev);
		for (k = 0; k < n; k++) {
			struct ep	*p = &ev[nev];

			memset(p, 0, sizeof *p);
			p->e = eps[k];
			p->d = gi;
			if (tr_attr_window(a, &drv[gi], gi, eps[k].start,
			    eps[k].end, ea.evidence, &p->r, err) != 0) {
				free(eps);
				goto out;
			}
			nev++;
			if (eps[k].end - eps[k].start < 2 * g->interval)
				tr_out_note(out, "episode %zu lasts under two "
				    "samples: its edges and causes are rough",
				    nev);
		}
		free(eps);
	}
	if (emit_drivers(a, out, drv) != 0 ||
	    emit_episodes(a, out, ev, nev, drv) != 0 ||
	    emit_details(out, ev, nev, ea.evidence) != 0 ||
	    emit_totals(a, out, ev, nev) != 0) {
		tr_error_set(err, TR_EIO, "error writing output: %s",
		    errno != 0 ? strerror(errno) : "write failed");
		goto out;
	}
	rc = 0;
out:
	for (i = 0; i < nev; i++)
		tr_attr_result_release(&ev[i].r);
	free(ev);
	if (drv != NULL)
		for (gi = 0; gi < ngpus; gi++)
			tr_attr_driver_release(&drv[gi]);
	free(drv);
	tr_attr_free(a);
	tr_args_release(&args);
	tr_sel_release(&sel);
	return (rc);
}

const struct tr_query tr_query_gpu_idle = {
	.name = "gpu-idle",
	.usage = "[OPTION...]",
	.summary = "why the GPU was idle: episodes, causes, verdicts",
	.run = run,
	.windows = "episodes",
};
