/*
 * test_model_cache_save_why.c - a save of the persistent index that fails
 * (a full disk; here a file size limit) says why in info's
 * index_cache_why, and the text is written once, before the state says
 * so, so that the TUI's status bar reading it on its thread while the
 * index thread saves never reads a half-written text.  Meant for the
 * ThreadSanitizer build (make tsan) too: the save and model_info run on
 * two threads.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "model/model.h"
#include "tests/unit/helpers/cache_tmp.h"
#include "model/model_cache.h"

#define FIX "tests/fixtures/tfdbg2"

static int saved;                   /* relaxed: no order between the threads */

static void *
save(void *arg)
{
	struct model *m = arg;

	atomic_fetch_add(&m->th.generation, 1);     /* rows added since the load */
	model_cache_save(m);
	__atomic_store_n(&saved, 1, __ATOMIC_RELAXED);
	return NULL;
}

static void
test_failed_save_says_why_beside_info(void **state)
{
	struct rlimit old, tiny = { 0, 0 };
	struct model_info info;
	struct model *m;
	struct tmp t;
	pthread_t th;
	volatile size_t seen = 0;       /* the reads are kept */

	(void)state;
	tmp_init_tagged(&t, FIX "/mnist_nan", "savewhy");
	model_close(open_cached(&t, true, "new"));
	m = open_cached(&t, true, "used");
	/* every write past 0 bytes fails with EFBIG (the signal ignored) */
	signal(SIGXFSZ, SIG_IGN);
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	tiny.rlim_max = old.rlim_max;
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &tiny), 0);
	assert_int_equal(pthread_create(&th, NULL, save, m), 0);
	/* the status bar reads it while the save runs, and after */
	for (int k = 0; k < 200 || !__atomic_load_n(&saved, __ATOMIC_RELAXED); k++) {
		model_info(m, &info);
		seen += strlen(info.index_cache_why);
	}
	assert_int_equal(pthread_join(th, NULL), 0);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	(void)seen;
	model_info(m, &info);
	assert_string_equal(info.index_cache, "used");
	assert_non_null(strstr(info.index_cache_why, "cannot save the index in "));
	assert_non_null(strstr(info.index_cache_why, strerror(EFBIG)));
	model_close(m);
	tmp_done(&t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_failed_save_says_why_beside_info),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
