/*
 * Unit tests for flame-svg: folded stacks built by hand, drawn, and the
 * SVG text checked for frames, places, sizes, escaping and colours.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "flame/flame.h"
#include "base/util.h"

/* Folded stacks from parallel arrays (the strings are copied). */
static void
folded_set(struct tr_folded *f, const char *const *stacks,
    const int64_t *counts, size_t n)
{
	size_t	i;

	memset(f, 0, sizeof *f);
	f->stacks = tr_xcalloc(n, sizeof *f->stacks);
	f->counts = tr_xcalloc(n, sizeof *f->counts);
	for (i = 0; i < n; i++) {
		f->stacks[i] = tr_xstrdup(stacks[i]);
		f->counts[i] = counts[i];
	}
	f->n = n;
}

/*
 * Draw and return the SVG text (caller frees), failing the test on error:
 * a differential of 'base' against 'counts' when 'base' is not NULL.
 */
static char *
draw(const char *const *stacks, const int64_t *base, const int64_t *counts,
    size_t n, const struct tr_svg_opts *o)
{
	struct tr_folded	 f;
	struct tr_error		 err;
	char			*buf = NULL;
	size_t			 len = 0;
	FILE			*fp;

	folded_set(&f, stacks, counts, n);
	if (base != NULL) {
		f.base = tr_xcalloc(n, sizeof *f.base);
		memcpy(f.base, base, n * sizeof *base);
	}
	tr_error_init(&err);
	fp = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(fp);
	ck_assert_msg(tr_flame_write_svg(&f, o, fp, &err) == 0, "%s",
	    err.msg);
	ck_assert_int_eq(fclose(fp), 0);
	tr_folded_release(&f);
	ck_assert(strncmp(buf, "<?xml ", 6) == 0);
	ck_assert(strstr(buf, "</svg>\n") == buf + len - 7);
	return (buf);
}

static size_t
count_of(const char *s, const char *needle)
{
	const size_t	len = strlen(needle);
	size_t		n = 0;

	/*
	 * Not strstr() in a loop: ASan's strstr() measures the whole rest
	 * of the haystack on every call, which makes counting 60,000 frames
	 * in a 10 MB SVG take minutes under --enable-asan.
	 */
	for (; *s != '\0'; s++) {
		if (*s == *needle && strncmp(s, needle, len) == 0) {
			n++;
			s += len - 1;
		}
	}
	return (n);
}

/* Place and fill of the frame whose tooltip starts with 'title'. */
struct drawn {
	double	x, width;
	int	y, height;
	int	r, g, b;
	char	text[256];
};

static int
find_frame(const char *svg, const char *title, struct drawn *d)
{
	char		 key[512];
	const char	*p, *t, *e;

	snprintf(key, sizeof key, "<g><title>%s (", title);
	if ((p = strstr(svg, key)) == NULL)
		return (0);
	p = strstr(p, "<rect ");
	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(sscanf(p, "<rect x=\"%lf\" y=\"%d\" width=\"%lf\" "
	    "height=\"%d\" fill=\"rgb(%d,%d,%d)\"", &d->x, &d->y, &d->width,
	    &d->height, &d->r, &d->g, &d->b), 7);
	t = strstr(p, "<text ");
	t = strchr(t, '>') + 1;
	e = strstr(t, "</text>");
	ck_assert((size_t)(e - t) < sizeof d->text);
	memcpy(d->text, t, (size_t)(e - t));
	d->text[e - t] = '\0';
	return (1);
}

static int
svg_height(const char *svg)
{
	const char	*p = strstr(svg, "<svg ");
	int		 w, h;

	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(sscanf(p, "<svg version=\"1.1\" width=\"%d\" "
	    "height=\"%d\"", &w, &h), 2);
	return (h);
}

