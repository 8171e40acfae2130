/*
 * The arithmetic of alignment: the integer mapping between a source's
 * native clock and the store's timeline, and the estimate of an offset by
 * cross-correlating two activity signals (an FFT over the whole search
 * window at a coarse bin, then finer bins around the peak).
 */
#include "config.h"
#include "align/align.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

#define PI		3.14159265358979323846
#define COARSE_LAGS	4096		/* lags in the coarse pass */
#define MAX_FFT		((size_t)1 << 21)
#define MAX_FINE_BINS	((size_t)1 << 22)
#define MIN_BIN		1000		/* 1 us */

/* --- the mapping ----------------------------------------------------- */

int64_t
tr_align_forward(const struct tr_align_map *m, int64_t native)
{
	if (m->drift == 0)
		return (native + m->offset);
	return (native + m->offset +
	    (int64_t)llround(m->drift * (double)(native - m->ref)));
}

int64_t
tr_align_inverse(const struct tr_align_map *m, int64_t stored)
{
	int64_t	y, x;
	int	i;

	if (m->drift == 0)
		return (stored - m->offset);
	/* x + round(drift * x) == y, with x = native - ref. */
	y = stored - m->offset - m->ref;
	x = (int64_t)llround((double)y / (1 + m->drift));
	for (i = 0; i < 4; i++) {
		int64_t	f = x + (int64_t)llround(m->drift * (double)x);

		if (f == y)
			break;
		x += f < y ? 1 : -1;
	}
	return (x + m->ref);
}

static void
remap_fn(sqlite3_context *cx, int argc, sqlite3_value **argv)
{
	struct tr_align_map	a, b;

	(void)argc;
	if (sqlite3_value_type(argv[0]) == SQLITE_NULL) {
		sqlite3_result_null(cx);
		return;
	}
	a.offset = sqlite3_value_int64(argv[1]);
	a.drift = sqlite3_value_double(argv[2]);
	a.ref = sqlite3_value_int64(argv[3]);
	b.offset = sqlite3_value_int64(argv[4]);
	b.drift = sqlite3_value_double(argv[5]);
	b.ref = sqlite3_value_int64(argv[6]);
	sqlite3_result_int64(cx, tr_align_forward(&b,
	    tr_align_inverse(&a, sqlite3_value_int64(argv[0]))));
}

int
tr_align_register(struct tr_db *db, struct tr_error *err)
{
	if (sqlite3_create_function(db->sq, "tr_align_remap", 7,
	    SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL, remap_fn, NULL,
	    NULL) != SQLITE_OK)
		return (tr_db_error(db, err, "cannot register tr_align_remap"));
	return (0);
}

/* --- signals --------------------------------------------------------- */

void
tr_align_sig_init(struct tr_align_sig *s, enum tr_align_sig_kind kind)
{
	memset(s, 0, sizeof *s);
	s->kind = kind;
}

void
tr_align_sig_release(struct tr_align_sig *s)
{
	free(s->t);
	free(s->e);
	free(s->v);
	memset(s, 0, sizeof *s);
}

void
tr_align_sig_add(struct tr_align_sig *s, int64_t t, int64_t e, double v)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 1024;
		s->t = tr_xrealloc(s->t, s->cap * sizeof *s->t);
		if (s->kind == TR_SIG_INTERVALS)
			s->e = tr_xrealloc(s->e, s->cap * sizeof *s->e);
		if (s->kind == TR_SIG_STEPS)
			s->v = tr_xrealloc(s->v, s->cap * sizeof *s->v);
	}
	s->t[s->n] = t;
	if (s->kind == TR_SIG_INTERVALS)
		s->e[s->n] = e > t ? e : t;
	if (s->kind == TR_SIG_STEPS)
		s->v[s->n] = v;
	s->n++;
}

static int
cmp_i64(const void *a, const void *b)
{
	int64_t	x = *(const int64_t *)a, y = *(const int64_t *)b;

	return ((x > y) - (x < y));
}

struct rec {
	int64_t	t, e;
	double	v;
};

static int
cmp_rec(const void *a, const void *b)
{
	const struct rec	*x = a, *y = b;

	return ((x->t > y->t) - (x->t < y->t));
}

/* The median gap between consecutive times of a sorted array. */
static int64_t
median_gap(const int64_t *t, size_t n)
{
	int64_t	*g, m;
	size_t	 i, k = 0;

	if (n < 2)
		return (0);
	g = tr_xmalloc((n - 1) * sizeof *g);
	for (i = 1; i < n; i++)
		if (t[i] > t[i - 1])
			g[k++] = t[i] - t[i - 1];
	m = 0;
	if (k > 0) {
		qsort(g, k, sizeof *g, cmp_i64);
		m = g[k / 2];
	}
	free(g);
	return (m);
}

