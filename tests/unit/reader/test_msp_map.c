/*
 * test_msp_map.c - msprobe compare's name maps (reader/msprobe/msp_map.c,
 * FORMAT.md §11): the built-in API rules, the cell rules with and without
 * a file, which map wins, cell-mapping files tdbg refuses, the data
 * map's leaf rules (-dm), the API file's renumbering (-am FILE), the
 * layer mapping file's rules (-lm) and the files they refuse; the call
 * keys two runs' entries pair by (call_of).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "reader/msprobe/msp_internal.h"
#include "tests/unit/helpers/files.h"

#define CELLS "tests/fixtures/msprobe_maps/cell_mapping.yaml"
#define DATA "tests/fixtures/msprobe_maps/data_mapping.yaml"
#define APIS "tests/fixtures/msprobe_maps/api_mapping.yaml"

/* name through map m; "(none)" when the map leaves it unpaired. */
static const char *
mapped(const struct reader_map *m, const char *name)
{
	static char buf[1024];
	const char *r = msp_map_name(m, name, buf, sizeof buf);

	return r ? r : "(none)";
}

static struct reader_map *
map_of(enum reader_map_kind kind, const char *path)
{
	struct reader_map *m = NULL;
	char err[512] = "";

	if (msp_map_add(&m, kind, path, err, sizeof err) != TD_OK)
		fail_msg("map_add: %s", err);
	return m;
}

static void
test_msp_map_api_prefix_rules_and_table(void **state)
{
	struct reader_map *m = map_of(READER_MAP_API, NULL);

	(void)state;
	assert_string_equal(mapped(m, "Mint.tanh.0.forward"), "Torch.tanh.0.forward");
	assert_string_equal(mapped(m, "MintFunctional.relu.3.backward"), "Functional.relu.3.backward");
	assert_string_equal(mapped(m, "Functional.dense.1.forward"), "Functional.linear.1.forward");
	assert_string_equal(mapped(m, "Functional.swapaxes.0.forward"), "Torch.transpose.0.forward");
	assert_string_equal(mapped(m, "Tensor.gather_elements.2.forward"), "Tensor.gather.2.forward");
	/* an API the table lacks, a cell, a name without parts: unchanged */
	assert_string_equal(mapped(m, "Tensor.sum.0.forward"), "Tensor.sum.0.forward");
	assert_string_equal(mapped(m, "Cell.fc1.Dense.forward.0"), "Cell.fc1.Dense.forward.0");
	assert_string_equal(mapped(m, "Mintx.tanh.0.forward"), "Mintx.tanh.0.forward");
	assert_string_equal(mapped(m, "loss"), "loss");
	/* the whole API name, not a prefix of it */
	assert_string_equal(mapped(m, "Functional.dense_x.0.forward"), "Functional.dense_x.0.forward");
	msp_map_free(m);
}

static void
test_msp_map_cell_without_file_renames_cell_to_module(void **state)
{
	struct reader_map *m = map_of(READER_MAP_CELL, NULL);

	(void)state;
	assert_string_equal(mapped(m, "Cell.act.ReLU.forward.0"), "Module.act.ReLU.forward.0");
	assert_string_equal(mapped(m, "Cell.fc1.Dense.parameters_grad"), "Module.fc1.Dense.parameters_grad");
	assert_string_equal(mapped(m, "Functional.add.0.forward"), "Functional.add.0.forward");
	/* neither direction nor a parameter gradient: pairs with nothing */
	assert_string_equal(mapped(m, "Cell.act.ReLU.debug.0"), "(none)");
	assert_string_equal(mapped(m, "Cell.forwardish.X.step.0"), "(none)");
	msp_map_free(m);
}

