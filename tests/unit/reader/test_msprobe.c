/*
 * test_msprobe.c - the msprobe reader (reader/msprobe/FORMAT.md): leaves,
 * summaries and row order of a hand-written dump.json, decode by locator,
 * and hostile files: truncated at every byte, deep nesting, huge numbers
 * and strings, invalid UTF-8, NaN tokens in odd places.  Every case must
 * end with problems and the good entries kept, never a crash (this test is
 * run under ASan, HACKING.md "one unit test").
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>

#include "reader/reader.h"
#include "reader/msprobe/msp_internal.h"
#include "tests/unit/helpers/files.h"
#include "tests/unit/helpers/record_sink.h"

#define T(extra) "{\"type\": \"torch.Tensor\", \"dtype\": \"torch.float32\", \"shape\": [2, 3]" extra "}"

static const char DUMP[] =
	"{\"task\": \"statistics\", \"level\": \"L1\", \"data\": {\n"
	"\"Functional.linear.0.forward\": {\"input_args\": [" T(", \"Max\": 2.5, \"Min\": -1, \"Mean\": 0.5, \"Norm\": 3")
	", [" T(", \"Max\": 1, \"Min\": 0, \"Mean\": 0.5, \"Norm\": 1") ", {\"type\": \"int\", \"value\": 3}]],\n"
	" \"input_kwargs\": {\"bias\": " T(", \"Max\": 1, \"Min\": 1, \"Mean\": 1, \"Norm\": 2") "},\n"
	" \"output\": [" T(", \"Max\": NaN, \"Min\": -Infinity, \"Mean\": NaN, \"Norm\": NaN") "]},\n"
	"\"Tensor.__gt__.0.forward\": {\"input_args\": [], \"output\": [{\"type\": \"torch.Tensor\", "
	"\"dtype\": \"torch.bool\", \"shape\": [], \"Max\": true, \"Min\": false, \"Mean\": null, \"Norm\": null}]}\n"
	"}, \"framework\": \"pytorch\"}\n";

static char *
make_dump(const char *name, const char *json, size_t len)
{
	char *dir = test_tmpdir(name), *p;

	if (len == SIZE_MAX)
		len = strlen(json);
	p = xasprintf("%s/step3", dir);
	mkdir(p, 0755);
	free(p);
	p = xasprintf("%s/step3/rank2", dir);
	mkdir(p, 0755);
	free(p);
	p = xasprintf("%s/step3/rank2/dump.json", dir);
	test_spit(p, json, len, "wb");
	free(p);
	return dir;
}

static void
test_msprobe_leaves_rows_and_summaries(void **state)
{
	char *dir = make_dump("msp_leaves", DUMP, strlen(DUMP));
	struct recorded ix;
	const struct rs_trace *t;

	(void)state;
	assert_true(msprobe_reader_ops.probe(dir) > 0);
	record_sink_index(&msprobe_reader_ops, dir, &ix);
	assert_int_equal(ix.rs.nexecutions, 2);
	assert_int_equal(ix.rs.ntraces, 5);    /* 3 inputs (one nested, one kwarg), 2 outputs */
	assert_string_equal(ix.rs.executions[0].op_type, "Functional.linear.0.forward");
	assert_int_equal(ix.rs.executions[0].step, 3);
	assert_string_equal(ix.rs.executions[0].host, "rank2");
	assert_int_equal(ix.rs.executions[0].bad_outputs, 1);
	/* the op's inputs are its leaves' labels, no producer's name */
	assert_int_equal(ix.rs.ops[0].ninputs, 3);
	assert_string_equal(ix.rs.ops[0].inputs[0], "input.0");
	assert_true(ix.rs.ops[0].input_labels);
	t = &ix.rs.traces[0];
	assert_string_equal(t->op_type, "Functional.linear");
	assert_true(t->summary.known & SUM_MINMAX);
	assert_true(t->summary.max == 2.5 && t->summary.min == -1);
	assert_true((t->summary.known & SUM_L2NORM) && t->summary.l2norm == 3);
	assert_true((t->summary.known & SUM_NONFINITE) && !t->summary.has_inf_or_nan);
	assert_int_equal(t->summary.elements, 6);
	assert_int_equal(ix.rs.traces[1].slot, 1);   /* input.1.0 */
	assert_int_equal(ix.rs.traces[2].slot, 2);   /* input.bias */
	t = &ix.rs.traces[3];                         /* output.0: NaN */
	assert_true(td_summary_nonfinite(&t->summary));
	assert_false(t->summary.known & SUM_MINMAX);
	t = &ix.rs.traces[4];                         /* the bool 0-d output */
	assert_int_equal(t->summary.dtype, DTYPE_BOOL);
	assert_int_equal(t->summary.rank, 0);
	assert_true(t->summary.max == 1 && t->summary.min == 0);
	assert_string_equal(record_sink_meta(&ix.rs, "framework", 0), "pytorch");
	assert_string_equal(record_sink_meta(&ix.rs, "format", 0), "msprobe");
	{
		struct reader_detail d;

		assert_int_equal(msprobe_reader_ops.decode(ix.r, READER_TRACE, &ix.rs.traces[1].loc, &d),
				 TD_OK);
		assert_non_null(strstr(d.text, "slot: input.1.0\n"));
		assert_non_null(strstr(d.text, "arg input.1.1: int 3\n"));
		assert_true(d.summaries[0].max == 1);
		reader_detail_done(&d);
		assert_int_equal(msprobe_reader_ops.decode(ix.r, READER_TRACE, &ix.rs.traces[2].loc, &d),
				 TD_OK);
		assert_non_null(strstr(d.text, "slot: input.bias\n"));
		reader_detail_done(&d);
	}
	record_sink_index_done(&ix);
	test_rmtree(dir);
}

/* Non-tensor arguments (FORMAT.md §12): each one of the entry's inputs and
 * outputs (records and bare nulls, not the entry's own fields) comes with
 * a trace decode, in file order, with its place among the entry's rows and
 * the compare tool's cells; the checksums are python3's
 * '%08x' % zlib.crc32(str(value).encode()). */
