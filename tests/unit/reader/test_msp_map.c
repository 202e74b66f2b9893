/*
 * test_msp_map.c - msprobe compare's name maps (reader/msprobe/msp_map.c,
 * FORMAT.md §11): the built-in API rules, the cell rules with and without
 * a file, which map wins, and cell-mapping files tdbg refuses.
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
	assert_int_equal(msp_map_add(&m, READER_MAP_API, CELLS, err, sizeof err), TD_ERR_UNSUPPORTED);
	assert_non_null(strstr(err, "built-in rules only"));
	msp_map_free(m);
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
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