static void
test_msp_map_cell_file_renames_named_cells(void **state)
{
	struct reader_map *m = map_of(READER_MAP_CELL, CELLS);

	(void)state;
	assert_string_equal(mapped(m, "Cell.dense1.Dense.forward.0"), "Module.fc1.Linear.forward.0");
	assert_string_equal(mapped(m, "Cell.dense2.Dense.backward.1"), "Module.fc2.Linear.backward.1");
	assert_string_equal(mapped(m, "Cell.dense1.Dense.parameters_grad"),
			    "Module.fc1.Linear.parameters_grad");
	/* the whole cell name: a longer path keeps its name */
	assert_string_equal(mapped(m, "Cell.dense1.Dense.x.Dense.forward.0"),
			    "Module.dense1.Dense.x.Dense.forward.0");
	assert_string_equal(mapped(m, "Cell.act.ReLU.forward.0"), "Module.act.ReLU.forward.0");
	msp_map_free(m);
}

static void
test_msp_map_api_rules_win_over_cells(void **state)
{
	struct reader_map *m = map_of(READER_MAP_CELL, CELLS);
	char err[256];

	(void)state;
	assert_int_equal(msp_map_add(&m, READER_MAP_API, NULL, err, sizeof err), TD_OK);
	assert_string_equal(mapped(m, "Cell.dense1.Dense.forward.0"), "Cell.dense1.Dense.forward.0");
	assert_string_equal(mapped(m, "Mint.add.0.forward"), "Torch.add.0.forward");
	msp_map_free(m);
	msp_map_free(NULL);
}

/* A cell-mapping file with text that must be refused: TD_ERR_ARGS and
 * an error naming the file, the line and has. */
static void
cells_bad(const char *text, const char *has)
{
	char *dir = test_tmpdir("mspmap"), path[512], err[512] = "";
	struct reader_map *m = NULL;

	snprintf(path, sizeof path, "%s/cells.yaml", dir);
	test_spit(path, text, strlen(text), "wb");
	assert_int_equal(msp_map_add(&m, READER_MAP_CELL, path, err, sizeof err), TD_ERR_ARGS);
	if (!strstr(err, "cells.yaml:") || !strstr(err, has))
		fail_msg("error \"%s\" lacks the file or \"%s\"", err, has);
	msp_map_free(m);
	test_rmtree(dir);
}

static void
test_msp_map_bad_cell_files_are_refused(void **state)
{
	(void)state;
	cells_bad("- fc2.Dense\n- fc2.Linear\n", "cells.yaml:1: a cell mapping is one mapping");
	cells_bad("fc2.Dense: [fc2.Linear]\n", "cells.yaml:1: the module name of \"fc2.Dense\"");
	cells_bad("fc2.Dense: fc2.Linear\n  bad: indent\n", "cells.yaml:2:");
	cells_bad("a: &x b\nc: *x\n", "cells.yaml:2: an alias");
}

static void
test_msp_map_empty_cell_file_is_cell_to_module_alone(void **state)
{
	char *dir = test_tmpdir("mspmap"), path[512];
	struct reader_map *m;

	(void)state;
	snprintf(path, sizeof path, "%s/empty.yaml", dir);
	test_spit(path, "", 0, "wb");
	m = map_of(READER_MAP_CELL, path);
	assert_string_equal(mapped(m, "Cell.dense1.Dense.forward.0"), "Module.dense1.Dense.forward.0");
	msp_map_free(m);
	test_rmtree(dir);
}

static void
test_msp_map_missing_file_and_api_file(void **state)
{
	struct reader_map *m = NULL;
	char err[512] = "";

	(void)state;
	assert_int_equal(msp_map_add(&m, READER_MAP_CELL, "/nonexistent/cells.yaml", err, sizeof err),
			 TD_ERR_NOENT);
	assert_non_null(strstr(err, "/nonexistent/cells.yaml"));
	/* a cell file is no API file */
	assert_int_equal(msp_map_add(&m, READER_MAP_API, CELLS, err, sizeof err), TD_ERR_ARGS);
	assert_non_null(strstr(err, "cell_mapping.yaml:2: an API mapping item needs ms_api"));
	msp_map_free(m);
}

/* Leaf label of op through map m; "(none)" when no rule names it. */
static const char *
leaf_of(const struct reader_map *m, const char *op, const char *label)
{
	static char buf[1024];

	return msp_map_leaf(m, op, label, buf, sizeof buf) ? buf : "(none)";
}

