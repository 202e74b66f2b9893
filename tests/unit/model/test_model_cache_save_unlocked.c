/*
 * test_model_cache_save_unlocked.c - the save of the persistent index
 * takes the dump files' fingerprints (a stat, and reads of up to 32 KiB, a
 * file: 1,040,000 files for 20,000 tfdbg v1 runs, 326,400 for 64 MindSpore
 * ranks x 100 iterations) without holding the model's lock, so a screen
 * drawing rows meanwhile does not wait for them.  fingerprint_take is
 * wrapped (-Wl,--wrap=fingerprint_take): inside it, the save waits until
 * the test's thread has run a query that takes the model's lock
 * (model_info); a save holding the lock would make the query wait for the
 * fingerprint, which gives up after 10 s and fails the test.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <time.h>

#include "model/model.h"
#include "tests/unit/helpers/cache_tmp.h"
#include "model/model_cache.h"
#include "reader/base/fingerprint.h"

#define FIX "tests/fixtures/tfdbg2"

enum td_status __real_fingerprint_take(const char *path, struct fingerprint *fp);

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static atomic_bool armed;
static bool in_fingerprint, queried, queried_in_time;

/* Waits on cv until *flag or 10 s; the flag's value then (mu held). */
static bool
wait_for(bool *flag)
{
	struct timespec until;
	int err = 0;

	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += 10;
	while (!*flag && err != ETIMEDOUT)
		err = pthread_cond_timedwait(&cv, &mu, &until);
	return *flag;
}

enum td_status
__wrap_fingerprint_take(const char *path, struct fingerprint *fp)
{
	if (atomic_exchange(&armed, false)) {
		pthread_mutex_lock(&mu);
		in_fingerprint = true;
		pthread_cond_broadcast(&cv);
		queried_in_time = wait_for(&queried);
		pthread_mutex_unlock(&mu);
	}
	return __real_fingerprint_take(path, fp);
}

static void *
save(void *arg)
{
	struct model *m = arg;

	atomic_fetch_add(&m->th.generation, 1);     /* rows added since the load */
	model_cache_save(m);
	return NULL;
}

static void
test_save_fingerprints_files_without_the_model_lock(void **state)
{
	struct model_info info;
	struct model *m;
	struct tmp t;
	pthread_t th;
	bool saving;

	(void)state;
	tmp_init_tagged(&t, FIX "/mnist_nan", "saveunlocked");
	model_close(open_cached(&t, true, "new"));
	m = open_cached(&t, true, "used");
	atomic_store(&armed, true);
	assert_int_equal(pthread_create(&th, NULL, save, m), 0);
	pthread_mutex_lock(&mu);
	saving = wait_for(&in_fingerprint);
	pthread_mutex_unlock(&mu);
	assert_true(saving);            /* the save reached a fingerprint */
	model_info(m, &info);           /* takes the model's lock */
	pthread_mutex_lock(&mu);
	queried = true;
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&mu);
	assert_int_equal(pthread_join(th, NULL), 0);
	assert_true(queried_in_time);   /* the query did not wait for the save */
	model_close(m);
	m = open_cached(&t, true, "used");      /* and the save went through */
	model_close(m);
	tmp_done(&t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_save_fingerprints_files_without_the_model_lock),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
