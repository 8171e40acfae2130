/*
 * Clock alignment: put every source on CLOCK_MONOTONIC of the traced host.
 * This first version applies the anchors a source carries itself (perf
 * recorded with -k mono, Go 1.22+ traces) and reports every source's clock
 * and alignment; estimation comes with the alignment issue.
 */
#ifndef TR_ALIGN_H
#define TR_ALIGN_H

#include "db.h"
#include "error.h"
#include "out.h"

/*
 * Apply exact anchors (unless 'dry_run') and write the alignment table to
 * 'out'.  Returns 0, or -1 with 'err' set and the store unchanged.
 */
int	tr_align_run(struct tr_db *, int dry_run, struct tr_out *,
	    struct tr_error *);

#endif