static void
test_msp_map_data_file_renames_named_leaves(void **state)
{
	struct reader_map *m = map_of(READER_MAP_DATA, DATA);

	(void)state;
	assert_true(msp_map_leaf(m, NULL, NULL, NULL, 0));
	/* the ops it names, by "{op}." */
	assert_true(msp_map_leaf(m, "NPU.npu_fast_tanh.0.forward", NULL, NULL, 0));
	assert_true(msp_map_leaf(m, "Functional.linear.1.forward", NULL, NULL, 0));
	assert_false(msp_map_leaf(m, "Functional.linear.0.forward", NULL, NULL, 0));
	assert_false(msp_map_leaf(m, "NPU.npu_fast_tanh.0.forw", NULL, NULL, 0));
	assert_string_equal(leaf_of(m, "NPU.npu_fast_tanh.0.forward", "input.1"),
			    "Torch.tanh.0.forward.input.0");
	assert_string_equal(leaf_of(m, "NPU.npu_fast_tanh.0.forward", "output.0"),
			    "Torch.tanh.0.forward.output.0");
	assert_string_equal(leaf_of(m, "Functional.linear.1.forward", "input.0"),
			    "Functional.linear.1.forward.input.1");
	/* a leaf it does not name keeps its op's pairing */
	assert_string_equal(leaf_of(m, "NPU.npu_fast_tanh.0.forward", "input.0"), "(none)");
	assert_string_equal(leaf_of(m, "Functional.linear.1.forward", "input.2"), "(none)");
	/* op names are untouched by a data map */
	assert_string_equal(mapped(m, "NPU.npu_fast_tanh.0.forward"), "NPU.npu_fast_tanh.0.forward");
	msp_map_free(m);
}

static void
test_msp_map_api_and_cell_rules_win_over_data(void **state)
{
	struct reader_map *m = map_of(READER_MAP_DATA, DATA), *c = map_of(READER_MAP_DATA, DATA);
	char err[256];

	(void)state;
	assert_int_equal(msp_map_add(&m, READER_MAP_API, NULL, err, sizeof err), TD_OK);
	assert_false(msp_map_leaf(m, NULL, NULL, NULL, 0));
	assert_string_equal(leaf_of(m, "NPU.npu_fast_tanh.0.forward", "input.1"), "(none)");
	assert_int_equal(msp_map_add(&c, READER_MAP_CELL, NULL, err, sizeof err), TD_OK);
	assert_false(msp_map_leaf(c, "Functional.linear.1.forward", NULL, NULL, 0));
	msp_map_free(m);
	msp_map_free(c);
}

/* A data-mapping file with text that must be refused (as cells_bad). */
static void
data_bad(const char *text, const char *has)
{
	char *dir = test_tmpdir("mspmap"), path[512], err[512] = "";
	struct reader_map *m = NULL;

	snprintf(path, sizeof path, "%s/data.yaml", dir);
	test_spit(path, text, strlen(text), "wb");
	assert_int_equal(msp_map_add(&m, READER_MAP_DATA, path, err, sizeof err), TD_ERR_ARGS);
	if (!strstr(err, "data.yaml") || !strstr(err, has))
		fail_msg("error \"%s\" lacks the file or \"%s\"", err, has);
	msp_map_free(m);
	test_rmtree(dir);
}

static void
test_msp_map_bad_data_files_are_refused(void **state)
{
	struct reader_map *m = NULL;
	char err[256] = "";

	(void)state;
	data_bad("- a.0.forward.input.0\n", "data.yaml:1: a data mapping is one mapping");
	data_bad("a.0.forward.input.0: [b]\n", "data.yaml:1: the golden leaf name of \"a.0.forward");
	data_bad("a.0.forward.input.0: {b: c}\n", "data.yaml:1: the golden leaf name");
	data_bad("x: y\nx: z\n", "data.yaml: \"x\" is mapped twice");
	data_bad("a: &x b\nc: *x\n", "data.yaml:2: an alias");
	data_bad("a: b\n  c: d\n", "data.yaml:2:");
	/* no file: the option takes one */
	assert_int_equal(msp_map_add(&m, READER_MAP_DATA, NULL, err, sizeof err), TD_ERR_ARGS);
	assert_non_null(strstr(err, "takes a file"));
	msp_map_free(m);
}

