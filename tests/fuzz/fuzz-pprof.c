/*
 * libFuzzer harness: the pprof importer (profile.proto, usually gzipped).
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>

#include "fuzz-common.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return (tr_fuzz_import("pprof", data, size, NULL));
}
