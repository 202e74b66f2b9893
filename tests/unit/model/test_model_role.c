/*
 * test_model_role.c - the neutral role rules (model/model_role.c) for
 * dotted call names and types, as call-level dumps write them: a backward
 * call and a parameter's gradient are gradients, "Prefix.relu" is an
 * activation; the scoped-name rules are tested in test_model_where.c.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "model/model.h"

static void
test_model_role_dotted_call_names(void **state)
{
	(void)state;
	assert_int_equal(model_role_of("Functional.linear.1.backward", "Functional.linear"),
			 ROLE_GRADIENT);
	assert_int_equal(model_role_of("Module.fc2.Linear.parameters_grad.0", "Module.fc2.Linear"),
			 ROLE_GRADIENT);
	assert_int_equal(model_role_of("Functional.relu.0.forward", "Functional.relu"), ROLE_ACTIVATION);
	assert_int_equal(model_role_of("Functional.linear.0.forward", "Functional.linear"), ROLE_NONE);
	/* a word inside a component is not the component */
	assert_int_equal(model_role_of("Torch.backwards_compat.0.forward", "Torch.backwards_compat"),
			 ROLE_NONE);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_model_role_dotted_call_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