START_TEST(test_frames_and_widths)
{
	static const char *const stacks[] = { "a;b", "a;c", "d" };
	static const int64_t	 counts[] = { 3, 1, 4 };
	struct tr_svg_opts	 o;
	struct drawn		 d;
	char			*svg;

	tr_svg_opts_init(&o);
	svg = draw(stacks, NULL, counts, 3, &o);
	/* all, a, b, c, d */
	ck_assert_uint_eq(count_of(svg, "<g><title>"), 5);
	/* 1180 pixels for 8 samples: 147.5 each. */
	ck_assert(find_frame(svg, "all", &d));
	ck_assert(strstr(svg, "<title>all (8 samples, 100%)</title>"));
	ck_assert_double_eq(d.x, 10);
	ck_assert_double_eq(d.width, 1180);
	ck_assert(find_frame(svg, "a", &d));
	ck_assert(strstr(svg, "<title>a (4 samples, 50.00%)</title>"));
	ck_assert_double_eq(d.x, 10);
	ck_assert_double_eq(d.width, 590);
	ck_assert_str_eq(d.text, "a");
	ck_assert(find_frame(svg, "b", &d));
	ck_assert_double_eq(d.x, 10);
	ck_assert_double_eq(d.width, 442.5);
	ck_assert(find_frame(svg, "c", &d));
	ck_assert(strstr(svg, "<title>c (1 samples, 12.50%)</title>"));
	ck_assert_double_eq(d.x, 452.5);
	ck_assert_double_eq(d.width, 147.5);
	ck_assert(find_frame(svg, "d", &d));
	ck_assert_double_eq(d.x, 600);
	ck_assert_double_eq(d.width, 590);
	/* Depths 0..2: 36 above, 3 * 16, 34 below; the root at the bottom. */
	ck_assert_int_eq(svg_height(svg), 118);
	ck_assert(find_frame(svg, "all", &d));
	ck_assert_int_eq(d.y, 118 - 34 - 16 + 1);
	ck_assert_int_eq(d.height, 15);
	ck_assert(find_frame(svg, "b", &d));
	ck_assert_int_eq(d.y, 118 - 34 - 3 * 16 + 1);
	/* The pieces people use. */
	ck_assert(strstr(svg, "<text id=\"title\" x=\"600\" y=\"24\">Flame "
	    "Graph</text>"));
	ck_assert(strstr(svg, ">Reset Zoom</text>"));
	ck_assert(strstr(svg, "<text id=\"search\" "));
	ck_assert(strstr(svg, "<text id=\"matched\" "));
	ck_assert(strstr(svg, "<script type=\"text/ecmascript\"><![CDATA["));
	ck_assert_uint_eq(count_of(svg, "]]>"), 1);
	ck_assert(strstr(svg, "unit: \"samples\" };"));
	free(svg);
}
END_TEST

START_TEST(test_options)
{
	static const char *const stacks[] = { "a;b", "c" };
	static const int64_t	 counts[] = { 1, 1 };
	struct tr_svg_opts	 o;
	struct drawn		 d;
	char			*svg;

	tr_svg_opts_init(&o);
	o.width = 500;
	o.frameheight = 20;
	o.title = "Off-CPU";
	o.subtitle = "pid 42";
	o.countname = "ns";
	svg = draw(stacks, NULL, counts, 2, &o);
	/* 36 + 24 for the subtitle, 3 depths of 20, 34 below. */
	ck_assert(strstr(svg, "width=\"500\" height=\"154\" "
	    "viewBox=\"0 0 500 154\""));
	ck_assert(strstr(svg, "<text id=\"title\" x=\"250\" y=\"24\">"
	    "Off-CPU</text>"));
	ck_assert(strstr(svg, "<text id=\"subtitle\" x=\"250\" y=\"48\">"
	    "pid 42</text>"));
	ck_assert(strstr(svg, "<title>a (1 ns, 50.00%)</title>"));
	ck_assert(find_frame(svg, "c", &d));
	ck_assert_double_eq(d.x, 250);
	ck_assert_double_eq(d.width, 240);
	ck_assert_int_eq(d.height, 19);
	ck_assert(strstr(svg, "unit: \"ns\" };"));
	free(svg);

	/* An empty subtitle is none: no element, no room kept for it. */
	o.subtitle = "";
	svg = draw(stacks, NULL, counts, 2, &o);
	ck_assert_ptr_null(strstr(svg, "id=\"subtitle\""));
	ck_assert_int_eq(svg_height(svg), 36 + 3 * 20 + 34);
	free(svg);
}
END_TEST

START_TEST(test_inverted)
{
	static const char *const stacks[] = { "a;b" };
	static const int64_t	 counts[] = { 7 };
	struct tr_svg_opts	 o;
	struct drawn		 d;
	char			*svg;

	tr_svg_opts_init(&o);
	o.inverted = 1;
	svg = draw(stacks, NULL, counts, 1, &o);
	/* Roots at the top, right under the title. */
	ck_assert(find_frame(svg, "all", &d));
	ck_assert_int_eq(d.y, 36);
	ck_assert(find_frame(svg, "a", &d));
	ck_assert_int_eq(d.y, 52);
	ck_assert(find_frame(svg, "b", &d));
	ck_assert_int_eq(d.y, 68);
	ck_assert_int_eq(d.height, 15);
	ck_assert(strstr(svg, ">Icicle Graph</text>"));
	ck_assert(strstr(svg, "inv: 1,"));
	free(svg);

	/* A subtitle pushes the frames down. */
	o.subtitle = "s";
	svg = draw(stacks, NULL, counts, 1, &o);
	ck_assert(find_frame(svg, "all", &d));
	ck_assert_int_eq(d.y, 60);
	free(svg);

	/* An explicit title is kept. */
	o.title = "Mine";
	svg = draw(stacks, NULL, counts, 1, &o);
	ck_assert(strstr(svg, ">Mine</text>"));
	ck_assert_ptr_null(strstr(svg, "Icicle"));
	free(svg);
}
END_TEST

