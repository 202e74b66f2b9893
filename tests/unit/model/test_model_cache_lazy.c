/*
 * test_model_cache_lazy.c - the op table of a persistent index decoded on
 * first use (model/model_cache_opcheck.c, issue 26): a reopen that asks
 * only `info` leaves it undecoded, the first op query decodes it with the
 * answers of a fresh index, and a cache file cut short under the session
 * does not reach it (the checked bytes are the process's own); asked
 * for (ops_at_open), it is decoded inside model_open.  The
 * refusals of forged op sections are in test_model_cache_trust.c.  Facts
 * come from tests/fixtures/tfdbg2/README.md.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/model.h"
#include "tests/unit/helpers/cache_tmp.h"
#include "model/model_cache.h"

#define FIX "tests/fixtures/tfdbg2"

static void
tmp_init(struct tmp *t, const char *fixture)
{
	tmp_init_tagged(t, fixture, "lazy");
}

static bool
pending(struct model *m)
{
	return atomic_load(&m->ot.ops_pending);
}

/* Op id's fields, inputs and consumers are the same in a and b. */
static void
assert_same_op(struct model *a, struct model *b, uint32_t id)
{
	struct model_consumer ca[64], cb[64];
	struct model_op x, y;
	size_t k, n;

	assert_true(model_op_get(a, id, &x));
	assert_true(model_op_get(b, id, &y));
	assert_string_equal(x.name, y.name);
	assert_string_equal(x.type, y.type);
	assert_string_equal(x.graph_id, y.graph_id);
	assert_int_equal(x.ninputs, y.ninputs);
	for (k = 0; k < x.ninputs; k++) {
		assert_string_equal(x.inputs[k].op_name, y.inputs[k].op_name);
		assert_int_equal(x.inputs[k].op, y.inputs[k].op);
	}
	assert_int_equal(x.ncontrol_inputs, y.ncontrol_inputs);
	assert_int_equal(x.nattrs, y.nattrs);
	assert_int_equal(x.noutput_types, y.noutput_types);
	n = model_op_consumers(a, id, ca, 64);
	assert_int_equal(n, model_op_consumers(b, id, cb, 64));
	for (k = 0; k < n && k < 64; k++)
		assert_int_equal(ca[k].op, cb[k].op);
}

static void
test_cache_info_leaves_ops_undecoded(void **state)
{
	struct tmp t;
	struct model *cached, *fresh;
	struct model_info ic, ifr;
	uint32_t id, n;

	(void)state;
	tmp_init(&t, FIX "/mnist_nan");
	model_close(open_cached(&t, true, "new"));
	cached = open_cached(&t, true, "used");
	fresh = open_cached(&t, false, "off");
	model_info(cached, &ic);
	model_info(fresh, &ifr);
	assert_true(pending(cached));           /* info answered from the counts */
	assert_null(cached->ot.opv);
	assert_int_equal(ic.ops, ifr.ops);
	assert_int_equal(ic.graphs, ifr.graphs);
	assert_int_equal(model_op_count(cached), model_op_count(fresh));
	id = (uint32_t)model_op_find(cached, "Log", NULL);     /* decodes */
	assert_false(pending(cached));
	assert_int_equal(id, model_op_find(fresh, "Log", NULL));
	n = model_op_count(fresh);
	assert_true(n > 0);
	for (id = 0; id < n; id++)
		assert_same_op(cached, fresh, id);
	model_close(fresh);
	model_close(cached);
	tmp_done(&t);
}

/* model_options.ops_at_open (a diff opening its two dumps on two
 * threads): the op table is decoded inside model_open, before any query,
 * with the answers of a fresh index; two such opens at once (the diff's
 * threads) each decode their own. */
static void *
open_at_open(void *arg)
{
	const struct tmp *t = arg;
	struct model_options opt = {.cache = true, .cache_dir = t->cache, .ops_at_open = true};
	struct model *m = NULL;
	char err[512];

	assert_int_equal(model_open(t->dump, &opt, &m, err, sizeof err), TD_OK);
	return m;
}

static void
test_cache_ops_at_open_decodes_in_open(void **state)
{
	struct tmp t;
	struct model *a, *b, *fresh;
	struct model_info info;
	pthread_t th;
	void *got;
	uint32_t id, n;

	(void)state;
	tmp_init(&t, FIX "/mnist_nan");
	model_close(open_cached(&t, true, "new"));
	assert_int_equal(pthread_create(&th, NULL, open_at_open, &t), 0);
	a = open_at_open(&t);
	assert_int_equal(pthread_join(th, &got), 0);
	b = got;
	assert_false(pending(a));               /* no op query was made */
	assert_false(pending(b));
	assert_non_null(a->ot.opv);
	model_wait(a);
	model_wait(b);
	model_info(a, &info);
	assert_string_equal(info.index_cache, "used");
	fresh = open_cached(&t, false, "off");
	n = model_op_count(fresh);
	assert_true(n > 0);
	for (id = 0; id < n; id++) {
		assert_same_op(a, fresh, id);
		assert_same_op(b, fresh, id);
	}
	model_close(fresh);
	model_close(b);
	model_close(a);
	tmp_done(&t);
}

