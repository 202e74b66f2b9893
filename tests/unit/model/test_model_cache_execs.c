/*
 * test_model_cache_execs.c - the strings, the executions and the run
 * list of a persistent index read a piece at a time (model_cache_tables.c
 * get_strings, model_cache_rows.c get_execs, get_row_list_streamed;
 * model_cache.c mc_load_piece; issue 27: the sections are not read into
 * the load's buffer).  A hand-written msprobe statistics dump of more
 * executions (an entry is an execution, with a run of its own) than a
 * piece holds of either, their names several pieces of strings, opened
 * fresh and then from its index file: every execution and every row's
 * execution equal the fresh ones', and what the dump says (the entry's
 * name, the row it owns).  A string longer than a piece, which no reader
 * makes, is forged through tdbg's writer (cache_tmp.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "model/model.h"
#include "model/model_cache.h"
#include "reader/base/util.h"
#include "tests/unit/helpers/cache_tmp.h"
#include "tests/unit/helpers/files.h"

/* more than a piece of runs (16 bytes each): three pieces and a part of
 * executions (53 bytes each, model_cache_rows.c) */
#define NENTRIES (MC_LOAD_PIECE / 16 + 321)

/* dump.json of NENTRIES entries, entry i "Torch.f<i>.0.forward" with one
 * output leaf, into root/step0/rank0. */
static void
write_dump(const char *root)
{
	struct strbuf sb = {0};
	char *p;

	strbuf_addf(&sb, "{\"task\": \"statistics\", \"level\": \"L1\", \"data\": {\n");
	for (unsigned i = 0; i < NENTRIES; i++)
		strbuf_addf(&sb, "%s\"Torch.f%u.0.forward\": {\"input_args\": [], \"output\": "
			    "[{\"type\": \"torch.Tensor\", \"dtype\": \"torch.float32\", "
			    "\"shape\": [2], \"Max\": %u, \"Min\": 0, \"Mean\": 0.5, \"Norm\": 1}]}\n",
			    i ? "," : "", i, i);
	strbuf_addf(&sb, "}}\n");
	p = xasprintf("%s/step0", root);
	mkdir(p, 0755);
	free(p);
	p = xasprintf("%s/step0/rank0", root);
	mkdir(p, 0755);
	free(p);
	p = xasprintf("%s/step0/rank0/dump.json", root);
	test_spit(p, sb.buf, sb.len, "wb");
	free(p);
	strbuf_done(&sb);
}

static struct model *
open_with(const char *root, const char *cache, const char *want_state)
{
	struct model_options opt = { .no_thread = true, .cache = cache != NULL, .cache_dir = cache };
	struct model_info info;
	struct model *m = NULL;
	char err[256];

	assert_int_equal(model_open(root, &opt, &m, err, sizeof err), TD_OK);
	model_info(m, &info);
	assert_string_equal(info.index_cache, want_state);
	return m;
}

static void
test_cache_executions_and_runs_read_a_piece_at_a_time(void **state)
{
	char *dir = test_tmpdir("cache_execs"), *root = xasprintf("%s/dump", dir),
	     *cache = xasprintf("%s/cache", dir);
	struct model *fresh, *warm;

	(void)state;
	mkdir(root, 0755);
	mkdir(cache, 0755);
	write_dump(root);
	fresh = open_with(root, NULL, "off");
	model_close(open_with(root, cache, "new"));     /* writes the index */
	warm = open_with(root, cache, "used");
	assert_int_equal(model_execution_count(fresh), NENTRIES);
	assert_int_equal(model_execution_count(warm), NENTRIES);
	/* the run list sized once from the section's count, not grown by
	 * doubling (each step a copy into fresh pages) */
	assert_true(warm->rows.nruns > MC_LOAD_PIECE / 16);
	assert_int_equal(warm->rows.capruns, warm->rows.nruns);
	/* a chunk of executions the load fills whole starts on a 2 MB
	 * boundary (its first 2 MB one huge page) */
	assert_int_equal((uintptr_t)warm->rows.echunks[0] & (((uintptr_t)1 << 21) - 1), 0);
	for (uint64_t i = 0; i < NENTRIES; i++) {
		struct model_execution a, b;
		char name[32];

		assert_int_equal(model_execution_get(fresh, i, &a), TD_OK);
		assert_int_equal(model_execution_get(warm, i, &b), TD_OK);
		snprintf(name, sizeof name, "Torch.f%u", (unsigned)i);
		assert_string_equal(b.op_type, a.op_type);
		assert_non_null(strstr(b.op_type, name));
		assert_int_equal(b.first_trace, i);
		assert_int_equal(b.ntraces, a.ntraces);
		assert_int_equal(b.graph, a.graph);
		assert_int_equal(b.flags, a.flags);
		assert_int_equal(b.num_outputs, a.num_outputs);
		assert_int_equal(b.bad_outputs, a.bad_outputs);
		assert_int_equal(b.step, a.step);
		assert_string_equal(b.host, a.host);
		assert_memory_equal(&b.wall_time, &a.wall_time, sizeof(double));
	}
	assert_int_equal(model_trace_count(warm), NENTRIES);
	for (uint64_t i = 0; i < NENTRIES; i++) {
		struct model_trace a, b;

		assert_int_equal(model_trace_get(fresh, i, &a), TD_OK);
		assert_int_equal(model_trace_get(warm, i, &b), TD_OK);
		assert_int_equal(b.execution, (int64_t)i);     /* the entry's own */
		assert_int_equal(b.execution, a.execution);
	}
	model_close(warm);
	model_close(fresh);
	free(root);
	free(cache);
	test_rmtree(dir);
}

/* Strings longer than a piece (the window falls back to the load's
 * buffer) and a short one after them are read back whole. */
static void
test_cache_string_longer_than_a_piece(void **state)
{
	const size_t len = MC_LOAD_PIECE + 4321;
	char *lng = xmalloc(len + 1);
	struct tmp t;
	struct model *m;
	uint32_t a, b, after, n;

	(void)state;
	tmp_init_tagged(&t, "tests/fixtures/tfdbg2/mnist_nan", "longstr");
	m = open_cached(&t, false, "off");
	memset(lng, 'x', len);
	lng[len] = '\0';
	a = intern_add(&m->str, lng);
	lng[0] = 'y';
	b = intern_add(&m->str, lng);
	after = intern_add(&m->str, "after the long ones");
	n = atomic_load(&m->str.n);
	/* saved by tdbg's writer, as test_model_cache_trust forges files */
	m->opt.cache = true;
	m->opt.cache_dir = t.cache;
	assert_true(model_cache_init(m));
	model_bump(m);
	model_cache_save(m);
	model_close(m);
	m = open_cached(&t, true, "used");
	assert_int_equal(atomic_load(&m->str.n), n);
	assert_string_equal(intern_str(&m->str, b), lng);
	lng[0] = 'x';
	assert_string_equal(intern_str(&m->str, a), lng);
	assert_string_equal(intern_str(&m->str, after), "after the long ones");
	assert_int_equal(intern_find(&m->str, "after the long ones"), after);
	model_close(m);
	tmp_done(&t);
	free(lng);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cache_executions_and_runs_read_a_piece_at_a_time),
		cmocka_unit_test(test_cache_string_longer_than_a_piece),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
