/*
 * The one argument parser of the queries: a table of the query's own
 * options, the selection's from sel.c, per-query help, and "did you mean"
 * for a misspelt option.
 */
#include "config.h"
#include "query/args.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

#define HELP_COL	23	/* where the help text starts */

static struct tr_arg *
find_long(struct tr_args *a, const char *name, size_t len)
{
	struct tr_arg	*o;

	for (o = a->args; o != NULL && o->name != NULL; o++)
		if (strlen(o->name) == len && strncmp(o->name, name, len) == 0)
			return (o);
	return (NULL);
}

static struct tr_arg *
find_letter(struct tr_args *a, int c)
{
	struct tr_arg	*o;

	for (o = a->args; o != NULL && o->name != NULL; o++)
		if (o->letter == c)
			return (o);
	return (NULL);
}

/* Edit distance, a swap of two neighbours counting one (OSA). */
static size_t
distance(const char *a, const char *b)
{
	size_t	 la = strlen(a), lb = strlen(b), i, j, w = lb + 1, d, *m;

	m = tr_xcalloc((la + 1) * w, sizeof *m);
	for (i = 0; i <= la; i++)
		m[i * w] = i;
	for (j = 0; j <= lb; j++)
		m[j] = j;
	for (i = 1; i <= la; i++)
		for (j = 1; j <= lb; j++) {
			d = m[(i - 1) * w + j - 1] + (a[i - 1] != b[j - 1]);
			if (m[(i - 1) * w + j] + 1 < d)
				d = m[(i - 1) * w + j] + 1;
			if (m[i * w + j - 1] + 1 < d)
				d = m[i * w + j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] &&
			    m[(i - 2) * w + j - 2] + 1 < d)
				d = m[(i - 2) * w + j - 2] + 1;
			m[i * w + j] = d;
		}
	d = m[la * w + lb];
	free(m);
	return (d);
}

const char *
tr_did_you_mean(const char *word, const char *const *names)
{
	const char	*best = NULL;
	size_t		 i, d, bestd = (size_t)-1, len = strlen(word), max;

	/* A prefix of one name only is what was meant ("--node"). */
	for (i = 0; names[i] != NULL; i++)
		if (len >= 3 && strncmp(names[i], word, len) == 0) {
			if (best != NULL)
				break;
			best = names[i];
		}
	if (best != NULL && names[i] == NULL)
		return (best);
	best = NULL;
	/* About one edit in three letters: 'treshold', not 'bogus'. */
	max = len < 6 ? 1 : len / 3;
	for (i = 0; names[i] != NULL; i++) {
		d = distance(word, names[i]);
		if (d < bestd) {
			bestd = d;
			best = names[i];
		}
	}
	return (bestd <= max ? best : NULL);
}

/* Every long option name of 'a': its own, then the selection's. */
static const char **
all_names(const struct tr_args *a, size_t *n)
{
	const char	**sn, **v;
	struct tr_arg	 *o;
	size_t		  k = 0, ns = 0, i;

	for (o = a->args; o != NULL && o->name != NULL; o++)
		k++;
	sn = a->sel != NULL ? tr_sel_names(a->sel, &ns) : NULL;
	v = tr_xcalloc(k + ns + 2, sizeof *v);
	k = 0;
	for (o = a->args; o != NULL && o->name != NULL; o++)
		v[k++] = o->name;
	for (i = 0; i < ns; i++)
		v[k++] = sn[i];
	v[k++] = "help";
	free(sn);
	*n = k;
	return (v);
}

static int
unknown(struct tr_args *a, const char *opt, size_t len, struct tr_error *err)
{
	const char	**names, *best;
	struct tr_buf	  b;
	char		 *word;
	size_t		  n, i;

	names = all_names(a, &n);
	word = tr_xstrndup(opt, len);
	tr_buf_init(&b);
	for (i = 0; i < n; i++)
		tr_buf_printf(&b, "%s--%s", i ? ", " : "", names[i]);
	best = len > 0 ? tr_did_you_mean(word, names) : NULL;
	if (best != NULL)
		tr_error_set(err, TR_EUSAGE, "%s: unknown option '--%s'; did "
		    "you mean '--%s'? options: %s", a->name, word, best, b.data);
	else
		tr_error_set(err, TR_EUSAGE, "%s: unknown option '--%s'; "
		    "options: %s", a->name, word, b.data);
	tr_buf_release(&b);
	free(word);
	free(names);
	return (-1);
}

