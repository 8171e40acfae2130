/*
 * perf script text output.  (Being written.)
 */
#include "config.h"
#include "importer.h"

static int
probe(const unsigned char *p, size_t len)
{
	(void)p;
	(void)len;
	return (0);
}

static int
run(struct tr_import *ctx, struct tr_input *in, struct tr_error *err)
{
	(void)ctx;
	return (tr_input_error(in, err, 0, "not implemented"));
}

const struct tr_importer tr_importer_perf_script = {
	.name = "perf-script",
	.summary = "text output of perf script (samples, callchains)",
	.probe = probe,
	.run = run,
};