static void
test_msp_map_empty_data_file_renames_nothing(void **state)
{
	char *dir = test_tmpdir("mspmap"), path[512];
	struct reader_map *m;

	(void)state;
	snprintf(path, sizeof path, "%s/empty.yaml", dir);
	test_spit(path, "", 0, "wb");
	m = map_of(READER_MAP_DATA, path);
	assert_false(msp_map_leaf(m, NULL, NULL, NULL, 0));
	assert_string_equal(mapped(m, "Functional.add.0.forward"), "Functional.add.0.forward");
	msp_map_free(m);
	test_rmtree(dir);
}

/* A map of the built-in API rules and the API file of text. */
static struct reader_map *
api_file_of(const char *text, char **dir)
{
	char path[512];

	*dir = test_tmpdir("mspmap");
	snprintf(path, sizeof path, "%s/apis.yaml", *dir);
	test_spit(path, text, strlen(text), "wb");
	return map_of(READER_MAP_API, path);
}

static void
test_msp_map_api_file_renumbers_listed_indices(void **state)
{
	char *dir;
	struct reader_map *m = api_file_of(
		"- ms_api: Functional.dense\n  pt_api: Functional.linear\n"
		"  ms_args: [0, 1]\n  pt_args: [1, 0]\n  ms_outputs: [0]\n  pt_outputs: [0]\n"
		"- {ms_api: Tensor.split, pt_api: Tensor.chunk, ms_outputs: [0, 1], pt_outputs: [1, 0]}\n",
		&dir);

	(void)state;
	assert_true(msp_map_leaf(m, NULL, NULL, NULL, 0));
	/* the op's API renamed; forward: arguments and outputs */
	assert_string_equal(mapped(m, "Functional.dense.3.forward"), "Functional.linear.3.forward");
	assert_true(msp_map_leaf(m, "Functional.dense.3.forward", NULL, NULL, 0));
	assert_string_equal(leaf_of(m, "Functional.dense.3.forward", "input.0"),
			    "Functional.linear.3.forward.input.1");
	assert_string_equal(leaf_of(m, "Functional.dense.3.forward", "input.1.2"),
			    "Functional.linear.3.forward.input.0.2");
	assert_string_equal(leaf_of(m, "Functional.dense.3.forward", "output.0"),
			    "Functional.linear.3.forward.output.0");
	/* unlisted index, keyword: pairs with nothing (an empty name) */
	assert_string_equal(leaf_of(m, "Functional.dense.3.forward", "input.2"), "");
	assert_string_equal(leaf_of(m, "Functional.dense.3.forward", "input.bias"), "");
	/* backward: inputs are the outputs' gradients, outputs the arguments' */
	assert_string_equal(leaf_of(m, "Functional.dense.0.backward", "output.1"),
			    "Functional.linear.0.backward.output.0");
	assert_string_equal(leaf_of(m, "Functional.dense.0.backward", "input.0"),
			    "Functional.linear.0.backward.input.0");
	assert_string_equal(leaf_of(m, "Tensor.split.1.forward", "output.1"),
			    "Tensor.chunk.1.forward.output.0");
	assert_string_equal(leaf_of(m, "Tensor.split.1.forward", "input.0"), "");
	/* other APIs: the built-in rules, no leaf rule */
	assert_false(msp_map_leaf(m, "Mint.tanh.0.forward", NULL, NULL, 0));
	assert_string_equal(mapped(m, "Mint.tanh.0.forward"), "Torch.tanh.0.forward");
	assert_string_equal(mapped(m, "Functional.swapaxes.0.forward"), "Torch.transpose.0.forward");
	msp_map_free(m);
	test_rmtree(dir);
}