static const char ARGS_DUMP[] =
	"{\"task\": \"statistics\", \"level\": \"L1\", \"framework\": \"pytorch\", \"data\": {\n"
	"\"Torch.f.0.forward\": {\"input_args\": [" T(", \"Max\": 1, \"Min\": 0, \"Mean\": 0.5, \"Norm\": 1")
	", {\"type\": \"float\", \"value\": 0.5}, null, {\"type\": \"slice\", \"value\": [0, 4, null]}],\n"
	" \"input_kwargs\": {\"size\": {\"type\": \"torch.Size\", \"value\": [2, 3]}, "
	"\"flag\": {\"type\": \"bool\", \"value\": true}, \"w\": " T(", \"Max\": 1, \"Min\": 0, \"Mean\": 0.5, \"Norm\": 1")
	", \"group\": {\"type\": \"torch.ProcessGroup\", \"group_ranks\": [0, 1], \"group_id\": 5}, "
	"\"dst\": {\"type\": \"int\", \"value\": 1}, \"none\": null, \"name\": {\"type\": \"str\", \"value\": \"cpu\"}},\n"
	" \"output\": [" T(", \"Max\": 1, \"Min\": 0, \"Mean\": 0.5, \"Norm\": 1") ", {\"type\": \"int\", \"value\": 7}],"
	" \"is_recompute\": false}\n"
	"}}\n";

static void
test_msprobe_nontensor_arguments(void **state)
{
	static const struct {
		const char *path;
		uint32_t place;
		bool in;
		const char *dtype, *shape, *value;
		enum td_arg_num num;
		double v;
		const char *md5;
	} want[] = {
		{ "input.1", 1, true, "<class 'float'>", "[]", "0.5", TD_ARG_FLOAT, 0.5, "869ef18d" },
		{ "input.2", 1, true, NULL, NULL, "None", TD_ARG_TEXT, 0, NULL },
		{ "input.3", 1, true, "slice", "(3,)", "None", TD_ARG_TEXT, 0, "0c6f4c29" },
		{ "input.size", 1, true, "torch.Size", "[2, 3]", "None", TD_ARG_TEXT, 0, "3f72ac6e" },
		{ "input.flag", 1, true, "<class 'bool'>", "[]", "True", TD_ARG_TEXT, 0, "5dcee3b3" },
		{ "input.group", 2, true, "torch.ProcessGroup", "[]", "[0, 1]", TD_ARG_TEXT, 0, "[0, 1]" },
		{ "input.dst", 2, true, "int", "[]", "1", TD_ARG_INT, 1, "1" },
		{ "input.none", 2, true, NULL, NULL, "None", TD_ARG_TEXT, 0, NULL },
		{ "input.name", 2, true, "<class 'str'>", "[]", "cpu", TD_ARG_TEXT, 0, "ba80502e" },
		{ "output.1", 3, false, "<class 'int'>", "[]", "7", TD_ARG_INT, 7, "6abf4a82" },
	};
	char *dir = make_dump("msp_args", ARGS_DUMP, strlen(ARGS_DUMP));
	struct recorded ix;
	struct reader_detail d;
	size_t i, k;

	(void)state;
	record_sink_index(&msprobe_reader_ops, dir, &ix);
	assert_int_equal(ix.rs.ntraces, 3);     /* the tensors only: arguments are no rows */
	for (k = 0; k < 3; k++) {
		assert_int_equal(msprobe_reader_ops.decode(ix.r, READER_TRACE, &ix.rs.traces[k].loc, &d),
				 TD_OK);
		assert_int_equal(d.nargs, TD_ARRAY_SIZE(want));
		for (i = 0; i < d.nargs; i++) {
			const struct td_arg *a = &d.args[i];

			assert_string_equal(a->path, want[i].path);
			assert_int_equal(a->place, want[i].place);
			assert_int_equal(a->is_input, want[i].in);
			if (want[i].dtype)
				assert_string_equal(a->dtype, want[i].dtype);
			else
				assert_null(a->dtype);
			if (want[i].shape)
				assert_string_equal(a->shape, want[i].shape);
			else
				assert_null(a->shape);
			assert_string_equal(a->value, want[i].value);
			assert_int_equal(a->num, want[i].num);
			if (a->num != TD_ARG_TEXT)
				assert_true(a->v == want[i].v);
			if (want[i].md5)
				assert_string_equal(a->md5, want[i].md5);
			else
				assert_null(a->md5);
		}
		/* the details' text is as before: the argument lines, no rows */
		assert_non_null(strstr(d.text, "arg input.1: float 0.5\n"));
		reader_detail_done(&d);
	}
	record_sink_index_done(&ix);
	test_rmtree(dir);
}

/* A module call with parameters, a backward call and parameter gradients:
 * each row's decode states its role (FORMAT.md §4), its requires_grad
 * where the record has one and its entry's prefix (§3). */
#define G(rg) "{\"type\": \"torch.Tensor\", \"dtype\": \"torch.float32\", \"shape\": [2], " \
	"\"Max\": 1, \"Min\": 0, \"Mean\": 0.5, \"Norm\": 1" rg "}"
static const char FACTS_DUMP[] =
	"{\"task\": \"statistics\", \"level\": \"mix\", \"data\": {\n"
	"\"Module.fc1.Linear.forward.0\": {\"input_args\": [" G(", \"requires_grad\": false") "],"
	" \"output\": [" G(", \"requires_grad\": true") "],"
	" \"parameters\": {\"weight\": " G(", \"requires_grad\": true") ", \"bias\": " G("") "}},\n"
	"\"Functional.relu.0.backward\": {\"input\": [" G(", \"requires_grad\": false") "],"
	" \"output\": [" G("") ", null]},\n"
	"\"Module.fc1.Linear.parameters_grad.0\": {\"weight\": [" G(", \"requires_grad\": false") "]},\n"
	"\"noprefix\": {\"output\": [" G("") "]}\n"
	"}}\n";

