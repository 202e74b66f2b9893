/*
 * test_model_close_race.c - model_close() on a pass that does not end in
 * time leaves the model to its index thread, which frees it when the pass
 * ends; close must not touch the model after it let the thread see that
 * (a use-after-free ThreadSanitizer once found under load: close read the
 * thread's id from the model after its unlock, while the thread, released
 * right then, had freed it).  The race is made to happen every time: the
 * model's mutex unlocks are wrapped (-Wl,--wrap=pthread_mutex_unlock), and
 * at the unlock by which close hands the model over, the stuck pass is
 * released and the test waits (free is wrapped too) until the thread has
 * freed the model before close goes on.  A read of the model after that is
 * an error under ASan and valgrind (make asan, make valgrind run this).
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
#include <stdlib.h>
#include <time.h>

#include "model/model.h"
#include "tests/unit/helpers/fake_model.h"

int __real_pthread_mutex_unlock(pthread_mutex_t *mu);
void __real_free(void *p);

static pthread_mutex_t watch_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t watch_cv = PTHREAD_COND_INITIALIZER;
static void *watched;           /* the model whose free is waited for */
static bool freed;
static pthread_t closer;        /* the thread calling model_close */
static atomic_int unlocks_to_go;       /* the closer's unlock that hands the model over */
static struct fake *stuck;
static bool handed_over, freed_in_time;

void
__wrap_free(void *p)
{
	__real_free(p);
	if (p && p == watched) {
		pthread_mutex_lock(&watch_mu);
		freed = true;
		pthread_cond_broadcast(&watch_cv);
		__real_pthread_mutex_unlock(&watch_mu);
	}
}

int
__wrap_pthread_mutex_unlock(pthread_mutex_t *mu)
{
	int rc = __real_pthread_mutex_unlock(mu);

	if (atomic_load(&unlocks_to_go) > 0 && pthread_equal(pthread_self(), closer) &&
	    atomic_fetch_sub(&unlocks_to_go, 1) == 1) {
		struct timespec until;
		int err = 0;

		handed_over = true;
		fake_release(stuck);    /* the pass ends now; the thread frees the model */
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_sec += 30;
		pthread_mutex_lock(&watch_mu);
		while (!freed && err != ETIMEDOUT)
			err = pthread_cond_timedwait(&watch_cv, &watch_mu, &until);
		freed_in_time = freed;
		__real_pthread_mutex_unlock(&watch_mu);
	}
	return rc;
}

static void
test_model_close_does_not_read_a_model_its_thread_freed(void **state)
{
	struct fake *f = fake_new();
	struct td_summary ok = fake_full_health(10, 0, 0, 0);
	struct model_options opt = {0};     /* an index thread */
	struct model *m;
	int i;

	(void)state;
	fake_op(f, "g", "a", "Relu", NULL, NULL);
	for (i = 0; i < 10; i++)
		fake_trace(f, 1, "g", "a", 0, i, &ok);
	fake_pause_after(f, 3);             /* a reader stuck in its pass */
	m = fake_model_open(f, &opt);
	fake_wait_paused(f);
	stuck = f;
	watched = m;
	closer = pthread_self();
	/* model_close: unlock 1 after asking the thread to stop, unlock 2
	 * after its wait timed out and it marked the model orphaned */
	atomic_store(&unlocks_to_go, 2);
	model_close(m);
	atomic_store(&unlocks_to_go, 0);
	watched = NULL;
	assert_true(handed_over);           /* close left the model to the thread */
	assert_true(freed_in_time);         /* which freed it before close returned */
	assert_int_equal(fake_index_returned(f), 1);
	fake_free(f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_model_close_does_not_read_a_model_its_thread_freed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
