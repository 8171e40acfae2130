/*
 * Test stores for the unit suites that read one (check-sel, check-flame):
 * an empty store in memory, and perf script text (or any format's)
 * imported into it.
 */
#ifndef TR_TEST_STORE_H
#define TR_TEST_STORE_H

#include "store/db.h"

/* A new empty store in memory (tr_db_free()); aborts the test on error. */
struct tr_db	*test_store_new(void);
/*
 * Import perf script text 'text' as input 'name' (the importer's whole
 * transaction); aborts the test with the located message on error.
 */
void		 test_store_add(struct tr_db *, const char *name,
		    const char *text);
/* The same for an input of format 'format', local times read in UTC. */
void		 test_store_import(struct tr_db *, const char *name,
		    const char *format, const char *text);

#endif