static int
bad_value(const struct tr_arg *o, const char *v, const char *what,
    struct tr_error *err)
{
	return (tr_error_set(err, TR_EUSAGE, "--%s: expected %s, got '%s'",
	    o->name, what, v));
}

/* Store 'v' (NULL for a flag) at o->dst. */
static int
take(struct tr_arg *o, const char *v, struct tr_error *err)
{
	char	*end, what[96];
	double	 d;
	int64_t	 i;

	if (o->given++ > 0 && !o->repeat)
		return (tr_error_set(err, TR_EUSAGE, "--%s given twice",
		    o->name));
	switch (o->kind) {
	case TR_ARG_FLAG:
		*(int *)o->dst = 1;
		return (0);
	case TR_ARG_STRING:
		*(const char **)o->dst = v;
		return (0);
	case TR_ARG_INT:
		errno = 0;
		i = strtoll(v, &end, 10);
		if (*v == '\0' || *end != '\0' || errno != 0 ||
		    (o->min < o->max && ((double)i < o->min ||
		    (double)i > o->max))) {
			if (o->min < o->max && o->max >= 9e18)
				snprintf(what, sizeof what, "an integer >= %.0f",
				    o->min);
			else if (o->min < o->max)
				snprintf(what, sizeof what, "an integer from "
				    "%.0f to %.0f", o->min, o->max);
			else
				snprintf(what, sizeof what, "an integer");
			return (bad_value(o, v, what, err));
		}
		*(int64_t *)o->dst = i;
		return (0);
	case TR_ARG_REAL:
		d = strtod(v, &end);
		if (*v == '\0' || *end != '\0' || isnan(d) ||
		    (o->min < o->max && !(d >= o->min && d <= o->max))) {
			snprintf(what, sizeof what, "a number from %g to %g",
			    o->min, o->max);
			return (bad_value(o, v, what, err));
		}
		*(double *)o->dst = d;
		return (0);
	case TR_ARG_DURATION:
		if (tr_parse_duration(v, &i) != 0 || i < 0)
			return (bad_value(o, v, "a duration such as 300ms or "
			    "1.5s", err));
		*(int64_t *)o->dst = i;
		return (0);
	case TR_ARG_PERCENT:
		d = strtod(v, &end);
		if (*end == '%')
			end++;
		if (*v == '\0' || *end != '\0' || !(d >= 0 && d <= 100))
			return (bad_value(o, v, "a percentage from 0 to 100",
			    err));
		*(double *)o->dst = d;
		return (0);
	}
	return (0);
}

int
tr_args_parse(struct tr_args *a, int argc, char **argv, struct tr_error *err)
{
	struct tr_arg	*o;
	const char	*arg, *name, *val, *eq, *sname;
	char		*sn = NULL;
	size_t		 len;
	int		 i, r, only_pos = 0;

	a->pos = tr_xcalloc((size_t)argc + 1, sizeof *a->pos);
	a->npos = 0;
	a->help = 0;
	for (i = 1; i < argc; i++) {
		arg = argv[i];
		if (only_pos || arg[0] != '-' || arg[1] == '\0') {
			if (a->max_pos >= 0 && a->npos >= a->max_pos)
				return (tr_error_set(err, TR_EUSAGE, "%s: "
				    "unexpected argument '%s'", a->name, arg));
			a->pos[a->npos++] = argv[i];
			continue;
		}
		if (strcmp(arg, "--") == 0) {
			only_pos = 1;
			continue;
		}
		if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
			tr_args_print_help(a);
			a->help = 1;
			return (0);
		}
		val = NULL;
		o = NULL;
		sname = NULL;
		if (arg[1] == '-') {
			name = arg + 2;
			eq = strchr(name, '=');
			len = eq ? (size_t)(eq - name) : strlen(name);
			if (eq != NULL)
				val = eq + 1;
			if ((o = find_long(a, name, len)) == NULL) {
				free(sn);
				sn = tr_xstrndup(name, len);
				if (a->sel == NULL || !tr_sel_takes(a->sel, sn))
					goto unknown_long;
				sname = sn;
			}
		} else {
			/* "-s2" or "-s 2"; flags do not cluster. */
			if ((o = find_letter(a, arg[1])) == NULL &&
			    (a->sel == NULL ||
			    (sname = tr_sel_letter(a->sel, arg[1])) == NULL))
				return (tr_error_set(err, TR_EUSAGE, "%s: "
				    "unknown option '-%c'; run 'trace-query "
				    "help %s' for the list", a->name, arg[1],
				    a->name));
			if (arg[2] != '\0') {
				if (o != NULL && o->kind == TR_ARG_FLAG)
					return (tr_error_set(err, TR_EUSAGE,
					    "%s: unknown option '%s'", a->name,
					    arg));
				val = arg + 2;
			}
		}
		if (o != NULL && o->kind == TR_ARG_FLAG) {
			if (val != NULL)
				return (tr_error_set(err, TR_EUSAGE, "--%s "
				    "takes no value", o->name));
		} else if (val == NULL) {
			if (++i >= argc)
				return (tr_error_set(err, TR_EUSAGE, "--%s "
				    "needs a value", o ? o->name : sname));
			val = argv[i];
		}
		if (o != NULL) {
			if (take(o, val, err) != 0)
				goto fail;
		} else if ((r = tr_sel_option(a->sel, sname, val, err)) != 1) {
			if (r == 0)
				tr_error_set(err, TR_EUSAGE, "%s: unknown "
				    "option '--%s'", a->name, sname);
			goto fail;
		}
	}
	free(sn);
	return (0);