void
tr_align_sig_finish(struct tr_align_sig *s)
{
	struct rec	*r;
	size_t		 i, sorted = 1;

	for (i = 1; i < s->n && sorted; i++)
		if (s->t[i] < s->t[i - 1])
			sorted = 0;
	if (!sorted) {
		r = tr_xmalloc(s->n * sizeof *r);
		for (i = 0; i < s->n; i++) {
			r[i].t = s->t[i];
			r[i].e = s->e ? s->e[i] : 0;
			r[i].v = s->v ? s->v[i] : 0;
		}
		qsort(r, s->n, sizeof *r, cmp_rec);
		for (i = 0; i < s->n; i++) {
			s->t[i] = r[i].t;
			if (s->e)
				s->e[i] = r[i].e;
			if (s->v)
				s->v[i] = r[i].v;
		}
		free(r);
	}
	if (s->res == 0) {
		if (s->kind == TR_SIG_INTERVALS)
			s->res = MIN_BIN;
		else
			s->res = median_gap(s->t, s->n);
		if (s->res <= 0)
			s->res = MIN_BIN;
	}
}

/* Where a signal has something to say: [lo, hi). */
static void
span(const struct tr_align_sig *s, int64_t *lo, int64_t *hi)
{
	size_t	i;

	*lo = s->t[0];
	*hi = s->t[s->n - 1] + 1;
	if (s->kind == TR_SIG_STEPS)
		*lo -= s->res;
	if (s->kind == TR_SIG_INTERVALS)
		for (i = 0; i < s->n; i++)
			if (s->e[i] > *hi)
				*hi = s->e[i];
}

/* Total weight of the signal, in "bins of width w". */
static double
total(const struct tr_align_sig *s, int64_t w)
{
	double	sum = 0;
	size_t	i;

	switch (s->kind) {
	case TR_SIG_POINTS:
		return ((double)s->n);
	case TR_SIG_INTERVALS:
		for (i = 0; i < s->n; i++)
			sum += (double)(s->e[i] - s->t[i]);
		return (sum / (double)w);
	case TR_SIG_STEPS:
		for (i = 0; i < s->n; i++)
			sum += s->v[i] * (double)(i == 0 ? s->res :
			    s->t[i] - s->t[i - 1]);
		return (sum / (double)w);
	}
	return (0);
}

static int64_t
fdiv(int64_t a, int64_t b)
{
	int64_t	q = a / b;

	if ((a % b != 0) && ((a < 0) != (b < 0)))
		q--;
	return (q);
}

/* Add weight 'v' for [t, e) into bins of width w from 'org'. */
static void
add_span(double *out, size_t n, int64_t org, int64_t w, int64_t t,
    int64_t e, double v)
{
	int64_t	i0, i1, i, lim = org + (int64_t)n * w;

	if (t < org)
		t = org;
	if (e > lim)
		e = lim;
	if (e <= t)
		return;
	i0 = fdiv(t - org, w);
	i1 = fdiv(e - 1 - org, w);
	if (i0 == i1) {
		out[i0] += v * (double)(e - t) / (double)w;
		return;
	}
	out[i0] += v * (double)(org + (i0 + 1) * w - t) / (double)w;
	for (i = i0 + 1; i < i1; i++)
		out[i] += v;
	out[i1] += v * (double)(e - (org + i1 * w)) / (double)w;
}

/*
 * Bin 's' into n bins of width w from 'org', then subtract its mean over
 * its own span (bins outside the span stay 0).
 */
