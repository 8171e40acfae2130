/*
 * chrome-check FILE: check a Chrome trace-event JSON document as
 * trace-query chrome-trace writes it, and count its events per track.
 *
 * The checks (each failure a line on stderr, exit status 1): the
 * document is one JSON object with an array "traceEvents"; every event
 * is an object with "ph" (a string, one of the phases the format
 * defines), "ts" (a number), "pid" and "tid" (integers) and "name" (a
 * string); X has a number "dur" >= 0; i has "s" of g, p or t; C has an
 * object "args" of numbers; M names a process or thread ("args"."name" a
 * string, or "args"."sort_index" an integer); b and e carry "cat" and
 * "id" and pair up; every "sf" is a key of "stackFrames", whose parents
 * are keys too; the X slices of each thread nest (none overlaps another
 * partly), which is what the viewers need to draw them.
 *
 * Standard output: a line per track, sorted, "PROCESS<TAB>THREAD<TAB>PH
 * <TAB>WHAT<TAB>COUNT<TAB>NS", PROCESS and THREAD the names the metadata
 * gives them ("" for none, the tid in brackets for an unnamed thread),
 * WHAT the event's "cat" (the counter's "name" for C), NS the total
 * "dur" of X slices in nanoseconds (0 for the others).  Then a last line
 * "events N, stack frames M".
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

struct key {
	char	*text;		/* "pid\ttid\tph\twhat" */
	int64_t	 pid, tid;
	char	 ph[4];
	char	*what;
	int64_t	 count, ns;
};

struct span {
	int64_t	pid, tid, b, e;
};

static int	errors;

static void
bad(size_t i, const char *what)
{
	if (errors++ < 20)
		fprintf(stderr, "chrome-check: event %zu: %s\n", i, what);
}

static int64_t
us_to_ns(double us)
{
	return ((int64_t)llround(us * 1000.0));
}

static int
cmp_span(const void *a, const void *b)
{
	const struct span	*x = a, *y = b;

	if (x->pid != y->pid)
		return (x->pid < y->pid ? -1 : 1);
	if (x->tid != y->tid)
		return (x->tid < y->tid ? -1 : 1);
	if (x->b != y->b)
		return (x->b < y->b ? -1 : 1);
	/* The longer first: it holds the shorter. */
	if (x->e != y->e)
		return (x->e > y->e ? -1 : 1);
	return (0);
}

static int
cmp_line(const void *a, const void *b)
{
	return (strcmp(*(char *const *)a, *(char *const *)b));
}

/* The name M events gave pid (tid -1 for the process), or NULL. */
static const char *
name_of(json_t *names, int64_t pid, int64_t tid)
{
	char	k[64];

	snprintf(k, sizeof k, "%lld/%lld", (long long)pid, (long long)tid);
	return (json_string_value(json_object_get(names, k)));
}

static int
valid_ph(const char *ph)
{
	static const char *const phs[] = {
		"B", "E", "X", "i", "I", "C", "b", "n", "e", "s", "t", "f",
		"P", "N", "O", "D", "M", "V", "v", "R", "c", "(", ")", NULL
	};
	int	i;

	for (i = 0; phs[i] != NULL; i++)
		if (strcmp(ph, phs[i]) == 0)
			return (1);
	return (0);
}

/* Nesting: each slice inside the open one, or after it. */
static void
check_nesting(struct span *v, size_t n)
{
	size_t	 i, top = 0, *stack;
	int64_t	 pid = -1, tid = -1;
	char	 msg[160];

	if (n == 0)
		return;
	qsort(v, n, sizeof *v, cmp_span);
	stack = calloc(n, sizeof *stack);
	for (i = 0; i < n; i++) {
		if (v[i].pid != pid || v[i].tid != tid) {
			pid = v[i].pid;
			tid = v[i].tid;
			top = 0;
		}
		while (top > 0 && v[stack[top - 1]].e <= v[i].b)
			top--;
		if (top > 0 && v[i].e > v[stack[top - 1]].e) {
			snprintf(msg, sizeof msg, "pid %lld tid %lld: slice "
			    "[%lld, %lld) ns overlaps [%lld, %lld) partly",
			    (long long)pid, (long long)tid,
			    (long long)v[i].b, (long long)v[i].e,
			    (long long)v[stack[top - 1]].b,
			    (long long)v[stack[top - 1]].e);
			bad(i, msg);
			continue;
		}
		stack[top++] = i;
	}
	free(stack);
}