START_TEST(test_reverse)
{
	static const char *const stacks[] = { "a;b", "c;b", "z;y" };
	static const int64_t	 counts[] = { 1, 2, 1 };
	struct tr_svg_opts	 o;
	struct drawn		 d;
	char			*svg;

	tr_svg_opts_init(&o);
	o.reverse = 1;
	svg = draw(stacks, NULL, counts, 3, &o);
	/* all; b (a, c); y (z): the leaves become the roots and merge. */
	ck_assert_uint_eq(count_of(svg, "<g><title>"), 6);
	ck_assert(strstr(svg, "<title>b (3 samples, 75.00%)</title>"));
	ck_assert(find_frame(svg, "b", &d));
	ck_assert_double_eq(d.x, 10);
	ck_assert_double_eq(d.width, 885);
	/* Siblings are in name order even though "c;b" sorted after "a;b" */
	ck_assert(find_frame(svg, "a", &d));
	ck_assert_double_eq(d.x, 10);
	ck_assert_double_eq(d.width, 295);
	ck_assert(find_frame(svg, "c", &d));
	ck_assert_double_eq(d.x, 305);
	ck_assert(find_frame(svg, "y", &d));
	ck_assert_double_eq(d.x, 895);
	ck_assert(find_frame(svg, "z", &d));
	ck_assert_double_eq(d.x, 895);
	free(svg);
}
END_TEST

START_TEST(test_merge_unsorted)
{
	/* Not sorted, and "a" comes back after another root. */
	static const char *const stacks[] = { "b;x", "a;z", "b;x", "a;m" };
	static const int64_t	 counts[] = { 1, 1, 1, 1 };
	struct tr_svg_opts	 o;
	struct drawn		 d;
	char			*svg;

	tr_svg_opts_init(&o);
	svg = draw(stacks, NULL, counts, 4, &o);
	ck_assert_uint_eq(count_of(svg, "<g><title>"), 6);
	ck_assert(strstr(svg, "<title>a (2 samples, 50.00%)</title>"));
	ck_assert(strstr(svg, "<title>x (2 samples, 50.00%)</title>"));
	ck_assert(find_frame(svg, "m", &d));
	ck_assert_double_eq(d.x, 10);
	ck_assert(find_frame(svg, "z", &d));
	ck_assert_double_eq(d.x, 305);
	ck_assert(find_frame(svg, "b", &d));
	ck_assert_double_eq(d.x, 600);
	free(svg);
}
END_TEST

START_TEST(test_empty_frames)
{
	/* Empty frames inside a stack stay; trailing ones are dropped. */
	static const char *const stacks[] = { "a;;b", "c;", "" };
	static const int64_t	 counts[] = { 1, 1, 2 };
	struct tr_svg_opts	 o;
	char			*svg;

	tr_svg_opts_init(&o);
	svg = draw(stacks, NULL, counts, 3, &o);
	/* all, a, "", b, c; the empty stack counts for the root only. */
	ck_assert_uint_eq(count_of(svg, "<g><title>"), 5);
	ck_assert(strstr(svg, "<title>all (4 samples, 100%)</title>"));
	ck_assert(strstr(svg, "<title> (1 samples, 25.00%)</title>"));
	ck_assert(strstr(svg, "<title>c (1 samples, 25.00%)</title>"));
	free(svg);
}
END_TEST

START_TEST(test_minwidth)
{
	static const char *const stacks[] = { "a;x;y;z", "b" };
	static const int64_t	 counts[] = { 1, 1000 };
	struct tr_svg_opts	 o;
	char			*svg;

	/* 1180 / 1001 pixels a sample: "a" and its stack are 1.18 wide. */
	tr_svg_opts_init(&o);
	svg = draw(stacks, NULL, counts, 2, &o);
	ck_assert_uint_eq(count_of(svg, "<g><title>"), 6);
	ck_assert_int_eq(svg_height(svg), 36 + 5 * 16 + 34);
	ck_assert(strstr(svg, "width=\"1.18\""));
	free(svg);

	o.minwidth = 1.2;
	svg = draw(stacks, NULL, counts, 2, &o);
	ck_assert_uint_eq(count_of(svg, "<g><title>"), 2);
	ck_assert_ptr_null(strstr(svg, "<title>a ("));
	ck_assert_ptr_null(strstr(svg, "<title>z ("));
	/* The omitted frames take their depth with them. */
	ck_assert_int_eq(svg_height(svg), 36 + 2 * 16 + 34);
	free(svg);

	o.minwidth = 0;
	svg = draw(stacks, NULL, counts, 2, &o);
	ck_assert_uint_eq(count_of(svg, "<g><title>"), 6);
	free(svg);
}
END_TEST

