/*
 * What the GPU telemetry importers (nvidia-smi CSV, dmon, pmon, nvtop)
 * share: the time options (--tz, --start, --interval), GPU and GPU-process
 * tracks, metric names with their base units, value parsing, and the
 * sampling statistics recorded in the source's metadata.
 */
#ifndef TR_GPU_IMPORT_H
#define TR_GPU_IMPORT_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "base/error.h"
#include "import/importer.h"
#include "base/input.h"
#include "base/util.h"
#include "base/wallclock.h"

struct tr_gpu_gaps;

/* The sampling of one series: a GPU, or a process on a GPU. */
struct tr_gpu_series {
	int64_t			 key;
	int64_t			 track;		/* 0: none */
	int64_t			 gpu;		/* -1: unknown */
	int64_t			 last;		/* previous sample */
	int64_t			 samples, dups, backwards;
	struct tr_gpu_gaps	*gaps;
};

/* Series listed one by one in the metadata; the totals count them all. */
#define TR_GPU_MAXSERIES	256

struct tr_writer;

struct tr_gpu_import {
	struct tr_import	*ctx;		/* borrowed */
	struct tr_writer	*wr;		/* tr_import_writer(ctx) */
	struct tr_input		*in;		/* borrowed */
	struct tr_wallclock	*wc;
	int64_t			 start;	/* --start, ns since the epoch */
	int64_t			 interval;	/* --interval, ns */
	int			 has_start, has_interval;
	const char		*timing;	/* for the metadata */

	struct tr_map		*tracks;	/* key -> track id */
	struct tr_map		*series_idx;	/* key -> index */
	struct tr_gpu_series	*series;
	size_t			 nseries, capseries, cur;
	struct tr_gpu_gaps	*gaps;		/* all series */
	int64_t			 samples, dups, backwards;
	json_t			*units;		/* metric -> base unit */
	json_t			*columns;	/* column -> metric */
	struct tr_buf		 key;
	sqlite3_stmt		*find_ref;	/* GPU index by uuid */
};

/*
 * Read the options (tz, start, interval) and set the source clock to
 * "wall".  Returns 0, or -1 with 'err' set (TR_EUSAGE for a bad option).
 * Release with tr_gpu_import_release() either way.
 */
int	tr_gpu_import_init(struct tr_gpu_import *, struct tr_import *,
	    struct tr_input *, struct tr_error *);
void	tr_gpu_import_release(struct tr_gpu_import *);
/* Write the time, unit and sampling metadata.  Call once at the end. */
void	tr_gpu_import_finish(struct tr_gpu_import *);

/*
 * Fail unless --start (and, if 'need_interval', --interval) were given;
 * 'why' completes "... carries no time: " and the error is located at the
 * current line, column 'col'.  Returns 0 or -1.
 */
int	tr_gpu_import_need_start(struct tr_gpu_import *, int need_interval,
	    long col, const char *why, struct tr_error *);

/*
 * The track of GPU 'key' (any bytes unique per GPU in this input),
 * created on first use with kind "gpu", 'ref' (the GPU index, -1 when
 * unknown: then the store is asked for a GPU of the same uuid), 'name'
 * and 'meta' (a JSON object, borrowed; may be NULL).  Returns the track
 * id, or -1 with 'err' set.
 */
int64_t	tr_gpu_import_gpu(struct tr_gpu_import *, const char *key,
	    size_t keylen, int64_t ref, const char *name, json_t *meta,
	    int64_t *ref_out, struct tr_error *);
/* If GPU 'key' has its track already: 1 with *track and *ref set, else 0. */
int	tr_gpu_import_find_gpu(struct tr_gpu_import *, const char *key,
	    size_t keylen, int64_t *track, int64_t *ref);
/* The same for the track of process 'pid' on GPU 'gpu_key'. */
int	tr_gpu_import_find_process(struct tr_gpu_import *,
	    const char *gpu_key, size_t gpu_keylen, int64_t pid,
	    int64_t *track);
/*
 * The index of the GPU with this uuid in an earlier import into the
 * store: >= 0, -1 when there is none, -2 with 'err' set on failure.
 */
int64_t	tr_gpu_import_ref_by_uuid(struct tr_gpu_import *,
	    const char *uuid, struct tr_error *);
/*
 * The track of process 'pid' on GPU 'gpu_key' (kind "gpu-process", linked
 * to the process row of (host, pid) and to GPU track 'gpu_track' when
 * > 0).  'name' is the process name for the process row; 'meta' as above.
 */
int64_t	tr_gpu_import_process(struct tr_gpu_import *,
	    const char *gpu_key, size_t gpu_keylen, int64_t gpu_ref,
	    int64_t gpu_track,
	    int64_t pid, const char *name, size_t name_len, json_t *meta,
	    struct tr_error *);

/*
 * Intern metric 'name' and remember its base unit 'unit' (may be "") and
 * the input column it came from ('column' may be NULL).  Returns the
 * string id, or -1.
 */
int64_t	tr_gpu_import_metric(struct tr_gpu_import *, const char *name,
	    const char *unit, const char *column, struct tr_error *);

/*
 * Count one sample of series 'series' (a GPU, or a process for
 * compute-apps: any key unique in the input) at 'ts' for the sampling
 * statistics.  'track' (0: none) and 'gpu' (-1: unknown) label the series
 * in the metadata; they are read when the series first appears.
 */
void	tr_gpu_import_sample(struct tr_gpu_import *, int64_t series,
	    int64_t track, int64_t gpu, int64_t ts);

/* A unit as printed and its conversion to the base unit. */
struct tr_gpu_unit {
	const char	*name;		/* "MiB" */
	const char	*base;		/* "bytes" */
	double		 scale;		/* 1048576 */
	int		 fahrenheit;	/* (x - 32) / 1.8 */
};

/* The unit called 's' (length 'n', case-sensitive), or NULL. */
const struct tr_gpu_unit *tr_gpu_unit_find(const char *s, size_t n);
/* Apply a unit (NULL: none) to a value. */
double	tr_gpu_unit_apply(const struct tr_gpu_unit *, double);

/* Values that mean "no value": "-", "N/A", "[N/A]", "[Not Supported]"... */
int	tr_gpu_missing(const char *s, size_t n);

/*
 * Parse a decimal number (optional sign, digits, fraction, exponent) at
 * the start of s[0..n).  Returns the bytes used (0: not a number).
 */
size_t	tr_gpu_number(const char *s, size_t n, double *v);
/*
 * Whether 'v' is a whole number from 0 to 'max' (not NaN, not infinite),
 * then stored in *out.  Check before converting to an integer: a double
 * out of int64_t's range converts to nothing defined.
 */
int	tr_gpu_whole(double v, double max, int64_t *out);
/* The largest process id taken (pid_t is 32-bit on Linux). */
#define TR_GPU_MAX_PID	4294967295.0

/* The last path component of the first word of 's' (a command line). */
void	tr_gpu_command_name(const char *s, size_t n, const char **name,
	    size_t *len);

#endif