static void
test_msp_map_api_fixture_and_single_item(void **state)
{
	char *dir;
	struct reader_map *m = map_of(READER_MAP_API, APIS), *one;

	(void)state;
	assert_string_equal(leaf_of(m, "Functional.linear.1.backward", "output.0"),
			    "Functional.linear.1.backward.output.1");
	msp_map_free(m);
	one = api_file_of("ms_api: Mint.add\npt_api: Torch.add\nms_args: [1]\npt_args: [0]\n", &dir);
	assert_string_equal(leaf_of(one, "Mint.add.0.forward", "input.1"), "Torch.add.0.forward.input.0");
	msp_map_free(one);
	test_rmtree(dir);
}

/* An API-mapping file with text that must be refused (as cells_bad). */
static void
apis_bad(const char *text, const char *has)
{
	char *dir = test_tmpdir("mspmap"), path[512], err[512] = "";
	struct reader_map *m = NULL;

	snprintf(path, sizeof path, "%s/apis.yaml", dir);
	test_spit(path, text, strlen(text), "wb");
	assert_int_equal(msp_map_add(&m, READER_MAP_API, path, err, sizeof err), TD_ERR_ARGS);
	if (!strstr(err, "apis.yaml") || !strstr(err, has))
		fail_msg("error \"%s\" lacks the file or \"%s\"", err, has);
	msp_map_free(m);
	test_rmtree(dir);
}

static void
test_msp_map_bad_api_files_are_refused(void **state)
{
	(void)state;
	apis_bad("just text\n", "apis.yaml:1: an API mapping is a list of items");
	apis_bad("- [a, b]\n", "apis.yaml:1: an API mapping item is a mapping");
	apis_bad("- pt_api: Torch.add\n", "an API mapping item needs ms_api");
	apis_bad("- {ms_api: [a], pt_api: b}\n", "an API mapping item needs ms_api");
	apis_bad("- {ms_api: a.b, pt_api: c.d, ms_args: 0, pt_args: [0]}\n",
		 "apis.yaml:1: ms_args is a list of indices");
	apis_bad("- {ms_api: a.b, pt_api: c.d, ms_args: [x], pt_args: [0]}\n",
		 "ms_args holds \"x\", not an index");
	apis_bad("- {ms_api: a.b, pt_api: c.d, ms_args: [-1], pt_args: [0]}\n", "not an index");
	apis_bad("- {ms_api: a.b, pt_api: c.d, ms_args: [0, 1], pt_args: [0]}\n",
		 "apis.yaml:1: a.b's MindSpore and PyTorch index lists differ in length");
	apis_bad("- {ms_api: a.b, pt_api: c.d}\n- {ms_api: a.b, pt_api: e.f}\n",
		 "apis.yaml: a.b is mapped twice");
	apis_bad("- &x {ms_api: a.b, pt_api: c.d}\n- *x\n", "apis.yaml:2: an alias");
}

/* ---- the layer mapping file (-lm) ---------------------------------- */

static struct msp_layer_file *
layers_of(const char *text, char **dir)
{
	char path[512], err[512] = "";
	struct msp_layer_file *f = NULL;

	*dir = test_tmpdir("mspmap");
	snprintf(path, sizeof path, "%s/lm.yaml", *dir);
	test_spit(path, text, strlen(text), "wb");
	if (msp_layer_file_read(&f, path, err, sizeof err) != TD_OK)
		fail_msg("layer file: %s", err);
	return f;
}

/* The golden name of parts (n of them) under a layer of type; *used the
 * parts it took. */
static const char *
renamed(const struct msp_layer_file *f, const char *type, const char *const *parts, size_t n,
	size_t *used)
{
	return msp_layer_file_rename(f, type, parts, n, used);
}