static void
bin(const struct tr_align_sig *s, int64_t org, int64_t w, double *out,
    size_t n)
{
	int64_t	lo, hi, i0, i1, k;
	double	mean;
	size_t	i;

	memset(out, 0, n * sizeof *out);
	switch (s->kind) {
	case TR_SIG_POINTS:
		for (i = 0; i < s->n; i++) {
			k = fdiv(s->t[i] - org, w);
			if (k >= 0 && k < (int64_t)n)
				out[k] += 1;
		}
		break;
	case TR_SIG_INTERVALS:
		for (i = 0; i < s->n; i++)
			add_span(out, n, org, w, s->t[i], s->e[i], 1);
		break;
	case TR_SIG_STEPS:
		for (i = 0; i < s->n; i++)
			add_span(out, n, org, w, i == 0 ? s->t[0] - s->res :
			    s->t[i - 1], s->t[i], s->v[i]);
		break;
	}
	span(s, &lo, &hi);
	mean = total(s, w) / ((double)(hi - lo) / (double)w);
	i0 = fdiv(lo - org, w);
	i1 = fdiv(hi - 1 - org, w);
	for (k = i0 < 0 ? 0 : i0; k <= i1 && k < (int64_t)n; k++) {
		/* Partial edge bins lose the share of the mean they miss. */
		int64_t	a = org + k * w, b = a + w;
		double	f;

		if (a < lo)
			a = lo;
		if (b > hi)
			b = hi;
		f = (double)(b - a) / (double)w;
		out[k] -= mean * f;
	}
}

static double
sumsq(const double *x, size_t n)
{
	double	s = 0;
	size_t	i;

	for (i = 0; i < n; i++)
		s += x[i] * x[i];
	return (s);
}

/* p[k] = sum of x[i]^2 for i < k; n + 1 values, owned by the caller. */
static double *
prefix_sq(const double *x, size_t n)
{
	double	*p = tr_xmalloc((n + 1) * sizeof *p);
	size_t	 i;

	p[0] = 0;
	for (i = 0; i < n; i++)
		p[i + 1] = p[i] + x[i] * x[i];
	return (p);
}

/* In-place radix-2 FFT of n (a power of two) complex values. */
static void
fft(double *re, double *im, size_t n, int inverse)
{
	size_t	i, j, k, len, bit, h;
	double	ang, wr, wi, cr, ci, t, ur, ui, vr, vi;

	for (i = 1, j = 0; i < n; i++) {
		for (bit = n >> 1; j & bit; bit >>= 1)
			j ^= bit;
		j ^= bit;
		if (i < j) {
			t = re[i], re[i] = re[j], re[j] = t;
			t = im[i], im[i] = im[j], im[j] = t;
		}
	}
	for (len = 2; len <= n; len <<= 1) {
		h = len / 2;
		ang = 2 * PI / (double)len * (inverse ? 1 : -1);
		for (k = 0; k < h; k++) {
			/* One twiddle per k, shared by every block. */
			wr = cos(ang * (double)k);
			wi = sin(ang * (double)k);
			for (i = 0; i < n; i += len) {
				ur = re[i + k];
				ui = im[i + k];
				cr = re[i + k + h];
				ci = im[i + k + h];
				vr = cr * wr - ci * wi;
				vi = cr * wi + ci * wr;
				re[i + k] = ur + vr;
				im[i + k] = ui + vi;
				re[i + k + h] = ur - vr;
				im[i + k + h] = ui - vi;
			}
		}
	}
	if (inverse)
		for (i = 0; i < n; i++) {
			re[i] /= (double)n;
			im[i] /= (double)n;
		}
}

/*
 * z[m] = sum_k x[k] y[k + m] for every m in [-(nx - 1), ny - 1], written
 * to out[m + nx - 1] (nx + ny - 1 values).
 */
static void
xcorr_fft(const double *x, size_t nx, const double *y, size_t ny,
    double *out)
{
	double	*re, *im, xr, xi, yr, yi, zr, zi, pr, pi, qr, qi;
	size_t	 m = 1, k, j;

	while (m < nx + ny)
		m <<= 1;
	re = tr_xcalloc(m, sizeof *re);
	im = tr_xcalloc(m, sizeof *im);
	/* Both real signals in one complex transform: x real, y imaginary. */
	memcpy(re, x, nx * sizeof *x);
	memcpy(im, y, ny * sizeof *y);
	fft(re, im, m, 0);
	for (k = 0; k <= m / 2; k++) {
		j = (m - k) & (m - 1);
		pr = re[k], pi = im[k], qr = re[j], qi = im[j];
		xr = (pr + qr) / 2, xi = (pi - qi) / 2;
		yr = (pi + qi) / 2, yi = (qr - pr) / 2;
		/* conj(X) * Y */
		zr = xr * yr + xi * yi;
		zi = xr * yi - xi * yr;
		re[k] = zr, im[k] = zi;
		if (j != k)
			re[j] = zr, im[j] = -zi;
	}
	fft(re, im, m, 1);
	for (k = 0; k < nx + ny - 1; k++) {
		long long	mm = (long long)k - (long long)(nx - 1);

		out[k] = re[(size_t)(mm < 0 ? mm + (long long)m : mm)];
	}
	free(re);
	free(im);
}

