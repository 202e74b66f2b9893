/*
 * test_model_calls.c - what a dump states of a row and of its call, read
 * through the model (issue 26): the module tree (model_calls_of: parent,
 * children, each resolved to an op and to its call's first row), the
 * row's own facts (model_trace_facts: role, requires_grad, prefix) and
 * the conditions on them (where_trace), over a hand-written msprobe dump
 * whose facts are written below.  A format without them (the fake reader)
 * answers "not stated" without decoding.
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
#include "model/model_internal.h"
#include "model/analysis/model_where.h"
#include "tests/unit/helpers/fake_model.h"
#include "tests/unit/helpers/files.h"

#define T(rg) "{\"type\": \"torch.Tensor\", \"dtype\": \"torch.float32\", \"shape\": [2], " \
	"\"Max\": 1, \"Min\": 0, \"Mean\": 0.5, \"Norm\": 1" rg "}"

/* rows: 0 linear input.0 (requires_grad false), 1 linear output.0 (true),
 *       2 fc1 input.0, 3 fc1 output.0, 4 fc1 parameters.weight (true),
 *       5 sqrt input.0, 6 sqrt output.0 (no requires_grad) */
static const char DUMP[] =
	"{\"task\": \"statistics\", \"level\": \"mix\", \"data\": {\n"
	"\"Functional.linear.0.forward\": {\"input_args\": [" T(", \"requires_grad\": false") "],"
	" \"output\": [" T(", \"requires_grad\": true") "]},\n"
	"\"Module.fc1.Linear.forward.0\": {\"input_args\": [" T(", \"requires_grad\": false") "],"
	" \"output\": [" T(", \"requires_grad\": true") "],"
	" \"parameters\": {\"weight\": " T(", \"requires_grad\": true") "}},\n"
	"\"Torch.sqrt.0.forward\": {\"input_args\": [" T("") "], \"output\": [" T("") "]}\n"
	"}}\n";
static const char CONSTRUCT[] =
	"{\"Functional.linear.0.forward\": \"Module.fc1.Linear.forward.0\",\n"
	" \"Module.fc1.Linear.forward.0\": null, \"Torch.sqrt.0.forward\": \"optimizer\"}\n";

/* The dump in a new folder *dir (reopened when *dir is set already), with
 * the persistent index in *dir-cache when cache (not in the dump: tdbg
 * writes nothing there). */
static struct model *
open_dump_cached(char **dir, bool cache)
{
	static char cdir[512];      /* the model keeps the options' strings */
	struct model_options opt = { .no_thread = true, .cache = cache, .cache_dir = cdir };
	struct model *m = NULL;
	char err[256], *p;

	if (*dir) {
		snprintf(cdir, sizeof cdir, "%s-cache", *dir);
		assert_int_equal(model_open(*dir, &opt, &m, err, sizeof err), TD_OK);
		return m;
	}
	*dir = test_tmpdir("model_calls");
	snprintf(cdir, sizeof cdir, "%s-cache", *dir);
	p = xasprintf("%s/step0", *dir);
	mkdir(p, 0755);
	free(p);
	p = xasprintf("%s/step0/rank0", *dir);
	mkdir(p, 0755);
	free(p);
	p = xasprintf("%s/step0/rank0/dump.json", *dir);
	test_spit(p, DUMP, strlen(DUMP), "wb");
	free(p);
	p = xasprintf("%s/step0/rank0/construct.json", *dir);
	test_spit(p, CONSTRUCT, strlen(CONSTRUCT), "wb");
	free(p);
	assert_int_equal(model_open(*dir, &opt, &m, err, sizeof err), TD_OK);
	assert_int_equal(model_trace_count(m), 7);
	return m;
}

static struct model *
open_dump(char **dir)
{
	*dir = NULL;
	return open_dump_cached(dir, false);
}

