/*
 * Test stores for the unit suites that read one (check-sel, check-flame,
 * check-derived, check-derived-sched): an empty store in memory, perf
 * script text (or any format's) imported into it, a committed Go trace
 * of tests/data/gotrace imported into a new one, and trace-align's
 * --offset run on a store, and one integer read from it.
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
/*
 * A new store in memory holding the Go trace tests/data/gotrace/'name'
 * ($TR_DATA/gotrace/'name' when TR_DATA is set) as its source 1; aborts
 * the test with the located message on error.
 */
struct tr_db	*test_store_gotrace(const char *name);
/*
 * Run trace-align with the one --offset statement 'stmt' (its report
 * discarded); aborts the test on error.
 */
void		 test_store_align_offset(struct tr_db *, const char *stmt);
/* The one integer 'sql' gives (0 for no row); aborts the test on error. */
int64_t		 test_store_int(struct tr_db *, const char *sql);

#endif
