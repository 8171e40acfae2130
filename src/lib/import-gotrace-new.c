/*
 * The generation format of Go execution traces, Go 1.22 and later.
 * (Being written.)
 */
#include "config.h"
#include "gotrace.h"

int
tr_gotrace_new_run(struct tr_import *ctx, struct tr_input *in, int ver,
    struct tr_error *err)
{
	(void)ctx;
	return (tr_input_error_at(in, err, 16, "Go %d.%d traces: not "
	    "implemented yet", ver / 1000, ver % 1000));
}
