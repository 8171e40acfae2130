/*
 * Writing a selection of samples back as a gzipped profile.proto that
 * go tool pprof reads: pprof samples with all their values, labels,
 * mappings and inlined frames; perf (or any other) samples as a profile of
 * their event.  Frames become locations again: a frame that is not
 * inlined and the inlined frames after it (same address) form one
 * location, innermost line first.
 */
#ifndef TR_PPROF_EXPORT_H
#define TR_PPROF_EXPORT_H

#include <stdint.h>

#include "store/db.h"
#include "base/error.h"
#include "flame/flame.h"

struct tr_pprof_export_stats {
	int64_t		samples;	/* samples written */
	int64_t		rows;		/* store rows read */
	int64_t		locations, functions, mappings;
	int		types;		/* sample types written */
	int64_t		profiles;	/* pprof profiles, 0: none */
};

/*
 * Write the samples 'sel' selects to 'path' ("-": standard output) as a
 * gzipped profile.proto.  Without an event, pprof samples keep every
 * sample type of their profiles (which must agree); otherwise, and for
 * other samples, the one event is the sample type (perf samples also get
 * samples/count).  Several profiles merge as go tool pprof merges them.
 * The file is written to a temporary name and renamed, so a failure
 * leaves nothing behind.  Returns 0, or -1 with 'err' set (TR_EUSAGE for
 * a selection that mixes events or incompatible profiles).
 */
int	tr_pprof_export(struct tr_db *, const struct tr_flame_sel *,
	    const char *path, struct tr_pprof_export_stats *,
	    struct tr_error *);

#endif