START_TEST(test_escaping)
{
	static const char *const stacks[] = {
		"a<b>&\"c'",
		"bad\xff\xfe;ctl\x01x;caf\xc3\xa9;over\xc0\xaf;sur\xed\xa0\x80",
		"]]>;_[k]_[k]"
	};
	static const int64_t	 counts[] = { 1, 1, 1 };
	struct tr_svg_opts	 o;
	char			*svg;

	tr_svg_opts_init(&o);
	o.title = "x & <y>";
	o.countname = "<\xe2\x82\xac\xf0\x9f\x94\xa5\\\"]]>";
	svg = draw(stacks, NULL, counts, 3, &o);
	ck_assert(strstr(svg, "<title>a&lt;b&gt;&amp;&quot;c' ("));
	ck_assert(strstr(svg, ">a&lt;b&gt;&amp;&quot;c'</text>"));
	/* Bytes that are not UTF-8 become U+FFFD, one each. */
	ck_assert(strstr(svg, "<title>bad\xef\xbf\xbd\xef\xbf\xbd ("));
	ck_assert(strstr(svg, "<title>ctl\xef\xbf\xbdx ("));
	ck_assert(strstr(svg, "<title>caf\xc3\xa9 ("));
	ck_assert(strstr(svg, "<title>over\xef\xbf\xbd\xef\xbf\xbd ("));
	ck_assert(strstr(svg,
	    "<title>sur\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd ("));
	ck_assert(strstr(svg, ">x &amp; &lt;y&gt;</text>"));
	/* Only the last annotation is stripped. */
	ck_assert(strstr(svg, "<title>]]&gt; ("));
	ck_assert(strstr(svg, "<title>_[k] ("));
	/* The count's name, in a title and as a script string. */
	ck_assert(strstr(svg,
	    " &lt;\xe2\x82\xac\xf0\x9f\x94\xa5\\&quot;]]&gt;, "));
	ck_assert(strstr(svg, "unit: \"\\u003c\\u20ac\\ud83d\\udd25\\u005c"
	    "\\u0022\\u005d\\u005d\\u003e\" };"));
	/* The script section is closed once only. */
	ck_assert_uint_eq(count_of(strstr(svg, "<![CDATA["), "]]>"), 1);
	ck_assert_ptr_null(strstr(svg, "\x01"));
	free(svg);
}
END_TEST

START_TEST(test_labels)
{
	static const char *const stacks[] = {
		"\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9",
		"abcdefghij",
		"wide_enough",
		"s_[k]"
	};
	static const int64_t	 counts[] = { 1, 1, 8, 90 };
	struct tr_svg_opts	 o;
	struct drawn		 d;
	char			*svg;

	/* 100 samples on 1180 pixels: a sample is 11.8 px, 1.67 chars. */
	tr_svg_opts_init(&o);
	o.width = 1200;
	svg = draw(stacks, NULL, counts, 4, &o);
	/* 3 samples' width would fit 5 characters; 1 fits none. */
	ck_assert(find_frame(svg,
	    "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", &d));
	ck_assert_str_eq(d.text, "");
	ck_assert(find_frame(svg, "abcdefghij", &d));
	ck_assert_str_eq(d.text, "");
	ck_assert(find_frame(svg, "wide_enough", &d));
	/* 94.4 px: 13 characters fit. */
	ck_assert_str_eq(d.text, "wide_enough");
	ck_assert(find_frame(svg, "s", &d));
	ck_assert_str_eq(d.text, "s");
	free(svg);

	/* Truncation counts characters, not bytes. */
	{
		static const char *const st2[] = {
			"\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
			    "\xc3\xa9",
			"x"
		};
		static const int64_t	 c2[] = { 3, 97 };

		svg = draw(st2, NULL, c2, 2, &o);
		ck_assert(find_frame(svg, "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
		    "\xc3\xa9\xc3\xa9\xc3\xa9", &d));
		/* 35.4 px: 5 characters, so 3 and "..". */
		ck_assert_str_eq(d.text, "\xc3\xa9\xc3\xa9\xc3\xa9..");
		free(svg);
	}
}
END_TEST

START_TEST(test_empty)
{
	static const char *const stacks[] = { "a", "b" };
	static const int64_t	 counts[] = { 0, 0 };
	struct tr_svg_opts	 o;
	char			*svg;

	tr_svg_opts_init(&o);
	svg = draw(stacks, NULL, counts, 0, &o);
	ck_assert(strstr(svg, ">no samples</text>"));
	ck_assert(strstr(svg, ">Flame Graph</text>"));
	ck_assert_uint_eq(count_of(svg, "<g><title>"), 0);
	ck_assert_int_eq(svg_height(svg), 72);
	free(svg);

	/* Stacks that count nothing draw nothing either. */
	svg = draw(stacks, NULL, counts, 2, &o);
	ck_assert(strstr(svg, ">no samples</text>"));
	ck_assert_uint_eq(count_of(svg, "<g><title>"), 0);
	free(svg);
}
END_TEST