static void
test_calls_parent_children_and_rows(void **state)
{
	char *dir;
	struct model *m = open_dump(&dir);
	int64_t lin = model_op_find(m, "Functional.linear.0.forward", NULL),
		fc1 = model_op_find(m, "Module.fc1.Linear.forward.0", NULL),
		sqr = model_op_find(m, "Torch.sqrt.0.forward", NULL);
	struct model_calls c;

	(void)state;
	assert_true(lin >= 0 && fc1 >= 0 && sqr >= 0);
	assert_true(model_has_call_tree(m));
	/* from the linear's input row: its module, whose call starts at row 2 */
	assert_true(model_calls_of(m, (uint32_t)lin, 0, &c));
	assert_int_equal(c.trace_index, 0);
	assert_true(c.has_parent);
	assert_string_equal(c.parent.op_name, "Module.fc1.Linear.forward.0");
	assert_int_equal(c.parent.op, fc1);
	assert_string_equal(c.parent.op_type, "Module.fc1.Linear");
	assert_int_equal(c.parent.trace_index, 2);
	assert_int_equal(c.nchildren, 0);
	model_calls_done(&c);
	/* the module (no row given: its first): no parent, the linear inside */
	assert_true(model_calls_of(m, (uint32_t)fc1, -1, &c));
	assert_int_equal(c.trace_index, 2);
	assert_false(c.has_parent);
	assert_int_equal(c.nchildren, 1);
	assert_string_equal(c.children[0].op_name, "Functional.linear.0.forward");
	assert_int_equal(c.children[0].op, lin);
	assert_int_equal(c.children[0].trace_index, 0);
	model_calls_done(&c);
	/* a row of another op is not the op's: its first row is read */
	assert_true(model_calls_of(m, (uint32_t)fc1, 6, &c));
	assert_int_equal(c.trace_index, 2);
	model_calls_done(&c);
	/* a parent that is no entry (an optimizer phase) */
	assert_true(model_calls_of(m, (uint32_t)sqr, 5, &c));
	assert_true(c.has_parent);
	assert_string_equal(c.parent.op_name, "optimizer");
	assert_int_equal(c.parent.op, -1);
	assert_int_equal(c.parent.trace_index, -1);
	model_calls_done(&c);
	model_close(m);
	test_rmtree(dir);
}

/* With the persistent index, the role and requires_grad the index pass
 * stated are read from the summary columns: the same facts as a decode
 * (the model without the index), and no record decoded for them, at the
 * first open and at the reopen; the prefix is spelt from the op's name
 * (the reader's op_prefix), no decode either. */
static void
test_row_facts_from_the_columns(void **state)
{
	struct model_row_facts a, b;
	struct model *m, *plain;
	char *dir = NULL, *pdir;
	struct model_info info;

	(void)state;
	plain = open_dump(&pdir);
	for (int round = 0; round < 2; round++) {
		m = open_dump_cached(&dir, true);
		model_wait(m);
		model_info(m, &info);
		assert_string_equal(info.index_cache, round ? "used" : "new");
		for (uint64_t i = 0; i < 7; i++) {
			uint64_t before = m->dc.decodes;

			assert_true(model_trace_facts(m, i, false, &a));
			assert_int_equal(m->dc.decodes, before);
			assert_null(a.prefix);
			assert_true(model_trace_facts(plain, i, true, &b));
			assert_int_equal(a.role, b.role);
			assert_int_equal(a.requires_grad, b.requires_grad);
			/* the prefix asked: the decode's, without one */
			assert_true(model_trace_facts(m, i, true, &a));
			assert_int_equal(m->dc.decodes, before);
			assert_string_equal(a.prefix, b.prefix);
		}
		model_close(m);
	}
	model_close(plain);
	{
		char *cdir = xasprintf("%s-cache", dir);

		test_rmtree(cdir);          /* and frees it */
	}
	test_rmtree(dir);
	test_rmtree(pdir);
}

static void
test_row_facts_and_conditions(void **state)
{
	static const struct {
		enum model_role role;
		int rg;
		const char *prefix;
	} want[] = {
		{ ROLE_ACTIVATION, 0, "Functional" }, { ROLE_ACTIVATION, 1, "Functional" },
		{ ROLE_ACTIVATION, 0, "Module" }, { ROLE_ACTIVATION, 1, "Module" },
		{ ROLE_WEIGHT, 1, "Module" }, { ROLE_ACTIVATION, -1, "Torch" },
		{ ROLE_ACTIVATION, -1, "Torch" },
	};
	static const struct {
		const char *cond;
		enum expr_result r[7];
	} conds[] = {
		{ "role == \"weight\" and requires_grad",
		  { EXPR_FALSE, EXPR_FALSE, EXPR_FALSE, EXPR_FALSE, EXPR_TRUE, EXPR_FALSE, EXPR_FALSE } },
		{ "requires_grad == 0",
		  { EXPR_TRUE, EXPR_FALSE, EXPR_TRUE, EXPR_FALSE, EXPR_FALSE, EXPR_UNKNOWN, EXPR_UNKNOWN } },
		{ "prefix ~ \"^T\" or role == \"weight\"",
		  { EXPR_FALSE, EXPR_FALSE, EXPR_FALSE, EXPR_FALSE, EXPR_TRUE, EXPR_TRUE, EXPR_TRUE } },
	};
	char *dir, err[128];
	struct model *m = open_dump(&dir);
	struct model_row_facts k;
	struct model_trace t;
	struct expr *e;
	size_t i, j;

	(void)state;
	for (i = 0; i < TD_ARRAY_SIZE(want); i++) {
		assert_true(model_trace_facts(m, i, true, &k));
		assert_int_equal(k.role, want[i].role);
		assert_int_equal(k.requires_grad, want[i].rg);
		assert_string_equal(k.prefix, want[i].prefix);
		/* the row's role is the one the dump states */
		assert_int_equal(model_trace_get(m, i, &t), TD_OK);
		assert_int_equal(t.role, want[i].role);
	}
	for (j = 0; j < TD_ARRAY_SIZE(conds); j++) {
		assert_int_equal(expr_parse(conds[j].cond, &e, err, sizeof err), TD_OK);
		for (i = 0; i < 7; i++)
			assert_int_equal(where_trace(m, e, i), conds[j].r[i]);
		expr_free(e);
	}
	/* an execution has its call's prefix; requires_grad is per leaf */
	assert_int_equal(expr_parse("prefix == \"Torch\"", &e, err, sizeof err), TD_OK);
	assert_int_equal(where_exec(m, e, 0), EXPR_FALSE);
	assert_int_equal(where_exec(m, e, 2), EXPR_TRUE);
	expr_free(e);
	assert_int_equal(expr_parse("requires_grad", &e, err, sizeof err), TD_OK);
	assert_int_equal(where_exec(m, e, 1), EXPR_UNKNOWN);
	expr_free(e);
	model_close(m);
	test_rmtree(dir);
}