static void
test_msprobe_row_facts_role_requires_grad_prefix(void **state)
{
	static const struct {
		enum reader_role role;
		enum reader_grad grad;
		const char *prefix;
	} want[] = {
		{ READER_ROLE_ACTIVATION, READER_GRAD_NO, "Module" },        /* input.0 */
		{ READER_ROLE_ACTIVATION, READER_GRAD_YES, "Module" },       /* output.0 */
		{ READER_ROLE_WEIGHT, READER_GRAD_YES, "Module" },           /* parameters.weight */
		{ READER_ROLE_WEIGHT, READER_GRAD_UNSTATED, "Module" },      /* parameters.bias */
		{ READER_ROLE_GRADIENT, READER_GRAD_NO, "Functional" },      /* backward input.0 */
		{ READER_ROLE_GRADIENT, READER_GRAD_UNSTATED, "Functional" },/* backward output.0 */
		{ READER_ROLE_GRADIENT, READER_GRAD_NO, "Module" },          /* weight.0 */
		{ READER_ROLE_ACTIVATION, READER_GRAD_UNSTATED, NULL },      /* no dot: no prefix */
	};
	char *dir = make_dump("msp_facts", FACTS_DUMP, strlen(FACTS_DUMP));
	struct recorded ix;
	size_t i;

	(void)state;
	assert_true(msprobe_reader_ops.flags & READER_ROW_FACTS);
	record_sink_index(&msprobe_reader_ops, dir, &ix);
	assert_int_equal(ix.rs.ntraces, TD_ARRAY_SIZE(want));
	for (i = 0; i < TD_ARRAY_SIZE(want); i++) {
		struct reader_detail d;

		assert_int_equal(msprobe_reader_ops.decode(ix.r, READER_TRACE, &ix.rs.traces[i].loc, &d),
				 TD_OK);
		assert_int_equal(d.role, want[i].role);
		assert_int_equal(d.requires_grad, want[i].grad);
		if (want[i].prefix)
			assert_string_equal(d.prefix, want[i].prefix);
		else
			assert_null(d.prefix);
		reader_detail_done(&d);
	}
	record_sink_index_done(&ix);
	test_rmtree(dir);
}

/* Every prefix of the file: no crash, the complete entries before the cut
 * are kept, and a cut inside data is one problem. */
static void
test_msprobe_truncated_at_every_byte(void **state)
{
	size_t len = strlen(DUMP), cut;
	const char *second_end = strstr(DUMP, "null}]}\n") + 7;
	const char *first_end = strstr(DUMP, "]},\n\"Tensor") + 2;

	(void)state;
	for (cut = 0; cut < len; cut++) {
		char *dir = make_dump("msp_cut", DUMP, cut);
		struct recorded ix;
		size_t want = cut > (size_t)(first_end - DUMP) ? 1 : 0;

		if (cut >= (size_t)(second_end - DUMP))
			want = 2;
		record_sink_index(&msprobe_reader_ops, dir, &ix);
		if (ix.rs.nexecutions < want || ix.rs.nexecutions > 2)
			fail_msg("cut %zu: %zu entries", cut, ix.rs.nexecutions);
		if (cut + 2 < len && ix.rs.nproblems == 0)
			fail_msg("cut %zu: no problem reported", cut);
		record_sink_index_done(&ix);
		test_rmtree(dir);
	}
}

static void
expect_problem(const char *name, const char *json, size_t nentries, const char *detail)
{
	char *dir = make_dump(name, json, strlen(json));
	struct recorded ix;
	size_t i;
	bool found = false;

	record_sink_index(&msprobe_reader_ops, dir, &ix);
	if (ix.rs.nexecutions != nentries)
		fail_msg("%s: %zu entries, want %zu", name, ix.rs.nexecutions, nentries);
	for (i = 0; i < ix.rs.nproblems; i++)
		found |= strstr(ix.rs.problems[i].detail, detail) != NULL;
	if (!found)
		fail_msg("%s: no problem with \"%s\"", name, detail);
	record_sink_index_done(&ix);
	test_rmtree(dir);
}

static void
test_msprobe_hostile_files(void **state)
{
	struct strbuf sb = { 0 };
	size_t i;

	(void)state;
	/* deep nesting inside an entry's arguments */
	strbuf_adds(&sb, "{\"data\": {\"A.a.0.forward\": {\"output\": []}, \"B.b.0.forward\": {\"input_args\": ");
	for (i = 0; i < 10000; i++)
		strbuf_addc(&sb, '[');
	expect_problem("msp_deep", sb.buf, 1, "nesting deeper than");
	strbuf_reset(&sb);
	/* a number of a million digits */
	strbuf_adds(&sb, "{\"data\": {\"A.a.0.forward\": {\"output\": []}, \"B.b.0.forward\": {\"x\": 1");
	for (i = 0; i < 1000000; i++)
		strbuf_addc(&sb, '7');
	strbuf_adds(&sb, "}}}");
	expect_problem("msp_number", sb.buf, 1, "number longer than");
	strbuf_reset(&sb);
	/* a string of 2 MiB */
	strbuf_adds(&sb, "{\"data\": {\"A.a.0.forward\": {\"output\": []}, \"B.b.0.forward\": {\"x\": \"");
	for (i = 0; i < (2u << 20); i++)
		strbuf_addc(&sb, 'x');
	strbuf_adds(&sb, "\"}}}");
	expect_problem("msp_string", sb.buf, 1, "string longer than");
	strbuf_done(&sb);
	/* shapes that are no shapes: unknown, no overflow (UBSan) */
	{
		char *dir = make_dump("msp_shape", "{\"data\": {\"A.a.0.forward\": {\"output\": ["
				      "{\"type\": \"torch.Tensor\", \"shape\": [1e300, 2]},"
				      "{\"type\": \"torch.Tensor\", \"shape\": [-1, 2.5]},"
				      "{\"type\": \"torch.Tensor\", \"shape\": [4294967296, 4294967296, 9]}]}}}",
				      SIZE_MAX);
		struct recorded ix;

		record_sink_index(&msprobe_reader_ops, dir, &ix);
		assert_int_equal(ix.rs.ntraces, 3);
		assert_false(ix.rs.traces[0].summary.known & SUM_SHAPE);
		assert_false(ix.rs.traces[1].summary.known & SUM_SHAPE);
		assert_true(ix.rs.traces[2].summary.known & SUM_SHAPE);
		assert_false(ix.rs.traces[2].summary.known & SUM_ELEMENTS);   /* overflows */
		record_sink_index_done(&ix);
		test_rmtree(dir);
	}
	/* invalid UTF-8 in a name: kept, replaced, said */
	expect_problem("msp_utf8", "{\"data\": {\"A.\xff\xfe.0.forward\": {\"output\": []}}}", 1,
		       "invalid UTF-8");
	/* NaN tokens in odd places */
	expect_problem("msp_nan_key", "{\"data\": {\"A.a.0.forward\": {\"output\": []}, NaN: 1}}", 1,
		       "expected a key");
	expect_problem("msp_nan_top", "NaN", 0, "not a JSON object");
	expect_problem("msp_nan_data", "{\"data\": NaN, \"task\": Infinity}", 0, "not an object");
	/* a top-level string field that holds an object: skipped whole, its
	 * keys are not the file's (its "data" is not the entries) */
	expect_problem("msp_task_object", "{\"task\": {\"data\": {\"A.a.0.forward\": {\"output\": []}}}, "
		       "\"data\": {\"B.b.0.forward\": {\"output\": []}, \"B.b.1.forward\": {\"output\": []}}, "
		       "\"level\": [1, 2], NaN: 0}", 2, "expected a key");
	expect_problem("msp_minus_nan", "{\"data\": {\"A.a.0.forward\": {\"output\": [{\"type\": "
		       "\"torch.Tensor\", \"Max\": -NaN}]}}}", 0, "bad number");
}

