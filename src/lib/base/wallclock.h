/*
 * Local wall-clock times in a named time zone.  GPU telemetry (nvidia-smi,
 * dmon, pmon) prints local times with no zone; this module turns them into
 * nanoseconds since the epoch (UTC) for the zone the user names, exactly,
 * including the hour that occurs twice when clocks go back and the hour
 * that does not exist when they go forward.
 */
#ifndef TR_WALLCLOCK_H
#define TR_WALLCLOCK_H

#include <stdint.h>

#include "base/error.h"

/* A broken-down local time; 'nsec' is the fraction of the second. */
struct tr_civil {
	int		year, mon, day;	/* mon 1-12, day 1-31 */
	int		hour, min, sec;		/* 0-23, 0-59, 0-59 */
	int32_t		nsec;			/* 0-999999999 */
};

struct tr_wallclock;

/*
 * Read local times in 'zone': an IANA name ("Europe/Berlin"), a POSIX TZ
 * string ("CET-1CEST,M3.5.0,M10.5.0/3"), or NULL for the process's TZ
 * variable, or the system zone when TZ is not set.  While the returned
 * object lives, the process's TZ is set to that zone (the C library's
 * conversions are used); tr_wallclock_free() puts the old value back, so
 * only one may exist at a time.  Returns an object owned by the caller, or
 * NULL with 'err' set (TR_EUSAGE) when the zone is unknown.
 */
struct tr_wallclock *tr_wallclock_new(const char *zone, struct tr_error *err);
void		 tr_wallclock_free(struct tr_wallclock *);

/* The zone's name as used ("Europe/Berlin", "UTC"); borrowed. */
const char	*tr_wallclock_zone(const struct tr_wallclock *);
/* Where the zone came from: "option", "TZ" or "system". */
const char	*tr_wallclock_origin(const struct tr_wallclock *);
/* How many converted times occurred twice (clocks went back). */
int64_t		 tr_wallclock_ambiguous(const struct tr_wallclock *);

/*
 * 1 if every field of 'c' is in range (the day for its month; years 1678
 * to 2261, where nanoseconds since the epoch fit in 64 bits), else 0.
 */
int		 tr_civil_valid(const struct tr_civil *);
/* Move the date of 'c' by 'days' (may be negative); the time stays. */
void		 tr_civil_add_days(struct tr_civil *, int64_t days);
/*
 * Days since 1970-01-01 of a date of the proleptic Gregorian calendar
 * (month 1-12; any year, before the epoch too).
 */
int64_t		 tr_days_from_civil(int64_t year, int mon, int day);
/* 'c' read as a time in UTC: nanoseconds since the epoch. */
int64_t		 tr_civil_utc(const struct tr_civil *c);
/* The time in UTC of instant 'ns' (since the epoch, may be negative). */
void		 tr_civil_from_utc(int64_t ns, struct tr_civil *c);

/*
 * Instant 'ns' (since the epoch) in ISO 8601 UTC to the nearest
 * millisecond, "2026-11-29T13:40:51.329Z", written to 'buf' (at least
 * TR_ISO_MAX bytes).  Returns 'buf'.
 */
#define TR_ISO_MAX	48
char		*tr_iso_utc(int64_t ns, char *buf);

/*
 * Convert local time 'c' to nanoseconds since the epoch.  A time that
 * occurs twice resolves to the instant nearer to 'near' (the previous
 * sample of a series), or to the earlier one when 'near' is INT64_MIN.
 * Returns 0, or -1 when 'c' does not exist in the zone (it falls in the
 * gap when clocks go forward); no error is set, the caller says where.
 */
int		 tr_wallclock_to_utc(struct tr_wallclock *,
		    const struct tr_civil *c, int64_t near, int64_t *ns);

/* The local time in the zone of instant 'ns' (since the epoch). */
void		 tr_wallclock_to_civil(struct tr_wallclock *, int64_t ns,
		    struct tr_civil *c);

/*
 * Parse an absolute time: "YYYY-MM-DD HH:MM[:SS[.fff]]" ('T' or one space
 * between date and time, '-' or '/' in the date), or a date alone
 * (midnight), read in the zone unless followed by "Z" or "+HH[:MM]" /
 * "-HH[:MM]"; or "@SECONDS[.fff]" since the epoch.  With a NULL 'wc', a
 * time with no zone is read as UTC.  Returns 0, or -1 when 's' is not
 * such a time or does not exist in the zone.
 */
int		 tr_wallclock_parse(struct tr_wallclock *, const char *s,
		    int64_t *ns);

#endif
