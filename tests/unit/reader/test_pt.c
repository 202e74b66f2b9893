/*
 * test_pt.c - torch.save archives read without torch (reader/parse/pt.h,
 * zip.h; FORMAT.md §7).  The files in tests/fixtures/pt were written by
 * tests/gen/gen_pt.py with Python's own pickler and zipfile; the values
 * below are the ones it was given (tests/fixtures/pt/facts.json).
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

#include "reader/parse/npy.h"
#include "reader/parse/pt.h"
#include "reader/parse/zip.h"

#define DIR "tests/fixtures/pt/"

static struct td_tensor *
read_ok(const char *name)
{
	char err[256] = "";
	struct td_tensor *t = NULL;
	enum td_status st = pt_read_file(name, &t, err, sizeof(err));

	if (st != TD_OK)
		fail_msg("%s: %s (%s)", name, td_strerror(st), err);
	return t;
}

static void
expect_values(const struct td_tensor *t, const double *want, int64_t n)
{
	int64_t i;

	assert_int_equal(t->n, n);
	for (i = 0; i < n; i++) {
		double got = td_tensor_get(t, i);

		if (isnan(want[i]))
			assert_true(isnan(got));
		else
			if (got != want[i])
				fail_msg("element %lld: %.17g, want %.17g", (long long)i, got, want[i]);
	}
}

static void
test_pt_float32_contiguous(void **state)
{
	static const double want[] = { -1.0, -0.5, 0.0, 0.5, 1.0, 1.5 };
	struct td_tensor *t = read_ok(DIR "f32_2x3.pt");

	(void)state;
	assert_int_equal(t->dtype, DTYPE_FLOAT32);
	assert_int_equal(t->rank, 2);
	assert_int_equal(t->dims[0], 2);
	assert_int_equal(t->dims[1], 3);
	expect_values(t, want, 6);
	td_tensor_free(t);
}

static void
test_pt_transposed_view_is_gathered_in_c_order(void **state)
{
	static const double want[] = { -1.0, 0.5, -0.5, 1.0, 0.0, 1.5 };
	struct td_tensor *t = read_ok(DIR "f32_transposed.pt");

	(void)state;
	assert_int_equal(t->dims[0], 3);
	assert_int_equal(t->dims[1], 2);
	expect_values(t, want, 6);
	td_tensor_free(t);
}

static void
test_pt_storage_offset(void **state)
{
	static const double want[] = { 3.0, 4.0, 5.0 };
	struct td_tensor *t = read_ok(DIR "f32_offset.pt");

	(void)state;
	expect_values(t, want, 3);
	td_tensor_free(t);
}

static void
test_pt_every_dtype(void **state)
{
	static const struct {
		const char *file;
		enum td_dtype dt;
		int64_t n;
		double want[4];
	} cases[] = {
		{ DIR "f64.pt", DTYPE_FLOAT64, 4, { 1e300, -2.5, INFINITY, NAN } },
		{ DIR "f16.pt", DTYPE_FLOAT16, 4, { 1.0, -0.5, 65504.0, -INFINITY } },
		{ DIR "bf16.pt", DTYPE_BFLOAT16, 4, { 1.0, -2.0, 0.5, 0 } },
		{ DIR "i64.pt", DTYPE_INT64, 3, { -1099511627776.0, 0, 7 } },
		{ DIR "i32.pt", DTYPE_INT32, 4, { 1, -2, 3, -4 } },
		{ DIR "i8.pt", DTYPE_INT8, 2, { -128, 127 } },
		{ DIR "u8.pt", DTYPE_UINT8, 3, { 0, 255, 3 } },
		{ DIR "bool.pt", DTYPE_BOOL, 3, { 1, 0, 1 } },
	};
	size_t i;

	(void)state;
	for (i = 0; i < TD_ARRAY_SIZE(cases); i++) {
		struct td_tensor *t = read_ok(cases[i].file);

		assert_int_equal(t->dtype, cases[i].dt);
		if (cases[i].dt == DTYPE_BFLOAT16) {
			/* 3e38 truncated to bfloat16's 8 mantissa bits */
			assert_int_equal(t->n, 4);
			assert_true(td_tensor_get(t, 0) == 1.0 && td_tensor_get(t, 1) == -2.0 &&
				    td_tensor_get(t, 2) == 0.5);
			assert_true(fabs(td_tensor_get(t, 3) - 3.0e38) < 3.0e38 * 0.01);
		} else {
			expect_values(t, cases[i].want, cases[i].n);
		}
		td_tensor_free(t);
	}
}