/* A dump.json of n entries for the ahead pass: the entries of DUMP and a
 * non-tensor argument in turn, every tenth with 300 leaves (the ring's
 * byte budget is passed), names of 200 and 1,500 bytes among short ones
 * (a slot's name buffer grown, and given back past 1 KB), a second
 * "data" that is no object at the end. */
static char *
ahead_dump(size_t n)
{
	struct strbuf sb = { 0 };
	size_t i, k;
	char pad[1501];

	strbuf_adds(&sb, "{\"task\": \"statistics\", \"data\": {\n");
	for (i = 0; i < n; i++) {
		size_t np = i % 13 == 5 ? 1500 : i % 13 == 6 ? 200 : 0;

		memset(pad, 'a' + (int)(i % 26), np);
		pad[np] = '\0';
		strbuf_addf(&sb, "%s\"Functional.f%zu%s.%zu.forward\": {\"input_args\": [", i ? ",\n" : "",
			    i % 7, pad, i);
		for (k = 0; k < (i % 10 == 9 ? 300u : 1u + i % 3); k++)
			strbuf_addf(&sb, "%s{\"type\": \"torch.Tensor\", \"dtype\": \"torch.float%s\", "
				    "\"shape\": [%zu, 3], \"Max\": %s, \"Min\": -%zu.25, \"Mean\": 0.%zu, "
				    "\"Norm\": %zu.0e-3}", k ? ", " : "", i % 2 ? "16" : "32", k,
				    i % 11 == 3 ? "NaN" : "2.5", i, k, i * k);
		strbuf_addf(&sb, ", {\"type\": \"int\", \"value\": %zu}], \"output\": [" T(", \"Max\": 1, "
			    "\"Min\": 0, \"Mean\": 0.5, \"Norm\": 1") "]}", i);
	}
	strbuf_adds(&sb, "\n}, \"data\": 5, \"level\": \"L1\"}\n");
	return strbuf_take(&sb);
}

static void
ahead_same(const char *name, const char *json, size_t len)
{
	char *dir = make_dump(name, json, len);
	struct recorded one, two;

	msp_ahead_min = SIZE_MAX;
	record_sink_index(&msprobe_reader_ops, dir, &one);
	msp_ahead_min = 0;
	record_sink_index(&msprobe_reader_ops, dir, &two);
	msp_ahead_min = (size_t)1 << 20;
	assert_true(one.rs.nexecutions > 0);
	record_sink_assert_same(&one.rs, &two.rs);
	record_sink_index_done(&one);
	record_sink_index_done(&two);
	test_rmtree(dir);
}

/* The entries parsed on a second thread (issue 26: the index pass at a
 * few times cat) are sent as the one-thread pass sends them: the same
 * rows, summaries, problems (a "data" that is no object in its place, a
 * JSON error or a cut after the entries before it) and progress. */
static void
test_msprobe_ahead_pass_sends_what_one_thread_sends(void **state)
{
	char *json = ahead_dump(3000), *bad;
	size_t len = strlen(json);

	(void)state;
	ahead_same("msp_ahead", json, len);
	ahead_same("msp_ahead_cut", json, len / 2);
	bad = xstrdup(json);
	bad[len * 2 / 3] = '!';
	ahead_same("msp_ahead_bad", bad, len);
	free(bad);
	free(json);
}

static int stop_asked;

static bool
stop_on_second_ask(void *ctx)
{
	(void)ctx;
	return ++stop_asked >= 2;
}

/* An ahead pass whose sink says stop (the model closing while it indexes)
 * ends: the JSON side, parsing ahead or waiting on a full ring, sees the
 * stop, and the entries sent are those before it (should_stop is asked
 * before the pass and every 1,024 entries: the second ask is at entry
 * 1,024, or 2,048 if the reader did not ask first). */
static void
test_msprobe_ahead_pass_stops_when_asked(void **state)
{
	char *json = ahead_dump(6000), *dir = make_dump("msp_ahead_stop", json, strlen(json));
	char err[512] = "";
	struct recorded ix;

	(void)state;
	msp_ahead_min = 0;
	assert_int_equal(msprobe_reader_ops.open(dir, &(struct reader_options){0}, &ix.r, err, sizeof err),
			 TD_OK);
	ix.ops = &msprobe_reader_ops;
	record_sink_init(&ix.rs, &ix.sink);
	ix.sink.should_stop = stop_on_second_ask;
	stop_asked = 0;
	alarm(20);
	msprobe_reader_ops.index(ix.r, &ix.sink);
	alarm(0);
	msp_ahead_min = (size_t)1 << 20;
	assert_true(ix.rs.nexecutions == 1023 || ix.rs.nexecutions == 2047);
	record_sink_index_done(&ix);
	test_rmtree(dir);
	free(json);
}

/* Follow mode: a flush (the file rewritten whole, longer) adds only its
 * new entries; a half-written flush adds nothing until it is whole. */
static void
test_msprobe_follow_flush(void **state)
{
	const char *cut = strstr(DUMP, ",\n\"Tensor.__gt__");
	char *first = xasprintf("%.*s}}", (int)(cut - DUMP), DUMP);
	char *dir = make_dump("msp_follow", first, SIZE_MAX), *path;
	struct reader_options opt = { .follow = true, .may_follow = true };
	struct record_sink rs;
	struct reader_sink sink;
	struct reader *r;
	char err[256];

	(void)state;
	path = xasprintf("%s/step3/rank2/dump.json", dir);
	assert_int_equal(msprobe_reader_ops.open(dir, &opt, &r, err, sizeof err), TD_OK);
	record_sink_init(&rs, &sink);
	assert_int_equal(msprobe_reader_ops.index(r, &sink), TD_OK);
	assert_int_equal(rs.nexecutions, 1);
	assert_int_equal(rs.ntraces, 4);
	/* half a flush: nothing new, no problem */
	test_spit(path, DUMP, strlen(DUMP) - 40, "wb");
	assert_int_equal(msprobe_reader_ops.index(r, &sink), TD_OK);
	assert_int_equal(rs.nexecutions, 1);
	assert_int_equal(rs.nproblems, 0);
	/* the whole flush: the one new entry */
	test_spit(path, DUMP, strlen(DUMP), "wb");
	assert_int_equal(msprobe_reader_ops.index(r, &sink), TD_OK);
	assert_int_equal(rs.nexecutions, 2);
	assert_int_equal(rs.ntraces, 5);
	assert_string_equal(rs.executions[1].op_type, "Tensor.__gt__.0.forward");
	{
		struct reader_detail d;

		assert_int_equal(msprobe_reader_ops.decode(r, READER_TRACE, &rs.traces[4].loc, &d), TD_OK);
		assert_non_null(strstr(d.text, "entry: Tensor.__gt__.0.forward\n"));
		reader_detail_done(&d);
		/* an old row is read at its entry's new place */
		assert_int_equal(msprobe_reader_ops.decode(r, READER_TRACE, &rs.traces[2].loc, &d), TD_OK);
		assert_non_null(strstr(d.text, "slot: input.bias\n"));
		reader_detail_done(&d);
	}
	msprobe_reader_ops.close(r);
	record_sink_done(&rs);
	free(path);
	free(first);
	test_rmtree(dir);
}