/* With ops_at_open the op section is decoded as the load reads it, a
 * piece at a time through the load's scratch, not read whole into the
 * load's buffer first (issue 27: 20 MB of fresh pages a side at 200,000
 * ops): the buffer takes only the counts and what follows the name map
 * (the alias and consumer maps, the consumer lists), and the ops are the
 * fresh index's. */
static void
test_cache_ops_at_open_streams_the_op_section(void **state)
{
	struct tmp t;
	struct model_options opt = {.no_thread = true, .cache = true, .ops_at_open = true};
	struct model *lazy, *streamed, *fresh;
	char err[512];
	size_t ops_n, k, at, len;
	uint32_t id, n;

	(void)state;
	tmp_init(&t, FIX "/mnist_nan");
	opt.cache_dir = t.cache;
	model_close(open_cached(&t, true, "new"));
	lazy = open_cached(&t, true, "used");
	assert_true(pending(lazy));
	ops_n = lazy->icache->ops_n;            /* the whole op section */
	assert_true(ops_n > 4096);
	assert_int_equal(model_open(t.dump, &opt, &streamed, err, sizeof err), TD_OK);
	assert_false(pending(streamed));
	/* the ops' records and the name map's pairs never in the buffer: the
	 * lazy load read the whole section, this one all but those (the op
	 * records' bytes as the check walk finds them in the lazy load's
	 * copy of the section) */
	for (k = 0, at = 8; k < lazy->ot.nops; k++, at += len) {
		len = mc_op_walk_len((const unsigned char *)lazy->icache->ops_p + at, ops_n - at,
				     &lazy->icache->ops_counts);
		assert_true(len > 0);
	}
	assert_int_equal(lazy->icache->map_filled - streamed->icache->map_filled,
			 (at - 8) + 16 * (size_t)streamed->ot.nnames);
	assert_true(at - 8 > ops_n / 2);        /* most of the section here */
	fresh = open_cached(&t, false, "off");
	n = model_op_count(fresh);
	assert_int_equal(model_op_count(streamed), n);
	for (id = 0; id < n; id++)
		assert_same_op(streamed, fresh, id);
	for (k = 0; k < 3; k++)
		model_close(k == 0 ? lazy : k == 1 ? streamed : fresh);
	tmp_done(&t);
}

/* An input that names no op (msprobe's "input.0") is answered without
 * the op hash: a reopen has none, and building it hashes every op (the
 * diff asks for the first divergence's inputs, issue 27).  An input that
 * names an op still finds it through the hash. */
static void
test_cache_unknown_input_builds_no_op_hash(void **state)
{
	struct tmp t;
	struct model *m, *fresh;
	const char *name;
	uint32_t slot;
	int64_t id;

	(void)state;
	tmp_init(&t, "tests/fixtures/msprobe/pt_stats_2rank");
	model_close(open_cached(&t, true, "new"));
	m = open_cached(&t, true, "used");
	fresh = open_cached(&t, false, "off");
	id = model_op_find(m, "Module.fc1.Linear.forward.0", NULL);
	assert_true(id >= 0);
	assert_int_equal(model_op_input(m, (uint32_t)id, 0, &slot, &name), -1);
	assert_string_equal(name, "input.0");
	assert_int_equal(model_op_input(fresh, (uint32_t)id, 0, NULL, NULL), -1);
	assert_false(atomic_load(&m->ot.ophash_built));
	model_close(fresh);
	model_close(m);
	tmp_done(&t);
	/* a name that is an op's: the hash is built and finds it */
	tmp_init(&t, FIX "/mnist_nan");
	model_close(open_cached(&t, true, "new"));
	m = open_cached(&t, true, "used");
	fresh = open_cached(&t, false, "off");
	id = model_op_find(m, "Log", NULL);
	assert_true(id >= 0);
	assert_true(model_op_input(m, (uint32_t)id, 0, NULL, NULL) >= 0);
	assert_int_equal(model_op_input(m, (uint32_t)id, 0, NULL, NULL),
			 model_op_input(fresh, (uint32_t)id, 0, NULL, NULL));
	assert_true(atomic_load(&m->ot.ophash_built));
	model_close(fresh);
	model_close(m);
	tmp_done(&t);
}

/* The index thread moves the cache's state (a pass that added rows:
 * "used" -> "extended") while the TUI asks model_info for its status bar:
 * the state is atomic.  Meant for the ThreadSanitizer build (make tsan),
 * which saw the race in tui_cache. */
