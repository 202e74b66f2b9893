/*
 * test_cmd_history.c - `history`'s arguments, checked before the dump is
 * asked anything: --field names (repeated, comma lists, unknown ones
 * listing the fields), a row and --op together, a --field without a
 * value.  What it answers on dumps is tests/e2e/batch_history.sh.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tui/cmd/cmd.h"

struct fixture {
	struct strbuf out, err;
	struct cmd_env env;         /* no model: parsing must fail first */
};

static int
setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	f->env.out = &f->out;
	f->env.err = &f->err;
	*state = f;
	return 0;
}

static int
teardown(void **state)
{
	struct fixture *f = *state;

	strbuf_done(&f->out);
	strbuf_done(&f->err);
	free(f);
	return 0;
}

static void
test_history_is_a_batch_and_prompt_command(void **state)
{
	const struct cmd_info *c = cmd_find("history");

	(void)state;
	assert_non_null(c);
	assert_true(c->flags & CMD_BATCH);
	assert_true(c->flags & CMD_TUI);
	assert_int_equal(c->complete, COMPLETE_OP);
	assert_non_null(strstr(c->usage, "--field"));
}

static void
test_history_unknown_field_lists_the_fields(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(cmd_run(&f->env, "history --op w --field l2norm,speed"), TD_ERR_ARGS);
	assert_string_equal(f->err.buf,
			    "history: unknown field \"speed\" (fields: l2norm, abs_mean, mean, std, min, max, "
			    "nan, inf, neg_inf, pos_inf, zero, elements)");
}

static void
test_history_field_forms(void **state)
{
	struct fixture *f = *state;

	/* --field=F and a repeated --field parse; the row and --op together
	 * are refused before the dump is read */
	assert_int_equal(cmd_run(&f->env, "history 3 --op w --field=mean --field max,min"), TD_ERR_ARGS);
	assert_string_equal(f->err.buf, "history: give a trace row N or --op NAME, not both");
	strbuf_reset(&f->err);
	assert_int_equal(cmd_run(&f->env, "history --op w --field"), TD_ERR_ARGS);
	assert_string_equal(f->err.buf, "history: --field needs a value");
}

int
main(void)
{
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(test_history_is_a_batch_and_prompt_command),
		T(test_history_unknown_field_lists_the_fields),
		T(test_history_field_forms),
	};
#undef T

	return cmocka_run_group_tests(tests, NULL, NULL);
}