/* Follow passes on one thread (the index thread's), each after a flush,
 * while another decodes a row (the TUI's): the top-level strings a pass
 * reads again ("task" ...) are written under the reader's lock and only
 * when they changed, and decode reads them under it.  Meant for the
 * ThreadSanitizer build (make tsan), which saw the race in follow mode. */
struct follow_passes {
	struct reader *r;
	const char *path;
	int n;
	enum td_status st;
};

static void *
follow_passes(void *arg)
{
	struct follow_passes *f = arg;
	struct record_sink rs;
	struct reader_sink sink;

	record_sink_init(&rs, &sink);
	for (int k = 0; k < f->n && f->st == TD_OK; k++) {
		/* a flush of the same text: another mtime (a pass reads the file
		 * again; the bytes stay, so decode never meets a file cut short) */
		struct timespec ts[2] = { { 1700000000 + k, 0 }, { 1700000000 + k, 0 } };

		utimensat(AT_FDCWD, f->path, ts, 0);
		f->st = msprobe_reader_ops.index(f->r, &sink);
	}
	record_sink_done(&rs);
	return NULL;
}

static void
follow_beside_decode(size_t ahead_min)
{
	char *dir = make_dump("msp_follow_race", DUMP, SIZE_MAX), *path;
	struct reader_options opt = { .follow = true, .may_follow = true };
	struct record_sink rs;
	struct reader_sink sink;
	struct reader *r;
	struct td_locator loc;
	char err[256];
	pthread_t th;

	msp_ahead_min = ahead_min;
	path = xasprintf("%s/step3/rank2/dump.json", dir);
	assert_int_equal(msprobe_reader_ops.open(dir, &opt, &r, err, sizeof err), TD_OK);
	record_sink_init(&rs, &sink);
	assert_int_equal(msprobe_reader_ops.index(r, &sink), TD_OK);
	assert_int_equal(rs.ntraces, 5);
	loc = rs.traces[0].loc;

	struct follow_passes f = { r, path, 20, TD_OK };

	assert_int_equal(pthread_create(&th, NULL, follow_passes, &f), 0);
	for (int k = 0; k < 200; k++) {
		struct reader_detail d;

		assert_int_equal(msprobe_reader_ops.decode(r, READER_TRACE, &loc, &d), TD_OK);
		assert_non_null(strstr(d.text, "task: statistics\n"));
		reader_detail_done(&d);
	}
	assert_int_equal(pthread_join(th, NULL), 0);
	assert_int_equal(f.st, TD_OK);
	msprobe_reader_ops.close(r);
	record_sink_done(&rs);
	free(path);
	test_rmtree(dir);
	msp_ahead_min = (size_t)1 << 20;
}

/* ... on the index thread alone, and with each pass's JSON on the ahead
 * thread (it writes "task" under the lock while decode reads it). */
static void
test_msprobe_follow_pass_beside_decode(void **state)
{
	(void)state;
	follow_beside_decode((size_t)1 << 20);
	follow_beside_decode(0);
}

/* A file rewritten under the index (another entry at the same offset):
 * decode says stale rather than read the other entry. */
static void
test_msprobe_rewritten_entry_is_stale(void **state)
{
	char *dir = make_dump("msp_stale", DUMP, SIZE_MAX), *path, *other = xstrdup(DUMP), *p;
	struct recorded ix;
	struct reader_detail d;

	(void)state;
	record_sink_index(&msprobe_reader_ops, dir, &ix);
	/* decoded once before: the entry's scan is kept (msp_decode.c's
	 * entry cache), and must not answer for the other entry */
	assert_int_equal(msprobe_reader_ops.decode(ix.r, READER_TRACE, &ix.rs.traces[0].loc, &d),
			 TD_OK);
	reader_detail_done(&d);
	p = strstr(other, "linear.0.forward");
	p[7] = '9';                     /* same length, same offsets, another name */
	path = xasprintf("%s/step3/rank2/dump.json", dir);
	test_spit(path, other, strlen(other), "wb");
	assert_int_equal(msprobe_reader_ops.decode(ix.r, READER_TRACE, &ix.rs.traces[1].loc, &d),
			 TD_ERR_STALE);
	reader_detail_done(&d);
	assert_int_equal(msprobe_reader_ops.decode(ix.r, READER_TRACE, &ix.rs.traces[0].loc, &d),
			 TD_ERR_STALE);
	reader_detail_done(&d);
	assert_int_equal(msprobe_reader_ops.decode(ix.r, READER_TRACE, &ix.rs.traces[4].loc, &d),
			 TD_OK);
	reader_detail_done(&d);
	record_sink_index_done(&ix);
	free(path);
	free(other);
	test_rmtree(dir);
}

/* An entry's leaves decoded one after another (a CSV, a diff, the Details
 * pane) scan the entry once: the decodes give what a scan each gives (the
 * cache emptied before each of those), with the statistics as written
 * beside the text's line; another entry in between scans again. */