/* The main lobe around 'p': where c stays above half of c[p]. */
static void
lobe(const double *c, size_t n, size_t p, size_t *l, size_t *r)
{
	double	half = c[p] / 2;

	*l = *r = p;
	while (*l > 0 && c[*l - 1] > half)
		(*l)--;
	while (*r + 1 < n && c[*r + 1] > half)
		(*r)++;
}

/* Half the width of the top of the peak (within 1% of it), in bins. */
static double
top_half(const double *c, size_t n, size_t p)
{
	double	lim = c[p] * 0.99;
	size_t	l = p, r = p;

	while (l > 0 && c[l - 1] >= lim)
		l--;
	while (r + 1 < n && c[r + 1] >= lim)
		r++;
	return ((double)(r - l) / 2);
}

static size_t
argmax(const double *c, size_t n)
{
	size_t	i, p = 0;

	for (i = 1; i < n; i++)
		if (c[i] > c[p])
			p = i;
	return (p);
}

/* Minimum activity for a signal to be worth correlating. */
static int
enough(const struct tr_align_sig *s)
{
	switch (s->kind) {
	case TR_SIG_POINTS:
		return (s->n >= 10);
	case TR_SIG_INTERVALS:
		return (s->n >= 2);
	case TR_SIG_STEPS:
		return (s->n >= 4);
	}
	return (0);
}

/*
 * One refinement pass: the correlation at bin w for lags lo, lo + w, ...
 * (nl of them), written to c.  Returns 0, or -1 when the bins would be
 * too many (the caller stops refining).
 */
static int
fine_pass(const struct tr_align_sig *a, const struct tr_align_sig *b,
    int64_t w, int64_t lo, size_t nl, double *c)
{
	int64_t	alo, ahi, org;
	size_t	nx, ny, k, m;
	double	*x, *y, nrm, s;

	span(a, &alo, &ahi);
	nx = (size_t)((ahi - alo + w - 1) / w);
	if (nx > MAX_FINE_BINS)
		return (-1);
	ny = nx + nl;
	x = tr_xmalloc(nx * sizeof *x);
	y = tr_xmalloc(ny * sizeof *y);
	bin(a, alo, w, x, nx);
	/* a's bin k at lag lo + m*w lands on b's bin k + m from here: */
	org = alo + lo;
	bin(b, org, w, y, ny);
	nrm = sqrt(sumsq(x, nx) * sumsq(y, ny));
	for (m = 0; m < nl; m++) {
		s = 0;
		for (k = 0; k < nx; k++)
			s += x[k] * y[k + m];
		c[m] = nrm > 0 ? s / nrm : 0;
	}
	free(x);
	free(y);
	return (0);
}

/* The coarse correlation: one value per lag base + (mlo + k) * w. */
struct curve {
	int64_t	 w;		/* bin width, ns */
	int64_t	 base;		/* b's origin minus a's */
	int64_t	 mlo;		/* the bin offset of c[0] */
	double	*c;		/* owned */
	size_t	 nc;
	size_t	 nmin;		/* bins of the shorter signal */
};

/*
 * The coarse bin: the window in COARSE_LAGS steps, but no finer than
 * MAX_FFT bins over both signals, nor than MIN_BIN.
 */
static int64_t
coarse_bin(const struct tr_align_xcorr *x, int64_t alen, int64_t blen)
{
	int64_t	w = (x->lag_hi - x->lag_lo) / COARSE_LAGS;

	if (w < (alen + blen) / (int64_t)(MAX_FFT / 2))
		w = (alen + blen) / (int64_t)(MAX_FFT / 2);
	if (w < MIN_BIN)
		w = MIN_BIN;
	return (w);
}

/*
 * Pearson over the bins that overlap at each lag of [mlo, mhi] (bin
 * offsets), from the raw correlation z and the prefix sums of squares.
 */
static void
pearson(const double *z, const double *px, size_t nx, const double *py,
    size_t ny, int64_t mlo, int64_t mhi, double *c)
{
	int64_t	m, ylo, yhi;
	double	ex, ey;

	for (m = mlo; m <= mhi; m++) {
		/*
		 * Scaled by how much of the shorter signal the overlap
		 * covers: a lag where the signals barely meet cannot win on
		 * a few lucky bins.
		 */
		ylo = m > 0 ? m : 0;
		yhi = m + (int64_t)nx < (int64_t)ny ? m + (int64_t)nx :
		    (int64_t)ny;
		c[m - mlo] = 0;
		if (yhi <= ylo)
			continue;
		ex = px[yhi - m] - px[ylo - m];
		ey = py[yhi] - py[ylo];
		if (ex > 0 && ey > 0)
			c[m - mlo] = z[m + (int64_t)nx - 1] / sqrt(ex * ey) *
			    (double)(yhi - ylo) / (double)(nx < ny ? nx : ny);
	}
}

