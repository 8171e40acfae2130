/*
 * libFuzzer harness: the nvidia-smi pmon importer, with --tz, --start and
 * --interval given so that inputs without dates get past the first row.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>

#include "fuzz-common.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const opts[] = {
	    "tz", "UTC", "start", "2024-05-01T10:00:00Z", "interval", "1s",
	    NULL
	};

	return (tr_fuzz_import("nvidia-smi-pmon", data, size, opts));
}