static void
test_msprobe_entry_scanned_once_for_its_leaves(void **state)
{
	static const char *const slots[] = { "input.0", "input.1.0", "input.bias", "output.0",
					     "output.0" };
	char *dir = make_dump("msp_once", DUMP, SIZE_MAX);
	struct recorded ix;
	struct reader_detail d, fresh;
	uint64_t scans, hits;
	size_t i;

	(void)state;
	record_sink_index(&msprobe_reader_ops, dir, &ix);
	assert_int_equal(ix.rs.ntraces, 5);
	for (i = 0; i < 5; i++) {
		char want[64];

		assert_int_equal(msprobe_reader_ops.decode(ix.r, READER_TRACE, &ix.rs.traces[i].loc, &d),
				 TD_OK);
		/* the same decode from a fresh scan */
		msp_entry_cache_free(ix.r->ecache);
		ix.r->ecache = msp_entry_cache_new();
		assert_int_equal(msprobe_reader_ops.decode(ix.r, READER_TRACE, &ix.rs.traces[i].loc,
							   &fresh), TD_OK);
		assert_string_equal(d.text, fresh.text);
		assert_int_equal(d.nargs, fresh.nargs);
		assert_int_equal(d.slot, fresh.slot);
		assert_memory_equal(&d.summaries[0], &fresh.summaries[0], sizeof d.summaries[0]);
		snprintf(want, sizeof want, "slot: %s\n", slots[i]);
		assert_non_null(strstr(d.text, want));
		reader_detail_done(&fresh);
		reader_detail_done(&d);
	}
	/* the first entry's arguments come with each of its leaves */
	msp_entry_cache_free(ix.r->ecache);
	ix.r->ecache = msp_entry_cache_new();
	for (i = 0; i < 5; i++) {
		assert_int_equal(msprobe_reader_ops.decode(ix.r, READER_TRACE, &ix.rs.traces[i].loc, &d),
				 TD_OK);
		assert_int_equal(d.nargs, i < 4 ? 1 : 0);
		if (i == 0) {   /* Max 2.5, Min -1, Mean 0.5, Norm 3 as written */
			assert_true(d.stats.stats && d.stats.written[0] && d.stats.written[3]);
			assert_true(d.stats.v[0] == 2.5 && d.stats.v[1] == -1 && d.stats.v[3] == 3);
		}
		if (i == 3) {   /* NaN and -Infinity kept */
			assert_true(d.stats.stats && isnan(d.stats.v[0]) && isinf(d.stats.v[1]));
		}
		if (i == 4)     /* a bool tensor's Max and Min are no statistics */
			assert_false(d.stats.stats);
		reader_detail_done(&d);
	}
	msp_entry_cache_counts(ix.r, &scans, &hits);
	assert_int_equal(scans, 2);     /* one an entry */
	assert_int_equal(hits, 3);
	/* back to the first entry after the second: scanned again */
	assert_int_equal(msprobe_reader_ops.decode(ix.r, READER_TRACE, &ix.rs.traces[0].loc, &d),
			 TD_OK);
	reader_detail_done(&d);
	msp_entry_cache_counts(ix.r, &scans, &hits);
	assert_int_equal(scans, 3);
	/* an execution, then its rows (a watch): the same one scan; its
	 * outputs are its output leaves, its arguments the entry's (the
	 * other entry's row first, so that the execution's entry is not the
	 * one kept) */
	assert_int_equal(msprobe_reader_ops.decode(ix.r, READER_TRACE, &ix.rs.traces[4].loc, &d),
			 TD_OK);
	reader_detail_done(&d);
	assert_int_equal(msprobe_reader_ops.decode(ix.r, READER_EXECUTION, &ix.rs.executions[0].loc,
						   &d), TD_OK);
	assert_int_equal(d.noutputs, 1);
	assert_true(td_summary_nonfinite(&d.summaries[0]));
	assert_int_equal(d.nargs, 1);
	assert_non_null(strstr(d.text, "entry: Functional.linear.0.forward\n"));
	reader_detail_done(&d);
	assert_int_equal(msprobe_reader_ops.decode(ix.r, READER_TRACE, &ix.rs.traces[3].loc, &d),
			 TD_OK);
	reader_detail_done(&d);
	msp_entry_cache_counts(ix.r, &scans, &hits);
	assert_int_equal(scans, 5);     /* the other entry, then the execution's */
	assert_int_equal(hits, 4);      /* 3 before, the row after the execution */
	record_sink_index_done(&ix);
	test_rmtree(dir);
}

/* An entry of more leaves than a scan keeps (512): a row past them is
 * found by a scan for it alone, with the same facts; the execution's
 * outputs are all there. */
static void
test_msprobe_entry_of_many_leaves(void **state)
{
	struct strbuf sb = { 0 };
	struct recorded ix;
	struct reader_detail d;
	static const size_t rows[] = { 0, 300, 511, 512, 599, 600, 601 };
	char *dir;
	size_t i;

	(void)state;
	strbuf_adds(&sb, "{\"task\": \"statistics\", \"level\": \"L1\", \"data\": {\n"
			 "\"Torch.cat.0.forward\": {\"input_args\": [[");
	for (i = 0; i < 600; i++)
		strbuf_addf(&sb, "%s{\"type\": \"torch.Tensor\", \"dtype\": \"torch.float32\", "
			    "\"shape\": [2], \"Max\": %zu, \"Min\": 0, \"Mean\": 1, \"Norm\": 2}",
			    i ? ", " : "", i);
	strbuf_adds(&sb, "]], \"output\": [" T(", \"Max\": 7, \"Min\": 0, \"Mean\": 1, \"Norm\": 2")
			 ", " T(", \"Max\": 8, \"Min\": 0, \"Mean\": 1, \"Norm\": 2") "]}\n}}\n");
	dir = make_dump("msp_many", sb.buf, sb.len);
	record_sink_index(&msprobe_reader_ops, dir, &ix);
	assert_int_equal(ix.rs.ntraces, 602);
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		char want[64];

		assert_int_equal(msprobe_reader_ops.decode(ix.r, READER_TRACE, &ix.rs.traces[rows[i]].loc,
							   &d), TD_OK);
		if (rows[i] < 600)
			snprintf(want, sizeof want, "slot: input.0.%zu\n", rows[i]);
		else
			snprintf(want, sizeof want, "slot: output.%zu\n", rows[i] - 600);
		assert_non_null(strstr(d.text, want));
		assert_true(d.stats.stats);
		assert_true(d.stats.v[0] == (rows[i] < 600 ? (double)rows[i] : rows[i] == 600 ? 7 : 8));
		assert_int_equal(d.slot, rows[i] < 600 ? rows[i] : rows[i] - 600);
		reader_detail_done(&d);
	}
	assert_int_equal(msprobe_reader_ops.decode(ix.r, READER_EXECUTION, &ix.rs.executions[0].loc,
						   &d), TD_OK);
	assert_int_equal(d.noutputs, 2);
	assert_true(d.summaries[0].max == 7 && d.summaries[1].max == 8);
	reader_detail_done(&d);
	record_sink_index_done(&ix);
	strbuf_done(&sb);
	test_rmtree(dir);
	/* a call of inputs alone: an execution without outputs (the fuzzer
	 * found its decode copying from no array: UBSan, make asan) */
	dir = make_dump("msp_no_out", "{\"task\": \"statistics\", \"data\": {\"Torch.f.0.forward\": "
			"{\"input_args\": [" T(", \"Max\": 1, \"Min\": 0, \"Mean\": 0.5, \"Norm\": 1")
			"]}}}\n", SIZE_MAX);
	record_sink_index(&msprobe_reader_ops, dir, &ix);
	assert_int_equal(ix.rs.nexecutions, 1);
	assert_int_equal(msprobe_reader_ops.decode(ix.r, READER_EXECUTION, &ix.rs.executions[0].loc,
						   &d), TD_OK);
	assert_int_equal(d.noutputs, 0);
	reader_detail_done(&d);
	record_sink_index_done(&ix);
	test_rmtree(dir);
}