/*
 * Every lag of the window at once, at the coarse bin, with one FFT.
 * Returns NULL with 'cv' filled in (cv->c owned by the caller), or why
 * not (a static string).
 */
static const char *
coarse_pass(const struct tr_align_sig *a, const struct tr_align_sig *b,
    const struct tr_align_xcorr *x, struct curve *cv)
{
	int64_t		 alo, ahi, blo, bhi, w, mlo, mhi;
	double		*xa, *yb, *z = NULL, *px = NULL, *py = NULL, nrm;
	const char	*why = NULL;
	size_t		 nx, ny;

	memset(cv, 0, sizeof *cv);
	span(a, &alo, &ahi);
	span(b, &blo, &bhi);
	w = coarse_bin(x, ahi - alo, bhi - blo);
	nx = (size_t)((ahi - alo + w - 1) / w);
	ny = (size_t)((bhi - blo + w - 1) / w);
	xa = tr_xmalloc(nx * sizeof *xa);
	yb = tr_xmalloc(ny * sizeof *yb);
	bin(a, alo, w, xa, nx);
	bin(b, blo, w, yb, ny);
	nrm = sqrt(sumsq(xa, nx) * sumsq(yb, ny));
	if (!(nrm > 0) || sumsq(xa, nx) < 1e-12 * (double)nx ||
	    sumsq(yb, ny) < 1e-12 * (double)ny) {
		why = "an activity signal is flat";
		goto out;
	}
	z = tr_xmalloc((nx + ny - 1) * sizeof *z);
	xcorr_fft(xa, nx, yb, ny, z);
	/* Lag of bin offset m: b's origin minus a's, plus m bins. */
	cv->w = w;
	cv->base = blo - alo;
	mlo = -fdiv(-(x->lag_lo - cv->base), w);	/* ceil */
	mhi = fdiv(x->lag_hi - cv->base, w);
	if (mlo < -(int64_t)(nx - 1))
		mlo = -(int64_t)(nx - 1);
	if (mhi > (int64_t)ny - 1)
		mhi = (int64_t)ny - 1;
	if (mhi < mlo) {
		why = "no overlap within the search window";
		goto out;
	}
	cv->mlo = mlo;
	cv->nc = (size_t)(mhi - mlo + 1);
	cv->nmin = nx < ny ? nx : ny;
	cv->c = tr_xmalloc(cv->nc * sizeof *cv->c);
	px = prefix_sq(xa, nx);
	py = prefix_sq(yb, ny);
	pearson(z, px, nx, py, ny, mlo, mhi, cv->c);
out:
	free(px);
	free(py);
	free(xa);
	free(yb);
	free(z);
	return (why);
}

/*
 * For anti-correlation too: the sign of the strongest extreme decides,
 * and 'c' is multiplied by it, so that the peak is a maximum.
 */
static double
pick_sign(double *c, size_t nc)
{
	size_t	pmax = argmax(c, nc), j;
	double	mx = c[pmax], mn = c[0], sign = 1;

	for (j = 1; j < nc; j++)
		if (c[j] < mn)
			mn = c[j];
	if (-mn > mx)
		sign = -1;
	for (j = 0; j < nc; j++)
		c[j] *= sign;
	return (sign);
}

/*
 * The coarse peak: its lag, whether it stands out (significant, not at
 * the window's edge), the width of its lobe, the flat top (*top, ns) and
 * the second-best peak outside the lobe, which gives the confidence.
 * Returns NULL, or why there is no usable peak.
 */