START_TEST(test_colors_deterministic)
{
	static const char *const s1[] = { "foo;bar", "qux" };
	static const char *const s2[] = { "bar", "zzz;foo" };
	static const int64_t	 counts[] = { 5, 6 };
	struct tr_svg_opts	 o;
	struct drawn		 d1, d2;
	char			*a, *b;

	tr_svg_opts_init(&o);
	a = draw(s1, NULL, counts, 2, &o);
	b = draw(s1, NULL, counts, 2, &o);
	ck_assert_str_eq(a, b);
	free(b);
	/* A name has one colour whatever graph it is in. */
	b = draw(s2, NULL, counts, 2, &o);
	ck_assert(find_frame(a, "foo", &d1));
	ck_assert(find_frame(b, "foo", &d2));
	ck_assert(d1.r == d2.r && d1.g == d2.g && d1.b == d2.b);
	/* hot: red 205-254, green 0-229, blue 0-54. */
	ck_assert(d1.r >= 205 && d1.r <= 254 && d1.g <= 229 && d1.b <= 54);
	ck_assert(find_frame(a, "bar", &d1));
	ck_assert(find_frame(b, "bar", &d2));
	ck_assert(d1.r == d2.r && d1.g == d2.g && d1.b == d2.b);
	free(a);
	free(b);
	/*
	 * This exact colour pins the hash (FNV-1a of "foo", then the
	 * murmur3 finaliser; computed apart in Python): it must not vary by
	 * platform.
	 */
	a = draw(s1, NULL, counts, 2, &o);
	ck_assert(strstr(a, "<title>foo (5 samples, 45.45%)</title><rect "
	    "x=\"10.00\" y=\"53\" width=\"536.36\" height=\"15\" "
	    "fill=\"rgb(250,26,22)\" rx=\"2\" ry=\"2\"/><text x=\"13.00\" "
	    "y=\"63.5\">foo</text></g>\n"));
	free(a);
}
END_TEST

/* Fill of frame 'name' drawn alone with scheme 'c'. */
static void
color_of(enum tr_flame_colors c, const char *name, const char *title,
    struct drawn *d)
{
	const char		*stacks[1];
	static const int64_t	 counts[] = { 1 };
	struct tr_svg_opts	 o;
	char			*svg;

	stacks[0] = name;
	tr_svg_opts_init(&o);
	o.colors = c;
	svg = draw(stacks, NULL, counts, 1, &o);
	ck_assert_msg(find_frame(svg, title, d), "no frame '%s'", title);
	free(svg);
}

#define IS_ORANGE(d)	((d).r >= 190 && (d).g >= 90 && (d).g <= 155 && \
			    (d).b == 0)
#define IS_GREEN(d)	((d).g >= 200 && (d).r == (d).b && (d).r <= 110)
#define IS_AQUA(d)	((d).r <= 110 && (d).g == (d).b && (d).g >= 165)
#define IS_YELLOW(d)	((d).r == (d).g && (d).r >= 175 && (d).b <= 70)
#define IS_RED(d)	((d).r >= 200 && (d).g == (d).b && (d).g <= 130)
#define IS_PURPLE(d)	((d).r == (d).b && (d).r >= 190 && (d).g <= 140)

START_TEST(test_colors_go)
{
	struct drawn	d;

	color_of(TR_COLORS_GO, "tcp_sendmsg_[k]", "tcp_sendmsg", &d);
	ck_assert(IS_ORANGE(d));
	color_of(TR_COLORS_GO, "runtime.mallocgc", "runtime.mallocgc", &d);
	ck_assert(IS_AQUA(d));
	color_of(TR_COLORS_GO, "internal/runtime/atomic.Load",
	    "internal/runtime/atomic.Load", &d);
	ck_assert(IS_AQUA(d));
	color_of(TR_COLORS_GO, "main.main", "main.main", &d);
	ck_assert(IS_GREEN(d));
	color_of(TR_COLORS_GO, "net/http.(*conn).serve",
	    "net/http.(*conn).serve", &d);
	ck_assert(IS_GREEN(d));
	color_of(TR_COLORS_GO, "github.com/a/b.F[go.shape.int]",
	    "github.com/a/b.F[go.shape.int]", &d);
	ck_assert(IS_GREEN(d));
	color_of(TR_COLORS_GO, "main.inlined_[i]", "main.inlined", &d);
	ck_assert(IS_GREEN(d));
	color_of(TR_COLORS_GO, "memcpy", "memcpy", &d);
	ck_assert(IS_RED(d));
	color_of(TR_COLORS_GO, "ext4_write.isra.0", "ext4_write.isra.0", &d);
	ck_assert(IS_RED(d));
	color_of(TR_COLORS_GO, "[unknown]", "[unknown]", &d);
	ck_assert(IS_RED(d));
	color_of(TR_COLORS_GO, "_cgo_topofstack", "_cgo_topofstack", &d);
	ck_assert(IS_RED(d));
	color_of(TR_COLORS_GO, "std::vector<int>::at",
	    "std::vector&lt;int&gt;::at", &d);
	ck_assert(IS_YELLOW(d));
	color_of(TR_COLORS_GO, "Interpreter_[j]", "Interpreter", &d);
	ck_assert(IS_PURPLE(d));
}
END_TEST