/* debug.json (the save() API): each key's value is the variable, a
 * record or lists and dicts of them; non-tensor values are no rows. */
static void
test_msprobe_debug_json(void **state)
{
	static const char dbg[] =
		"{\"task\": \"tensor\", \"level\": \"debug\", \"data\": {\n"
		"\"loss.0.debug\": " T(", \"Max\": 2.5, \"Min\": 2.5, \"Mean\": 2.5, \"Norm\": 2.5") ",\n"
		"\"hidden_grad.0.debug\": [" T(", \"Max\": NaN") ", {\"a\": " T("") "}],\n"
		"\"step.0.debug\": {\"type\": \"int\", \"value\": 7}}}";
	char *dir = test_tmpdir("msp_debug"), *p;
	struct recorded ix;
	struct reader_detail d;

	(void)state;
	p = xasprintf("%s/debug.json", dir);
	test_spit(p, dbg, strlen(dbg), "wb");
	free(p);
	record_sink_index(&msprobe_reader_ops, dir, &ix);
	assert_int_equal(ix.rs.nexecutions, 3);
	assert_int_equal(ix.rs.ntraces, 3);
	assert_string_equal(ix.rs.traces[1].op_name, "hidden_grad.0.debug");
	assert_true(td_summary_nonfinite(&ix.rs.traces[1].summary));
	assert_int_equal(msprobe_reader_ops.decode(ix.r, READER_TRACE, &ix.rs.traces[2].loc, &d), TD_OK);
	assert_non_null(strstr(d.text, "slot: value.1.a\nrole: gradient\n"));
	reader_detail_done(&d);
	record_sink_index_done(&ix);
	test_rmtree(dir);
}

/* The reader's string map: owned keys, overwrite in place, many keys
 * through growth, value pointers of each key, insertion order kept. */
static void
test_msprobe_map_puts_overwrites_and_finds(void **state)
{
	struct msp_map m = { 0 };
	char key[32];
	uint64_t i;

	(void)state;
	assert_null(msp_map_get(&m, "absent"));
	for (i = 0; i < 20000; i++) {
		snprintf(key, sizeof(key), "Functional.conv2d.%u", (unsigned)i);
		assert_int_equal(*msp_map_put(&m, key, i * 3), i * 3);
	}
	assert_int_equal(m.n, 20000);
	snprintf(key, sizeof(key), "Functional.conv2d.%u", 7u);
	*msp_map_put(&m, key, 1) += 1;              /* overwrite, then through the pointer */
	assert_int_equal(m.n, 20000);
	for (i = 0; i < 20000; i++) {
		snprintf(key, sizeof(key), "Functional.conv2d.%u", (unsigned)i);
		assert_non_null(msp_map_get(&m, key));
		assert_int_equal(*msp_map_get(&m, key), i == 7 ? 2 : i * 3);
		assert_string_equal(m.ents[i].key, key);
	}
	assert_null(msp_map_get(&m, "Functional.conv2d."));
	msp_map_done(&m);
	assert_int_equal(m.n, 0);
	assert_null(msp_map_get(&m, "Functional.conv2d.1"));
}

/* A flat keyword object with a None argument (a row of its own). */
static const char NONE_DUMP[] =
	"{\"task\": \"statistics\", \"level\": \"L1\", \"framework\": \"pytorch\", \"data\": {\n"
	"\"Torch.g.0.forward\": {\"input_args\": [" T(", \"Max\": 1, \"Min\": 0, \"Mean\": 0.5, \"Norm\": 1")
	"], \"input_kwargs\": {\"none\": null, \"dst\": 1}, \"output\": [null]}\n"
	"}}\n";

/* Statistics given twice in one record (the last one stands, whatever
 * its kind) and 17-digit ones: a flat record's numbers are made on the
 * index's sink side (jscan.flat_defer), the token path's at once. */
static const char TWICE_DUMP[] =
	"{\"task\": \"statistics\", \"level\": \"L1\", \"framework\": \"pytorch\", \"data\": {\n"
	"\"Torch.h.0.forward\": {\"input_args\": ["
	T(", \"Max\": 1.2848653261139862, \"Min\": -3.1078435298853124, \"Mean\": 0.5, "
	  "\"Norm\": 2.218529918662356, \"Norm\": true, \"Max\": 7.5, \"Mean\": -0.10000000149011612") ", "
	T(", \"Max\": false, \"Max\": 1e400, \"Min\": -5e-324, \"Mean\": 12345678901234567890123, "
	  "\"Norm\": 0.30000000000000004")
	"]}\n"
	"}}\n";

/* s with every "torch.Tensor" spelt "torch\u002eTensor" and "none"
 * "n\u006fne" (the same text once decoded): no record of it is read at
 * once (jscan_flat takes no escape), so the walk goes token by token. */
static char *
spelt_with_escapes(const char *s)
{
	struct strbuf sb = { 0 };
	const char *p, *q;

	for (;;) {
		p = strstr(s, "torch.Tensor");
		q = strstr(s, "\"none\"");
		if (!p && !q)
			break;
		if (!p || (q && q < p)) {
			strbuf_add(&sb, s, (size_t)(q - s));
			strbuf_addf(&sb, "\"n\\u006fne\"");
			s = q + strlen("\"none\"");
		} else {
			strbuf_add(&sb, s, (size_t)(p - s));
			strbuf_addf(&sb, "torch\\u002eTensor");
			s = p + strlen("torch.Tensor");
		}
	}
	strbuf_addf(&sb, "%s", s);
	return strbuf_take(&sb);
}