static void
test_pt_scalar_empty_parameter_big_endian(void **state)
{
	static const double scalar[] = { 42.0 }, param[] = { 0.25, 0.75 },
			    big[] = { 1.5, -3.0, (double)1e-3f };
	struct pt_header h;
	char err[256];
	struct td_tensor *t;

	(void)state;
	t = read_ok(DIR "scalar.pt");
	assert_int_equal(t->rank, 0);
	expect_values(t, scalar, 1);
	td_tensor_free(t);
	t = read_ok(DIR "empty.pt");
	assert_int_equal(t->rank, 2);
	assert_int_equal(t->n, 0);
	td_tensor_free(t);
	t = read_ok(DIR "param.pt");
	expect_values(t, param, 2);
	td_tensor_free(t);
	assert_int_equal(pt_read_header(DIR "param.pt", &h, err, sizeof(err)), TD_OK);
	assert_true(h.requires_grad);
	assert_int_equal(pt_read_header(DIR "f32_2x3.pt", &h, err, sizeof(err)), TD_OK);
	assert_false(h.requires_grad);
	t = read_ok(DIR "big_endian.pt");
	expect_values(t, big, 3);
	td_tensor_free(t);
}

static void
test_pt_summary_matches_the_values(void **state)
{
	static const char *files[] = { DIR "f32_2x3.pt", DIR "f32_transposed.pt", DIR "f64.pt",
				       DIR "big_endian.pt", DIR "f32_offset.pt" };
	size_t i;

	(void)state;
	for (i = 0; i < TD_ARRAY_SIZE(files); i++) {
		struct td_summary a, b;
		struct td_tensor *t = read_ok(files[i]);
		char err[256];

		td_tensor_summarize(t, &a);
		assert_int_equal(pt_summarize_file(files[i], &b, err, sizeof(err)), TD_OK);
		assert_int_equal(a.elements, b.elements);
		assert_int_equal(a.nan, b.nan);
		assert_int_equal(a.pos_inf, b.pos_inf);
		assert_true(a.min == b.min && a.max == b.max);
		assert_true(fabs(a.mean - b.mean) <= 1e-12 * fabs(a.mean));
		assert_int_equal(a.rank, b.rank);
		assert_int_equal(a.dims[0], b.dims[0]);
		td_tensor_free(t);
	}
}