static const char *
coarse_peak(const struct curve *cv, double sign, struct tr_align_xcorr *x,
    int64_t *top)
{
	const double	*c = cv->c;
	size_t		 nc = cv->nc, p, l, r, j;
	double		 sec;

	p = argmax(c, nc);
	x->peak = sign * c[p];
	x->lag = cv->base + (cv->mlo + (int64_t)p) * cv->w;
	x->bin = cv->w;
	if (!(c[p] > 0) || c[p] < 3 / sqrt((double)cv->nmin))
		return ("no significant correlation");
	if (nc > 2 && (p == 0 || p == nc - 1))
		return ("the best match is at the edge of the search window");
	lobe(c, nc, p, &l, &r);
	x->width = (int64_t)(r - l + 1) * cv->w;
	*top = (int64_t)(top_half(c, nc, p) * (double)cv->w);
	sec = -INFINITY;
	for (j = 0; j < nc; j++) {
		if (j >= l && j <= r)
			continue;
		if ((j == 0 || c[j] >= c[j - 1]) &&
		    (j + 1 == nc || c[j] >= c[j + 1]) && c[j] > sec) {
			sec = c[j];
			x->second_lag = cv->base + (cv->mlo + (int64_t)j) *
			    cv->w;
		}
	}
	if (sec == -INFINITY)
		sec = 0;
	x->second = sign * sec;
	x->confidence = sec <= 0 ? 1 : 1 - sec / c[p];
	if (x->confidence < 0)
		x->confidence = 0;
	return (NULL);
}

/*
 * Fine passes: bins 8 times smaller around the peak, down to a
 * sixteenth of the coarser sampling interval (or MIN_BIN), each moving
 * x->lag and narrowing the width and the flat top.  Stops early when the
 * bins would be too many.
 */
static void
refine(const struct tr_align_sig *a, const struct tr_align_sig *b,
    double sign, int64_t w, struct tr_align_xcorr *x, int64_t *top)
{
	int64_t	 target, nw, wlo, whi;
	double	*c;
	size_t	 nl, p, l, r, j;
	int	 level;

	target = (a->res > b->res ? a->res : b->res) / 16;
	if (target < MIN_BIN)
		target = MIN_BIN;
	if (x->coarse_only)
		target = w;
	for (level = 0; w > target && level < 12; level++) {
		nw = w / 8 < target ? target : w / 8;
		wlo = x->lag - 3 * w;
		whi = x->lag + 3 * w;
		if (wlo < x->lag_lo)
			wlo = x->lag_lo;
		if (whi > x->lag_hi)
			whi = x->lag_hi;
		nl = (size_t)((whi - wlo) / nw) + 1;
		c = tr_xmalloc(nl * sizeof *c);
		if (fine_pass(a, b, nw, wlo, nl, c) != 0) {
			free(c);
			break;
		}
		for (j = 0; j < nl; j++)
			c[j] *= sign;
		p = argmax(c, nl);
		x->lag = wlo + (int64_t)p * nw;
		lobe(c, nl, p, &l, &r);
		if (l > 0 && r + 1 < nl)
			x->width = (int64_t)(r - l + 1) * nw;
		*top = (int64_t)(top_half(c, nl, p) * (double)nw);
		w = nw;
		x->bin = w;
		free(c);
	}
}

int
tr_align_correlate(const struct tr_align_sig *a,
    const struct tr_align_sig *b, struct tr_align_xcorr *x)
{
	struct curve	 cv;
	int64_t		 alo, ahi, blo, bhi, top = 0;
	double		 sign = 1;

	x->ok = 0;
	x->why = NULL;
	x->lag = x->second_lag = 0;
	x->peak = x->second = x->confidence = 0;
	x->width = x->uncertainty = x->bin = 0;
	if (!enough(a) || !enough(b)) {
		x->why = "too little activity to correlate";
		return (0);
	}
	span(a, &alo, &ahi);
	span(b, &blo, &bhi);
	if (alo + x->lag_lo >= bhi || ahi + x->lag_hi <= blo ||
	    x->lag_hi < x->lag_lo) {
		x->why = "no overlap within the search window";
		return (0);
	}
	/* Only lags where the signals can meet are worth bins. */
	if (x->lag_lo < blo - ahi)
		x->lag_lo = blo - ahi;
	if (x->lag_hi > bhi - alo)
		x->lag_hi = bhi - alo;

	if ((x->why = coarse_pass(a, b, x, &cv)) != NULL)
		return (0);
	if (x->any_sign)
		sign = pick_sign(cv.c, cv.nc);
	x->why = coarse_peak(&cv, sign, x, &top);
	free(cv.c);
	if (x->why != NULL)
		return (0);
	refine(a, b, sign, cv.w, x, &top);
	/*
	 * Never better than either signal's sampling interval, the bin, or
	 * a flat top of the peak (a plateau says the data cannot tell).
	 */
	x->uncertainty = a->res > b->res ? a->res : b->res;
	if (x->uncertainty < x->bin)
		x->uncertainty = x->bin;
	if (x->uncertainty < top)
		x->uncertainty = top;
	x->ok = 1;
	return (0);
}
