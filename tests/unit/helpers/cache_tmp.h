/*
 * cache_tmp.h - a copy of a fixture dump and a private cache directory in
 * one temporary folder, and the dump opened through the persistent index,
 * for the model's cache tests.  Header-only, as fake_model.h, because it
 * calls model_open() and the helpers' objects are linked into every
 * layer's tests.  Include it after <cmocka.h>.
 */
#ifndef TD_TEST_CACHE_TMP_H
#define TD_TEST_CACHE_TMP_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "model/model.h"

struct tmp {
	char dir[64];           /* mkdtemp */
	char dump[96], cache[96];
};

/* Runs fmt with a and b through the shell; the test fails unless it exits 0. */
static inline void
sh(const char *fmt, const char *a, const char *b)
{
	char cmd[1024];

	snprintf(cmd, sizeof cmd, fmt, a, b);
	assert_int_equal(system(cmd), 0);
}

/* A new folder /tmp/tdbg-unit-TAG.XXXXXX holding a copy of fixture as
 * t->dump; t->cache (not made) is the cache directory to use. */
static inline void
tmp_init_tagged(struct tmp *t, const char *fixture, const char *tag)
{
	snprintf(t->dir, sizeof t->dir, "/tmp/tdbg-unit-%s.XXXXXX", tag);
	assert_non_null(mkdtemp(t->dir));
	snprintf(t->dump, sizeof t->dump, "%s/dump", t->dir);
	snprintf(t->cache, sizeof t->cache, "%s/cache", t->dir);
	sh("cp -r %s %s", fixture, t->dump);
}

/* Removes the folder and what is in it. */
static inline void
tmp_done(struct tmp *t)
{
	sh("rm -rf %s%s", t->dir, "");
}

/* The copy opened without the index thread, the persistent index on
 * (cache) or off, in t->cache; the test fails unless the open succeeds and
 * info's index_cache is state ("new", "used", "stale", ...). */
static inline struct model *
open_cached(const struct tmp *t, bool cache, const char *state)
{
	struct model_options opt = {.no_thread = true, .cache = cache, .cache_dir = t->cache};
	struct model_info info;
	struct model *m = NULL;
	char err[512];

	assert_int_equal(model_open(t->dump, &opt, &m, err, sizeof err), TD_OK);
	model_info(m, &info);
	assert_string_equal(info.index_cache, state);
	return m;
}

#endif
