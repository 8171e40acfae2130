/*
 * What every libFuzzer harness under tests/fuzz shares: import the bytes
 * libFuzzer gives as one input of a forced format into an empty in-memory
 * store, the way trace-import would, and check what must hold whatever the
 * bytes are.
 */
#ifndef TR_FUZZ_COMMON_H
#define TR_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"

/*
 * Import 'size' bytes at 'data' with importer 'format' forced (and the
 * NULL-terminated key, value, key, value... importer options 'opts') into
 * an empty ":memory:" store through tr_input_mem() and tr_import_input().
 * Aborts (a finding) when an import fails without a proper error, or when
 * a failed import left rows behind.  Returns 0, as libFuzzer wants.
 */
int	tr_fuzz_import(const char *format, const uint8_t *data, size_t size,
	    const char *const *opts);

/*
 * Check an error the library returned: it has a code and a message that
 * starts lowercase and has no trailing period; a data error names its
 * source.  Aborts on a violation when TR_FUZZ_STRICT is set in the
 * environment, else prints each distinct violation once on stderr.
 */
void	tr_fuzz_check_error(const char *what, const struct tr_error *);

/* abort() with a message on stderr. */
void	tr_fuzz_fail(const char *fmt, ...)
	    __attribute__((format(printf, 1, 2), noreturn));

#endif