int
main(int argc, char **argv)
{
	json_error_t	 jerr;
	json_t		*doc, *evs, *frames, *names, *open, *idx;
	struct key	*keys = NULL;
	struct span	*spans = NULL;
	char		**lines;
	size_t		 nkeys = 0, capkeys = 0, nspans = 0, capspans = 0;
	size_t		 i, j, nev;
	const char	*k;
	json_t		*v;

	if (argc != 2) {
		fprintf(stderr, "usage: chrome-check FILE\n");
		return (2);
	}
	if ((doc = json_load_file(argv[1], 0, &jerr)) == NULL) {
		fprintf(stderr, "chrome-check: %s:%d:%d: %s\n", argv[1],
		    jerr.line, jerr.column, jerr.text);
		return (1);
	}
	evs = json_object_get(doc, "traceEvents");
	if (!json_is_object(doc) || !json_is_array(evs)) {
		fprintf(stderr, "chrome-check: no \"traceEvents\" array\n");
		return (1);
	}
	frames = json_object_get(doc, "stackFrames");
	if (frames != NULL && !json_is_object(frames))
		bad(0, "\"stackFrames\" is not an object");
	json_object_foreach(frames, k, v) {
		json_t	*p = json_object_get(v, "parent");

		if (!json_is_string(json_object_get(v, "name")))
			bad(0, "a stack frame without a name");
		if (p != NULL && (!json_is_string(p) ||
		    json_object_get(frames, json_string_value(p)) == NULL))
			bad(0, "a stack frame's parent is not a frame");
	}
	names = json_object();
	open = json_object();
	idx = json_object();
	nev = json_array_size(evs);
	/* Names first: M events may come anywhere. */
	for (i = 0; i < nev; i++) {
		json_t		*e = json_array_get(evs, i);
		const char	*ph = json_string_value(json_object_get(e,
		    "ph"));
		const char	*n = json_string_value(json_object_get(e,
		    "name"));
		json_t		*a = json_object_get(e, "args");
		char		 kk[64];

		if (ph == NULL || strcmp(ph, "M") != 0 || n == NULL)
			continue;
		snprintf(kk, sizeof kk, "%lld/%lld", (long long)
		    json_integer_value(json_object_get(e, "pid")),
		    strcmp(n, "process_name") == 0 ? -1LL : (long long)
		    json_integer_value(json_object_get(e, "tid")));
		if (strcmp(n, "process_name") == 0 ||
		    strcmp(n, "thread_name") == 0) {
			if (!json_is_string(json_object_get(a, "name")))
				bad(i, "M event without args.name");
			else if (json_object_get(names, kk) != NULL)
				bad(i, "named twice");
			else
				json_object_set(names, kk,
				    json_object_get(a, "name"));
		} else if (strcmp(n, "process_sort_index") == 0 ||
		    strcmp(n, "thread_sort_index") == 0) {
			if (!json_is_integer(json_object_get(a, "sort_index")))
				bad(i, "M event without args.sort_index");
		} else if (strcmp(n, "process_labels") == 0) {
			if (!json_is_string(json_object_get(a, "labels")))
				bad(i, "M event without args.labels");
		} else
			bad(i, "unknown metadata event");
	}
	for (i = 0; i < nev; i++) {
		json_t		*e = json_array_get(evs, i);
		json_t		*a = json_object_get(e, "args");
		json_t		*sf = json_object_get(e, "sf");
		const char	*ph, *what;
		int64_t		 pid, tid, ns = 0;
		char		 text[1024];
		double		 ts;

		if (!json_is_object(e)) {
			bad(i, "not an object");
			continue;
		}
		ph = json_string_value(json_object_get(e, "ph"));
		if (ph == NULL || !valid_ph(ph)) {
			bad(i, "no valid \"ph\"");
			continue;
		}
		if (!json_is_number(json_object_get(e, "ts")) ||
		    !json_is_integer(json_object_get(e, "pid")) ||
		    !json_is_integer(json_object_get(e, "tid")) ||
		    !json_is_string(json_object_get(e, "name"))) {
			bad(i, "\"ts\", \"pid\", \"tid\" or \"name\" missing "
			    "or mistyped");
			continue;
		}
		ts = json_number_value(json_object_get(e, "ts"));
		pid = json_integer_value(json_object_get(e, "pid"));
		tid = json_integer_value(json_object_get(e, "tid"));
		if (sf != NULL && (!json_is_string(sf) ||
		    json_object_get(frames, json_string_value(sf)) == NULL))
			bad(i, "\"sf\" is not a key of \"stackFrames\"");
		if (a != NULL && !json_is_object(a))
			bad(i, "\"args\" is not an object");
		what = json_string_value(json_object_get(e, "cat"));
		switch (ph[0]) {
		case 'M':
			continue;
		case 'X': {
			json_t	*d = json_object_get(e, "dur");

			if (!json_is_number(d) || json_number_value(d) < 0) {
				bad(i, "X without a number \"dur\" >= 0");
				continue;
			}
			ns = us_to_ns(json_number_value(d));
			if (nspans == capspans) {
				capspans = capspans ? 2 * capspans : 1024;
				spans = realloc(spans, capspans *
				    sizeof *spans);
			}
			spans[nspans].pid = pid;
			spans[nspans].tid = tid;
			spans[nspans].b = us_to_ns(ts);
			spans[nspans++].e = us_to_ns(ts) + ns;
			break;
		}
		case 'i': {
			const char	*s = json_string_value(
			    json_object_get(e, "s"));

			if (s != NULL && strcmp(s, "g") != 0 &&
			    strcmp(s, "p") != 0 && strcmp(s, "t") != 0)
				bad(i, "i with \"s\" not g, p or t");
			break;
		}
		case 'C': {
			const char	*ck;
			json_t		*cv;

			if (!json_is_object(a) || json_object_size(a) == 0)
				bad(i, "C without args");
			json_object_foreach(a, ck, cv)
				if (!json_is_number(cv))
					bad(i, "C with a value not a number");
			what = json_string_value(json_object_get(e, "name"));
			break;
		}
		case 'b':
		case 'e': {
			json_t	*id = json_object_get(e, "id");
			char	 kk[128];

			if (what == NULL || id == NULL) {
				bad(i, "b/e without \"cat\" and \"id\"");
				continue;
			}
			snprintf(kk, sizeof kk, "%lld/%s/%lld", (long long)pid,
			    what, (long long)json_integer_value(id));
			if (ph[0] == 'b') {
				if (json_object_get(open, kk) != NULL)
					bad(i, "b opened twice");
				json_object_set_new(open, kk, json_true());
			} else if (json_object_del(open, kk) != 0)
				bad(i, "e without its b");
			break;
		}
		default:
			break;
		}
		if (what == NULL)
			what = "";
		snprintf(text, sizeof text, "%lld\t%lld\t%s\t%s",
		    (long long)pid, (long long)tid, ph, what);
		j = (size_t)json_integer_value(json_object_get(idx, text));
		if (j == 0) {
			if (nkeys == capkeys) {
				capkeys = capkeys ? 2 * capkeys : 256;
				keys = realloc(keys, capkeys * sizeof *keys);
			}
			keys[nkeys].text = strdup(text);
			keys[nkeys].pid = pid;
			keys[nkeys].tid = tid;
			snprintf(keys[nkeys].ph, sizeof keys[nkeys].ph, "%s",
			    ph);
			keys[nkeys].what = strdup(what);
			keys[nkeys].count = 0;
			keys[nkeys].ns = 0;
			j = ++nkeys;
			json_object_set_new(idx, text, json_integer(
			    (json_int_t)j));
		}
		keys[j - 1].count++;
		keys[j - 1].ns += ns;
	}
	if (json_object_size(open) > 0)
		bad(nev, "b without its e");
	check_nesting(spans, nspans);
	lines = calloc(nkeys + 1, sizeof *lines);
	for (i = 0; i < nkeys; i++) {
		const char	*pn = name_of(names, keys[i].pid, -1);
		const char	*tn = name_of(names, keys[i].pid, keys[i].tid);
		char		 tbuf[32];
		size_t		 len;

		if (tn == NULL && keys[i].ph[0] != 'C' && keys[i].tid != 0) {
			snprintf(tbuf, sizeof tbuf, "[%lld]",
			    (long long)keys[i].tid);
			tn = tbuf;
		}
		if (keys[i].ph[0] == 'C' || (keys[i].ph[0] == 'b' ||
		    keys[i].ph[0] == 'e'))
			tn = "";
		len = strlen(pn ? pn : "") + strlen(tn ? tn : "") +
		    strlen(keys[i].what) + 64;
		lines[i] = malloc(len);
		snprintf(lines[i], len, "%s\t%s\t%s\t%s\t%lld\t%lld",
		    pn ? pn : "", tn ? tn : "", keys[i].ph, keys[i].what,
		    (long long)keys[i].count, (long long)keys[i].ns);
	}
	qsort(lines, nkeys, sizeof *lines, cmp_line);
	for (i = 0; i < nkeys; i++)
		printf("%s\n", lines[i]);
	printf("events %zu, stack frames %zu\n", nev,
	    json_object_size(frames));
	for (i = 0; i < nkeys; i++) {
		free(keys[i].text);
		free(keys[i].what);
		free(lines[i]);
	}
	free(keys);
	free(lines);
	free(spans);
	json_decref(names);
	json_decref(open);
	json_decref(idx);
	json_decref(doc);
	if (errors > 0)
		fprintf(stderr, "chrome-check: %d errors\n", errors);
	return (errors > 0);
}
