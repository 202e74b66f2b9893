/*
 * fake_model.h - a model over the fake reader (fake_reader.h), for the
 * model tests.  Header-only: the model is above the reader, and the
 * helpers' objects are linked into every layer's tests, so a helper that
 * calls model_open_with() cannot live in a .c file here.  Include it after
 * <cmocka.h>.
 */
#ifndef TD_TEST_FAKE_MODEL_H
#define TD_TEST_FAKE_MODEL_H

#include "model/model.h"
#include "tests/unit/helpers/fake_reader.h"

/* Opens a model on fake f with opt (NULL: no index thread, the pass runs
 * inside model_open); asserts that it opens. */
static inline struct model *
fake_model_open(struct fake *f, const struct model_options *opt)
{
	struct model_options single = { .no_thread = true };
	struct model *m = NULL;
	char err[256];

	fake_use(f);
	assert_int_equal(model_open_with(&fake_reader_ops, "fake", opt ? opt : &single, &m, err,
					 sizeof err), TD_OK);
	return m;
}

#endif