START_TEST(test_colors_java_mem_io)
{
	struct drawn	d;

	color_of(TR_COLORS_JAVA, "Lcom/foo/Bar::run_[j]", "Lcom/foo/Bar::run",
	    &d);
	ck_assert(IS_GREEN(d));
	color_of(TR_COLORS_JAVA, "java/lang/Thread:.run",
	    "java/lang/Thread:.run", &d);
	ck_assert(IS_GREEN(d));
	color_of(TR_COLORS_JAVA, "foo_[i]", "foo", &d);
	ck_assert(IS_AQUA(d));
	color_of(TR_COLORS_JAVA, "JavaThread::run", "JavaThread::run", &d);
	ck_assert(IS_YELLOW(d));
	color_of(TR_COLORS_JAVA, "do_softirq_[k]", "do_softirq", &d);
	ck_assert(IS_ORANGE(d));
	color_of(TR_COLORS_JAVA, "start_thread", "start_thread", &d);
	ck_assert(IS_RED(d));
	color_of(TR_COLORS_MEM, "malloc", "malloc", &d);
	ck_assert(d.r == 0 && d.g >= 190 && d.b <= 210);
	color_of(TR_COLORS_IO, "read", "read", &d);
	ck_assert(d.r == d.g && d.r >= 80 && d.r <= 140 && d.b >= 190);
	/* Separator frames are grey in every scheme. */
	color_of(TR_COLORS_HOT, "--", "--", &d);
	ck_assert(d.r == 160 && d.g == 160 && d.b == 160);
}
END_TEST

START_TEST(test_errors)
{
	static const char *const stacks[] = { "a", "b" };
	static const int64_t	 neg[] = { 1, -2 };
	static const int64_t	 big[] = { INT64_MAX, 1 };
	struct tr_folded	 f;
	struct tr_svg_opts	 o;
	struct tr_error		 err;
	char			*buf = NULL;
	size_t			 len = 0;
	FILE			*fp;

	tr_svg_opts_init(&o);
	folded_set(&f, stacks, neg, 2);
	tr_error_init(&err);
	fp = open_memstream(&buf, &len);
	ck_assert_int_eq(tr_flame_write_svg(&f, &o, fp, &err), -1);
	ck_assert_int_eq(err.code, TR_EDATA);
	ck_assert_str_eq(err.msg, "stack 2 has a negative count (-2)");
	fclose(fp);
	/* Nothing is written when the stacks are refused. */
	ck_assert_uint_eq(len, 0);
	free(buf);
	tr_folded_release(&f);

	folded_set(&f, stacks, big, 2);
	tr_error_init(&err);
	fp = open_memstream(&buf, &len);
	ck_assert_int_eq(tr_flame_write_svg(&f, &o, fp, &err), -1);
	ck_assert_int_eq(err.code, TR_EDATA);
	ck_assert(strstr(err.msg, "add up to more than") != NULL);
	fclose(fp);
	free(buf);

	/* A stream that refuses writes. */
	tr_error_init(&err);
	fp = fopen("/dev/null", "r");
	ck_assert_ptr_nonnull(fp);
	f.counts[0] = 1;
	ck_assert_int_eq(tr_flame_write_svg(&f, &o, fp, &err), -1);
	ck_assert_int_eq(err.code, TR_EIO);
	ck_assert(strncmp(err.msg, "cannot write the SVG: ", 22) == 0);
	fclose(fp);

	/* Sizes the drawing cannot use. */
	tr_error_init(&err);
	o.width = 5;
	ck_assert_int_eq(tr_flame_write_svg(&f, &o, stdout, &err), -1);
	ck_assert_int_eq(err.code, TR_EUSAGE);
	tr_folded_release(&f);
}
END_TEST

START_TEST(test_many_frames)
{
	/* Enough distinct frames to grow the tree and its hash many times. */
	struct tr_folded	 f;
	struct tr_svg_opts	 o;
	struct tr_error		 err;
	char			*buf = NULL;
	size_t			 len = 0, i;
	FILE			*fp;

	memset(&f, 0, sizeof f);
	f.n = 20000;
	f.stacks = tr_xcalloc(f.n, sizeof *f.stacks);
	f.counts = tr_xcalloc(f.n, sizeof *f.counts);
	for (i = 0; i < f.n; i++) {
		f.stacks[i] = tr_xasprintf("root;m%03zu;f%05zu;leaf", i / 100,
		    i);
		f.counts[i] = 1;
	}
	tr_svg_opts_init(&o);
	o.minwidth = 0;
	o.reverse = 1;
	tr_error_init(&err);
	fp = open_memstream(&buf, &len);
	ck_assert_int_eq(tr_flame_write_svg(&f, &o, fp, &err), 0);
	fclose(fp);
	/* Reversed: all, leaf, 20000 f, 20000 m, 20000 root. */
	ck_assert_uint_eq(count_of(buf, "<g><title>"), 2 + 3 * 20000);
	ck_assert(strstr(buf, "<title>leaf (20,000 samples, 100.00%)"));
	free(buf);
	tr_folded_release(&f);
}
END_TEST