/* The walk gives the same rows, summaries and decodes whether a record is
 * read at once (a flat object, jscan_flat) or token by token. */
static void
test_msprobe_record_at_once_or_by_token(void **state)
{
	static const char *const dumps[] = { DUMP, ARGS_DUMP, NONE_DUMP, TWICE_DUMP };
	size_t d, i;

	(void)state;
	for (d = 0; d < TD_ARRAY_SIZE(dumps); d++) {
		char *esc = spelt_with_escapes(dumps[d]);
		char *da = make_dump("msp_flat_a", dumps[d], SIZE_MAX), *db = make_dump("msp_flat_b", esc, SIZE_MAX);
		struct recorded a, b;

		assert_string_not_equal(esc, dumps[d]);
		record_sink_index(&msprobe_reader_ops, da, &a);
		record_sink_index(&msprobe_reader_ops, db, &b);
		assert_int_equal(a.rs.ntraces, b.rs.ntraces);
		assert_int_equal(a.rs.nexecutions, b.rs.nexecutions);
		assert_int_equal(a.rs.nproblems, 0);
		assert_int_equal(b.rs.nproblems, 0);
		for (i = 0; i < a.rs.ntraces; i++) {
			const struct td_summary *x = &a.rs.traces[i].summary, *y = &b.rs.traces[i].summary;
			struct reader_detail dx, dy;

			assert_string_equal(a.rs.traces[i].op_type, b.rs.traces[i].op_type);
			assert_int_equal(a.rs.traces[i].slot, b.rs.traces[i].slot);
			assert_int_equal(x->known, y->known);
			assert_int_equal(x->dtype, y->dtype);
			assert_int_equal(x->rank, y->rank);
			assert_int_equal(x->ndims, y->ndims);
			assert_memory_equal(x->dims, y->dims, sizeof x->dims);
			assert_int_equal(x->elements, y->elements);
			assert_int_equal(x->has_inf_or_nan, y->has_inf_or_nan);
			assert_memory_equal(&x->min, &y->min, sizeof x->min);
			assert_memory_equal(&x->max, &y->max, sizeof x->max);
			assert_memory_equal(&x->mean, &y->mean, sizeof x->mean);
			assert_memory_equal(&x->l2norm, &y->l2norm, sizeof x->l2norm);
			assert_int_equal(msprobe_reader_ops.decode(a.r, READER_TRACE, &a.rs.traces[i].loc, &dx), TD_OK);
			assert_int_equal(msprobe_reader_ops.decode(b.r, READER_TRACE, &b.rs.traces[i].loc, &dy), TD_OK);
			assert_string_equal(dx.text, dy.text);
			assert_int_equal(dx.nargs, dy.nargs);
			for (size_t k = 0; k < dx.nargs; k++) {
				assert_string_equal(dx.args[k].path, dy.args[k].path);
				assert_int_equal(dx.args[k].place, dy.args[k].place);
				assert_int_equal(dx.args[k].is_input, dy.args[k].is_input);
				assert_true((dx.args[k].dtype == NULL) == (dy.args[k].dtype == NULL));
				assert_true((dx.args[k].value == NULL) == (dy.args[k].value == NULL));
				if (dx.args[k].value)
					assert_string_equal(dx.args[k].value, dy.args[k].value);
			}
			reader_detail_done(&dx);
			reader_detail_done(&dy);
		}
		record_sink_index_done(&a);
		record_sink_index_done(&b);
		test_rmtree(da);
		test_rmtree(db);
		free(esc);
	}
}

/* Entry names split as FORMAT.md §3 says (the facts written down from
 * the format, not from the parser): msp_name_parse's direction, type and
 * count, and msp_name_dir (the walk's) the same direction. */
static void
test_msprobe_entry_name_parts(void **state)
{
	static const struct {
		const char *name;
		enum msp_dir dir;
		const char *type;
		int64_t count;
	} cases[] = {
		{ "Functional.linear.0.forward", MSP_FORWARD, "Functional.linear", 0 },
		{ "Torch.add.12.backward", MSP_BACKWARD, "Torch.add", 12 },
		{ "Module.layer1.Linear.forward.3", MSP_FORWARD, "Module.layer1.Linear", 3 },
		{ "Module.fc.Linear.parameters_grad.7", MSP_PARAM_GRAD, "Module.fc.Linear", 7 },
		{ "Tensor.x_grad.4.debug", MSP_OTHER, "Tensor.x_grad", 4 },
		{ "Functional.relu.5.sideways", MSP_OTHER, "Functional.relu.5.sideways", -1 },
		{ "Functional.relu.forward.sideways", MSP_OTHER, "Functional.relu.forward.sideways", -1 },
		{ "x.99999999999999999999.forward", MSP_FORWARD, "x", -1 },
		{ ".5.forward", MSP_OTHER, ".5.forward", -1 },
		{ "nodots", MSP_OTHER, "nodots", -1 },
		{ "a.b.", MSP_OTHER, "a.b.", -1 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char type[64];
		int64_t count;

		assert_int_equal(msp_name_parse(cases[i].name, type, sizeof type, &count), cases[i].dir);
		assert_string_equal(type, cases[i].type);
		assert_int_equal(count, cases[i].count);
		assert_int_equal(msp_name_dir(cases[i].name), cases[i].dir);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_msprobe_leaves_rows_and_summaries),
		cmocka_unit_test(test_msprobe_record_at_once_or_by_token),
		cmocka_unit_test(test_msprobe_nontensor_arguments),
		cmocka_unit_test(test_msprobe_row_facts_role_requires_grad_prefix),
		cmocka_unit_test(test_msprobe_truncated_at_every_byte),
		cmocka_unit_test(test_msprobe_hostile_files),
		cmocka_unit_test(test_msprobe_ahead_pass_sends_what_one_thread_sends),
		cmocka_unit_test(test_msprobe_ahead_pass_stops_when_asked),
		cmocka_unit_test(test_msprobe_follow_flush),
		cmocka_unit_test(test_msprobe_follow_pass_beside_decode),
		cmocka_unit_test(test_msprobe_rewritten_entry_is_stale),
		cmocka_unit_test(test_msprobe_entry_scanned_once_for_its_leaves),
		cmocka_unit_test(test_msprobe_entry_of_many_leaves),
		cmocka_unit_test(test_msprobe_debug_json),
		cmocka_unit_test(test_msprobe_map_puts_overwrites_and_finds),
		cmocka_unit_test(test_msprobe_entry_name_parts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
