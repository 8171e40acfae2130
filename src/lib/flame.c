/*
 * Selecting and folding stacks.  (Being written.)
 */
#include "config.h"
#include "flame.h"

#include <stdlib.h>
#include <string.h>

void
tr_flame_sel_init(struct tr_flame_sel *s)
{
	memset(s, 0, sizeof *s);
	s->pid = s->tid = -1;
}

void
tr_flame_fold_opts_init(struct tr_flame_fold_opts *o)
{
	memset(o, 0, sizeof *o);
	o->pname = 1;
	o->tidy_java = 1;
	o->tidy_generic = 1;
}

int
tr_flame_fold(struct tr_db *db, const struct tr_flame_sel *sel,
    const struct tr_flame_fold_opts *opts, struct tr_folded *out,
    struct tr_error *err)
{
	(void)db;
	(void)sel;
	(void)opts;
	memset(out, 0, sizeof *out);
	return (tr_error_set(err, TR_EUSAGE, "not implemented"));
}

void
tr_folded_release(struct tr_folded *f)
{
	size_t	i;

	for (i = 0; i < f->n; i++)
		free(f->stacks[i]);
	free(f->stacks);
	free(f->counts);
	free(f->event);
	memset(f, 0, sizeof *f);
}

int
tr_folded_write(const struct tr_folded *f, FILE *fp)
{
	size_t	i;

	for (i = 0; i < f->n; i++)
		fprintf(fp, "%s %lld\n", f->stacks[i], (long long)f->counts[i]);
	return (ferror(fp) ? -1 : 0);
}