/*
 * 100,000 distinct stacks of one sample each ("main;mA;kB;jC;leafN", 10 m,
 * 100 k, 1,000 j): at 1180 / 100,000 px a sample every leaf is narrower
 * than flamegraph.pl's default --minwidth of 0.1 px and left out, with the
 * frames it would have drawn: all, main, 10 + 100 + 1,000 frames are
 * drawn, not 101,112, and the document stays small enough for a browser.
 */
START_TEST(test_large_minwidth)
{
	struct tr_folded	 f;
	struct tr_svg_opts	 o;
	struct tr_error		 err;
	char			*buf = NULL;
	size_t			 len = 0, i;
	FILE			*fp;
	static const double	 pct[] = { 0.1, 0, 1, 1 };
	static const int	 is_pct[] = { 0, 0, 1, 0 };
	static const size_t	 want[] = { 1112, 101112, 112, 1112 };
	int			 k;

	memset(&f, 0, sizeof f);
	f.n = 100000;
	f.stacks = tr_xcalloc(f.n, sizeof *f.stacks);
	f.counts = tr_xcalloc(f.n, sizeof *f.counts);
	for (i = 0; i < f.n; i++) {
		f.stacks[i] = tr_xasprintf("main;m%zu;k%03zu;j%04zu;leaf%06zu",
		    i / 10000, i / 1000, i / 100, i);
		f.counts[i] = 1;
	}
	/*
	 * The default; none left out; 1% of the total (1,000 samples: the
	 * k frames are kept, not narrower); 1 px (85 samples: j kept).
	 */
	for (k = 0; k < 4; k++) {
		tr_svg_opts_init(&o);
		o.minwidth = pct[k];
		o.minwidth_pct = is_pct[k];
		tr_error_init(&err);
		fp = open_memstream(&buf, &len);
		ck_assert_int_eq(tr_flame_write_svg(&f, &o, fp, &err), 0);
		fclose(fp);
		ck_assert_uint_eq(count_of(buf, "<g><title>"), want[k]);
		if (k == 0) {
			ck_assert_uint_lt(len, 400 * 1024);
			ck_assert(strstr(buf, "<title>j0999 (100 samples, "
			    "0.10%)"));
			ck_assert_ptr_null(strstr(buf, "<title>leaf"));
			/* The leaves are gone, their depth too. */
			ck_assert_int_eq(svg_height(buf), 36 + 5 * 16 + 34);
		}
		free(buf);
		buf = NULL;
	}
	tr_folded_release(&f);
}
END_TEST

START_TEST(test_diff_colors)
{
	static const char *const stacks[] = { "a;b", "a;c", "a;d", "e" };
	static const int64_t	 base[] = { 10, 40, 30, 5 };
	static const int64_t	 counts[] = { 50, 20, 30, 0 };
	struct tr_svg_opts	 o;
	struct drawn		 d;
	char			*svg;

	/*
	 * Deltas +40, -20, 0 and -5 (e is gone: not drawn, but the largest
	 * delta is still 40).  Red: 210 * (40 - 40) / 40 = 0; blue:
	 * 210 * (40 - 20) / 40 = 105.  The tooltips: delta / 100.
	 */
	tr_svg_opts_init(&o);
	svg = draw(stacks, base, counts, 4, &o);
	ck_assert_uint_eq(count_of(svg, "<g><title>"), 5);
	ck_assert(find_frame(svg, "b", &d));
	ck_assert(d.r == 255 && d.g == 0 && d.b == 0);
	ck_assert(strstr(svg, "<title>b (50 samples, 50.00%; +40.00%)"));
	ck_assert(find_frame(svg, "c", &d));
	ck_assert(d.r == 105 && d.g == 105 && d.b == 255);
	ck_assert(strstr(svg, "<title>c (20 samples, 20.00%; -20.00%)"));
	ck_assert(find_frame(svg, "d", &d));
	ck_assert(d.r == 255 && d.g == 255 && d.b == 255);
	ck_assert(strstr(svg, "<title>d (30 samples, 30.00%; 0.00%)"));
	/* A frame with no stack ending in it: white, delta 0. */
	ck_assert(find_frame(svg, "a", &d));
	ck_assert(d.r == 255 && d.g == 255 && d.b == 255);
	ck_assert_ptr_null(strstr(svg, "<title>e ("));
	free(svg);

	o.negate = 1;
	svg = draw(stacks, base, counts, 4, &o);
	ck_assert(find_frame(svg, "b", &d));
	ck_assert(d.r == 0 && d.g == 0 && d.b == 255);
	ck_assert(strstr(svg, "<title>b (50 samples, 50.00%; -40.00%)"));
	free(svg);
}
END_TEST

