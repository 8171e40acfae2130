/*
 * Local wall time to UTC through the C library's zone rules.  The C
 * library only converts in the zone named by TZ, so the object sets TZ for
 * its lifetime.  mktime() is not used: its answer for a time that occurs
 * twice or not at all is unspecified.  Instead every offset in force
 * around the time is tried, and each candidate is checked by converting it
 * back (see local_candidates()).
 */
#include "config.h"
#include "base/wallclock.h"

#include <ctype.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/util.h"

#define NS	1000000000LL

struct tr_wallclock {
	char		*zone;		/* the name we report */
	const char	*origin;
	char		*saved_tz;	/* TZ before we set it */
	int		 had_tz, set_tz;
	int64_t		 ambiguous;

	/* The offsets valid throughout the last local minute looked up. */
	int64_t		 cache_min;
	int		 cache_n;	/* -1: nothing cached */
	long		 cache_off[2];
};

int64_t
tr_days_from_civil(int64_t y, int m, int d)
{
	int64_t		era;
	unsigned	yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = (unsigned)(y - era * 400);
	doy = (unsigned)((153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1);
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return (era * 146097 + (int64_t)doe - 719468);
}

/* The inverse of tr_days_from_civil(). */
static void
civil_from_days(int64_t z, int *y, int *m, int *d)
{
	int64_t		era;
	unsigned	doe, yoe, doy, mp;

	z += 719468;
	era = (z >= 0 ? z : z - 146096) / 146097;
	doe = (unsigned)(z - era * 146097);
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	*d = (int)(doy - (153 * mp + 2) / 5 + 1);
	*m = (int)(mp < 10 ? mp + 3 : mp - 9);
	*y = (int)((int64_t)yoe + era * 400 + (*m <= 2));
}

void
tr_civil_add_days(struct tr_civil *c, int64_t days)
{
	civil_from_days(tr_days_from_civil(c->year, c->mon, c->day) + days,
	    &c->year, &c->mon, &c->day);
}

int64_t
tr_civil_utc(const struct tr_civil *c)
{
	return ((tr_days_from_civil(c->year, c->mon, c->day) * 86400 +
	    c->hour * 3600 + c->min * 60 + c->sec) * NS + c->nsec);
}

void
tr_civil_from_utc(int64_t ns, struct tr_civil *c)
{
	int64_t	s = ns / NS, f = ns % NS, days, sod;

	if (f < 0) {
		f += NS;
		s--;
	}
	days = s / 86400;
	sod = s % 86400;
	if (sod < 0) {
		sod += 86400;
		days--;
	}
	civil_from_days(days, &c->year, &c->mon, &c->day);
	c->hour = (int)(sod / 3600);
	c->min = (int)(sod / 60 % 60);
	c->sec = (int)(sod % 60);
	c->nsec = (int32_t)f;
}

char *
tr_iso_utc(int64_t ns, char *buf)
{
	struct tr_civil	c;
	int64_t		ms;

	/* To the nearest ms (floor of ns + 0.5 ms), as the table's. */
	if (ns <= INT64_MAX - 500000)
		ns += 500000;
	ms = ns / 1000000 - (ns % 1000000 < 0);
	tr_civil_from_utc(ms > INT64_MIN / 1000000 ? ms * 1000000 : ns, &c);
	snprintf(buf, TR_ISO_MAX, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ",
	    c.year, c.mon, c.day, c.hour, c.min, c.sec,
	    (int)(c.nsec / 1000000));
	return (buf);
}

static int
is_leap(int y)
{
	return ((y % 4 == 0 && y % 100 != 0) || y % 400 == 0);
}

int
tr_civil_valid(const struct tr_civil *c)
{
	static const int	mdays[12] = {
		31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31
	};

	/* Nanoseconds since the epoch must fit in an int64_t. */
	if (c->year < 1678 || c->year > 2261 || c->mon < 1 || c->mon > 12)
		return (0);
	if (c->day < 1 || c->day > mdays[c->mon - 1] +
	    (c->mon == 2 && is_leap(c->year)))
		return (0);
	if (c->hour < 0 || c->hour > 23 || c->min < 0 || c->min > 59 ||
	    c->sec < 0 || c->sec > 59)
		return (0);
	return (c->nsec >= 0 && c->nsec < NS);
}

/* A POSIX TZ string such as "CET-1CEST,M3.5.0,M10.5.0/3" or "<+03>-3". */
static int
posix_tz(const char *z)
{
	const char	*p = z;

	if (*p == '<') {
		if ((p = strchr(p, '>')) == NULL || p == z + 1)
			return (0);
		p++;
	} else {
		while (isalpha((unsigned char)*p))
			p++;
		if (p - z < 3)
			return (0);
	}
	if (*p == '+' || *p == '-')
		p++;
	return (isdigit((unsigned char)*p));
}

static int
zone_exists(const char *z)
{
	const char	*dir;
	char		*path;
	int		 ok;

	if (*z == ':')
		z++;
	if (*z == '\0')
		return (1);	/* empty TZ means UTC */
	if (*z == '/')
		return (access(z, R_OK) == 0);
	if (strstr(z, "..") == NULL) {
		if ((dir = getenv("TZDIR")) == NULL || *dir == '\0')
			dir = "/usr/share/zoneinfo";
		path = tr_xasprintf("%s/%s", dir, z);
		ok = access(path, R_OK) == 0;
		free(path);
		if (ok)
			return (1);
	}
	return (posix_tz(z));
}

/* The system zone's name, from the /etc/localtime link when there is one. */
static char *
system_zone(void)
{
	char		 buf[512];
	const char	*p;
	ssize_t		 n;

	n = readlink("/etc/localtime", buf, sizeof buf - 1);
	if (n > 0) {
		buf[n] = '\0';
		if ((p = strstr(buf, "zoneinfo/")) != NULL && p[9] != '\0')
			return (tr_xstrdup(p + 9));
	}
	return (tr_xstrdup("localtime"));
}

struct tr_wallclock *
tr_wallclock_new(const char *zone, struct tr_error *err)
{
	struct tr_wallclock	*wc;
	const char		*env = getenv("TZ");

	if (zone != NULL && !zone_exists(zone)) {
		tr_error_set(err, TR_EUSAGE, "unknown time zone '%s': no such "
		    "zone file and not a POSIX TZ string (e.g. "
		    "Europe/Berlin, UTC, EST5EDT)", zone);
		return (NULL);
	}
	if (zone == NULL && env != NULL && !zone_exists(env)) {
		tr_error_set(err, TR_EUSAGE, "the TZ environment variable "
		    "names an unknown time zone '%s'; give one with --tz",
		    env);
		return (NULL);
	}
	wc = tr_xcalloc(1, sizeof *wc);
	wc->cache_n = -1;
	if (zone != NULL) {
		wc->origin = "option";
		wc->zone = tr_xstrdup(*zone == ':' ? zone + 1 : zone);
		if (env != NULL) {
			wc->had_tz = 1;
			wc->saved_tz = tr_xstrdup(env);
		}
		setenv("TZ", zone, 1);
		wc->set_tz = 1;
	} else if (env != NULL) {
		wc->origin = "TZ";
		wc->zone = tr_xstrdup(*env == ':' ? env + 1 :
		    *env == '\0' ? "UTC" : env);
	} else {
		wc->origin = "system";
		wc->zone = system_zone();
	}
	tzset();
	return (wc);
}

void
tr_wallclock_free(struct tr_wallclock *wc)
{
	if (wc == NULL)
		return;
	if (wc->set_tz) {
		if (wc->had_tz)
			setenv("TZ", wc->saved_tz, 1);
		else
			unsetenv("TZ");
		tzset();
	}
	free(wc->saved_tz);
	free(wc->zone);
	free(wc);
}

const char *
tr_wallclock_zone(const struct tr_wallclock *wc)
{
	return (wc->zone);
}

const char *
tr_wallclock_origin(const struct tr_wallclock *wc)
{
	return (wc->origin);
}

int64_t
tr_wallclock_ambiguous(const struct tr_wallclock *wc)
{
	return (wc->ambiguous);
}

static long
utc_offset(int64_t t)
{
	time_t		tt = (time_t)t;
	struct tm	tm;

	if (localtime_r(&tt, &tm) == NULL)
		return (0);
	return (tm.tm_gmtoff);
}

/*
 * The offsets under which naive local second 'loc' (the local time read
 * as if it were UTC) names a real instant: 0, 1 or 2 of them, ascending
 * by instant.  The instant lies within a day of 'loc', and zones change
 * offset at most once in two days, so the offsets in force a day before
 * and a day after (and at 'loc') are the only ones to try.
 */
static int
local_candidates(int64_t loc, long off[2])
{
	long	try[3], o, t;
	int	n = 0, i, j;

	try[0] = utc_offset(loc - 86400);
	try[1] = utc_offset(loc);
	try[2] = utc_offset(loc + 86400);
	for (i = 0; i < 3; i++) {
		o = try[i];
		for (j = 0; j < i; j++)
			if (try[j] == o)
				break;
		if (j < i || utc_offset(loc - o) != o)
			continue;
		if (n < 2)
			off[n++] = o;
	}
	/* Larger offset = earlier instant. */
	if (n == 2 && off[0] < off[1]) {
		t = off[0];
		off[0] = off[1];
		off[1] = t;
	}
	return (n);
}

static int
same_offsets(int n1, const long *a, int n2, const long *b)
{
	int	i;

	if (n1 != n2)
		return (0);
	for (i = 0; i < n1; i++)
		if (a[i] != b[i])
			return (0);
	return (1);
}

int
tr_wallclock_to_utc(struct tr_wallclock *wc, const struct tr_civil *c,
    int64_t near, int64_t *ns)
{
	int64_t	loc, minute, a, b;
	long	off[2], off59[2];
	int	n, n59, i;

	loc = tr_days_from_civil(c->year, c->mon, c->day) * 86400 +
	    c->hour * 3600 + c->min * 60 + c->sec;
	minute = loc - c->sec;
	if (wc->cache_n >= 0 && wc->cache_min == minute) {
		n = wc->cache_n;
		for (i = 0; i < n; i++)
			off[i] = wc->cache_off[i];
	} else {
		/*
		 * Cache a minute only when its first and last second agree:
		 * old zones changed offset at odd seconds.
		 */
		n = local_candidates(minute, off);
		n59 = local_candidates(minute + 59, off59);
		if (same_offsets(n, off, n59, off59)) {
			wc->cache_min = minute;
			wc->cache_n = n;
			for (i = 0; i < n; i++)
				wc->cache_off[i] = off[i];
		} else {
			wc->cache_n = -1;
			n = local_candidates(loc, off);
		}
	}
	if (n == 0)
		return (-1);
	a = (loc - off[0]) * NS + c->nsec;
	if (n == 1) {
		*ns = a;
		return (0);
	}
	wc->ambiguous++;
	b = (loc - off[1]) * NS + c->nsec;
	if (near == INT64_MIN)
		*ns = a;
	else
		*ns = (near - a <= b - near) ? a : b;
	return (0);
}

void
tr_wallclock_to_civil(struct tr_wallclock *wc, int64_t ns,
    struct tr_civil *c)
{
	int64_t		s = ns / NS, f = ns % NS;
	time_t		tt;
	struct tm	tm;

	(void)wc;
	if (f < 0) {
		f += NS;
		s--;
	}
	tt = (time_t)s;
	memset(&tm, 0, sizeof tm);
	localtime_r(&tt, &tm);
	c->year = tm.tm_year + 1900;
	c->mon = tm.tm_mon + 1;
	c->day = tm.tm_mday;
	c->hour = tm.tm_hour;
	c->min = tm.tm_min;
	c->sec = tm.tm_sec;
	c->nsec = (int32_t)f;
}

/* Parse exactly 'min'..'max' digits at *p into *v; advances *p. */
static int
digits(const char **p, int min, int max, int *v)
{
	int	n = 0, x = 0;

	while (n < max && isdigit((unsigned char)(*p)[n]))
		x = x * 10 + ((*p)[n++] - '0');
	if (n < min)
		return (-1);
	*p += n;
	*v = x;
	return (0);
}

/* A fraction after '.', as nanoseconds (digits past the ninth dropped). */
static int
fraction(const char **p, int32_t *nsec)
{
	int32_t	f = 0, scale = 100000000;
	int	n = 0;

	while (isdigit((unsigned char)**p)) {
		if (n++ < 9) {
			f += (int32_t)(**p - '0') * scale;
			scale /= 10;
		}
		(*p)++;
	}
	*nsec = f;
	return (n > 0 ? 0 : -1);
}

static int
parse_epoch(const char *s, int64_t *ns)
{
	int64_t	sec = 0;
	int32_t	f = 0;
	int	neg = 0, n = 0;

	if (*s == '-' || *s == '+')
		neg = *s++ == '-';
	while (isdigit((unsigned char)*s)) {
		if (sec > (INT64_MAX / NS) / 10)
			return (-1);
		sec = sec * 10 + (*s++ - '0');
		n++;
	}
	if (n == 0 || sec > INT64_MAX / NS - 1)
		return (-1);
	if (*s == '.') {
		s++;
		if (fraction(&s, &f) != 0)
			return (-1);
	}
	if (*s != '\0')
		return (-1);
	*ns = sec * NS + f;
	if (neg)
		*ns = -*ns;
	return (0);
}

int
tr_wallclock_parse(struct tr_wallclock *wc, const char *s, int64_t *ns)
{
	struct tr_civil	c;
	const char	*p = s;
	char		 sep;
	int		 zh = 0, zm = 0, sign;

	if (*p == '@')
		return (parse_epoch(p + 1, ns));
	memset(&c, 0, sizeof c);
	if (digits(&p, 4, 4, &c.year) != 0 || (*p != '-' && *p != '/'))
		return (-1);
	sep = *p++;
	if (digits(&p, 1, 2, &c.mon) != 0 || *p++ != sep ||
	    digits(&p, 1, 2, &c.day) != 0)
		return (-1);
	if (*p == 'T' || *p == ' ') {
		p++;
		if (digits(&p, 1, 2, &c.hour) != 0 || *p++ != ':' ||
		    digits(&p, 2, 2, &c.min) != 0)
			return (-1);
		if (*p == ':') {
			p++;
			if (digits(&p, 2, 2, &c.sec) != 0)
				return (-1);
			if (*p == '.' || *p == ',') {
				p++;
				if (fraction(&p, &c.nsec) != 0)
					return (-1);
			}
		}
	}
	if (!tr_civil_valid(&c))
		return (-1);
	if (*p == '\0' && wc != NULL)
		return (tr_wallclock_to_utc(wc, &c, INT64_MIN, ns));
	if (*p == '\0' || (*p == 'Z' && p[1] == '\0')) {
		*ns = tr_civil_utc(&c);
		return (0);
	}
	if (*p != '+' && *p != '-')
		return (-1);
	sign = *p++ == '-' ? -1 : 1;
	if (digits(&p, 2, 2, &zh) != 0)
		return (-1);
	if (*p == ':')
		p++;
	if (*p != '\0' && digits(&p, 2, 2, &zm) != 0)
		return (-1);
	if (*p != '\0' || zh > 23 || zm > 59)
		return (-1);
	*ns = tr_civil_utc(&c) - sign * (zh * 3600 + zm * 60) * NS;
	return (0);
}