static void
test_pt_hostile_files_are_refused(void **state)
{
	static const struct {
		const char *file;
		enum td_status st;
		const char *says;
	} cases[] = {
		{ DIR "bad_evil.pt", TD_ERR_UNSUPPORTED, "not part of a saved tensor" },
		{ DIR "bad_storage_short.pt", TD_ERR_TRUNCATED, "need" },
		{ DIR "bad_view_past.pt", TD_ERR_CORRUPT, "past its storage" },
		{ DIR "bad_stride_past.pt", TD_ERR_CORRUPT, "past its storage" },
		{ DIR "bad_compressed.pt", TD_ERR_UNSUPPORTED, "compressed" },
		{ DIR "bad_negative_size.pt", TD_ERR_CORRUPT, "negative" },
		{ DIR "missing.pt", TD_ERR_NOENT, "" },
		{ "tests/fixtures/mindspore/lenet_graph.pb", TD_ERR_CORRUPT, "end-of-central-directory" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < TD_ARRAY_SIZE(cases); i++) {
		char err[256] = "";
		struct td_tensor *t = NULL;
		struct td_summary s;
		enum td_status st = pt_read_file(cases[i].file, &t, err, sizeof(err));

		if (st != cases[i].st || !strstr(err, cases[i].says))
			fail_msg("%s: %s (%s)", cases[i].file, td_strerror(st), err);
		assert_null(t);
		assert_int_equal(pt_summarize_file(cases[i].file, &s, err, sizeof(err)), cases[i].st);
	}
}

static uint8_t *
slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *b;
	long n;

	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	b = malloc((size_t)n);
	assert_int_equal(fread(b, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return b;
}

/* Every prefix of a good archive, and every byte of it flipped: an error
 * or a tensor, never a crash (run under ASan by make asan). */
static void
test_pt_cut_and_flipped_archives_never_crash(void **state)
{
	size_t len, cut, i;
	uint8_t *b = slurp(DIR "f32_transposed.pt", &len);
	int ok = 0;

	(void)state;
	for (cut = 0; cut < len; cut++) {
		char err[256];
		struct td_tensor *t = NULL;
		uint8_t *copy = malloc(cut ? cut : 1);

		memcpy(copy, b, cut);
		if (pt_decode(copy, cut, &t, err, sizeof(err)) == TD_OK)
			ok++;
		td_tensor_free(t);
		free(copy);
	}
	assert_int_equal(ok, 0);     /* the end record is the last thing written */
	for (i = 0; i < len; i++) {
		char err[256];
		struct td_tensor *t = NULL;
		uint8_t saved = b[i];

		b[i] ^= 0xff;
		(void)pt_decode(b, len, &t, err, sizeof(err));
		td_tensor_free(t);
		b[i] = saved;
	}
	free(b);
}

static void
test_pickle_refuses_unknown_opcodes_and_deep_stacks(void **state)
{
	static const uint8_t build[] = { 0x80, 2, ']', '.' };            /* EMPTY_LIST */
	uint8_t deep[600];
	struct pt_header h;
	char err[256];
	size_t i;

	(void)state;
	assert_int_equal(pt_parse_pickle(build, sizeof(build), &h, err, sizeof(err)), TD_ERR_UNSUPPORTED);
	assert_non_null(strstr(err, "opcode 0x5d"));
	deep[0] = 0x80;
	deep[1] = 2;
	for (i = 2; i < sizeof(deep) - 1; i++)
		deep[i] = '(';
	deep[sizeof(deep) - 1] = '.';
	assert_int_equal(pt_parse_pickle(deep, sizeof(deep), &h, err, sizeof(err)), TD_ERR_TOO_LARGE);
	assert_int_equal(pt_parse_pickle(deep, 2, &h, err, sizeof(err)), TD_ERR_CORRUPT);
}

static void
test_zip_directory_of_a_torch_archive(void **state)
{
	size_t len;
	uint8_t *b = slurp(DIR "f32_2x3.pt", &len);
	struct zip_src src = { -1, b, len };
	struct zip_archive za;
	const struct zip_entry *e;
	uint64_t off;
	char err[256];

	(void)state;
	assert_int_equal(zip_open(&src, &za, err, sizeof(err)), TD_OK);
	assert_int_equal(za.n, 4);
	assert_non_null(e = zip_find(&za, "f32_2x3/data/0"));
	assert_int_equal(e->size, 24);
	assert_int_equal(zip_data_offset(&za, e, &off, err, sizeof(err)), TD_OK);
	assert_int_equal(off % 64, 0);   /* torch's writer aligns records */
	assert_null(zip_find(&za, "data.pkl"));
	zip_close(&za);
	free(b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pt_float32_contiguous),
		cmocka_unit_test(test_pt_transposed_view_is_gathered_in_c_order),
		cmocka_unit_test(test_pt_storage_offset),
		cmocka_unit_test(test_pt_every_dtype),
		cmocka_unit_test(test_pt_scalar_empty_parameter_big_endian),
		cmocka_unit_test(test_pt_summary_matches_the_values),
		cmocka_unit_test(test_pt_hostile_files_are_refused),
		cmocka_unit_test(test_pt_cut_and_flipped_archives_never_crash),
		cmocka_unit_test(test_pickle_refuses_unknown_opcodes_and_deep_stacks),
		cmocka_unit_test(test_zip_directory_of_a_torch_archive),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
