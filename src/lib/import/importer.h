/*
 * Importers and the import context.  tr_import_file() owns the one SQLite
 * transaction of an input: it detects the format, creates the source row,
 * runs the importer and commits, or rolls everything back on the first
 * error.  Importers write the source's rows with the store writer's
 * tr_writer_add_*() calls (store/writer.h) on tr_import_writer().
 */
#ifndef TR_IMPORTER_H
#define TR_IMPORTER_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "store/db.h"
#include "base/error.h"
#include "base/input.h"

struct tr_import;

struct tr_importer {
	const char	*name;		/* --format value, e.g. "perf-script" */
	const char	*summary;	/* one line for --list-formats */
	/*
	 * How sure the importer is that the first bytes (up to
	 * TR_INPUT_PEEK, decompressed) are its format: 0 (no) to 100.
	 */
	int		 (*probe)(const unsigned char *, size_t);
	/* Parse everything from the input; 0, or -1 with 'err' set. */
	int		 (*run)(struct tr_import *, struct tr_input *,
			     struct tr_error *);
	/*
	 * Optional: whether bytes no probe accepts are still this format,
	 * damaged (its own fields in a row, then something broken), so that
	 * the importer's located error is given rather than "unrecognised
	 * format".  1 or 0.
	 */
	int		 (*damaged)(const unsigned char *, size_t);
	/*
	 * The importer reads the store only through the writer (no
	 * tr_import_db() statement kept across adds): its rows may be
	 * written by the writer's thread (tr_writer_thread()).
	 */
	int		 writer_thread;
};

/* NULL-terminated, sorted by name. */
extern const struct tr_importer *const tr_importer_table[];

/* The importer called 'name', or NULL. */
const struct tr_importer *tr_importer_find(const char *name);
/* The best-scoring importer for these bytes, or NULL. */
const struct tr_importer *tr_importer_detect(const unsigned char *, size_t);
/* When none scores: the importer whose damaged() says yes, or NULL. */
const struct tr_importer *tr_importer_damaged(const unsigned char *, size_t);
/* "a, b, c": the names, for messages; owned by the caller. */
char		*tr_importer_names(void);

#define TR_IMPORT_MAXOPTS	16
#define TR_IMPORT_ODD_SHOWN	10	/* oddities kept with their message */
#define TR_IMPORT_ODD_LEN	512

struct tr_import_opts {
	const struct tr_importer *format;	/* NULL: detect by content */
	const char	*host;			/* host of the traced machine */
	int		 skip_unknown;		/* unrecognised: skip, no error */
	int		 keep_same;	/* import a source whose samples are
					   an earlier source's all the same */
	int		 strict;	/* quirks the peers accept: errors */
	/* Called after each read of a file input (tr_input_set_progress). */
	void		(*progress)(void *, const struct tr_input *);
	void		*progress_arg;
	size_t		 cache_cap;	/* entries per interning cache; 0: default */
	size_t		 run_cap;	/* slices, and tracks, that may wait to be
					   written in runs; 0: default (tests) */
	int		 nopts;
	const char	*keys[TR_IMPORT_MAXOPTS];	/* importer options */
	const char	*vals[TR_IMPORT_MAXOPTS];
};

struct tr_import_result {
	int64_t		 source_id;	/* new source, or the one it repeats */
	int		 duplicate;	/* same content already in the store */
	int64_t		 same_as;	/* the earlier source with the same
					   samples (another rendering of one
					   recording), or 0 */
	int		 same_skipped;	/* and so this one was not imported
					   (source_id is same_as) */
	int		 skipped;	/* not a recognised format (skip_unknown) */
	const char	*format;	/* importer name (static) */
	int64_t		 bytes;		/* decoded bytes read */
	int64_t		 samples, slices, counters, profiles;
	int64_t		 frames, callsites;	/* new in the store */
	int64_t		 ts_min, ts_max;	/* INT64_MAX/MIN if none */
	int64_t		 cut_line;	/* the last record, begun at this line,
					   was cut short and left out (0: no) */
	int64_t		 oddities;	/* tolerated (tr_import_oddity()) */
	int		 nodd;		/* of which the first are in odd[] */
	char		 odd[TR_IMPORT_ODD_SHOWN][TR_IMPORT_ODD_LEN];
};