unknown_long:
	unknown(a, name, len, err);
fail:
	free(sn);
	return (-1);
}

void
tr_args_release(struct tr_args *a)
{
	free(a->pos);
	a->pos = NULL;
	a->npos = 0;
}

int
tr_args_begin(struct tr_args *a, int argc, char **argv, struct tr_db *db,
    struct tr_error *err)
{
	if (tr_args_parse(a, argc, argv, err) != 0)
		return (-1);
	if (a->help)
		return (0);
	if (a->step != NULL && *a->step <= 0)
		return (tr_error_set(err, TR_EUSAGE, "%s: --step must be more "
		    "than 0", a->name));
	if (a->check != NULL && a->check(a->check_arg, err) != 0)
		return (-1);
	if (a->sel != NULL && db != NULL && tr_sel_resolve(a->sel, db,
	    err) != 0)
		return (-1);
	return (1);
}

void
tr_args_end(struct tr_args *a)
{
	tr_args_release(a);
	if (a->sel != NULL)
		tr_sel_release(a->sel);
}

/* "  -x, --name METAVAR   help", wrapped at the help column. */
static void
print_opt(const struct tr_arg *o)
{
	const char	*p, *nl;
	char		 left[96];
	int		 n;

	if (o->letter != 0)
		n = snprintf(left, sizeof left, "  -%c, --%s", o->letter,
		    o->name);
	else
		n = snprintf(left, sizeof left, "      --%s", o->name);
	if (o->metavar != NULL && n > 0 && (size_t)n < sizeof left)
		snprintf(left + n, sizeof left - (size_t)n, " %s",
		    o->metavar);
	if (strlen(left) + 1 > HELP_COL)
		printf("%s\n%*s", left, HELP_COL, "");
	else
		printf("%-*s", HELP_COL, left);
	/* A help of several lines: each under the first. */
	for (p = o->help; (nl = strchr(p, '\n')) != NULL; p = nl + 1)
		printf("%.*s\n%*s", (int)(nl - p), p, HELP_COL, "");
	printf("%s\n", p);
}

void
tr_args_print_help(const struct tr_args *a)
{
	const struct tr_arg	*o;
	char			*sh;

	printf("usage: trace-query [-d DB] [-F table|csv|json] %s%s%s\n",
	    a->name, a->synopsis && *a->synopsis ? " " : "",
	    a->synopsis ? a->synopsis : "");
	if (a->about != NULL)
		printf("\n%s\n", a->about);
	if (a->args != NULL && a->args[0].name != NULL) {
		printf("\nOptions:\n");
		for (o = a->args; o->name != NULL; o++)
			print_opt(o);
	}
	if (a->sel != NULL && a->sel->accept != 0) {
		sh = tr_sel_help(a->sel->accept);
		printf("\nSelection (trace-query(1), SELECTION):\n%s", sh);
		free(sh);
	}
	printf("\n  -h, --help           print this help\n");
}
