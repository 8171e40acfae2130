/*
 * libFuzzer harness: the Go execution trace importer, the generation format
 * (Go 1.22+).  Inputs whose header names another version are left out of
 * this harness's corpus (the other gotrace harness covers them), so that
 * mutations stay on this parser.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>

#include "fuzz-common.h"
#include "import/gotrace.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int	ver = tr_gotrace_header_version(data, size);

	if (ver < 1022)
		return (-1);
	return (tr_fuzz_import("gotrace", data, size, NULL));
}