static void
test_msp_layer_file_rules_longest_first_and_cell_on_top(void **state)
{
	static const char *const first[] = { "first", "linear" };
	static const char *const second_linear[] = { "second", "linear", "x" };
	static const char *const second_mul[] = { "second", "mul" };
	static const char *const second_only[] = { "second" };
	static const char *const other[] = { "other", "x" };
	static const char *const fa[] = { "flash_attention_score" };
	char *dir;
	struct msp_layer_file *f = layers_of(
		"TopLayer:\n  first: nowhere\n"
		"Cell:\n  second: nowhere\n  second.linear: block2.linear\n  first: block1\n"
		"ParallelAttention:\n  flash_attention_score: core_attention_flash.npu_fusion_attention\n",
		&dir);
	size_t used = 0;

	(void)state;
	/* "Cell" is the top layer and wins over "TopLayer", as in msprobe */
	assert_string_equal(renamed(f, "TopLayer", first, 2, &used), "block1");
	assert_int_equal(used, 1);
	assert_string_equal(renamed(f, "TopLayer", second_linear, 3, &used), "block2.linear");
	assert_int_equal(used, 2);
	assert_string_equal(renamed(f, "TopLayer", second_mul, 2, &used), "nowhere");
	assert_int_equal(used, 1);
	/* a two-part rule needs both parts */
	assert_string_equal(renamed(f, "TopLayer", second_only, 1, &used), "nowhere");
	assert_string_equal(renamed(f, "TopLayer", other, 2, &used), "other");
	assert_int_equal(used, 1);
	assert_string_equal(renamed(f, "ParallelAttention", fa, 1, &used),
			    "core_attention_flash.npu_fusion_attention");
	/* the rules are the class's: another class keeps the name */
	assert_string_equal(renamed(f, "Block", first, 2, &used), "first");
	assert_string_equal(renamed(f, "Cell", first, 2, &used), "first");
	msp_layer_file_free(f);
	test_rmtree(dir);
}

static void
test_msp_layer_file_empty_has_no_rules(void **state)
{
	static const char *const first[] = { "first" };
	char *dir;
	struct msp_layer_file *f = layers_of("", &dir);
	size_t used = 0;

	(void)state;
	assert_string_equal(renamed(f, "TopLayer", first, 1, &used), "first");
	assert_int_equal(used, 1);
	msp_layer_file_free(f);
	msp_layer_file_free(NULL);
	test_rmtree(dir);
}

/* A layer mapping file with text that must be refused: TD_ERR_ARGS and an
 * error naming the file, the line and has. */
static void
layers_bad(const char *text, const char *has)
{
	char *dir = test_tmpdir("mspmap"), path[512], err[512] = "";
	struct msp_layer_file *f = NULL;

	snprintf(path, sizeof path, "%s/lm.yaml", dir);
	test_spit(path, text, strlen(text), "wb");
	assert_int_equal(msp_layer_file_read(&f, path, err, sizeof err), TD_ERR_ARGS);
	assert_null(f);
	if (!strstr(err, "lm.yaml:") || !strstr(err, has))
		fail_msg("error \"%s\" lacks the file or \"%s\"", err, has);
	test_rmtree(dir);
}

static void
test_msp_layer_bad_files_are_refused(void **state)
{
	struct msp_layer_file *f = NULL;
	char err[512] = "";

	(void)state;
	layers_bad("- first: block1\n", "lm.yaml:1: a layer mapping is one mapping of layer classes");
	layers_bad("TopLayer: block1\n", "lm.yaml:1: the names of layer class \"TopLayer\" are not a mapping");
	layers_bad("TopLayer:\n  first: [block1]\n",
		   "lm.yaml:2: the golden name of \"first\" in \"TopLayer\" is not a plain name");
	layers_bad("TopLayer:\n  first: {a: b}\n", "lm.yaml:2: the golden name of \"first\"");
	layers_bad("Block:\n  a: b\nBlock:\n  c: d\n", "lm.yaml:3: layer class \"Block\" is named twice");
	layers_bad("Block:\n  a: b\n  a: c\n", "lm.yaml:3: \"a\" is mapped twice in \"Block\"");
	layers_bad("TopLayer:\n  first: block1\n  bad: [\n", "lm.yaml:");
	layers_bad("a: &x {b: c}\nd: *x\n", "lm.yaml:2: an alias");
	assert_int_equal(msp_layer_file_read(&f, "/nonexistent/lm.yaml", err, sizeof err), TD_ERR_NOENT);
	assert_non_null(strstr(err, "lm.yaml"));
}