/* role is decided per op, but on a forward call whose rows may state
 * their own (a layer's parameters beside its activations). */
static void
test_role_decided_per_op_but_forward_calls(void **state)
{
	char err[128];
	struct expr *e;

	(void)state;
	assert_int_equal(expr_parse("role == \"weight\"", &e, err, sizeof err), TD_OK);
	assert_int_equal(where_op(e, NULL, "dense/MatMul", "MatMul"), EXPR_FALSE);
	assert_int_equal(where_op(e, NULL, "dense/kernel", "VariableV2"), EXPR_TRUE);
	assert_int_equal(where_op(e, NULL, "Functional.linear.0.backward", "Functional.linear"), EXPR_FALSE);
	assert_int_equal(where_op(e, NULL, "Module.fc1.Linear.forward.0", "Module.fc1.Linear"), EXPR_DEFER);
	assert_int_equal(where_op(e, NULL, "Functional.relu.0.forward", "Functional.relu"), EXPR_DEFER);
	assert_int_equal(where_op(e, NULL, "x/forwarded", "Relu"), EXPR_FALSE);
	expr_free(e);
}

/* A prefix condition is decided per op, from the op's name, when the
 * reader spells the prefix from it (msprobe): no row read, no decode; the
 * same answers as the rows' facts (test_row_facts_and_conditions). */
static void
test_prefix_decided_per_op(void **state)
{
	char *dir, err[128];
	struct model *m = open_dump(&dir);
	struct expr *e;
	uint64_t before = m->dc.decodes;
	size_t n;

	(void)state;
	assert_true(model_op_prefix(m, "Torch.cat.0.forward", &n));
	assert_int_equal(n, 5);
	assert_int_equal(expr_parse("prefix == \"Torch\"", &e, err, sizeof err), TD_OK);
	assert_int_equal(where_op(e, m, "Torch.cat.0.forward", "Torch.cat"), EXPR_TRUE);
	assert_int_equal(where_op(e, m, "Functional.linear.0.forward", "Functional.linear"),
			 EXPR_FALSE);
	/* a name without a dot states no prefix: a comparison with none */
	assert_int_equal(where_op(e, m, "optimizer", ""), EXPR_UNKNOWN);
	/* no model: left to the rows */
	assert_int_equal(where_op(e, NULL, "Torch.cat.0.forward", "Torch.cat"), EXPR_DEFER);
	expr_free(e);
	assert_int_equal(m->dc.decodes, before);
	model_close(m);
	test_rmtree(dir);
}

/* A format that states neither: nothing stated, and no decode to ask. */
static void
test_no_facts_no_decode(void **state)
{
	struct fake *f = fake_new();
	struct td_summary s = fake_curt_health(false);
	struct model *m;
	struct model_row_facts k;
	struct model_calls c;
	uint64_t before;

	(void)state;
	fake_file(f, 0, "f0", "h");
	fake_op(f, "g", "a", "Relu", NULL, NULL);
	fake_trace(f, 0, "g", "a", 0, 1.0, &s);
	m = fake_model_open(f, NULL);
	before = fake_decodes(f);
	assert_false(model_trace_facts(m, 0, true, &k));
	assert_int_equal(k.role, ROLE_NONE);
	assert_int_equal(k.requires_grad, -1);
	assert_null(k.prefix);
	assert_false(model_has_call_tree(m));
	assert_false(model_calls_of(m, 0, 0, &c));
	assert_int_equal(fake_decodes(f), before);
	model_close(m);
	fake_free(f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_calls_parent_children_and_rows),
		cmocka_unit_test(test_row_facts_and_conditions),
		cmocka_unit_test(test_row_facts_from_the_columns),
		cmocka_unit_test(test_prefix_decided_per_op),
		cmocka_unit_test(test_role_decided_per_op_but_forward_calls),
		cmocka_unit_test(test_no_facts_no_decode),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
