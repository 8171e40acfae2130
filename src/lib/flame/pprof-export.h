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
	int		no_wall;	/* time_nanos unknown, left 0 */
	char		*note;		/* other events of the selection, or
					   NULL; owned by the caller */
};

/*
 * Write the samples 'sel' (resolved) selects to 'path' ("-": standard
 * output) as a gzipped profile.proto.  Without an event, pprof samples
 * keep every sample type of their profiles (which must agree); otherwise,
 * and for other samples, the one event of tr_flame_pick() is the sample
 * type (perf samples also get samples/count), and the header (period
 * type, time) comes from the profiles that hold it.  time_nanos is wall
 * time: a wall-clock source's own (store time less its clock offset), or
 * the store's wall clock (tr_sel_store_origin()); stats->no_wall when
 * neither is known.  Several profiles merge as go tool pprof merges them.
 * The file is written to a temporary name and renamed, so a failure
 * leaves nothing behind.  Returns 0, or -1 with 'err' set (TR_EUSAGE for
 * a selection that mixes events or incompatible profiles).
 */
int	tr_pprof_export(struct tr_db *, const struct tr_sel *,
	    const char *path, struct tr_pprof_export_stats *,
	    struct tr_error *);

#endif