/* call_of (FORMAT.md §10): an API backward entry pairs by rank under
 * "{Prefix}.{api}.*.backward", other counted entries exactly under
 * "{Prefix}.{api}.*.forward" or "Module.{path}.{Class}.{direction}.*";
 * a name without a count is no call; a key longer than its buffer is cut
 * to fit, NUL-terminated. */
static void
test_msp_call_keys(void **state)
{
	static const struct {
		const char *name, *key;
		enum reader_call kind;
		int64_t count;
	} cases[] = {
		{ "Torch.matmul.3.backward", "Torch.matmul.*.backward", READER_CALL_ORDINAL, 3 },
		{ "Functional.linear.12.forward", "Functional.linear.*.forward", READER_CALL_EXACT, 12 },
		{ "Module.layer1.0.Linear.forward.2", "Module.layer1.0.Linear.forward.*",
		  READER_CALL_EXACT, 2 },
		{ "Module.fc.Linear.backward.0", "Module.fc.Linear.backward.*", READER_CALL_EXACT, 0 },
		{ "Tensor.add.0.parameters_grad", "Tensor.add.*.parameters_grad", READER_CALL_EXACT, 0 },
	};
	char key[64], small[10];
	int64_t count;

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		memset(key, 'x', sizeof key);
		count = -7;
		assert_int_equal(msp_call_of(cases[i].name, key, sizeof key, &count), cases[i].kind);
		assert_string_equal(key, cases[i].key);
		assert_int_equal(count, cases[i].count);
	}
	assert_int_equal(msp_call_of("Torch.matmul.3.backward", small, sizeof small, &count),
			 READER_CALL_ORDINAL);
	assert_string_equal(small, "Torch.mat");
	assert_int_equal(msp_call_of("Module.fc.Linear.forward.1", small, sizeof small, &count),
			 READER_CALL_EXACT);
	assert_string_equal(small, "Module.fc");
	assert_int_equal(msp_call_of("Torch.matmul.3.backward", small, 1, &count),
			 READER_CALL_ORDINAL);
	assert_string_equal(small, "");
	assert_int_equal(msp_call_of("just_a_name", key, sizeof key, &count), READER_CALL_NONE);
	assert_int_equal(msp_call_of("Torch.matmul.x.backward", key, sizeof key, &count),
			 READER_CALL_NONE);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_msp_map_api_prefix_rules_and_table),
		cmocka_unit_test(test_msp_map_cell_without_file_renames_cell_to_module),
		cmocka_unit_test(test_msp_map_cell_file_renames_named_cells),
		cmocka_unit_test(test_msp_map_api_rules_win_over_cells),
		cmocka_unit_test(test_msp_map_bad_cell_files_are_refused),
		cmocka_unit_test(test_msp_map_empty_cell_file_is_cell_to_module_alone),
		cmocka_unit_test(test_msp_map_missing_file_and_api_file),
		cmocka_unit_test(test_msp_map_data_file_renames_named_leaves),
		cmocka_unit_test(test_msp_map_api_and_cell_rules_win_over_data),
		cmocka_unit_test(test_msp_map_bad_data_files_are_refused),
		cmocka_unit_test(test_msp_map_empty_data_file_renames_nothing),
		cmocka_unit_test(test_msp_map_api_file_renumbers_listed_indices),
		cmocka_unit_test(test_msp_map_api_fixture_and_single_item),
		cmocka_unit_test(test_msp_map_bad_api_files_are_refused),
		cmocka_unit_test(test_msp_layer_file_rules_longest_first_and_cell_on_top),
		cmocka_unit_test(test_msp_layer_file_empty_has_no_rules),
		cmocka_unit_test(test_msp_layer_bad_files_are_refused),
		cmocka_unit_test(test_msp_call_keys),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