START_TEST(test_hash_colors)
{
	static const char *const stacks[] = { "a", "lib.so`a", "ab", "ba" };
	static const int64_t	 counts[] = { 1, 1, 1, 1 };
	struct tr_svg_opts	 o;
	struct drawn		 d;
	char			*svg;

	/*
	 * flamegraph.pl's namehash("a"): 1 - (97 % 10 / 9) / 2 = 0.6111, so
	 * hot is rgb(205 + 30, 140, 33); "lib.so`a" drops its module, so its
	 * green (v1) is the same, not its red and blue (of "a`os.bil",
	 * which becomes "os.bil"); "ab" weighs its first letter most:
	 * v1 = 1 - (97 % 10 / 9 + 0.7 * (98 % 11) / 10) / 2.7, and v3 is
	 * that of "ba".
	 */
	tr_svg_opts_init(&o);
	o.hash = 1;
	o.minwidth = 0;
	svg = draw(stacks, NULL, counts, 4, &o);
	ck_assert(find_frame(svg, "a", &d));
	ck_assert(d.r == 235 && d.g == 140 && d.b == 33);
	ck_assert(find_frame(svg, "lib.so`a", &d));
	ck_assert(d.g == 140 && d.r != 235);
	ck_assert(find_frame(svg, "ab", &d));
	ck_assert_int_eq(d.g, (int)(230 * (1 - (7.0 / 9 + 0.7 * (98 % 11) /
	    10.0) / 2.7)));
	ck_assert_int_eq(d.r, 205 + (int)(50 * (1 - ((98 % 10) / 9.0 + 0.7 *
	    (97 % 11) / 10.0) / 2.7)));
	free(svg);
}
END_TEST

START_TEST(test_chart_order)
{
	/* Time order kept: b, then a (twice, not merged), a's own first. */
	static const char *const stacks[] = { "r;b", "r;a", "r;a;x", "r;b",
	    "r;a" };
	static const int64_t	 counts[] = { 1, 2, 1, 1, 1 };
	static const int64_t	 ts[] = { 1000, 2000, 4000, 5000, 6000 };
	struct tr_folded	 f;
	struct tr_svg_opts	 o;
	struct tr_error		 err;
	struct drawn		 d;
	char			*buf = NULL;
	size_t			 len = 0;
	FILE			*fp;

	folded_set(&f, stacks, counts, 5);
	f.ts = tr_xcalloc(5, sizeof *f.ts);
	memcpy(f.ts, ts, sizeof ts);
	tr_svg_opts_init(&o);
	o.chart = 1;
	o.chart_t0 = 1000;
	o.width = 620;		/* 100 px a sample */
	tr_error_init(&err);
	fp = open_memstream(&buf, &len);
	ck_assert_int_eq(tr_flame_write_svg(&f, &o, fp, &err), 0);
	fclose(fp);
	/* all, r, b, a (3: its own 2 then x), b, a. */
	ck_assert_uint_eq(count_of(buf, "<g><title>"), 7);
	ck_assert(strstr(buf, ">Flame Chart</text>"));
	ck_assert(find_frame(buf, "a", &d));
	ck_assert(d.x > 109.99 && d.x < 110.01 && d.width > 299.99 &&
	    d.width < 300.01);
	ck_assert(strstr(buf, "<title>a (3 samples, 50.00%, from "
	    "0.000001s)"));
	/* x starts after a's own two samples. */
	ck_assert(find_frame(buf, "x", &d));
	ck_assert(d.x > 309.99 && d.x < 310.01);
	ck_assert(strstr(buf, "<title>a (1 samples, 16.67%, from "
	    "0.000005s)"));
	free(buf);
	tr_folded_release(&f);
}
END_TEST

int
main(void)
{
	Suite	*s = suite_create("flame-svg");
	TCase	*tc = tcase_create("core");
	SRunner	*sr;
	int	 failed;

	tcase_add_test(tc, test_frames_and_widths);
	tcase_add_test(tc, test_options);
	tcase_add_test(tc, test_inverted);
	tcase_add_test(tc, test_reverse);
	tcase_add_test(tc, test_merge_unsorted);
	tcase_add_test(tc, test_empty_frames);
	tcase_add_test(tc, test_minwidth);
	tcase_add_test(tc, test_escaping);
	tcase_add_test(tc, test_labels);
	tcase_add_test(tc, test_empty);
	tcase_add_test(tc, test_colors_deterministic);
	tcase_add_test(tc, test_colors_go);
	tcase_add_test(tc, test_colors_java_mem_io);
	tcase_add_test(tc, test_errors);
	tcase_add_test(tc, test_many_frames);
	tcase_add_test(tc, test_large_minwidth);
	tcase_add_test(tc, test_diff_colors);
	tcase_add_test(tc, test_hash_colors);
	tcase_add_test(tc, test_chart_order);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return (failed ? EXIT_FAILURE : EXIT_SUCCESS);
}