void	tr_import_opts_init(struct tr_import_opts *);
/* Add importer option 'key'='val' (both borrowed).  Returns 0 or -1. */
int	tr_import_opts_set(struct tr_import_opts *, const char *key,
	    const char *val);

/*
 * Import one file ('path', "-" for stdin; 'display' names it in messages
 * and in the store, NULL for 'path') in one transaction.  Returns 0 (the
 * result says whether it was new, a duplicate or skipped), or -1 with 'err'
 * set and the store unchanged.
 */
int	tr_import_file(struct tr_db *, const char *path, const char *display,
	    const struct tr_import_opts *, struct tr_import_result *,
	    struct tr_error *);
/* The same over an open input (borrowed). */
int	tr_import_input(struct tr_db *, struct tr_input *,
	    const struct tr_import_opts *, struct tr_import_result *,
	    struct tr_error *);

/*
 * List the regular files under directory 'dir' recursively, sorted by
 * path, skipping names that start with '.' and what is not a regular
 * file.  A dangling symbolic link is skipped too, with a note ("PATH:
 * dangling symbolic link, skipped") in *notes (sorted; NULL 'notes': not
 * wanted).  *paths, *notes and each string are owned by the caller.
 * Returns 0 or -1 (another entry that cannot be read).
 */
int	tr_import_list_dir(const char *dir, char ***paths, size_t *n,
	    char ***notes, size_t *nnotes, struct tr_error *);

/* --- for importers -------------------------------------------------- */

/* An option given to this import ("tz", "fields"...), or NULL. */
const char	*tr_import_opt(const struct tr_import *, const char *key);
/* The input's display name. */
const char	*tr_import_name(const struct tr_import *);
/*
 * The store, for a statement of the importer's own in the import's
 * transaction: once the writer has written every row added so far (call
 * it again after adding more).
 */
struct tr_db	*tr_import_db(struct tr_import *);
int64_t		 tr_import_source_id(const struct tr_import *);

/* Describe the source; strings are copied. */
void	tr_import_set_version(struct tr_import *, const char *);
void	tr_import_set_clock(struct tr_import *, const char *);
void	tr_import_set_host(struct tr_import *, const char *);
/* The host given (--host) or set so far, or NULL; borrowed. */
const char	*tr_import_host(const struct tr_import *);
/*
 * The input ended inside its last record, begun at 'line', which was left
 * out: the result (and trace-import's line) says so.
 */
void	tr_import_set_cut(struct tr_import *, int64_t line);
/*
 * An oddity of the input that the peer tools accept (a quirk of real
 * output, not damage), described with its location in 'err' (set by the
 * caller), which 'done' says what became of ("left out").  With
 * opts->strict it is the import's error: returns -1 with 'err' as it is.
 * Otherwise it is counted (result and the source's meta, "oddities"), the
 * first TR_IMPORT_ODD_SHOWN messages are kept in the result, 'err' is
 * cleared and 0 returned.
 */
int	tr_import_oddity(struct tr_import *, struct tr_error *err,
	    const char *done);
/*
 * The fingerprint of the recording the samples come from, the same for
 * every rendering of it (perf script's options): kept in the source's
 * meta as "samples_fingerprint" (copied).  When an earlier source has the
 * same, the import is skipped and the result says so (same_as), unless
 * opts->keep_same, when it goes in with "same_samples_as" in its meta.
 */
void	tr_import_set_fingerprint(struct tr_import *, const char *);
/* The source's metadata object (borrowed): importers add keys to it. */
json_t	*tr_import_meta(struct tr_import *);

/*
 * The writer of the source's rows (borrowed, for the import's whole run):
 * importers add strings, frames, stacks, threads, samples, profiles,
 * tracks, slices and counters with its tr_writer_add_*() calls.
 */
struct tr_writer;
struct tr_writer *tr_import_writer(struct tr_import *);

#endif