static void *
note_pass(void *arg)
{
	model_cache_note_pass(arg);
	return NULL;
}

static void
test_cache_state_moves_beside_info(void **state)
{
	struct tmp t;
	struct model *m;
	struct model_info info;
	pthread_t th;

	(void)state;
	tmp_init(&t, FIX "/mnist_nan");
	model_close(open_cached(&t, true, "new"));
	m = open_cached(&t, true, "used");
	m->icache->loaded_traces = 0;           /* as if the pass had added rows */
	assert_int_equal(pthread_create(&th, NULL, note_pass, m), 0);
	for (int k = 0; k < 1000; k++)
		model_info(m, &info);
	assert_int_equal(pthread_join(th, NULL), 0);
	model_info(m, &info);
	assert_string_equal(info.index_cache, "extended");
	model_close(m);
	tmp_done(&t);
}

/* A trace row's op name is an op query too: it decodes (the op hash
 * waits for a lookup by graph and name). */
static void
test_cache_trace_row_decodes_ops(void **state)
{
	struct tmp t;
	struct model *m;
	struct model_trace row;
	int64_t log, probs;

	(void)state;
	tmp_init(&t, FIX "/mnist_nan");
	model_close(open_cached(&t, true, "new"));
	m = open_cached(&t, true, "used");
	assert_true(pending(m));
	assert_int_equal(model_trace_get(m, 88, &row), TD_OK);
	assert_false(pending(m));
	assert_string_equal(row.op_name, "Log");        /* README: row 88 is Log:0 */
	assert_string_equal(row.op_type, "Log");
	/* the op hash (graph, name) waits for its first lookup: a row's names
	 * and a find by name alone do not hash every op */
	log = model_op_find(m, "Log", NULL);
	assert_true(log >= 0);
	assert_false(atomic_load(&m->ot.ophash_built));
	assert_int_equal(model_op_find(m, "Log", "loss"), log);
	assert_true(atomic_load(&m->ot.ophash_built));
	probs = model_op_find(m, "probs", "loss");
	assert_true(probs >= 0);
	assert_int_equal(model_op_input(m, (uint32_t)log, 0, NULL, NULL), probs);
	model_close(m);
	tmp_done(&t);
}

/* The file emptied after the load: the op section decoded later is the
 * copy the load checked, not the file. */
static void
test_cache_ops_decoded_after_the_file_is_cut(void **state)
{
	struct tmp t;
	struct model *m;
	struct model_op op;
	int64_t id;

	(void)state;
	tmp_init(&t, FIX "/mnist_nan");
	model_close(open_cached(&t, true, "new"));
	m = open_cached(&t, true, "used");
	assert_true(pending(m));
	sh("for f in %s/*.tdx; do : > \"$f\"; done%s", t.cache, "");
	id = model_op_find(m, "Log", NULL);
	assert_true(id >= 0);
	assert_true(model_op_get(m, (uint32_t)id, &op));
	assert_string_equal(op.type, "Log");            /* README: type Log, graph loss, */
	assert_int_equal(op.ninputs, 1);                /* only input probs:0 */
	assert_string_equal(op.inputs[0].op_name, "probs");
	model_close(m);
	tmp_done(&t);
}

/* Bytes the load checked, changed before the decode (only a bug could do
 * it: they are the process's own): the op table is completed with empty
 * ops, rows still answer, and the cache file is dropped as stale. */
static void
test_cache_ops_undecodable_after_the_load_is_stale(void **state)
{
	struct tmp t;
	struct model *m;
	struct model_trace row;
	struct model_info info;

	(void)state;
	tmp_init(&t, FIX "/mnist_nan");
	model_close(open_cached(&t, true, "new"));
	m = open_cached(&t, true, "used");
	assert_true(pending(m));
	assert_true(m->icache->ops_n > 64);
	memset((char *)m->icache->ops_p + 8, 0xff, m->icache->ops_n - 8);  /* after the op count */
	assert_int_equal(model_trace_get(m, 88, &row), TD_OK);
	assert_false(pending(m));
	assert_non_null(row.op_name);
	model_info(m, &info);
	assert_string_equal(info.index_cache, "stale");
	model_close(m);
	model_close(open_cached(&t, true, "rebuilt"));  /* the file was marked */
	tmp_done(&t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cache_info_leaves_ops_undecoded),
		cmocka_unit_test(test_cache_ops_at_open_decodes_in_open),
		cmocka_unit_test(test_cache_ops_at_open_streams_the_op_section),
		cmocka_unit_test(test_cache_unknown_input_builds_no_op_hash),
		cmocka_unit_test(test_cache_state_moves_beside_info),
		cmocka_unit_test(test_cache_trace_row_decodes_ops),
		cmocka_unit_test(test_cache_ops_decoded_after_the_file_is_cut),
		cmocka_unit_test(test_cache_ops_undecodable_after_the_load_is_stale),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
