/*
 * test_npy.c - the .npy header parser and decoder (reader/parse/FORMAT.md §4).
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
#include <sys/stat.h>
#include <unistd.h>

#include "reader/parse/npy.h"

/* Builds an .npy image: magic, version, HLEN, dict text, data. */
static uint8_t *
make_npy(int major, const char *dict, const void *data, size_t dlen, size_t *len)
{
	size_t tlen = strlen(dict), lf = major == 1 ? 2 : 4, off = 8 + lf;
	uint8_t *b = calloc(1, off + tlen + dlen + 1);

	memcpy(b, "\x93NUMPY", 6);
	b[6] = (uint8_t)major;
	b[7] = 0;
	b[8] = tlen & 0xff;
	b[9] = (tlen >> 8) & 0xff;
	if (lf == 4) {
		b[10] = (tlen >> 16) & 0xff;
		b[11] = (tlen >> 24) & 0xff;
	}
	memcpy(b + off, dict, tlen);
	if (dlen)
		memcpy(b + off + tlen, data, dlen);
	*len = off + tlen + dlen;
	return b;
}

static struct td_tensor *
decode_ok(int major, const char *dict, const void *data, size_t dlen, enum td_dtype hint)
{
	char err[256] = "";
	size_t len;
	uint8_t *b = make_npy(major, dict, data, dlen, &len);
	struct td_tensor *t = NULL;
	enum td_status st = npy_decode(b, len, hint, &t, err, sizeof err);

	free(b);
	if (st != TD_OK)
		fail_msg("decode failed: %s", err);
	return t;
}

static enum td_status
decode_status(const uint8_t *b, size_t len, char *err, size_t errlen)
{
	struct td_tensor *t = NULL;
	enum td_status st = npy_decode(b, len, DTYPE_INVALID, &t, err, errlen);

	td_tensor_free(t);
	return st;
}

static void
test_npy_v1_mindspore_shape_with_trailing_commas(void **state)
{
	float v[6] = { 1, 2, 3, 4, 5, 6 };
	struct td_tensor *t = decode_ok(1,
		"{'descr': '<f4', 'fortran_order': False, 'shape': (2,3,), }   \n", v, sizeof v,
		DTYPE_INVALID);

	(void)state;
	assert_int_equal(t->dtype, DTYPE_FLOAT32);
	assert_int_equal(t->rank, 2);
	assert_int_equal(t->dims[0], 2);
	assert_int_equal(t->dims[1], 3);
	assert_int_equal(t->n, 6);
	assert_true(td_tensor_get(t, 5) == 6.0);
	td_tensor_free(t);
}

static void
test_npy_v2_numpy_shape_with_spaces(void **state)
{
	int32_t v[6] = { 1, 2, 3, 4, 5, -6 };
	struct td_tensor *t = decode_ok(2,
		"{'descr': '<i4', 'fortran_order': False, 'shape': (2, 3), }\n", v, sizeof v,
		DTYPE_INVALID);

	(void)state;
	assert_int_equal(t->dtype, DTYPE_INT32);
	assert_int_equal(t->rank, 2);
	assert_int_equal(t->dims[1], 3);
	assert_true(td_tensor_get(t, 5) == -6.0);
	td_tensor_free(t);
}

static void
test_npy_v3_scalar_shape(void **state)
{
	double v = 2.5;
	struct td_tensor *t = decode_ok(3,
		"{\"descr\": \"<f8\", \"fortran_order\": False, \"shape\": ()}\n", &v, sizeof v,
		DTYPE_INVALID);

	(void)state;
	assert_int_equal(t->dtype, DTYPE_FLOAT64);
	assert_int_equal(t->rank, 0);
	assert_int_equal(t->n, 1);
	assert_true(td_tensor_get(t, 0) == 2.5);
	td_tensor_free(t);
}

static void
test_npy_keys_in_any_order(void **state)
{
	uint8_t v[4] = { 1, 0, 1, 1 };
	struct td_tensor *t = decode_ok(1,
		"{'shape': (4,), 'fortran_order': False, 'descr': '|b1'}\n", v, sizeof v,
		DTYPE_INVALID);

	(void)state;
	assert_int_equal(t->dtype, DTYPE_BOOL);
	assert_int_equal(t->n, 4);
	assert_true(td_tensor_get(t, 1) == 0.0);
	td_tensor_free(t);
}

struct dtype_case {
	const char *descr;
	enum td_dtype dtype;
};

static void
test_npy_every_descr_maps_to_its_dtype(void **state)
{
	static const struct dtype_case cases[] = {
		{ "|b1", DTYPE_BOOL }, { "|i1", DTYPE_INT8 }, { "|u1", DTYPE_UINT8 },
		{ "<i2", DTYPE_INT16 }, { "<i4", DTYPE_INT32 }, { "<i8", DTYPE_INT64 },
		{ "<u2", DTYPE_UINT16 }, { "<u4", DTYPE_UINT32 }, { "<u8", DTYPE_UINT64 },
		{ "<f2", DTYPE_FLOAT16 }, { "<f4", DTYPE_FLOAT32 }, { "<f8", DTYPE_FLOAT64 },
		{ "<c8", DTYPE_COMPLEX64 }, { "<c16", DTYPE_COMPLEX128 }, { "<T2", DTYPE_BFLOAT16 },
	};
	uint8_t data[32] = {0};
	size_t i;

	(void)state;
	for (i = 0; i < TD_ARRAY_SIZE(cases); i++) {
		char dict[128];
		struct td_tensor *t;

		snprintf(dict, sizeof dict,
			 "{'descr': '%s', 'fortran_order': False, 'shape': (2,), }\n",
			 cases[i].descr);
		t = decode_ok(1, dict, data, 2 * td_dtype_size(cases[i].dtype), DTYPE_INVALID);
		assert_int_equal(t->dtype, cases[i].dtype);
		assert_int_equal(t->n, 2);
		td_tensor_free(t);
	}
}

static void
test_npy_bfloat16_T2_value_is_upper_half_of_float32(void **state)
{
	uint16_t v[2] = { 0x3fc0, 0xc000 };   /* 1.5, -2.0 */
	struct td_tensor *t = decode_ok(1,
		"{'descr': '<T2', 'fortran_order': False, 'shape': (2,), }\n", v, sizeof v,
		DTYPE_INVALID);

	(void)state;
	assert_int_equal(t->dtype, DTYPE_BFLOAT16);
	assert_true(td_tensor_get(t, 0) == 1.5);
	assert_true(td_tensor_get(t, 1) == -2.0);
	td_tensor_free(t);
}

static void
test_npy_V2_is_bfloat16_only_with_a_name_hint(void **state)
{
	uint16_t v[1] = { 0x3f80 };
	const char *dict = "{'descr': '|V2', 'fortran_order': False, 'shape': (1,), }\n";
	struct td_tensor *t = decode_ok(1, dict, v, sizeof v, DTYPE_BFLOAT16);
	char err[128];
	size_t len;
	uint8_t *b;

	(void)state;
	assert_int_equal(t->dtype, DTYPE_BFLOAT16);
	assert_true(td_tensor_get(t, 0) == 1.0);
	td_tensor_free(t);
	b = make_npy(1, dict, v, sizeof v, &len);
	assert_int_equal(decode_status(b, len, err, sizeof err), TD_ERR_UNSUPPORTED);
	free(b);
}

static void
test_npy_big_endian_is_byte_swapped(void **state)
{
	uint8_t v[8] = { 0x3f, 0x80, 0, 0, 0xc0, 0x40, 0, 0 };   /* 1.0f, -3.0f BE */
	uint8_t i16[4] = { 0x01, 0x02, 0xff, 0xfe };             /* 258, -2 BE */
	struct td_tensor *t = decode_ok(1,
		"{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }\n", v, sizeof v,
		DTYPE_INVALID);

	(void)state;
	assert_true(td_tensor_get(t, 0) == 1.0);
	assert_true(td_tensor_get(t, 1) == -3.0);
	td_tensor_free(t);
	t = decode_ok(1, "{'descr': '>i2', 'fortran_order': False, 'shape': (2,), }\n", i16,
		      sizeof i16, DTYPE_INVALID);
	assert_true(td_tensor_get(t, 0) == 258.0);
	assert_true(td_tensor_get(t, 1) == -2.0);
	td_tensor_free(t);
}

static void
test_npy_fortran_order_is_transposed_to_c_order(void **state)
{
	/* [[1,2,3],[4,5,6]] stored column-major: 1 4 2 5 3 6 */
	int16_t v[6] = { 1, 4, 2, 5, 3, 6 };
	struct td_tensor *t = decode_ok(1,
		"{'descr': '<i2', 'fortran_order': True, 'shape': (2, 3), }\n", v, sizeof v,
		DTYPE_INVALID);
	int i;

	(void)state;
	for (i = 0; i < 6; i++)
		assert_true(td_tensor_get(t, i) == i + 1);
	td_tensor_free(t);
}

static void
test_npy_empty_tensor_has_no_data(void **state)
{
	struct td_tensor *t = decode_ok(1,
		"{'descr': '<f4', 'fortran_order': False, 'shape': (0,3,), }\n", NULL, 0,
		DTYPE_INVALID);

	(void)state;
	assert_int_equal(t->n, 0);
	assert_int_equal(t->rank, 2);
	td_tensor_free(t);
}

static void
test_npy_bad_magic_is_corrupt(void **state)
{
	float v = 1;
	char err[128];
	size_t len;
	uint8_t *b = make_npy(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (), }\n",
			      &v, sizeof v, &len);

	(void)state;
	b[1] = 'X';
	assert_int_equal(decode_status(b, len, err, sizeof err), TD_ERR_CORRUPT);
	assert_non_null(strstr(err, "magic"));
	free(b);
}

static void
test_npy_hlen_past_end_is_truncated(void **state)
{
	float v = 1;
	char err[128];
	size_t len;
	uint8_t *b = make_npy(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (), }\n",
			      &v, sizeof v, &len);

	(void)state;
	b[9] = 0x7f;
	assert_int_equal(decode_status(b, len, err, sizeof err), TD_ERR_TRUNCATED);
	assert_non_null(strstr(err, "past the end"));
	free(b);
}

static void
test_npy_missing_shape_key_is_corrupt(void **state)
{
	char err[128];
	size_t len;
	uint8_t *b = make_npy(1, "{'descr': '<f4', 'fortran_order': False}\n", NULL, 0, &len);

	(void)state;
	assert_int_equal(decode_status(b, len, err, sizeof err), TD_ERR_CORRUPT);
	assert_non_null(strstr(err, "shape"));
	free(b);
}

static void
test_npy_short_data_is_truncated(void **state)
{
	float v[5] = {0};
	char err[128];
	size_t len;
	uint8_t *b = make_npy(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2,3,), }\n",
			      v, sizeof v, &len);

	(void)state;
	assert_int_equal(decode_status(b, len, err, sizeof err), TD_ERR_TRUNCATED);
	free(b);
}

static void
test_npy_unknown_version_and_descr_are_unsupported(void **state)
{
	char err[128];
	size_t len;
	uint8_t *b = make_npy(4, "{'descr': '<f4', 'fortran_order': False, 'shape': (), }\n",
			      "abcd", 4, &len);

	(void)state;
	assert_int_equal(decode_status(b, len, err, sizeof err), TD_ERR_UNSUPPORTED);
	free(b);
	b = make_npy(1, "{'descr': '<U8', 'fortran_order': False, 'shape': (), }\n", "abcdefgh",
		     8, &len);
	assert_int_equal(decode_status(b, len, err, sizeof err), TD_ERR_UNSUPPORTED);
	free(b);
}

static void
test_npy_garbage_shape_is_corrupt(void **state)
{
	char err[128];
	size_t len;
	uint8_t *b = make_npy(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2,x), }\n",
			      NULL, 0, &len);

	(void)state;
	assert_int_equal(decode_status(b, len, err, sizeof err), TD_ERR_CORRUPT);
	free(b);
}

static void
test_npy_fixture_file_decodes(void **state)
{
	char err[256] = "";
	struct td_tensor *t = NULL;

	(void)state;
	assert_int_equal(npy_read_file("tests/fixtures/mindspore/sync_lenet/rank_0/Lenet/0/constants/"
				       "Parameter.data-1.0.0.1700000000000000.output.0.DefaultFormat.npy",
				       DTYPE_INVALID, &t, err, sizeof err), TD_OK);
	assert_int_equal(t->rank, 0);
	assert_true(td_tensor_get(t, 0) == 1.0);
	td_tensor_free(t);
}

static void
test_npy_read_header_of_a_long_v2_header(void **state)
{
	char dict[10001], err[256] = "", path[] = "/tmp/tdbg-npy-XXXXXX";
	float v[3] = { 1, 2, 3 };
	struct npy_header h;
	uint64_t size;
	size_t len;
	uint8_t *b;
	int fd;

	(void)state;
	memset(dict, ' ', sizeof dict - 1);
	dict[sizeof dict - 1] = '\0';
	memcpy(dict, "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }", 57);
	dict[sizeof dict - 2] = '\n';
	b = make_npy(2, dict, v, sizeof v, &len);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, b, len), (ssize_t)len);
	close(fd);
	assert_int_equal(npy_read_header(path, DTYPE_INVALID, &h, &size, err, sizeof err), TD_OK);
	assert_int_equal(h.major, 2);
	assert_int_equal(h.n, 3);
	assert_int_equal(h.data_offset, 12 + 10000);
	assert_int_equal(size, len);
	unlink(path);
	free(b);
}

/* Writes an .npy image to a temp file; returns the path (caller frees). */
static char *
write_tmp_npy(int major, const char *dict, const void *data, size_t dlen)
{
	char *path = xstrdup("/tmp/tdbg-npy-XXXXXX");
	size_t len;
	uint8_t *b = make_npy(major, dict, data, dlen, &len);
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, b, len), (ssize_t)len);
	close(fd);
	free(b);
	return path;
}

static void
test_npy_summarize_file_streams_chunks_like_a_full_read(void **state)
{
	const int64_t n = 1500000;   /* 6 MB: more than one 4 MiB chunk */
	float *v = malloc((size_t)n * sizeof(*v));
	struct td_summary whole, streamed;
	struct td_tensor *t;
	char err[256] = "", *path;
	int64_t i;

	(void)state;
	for (i = 0; i < n; i++)
		v[i] = (float)(i % 7) - 3.0f;
	v[10] = NAN;
	v[n - 1] = NAN;
	v[1100000] = -INFINITY;
	path = write_tmp_npy(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (1500000,), }\n",
			     v, (size_t)n * sizeof(*v));
	assert_int_equal(npy_summarize_file(path, DTYPE_INVALID, &streamed, err, sizeof err), TD_OK);
	assert_int_equal(npy_read_file(path, DTYPE_INVALID, &t, err, sizeof err), TD_OK);
	td_tensor_summarize(t, &whole);
	assert_int_equal(streamed.elements, n);
	assert_int_equal(streamed.nan, 2);
	assert_int_equal(streamed.neg_inf, 1);
	assert_int_equal(streamed.nan, whole.nan);
	assert_int_equal(streamed.negative, whole.negative);
	assert_int_equal(streamed.zero, whole.zero);
	assert_int_equal(streamed.positive, whole.positive);
	assert_true(streamed.min == -3.0 && streamed.max == 3.0);
	assert_true(fabs(streamed.mean - whole.mean) < 1e-9);
	assert_int_equal(streamed.rank, 1);
	assert_int_equal(streamed.dims[0], n);
	assert_true(streamed.has_inf_or_nan);
	td_tensor_free(t);
	unlink(path);
	free(path);
	free(v);
}

/* A .npy whose middle is a hole of a sparse file (8 MiB of zeros, never
 * written) gives the summary of the same bytes written out: the hole is
 * counted as zeros without being read. */
static void
test_npy_summarize_file_sparse_hole_counts_as_zeros(void **state)
{
	const int64_t n = 2100000;   /* 8.4 MB */
	float *v = calloc((size_t)n, sizeof(*v));
	struct td_summary dense, sparse;
	char err[256] = "", *path, *sparse_path;
	uint8_t *bytes;
	size_t len, head;
	struct stat st;
	FILE *fp;
	int fd;

	(void)state;
	v[0] = 1.0f; v[1] = -2.0f; v[2] = NAN; v[3] = 3.0f;
	v[n - 4] = 5.0f; v[n - 3] = -INFINITY; v[n - 2] = 0.5f; v[n - 1] = -7.0f;
	path = write_tmp_npy(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2100000,), }\n",
			     v, (size_t)n * sizeof(*v));
	assert_int_equal(npy_summarize_file(path, DTYPE_INVALID, &dense, err, sizeof err), TD_OK);
	/* the same bytes with the zeros between the ends left as a hole */
	fp = fopen(path, "rb");
	assert_non_null(fp);
	fseek(fp, 0, SEEK_END);
	len = (size_t)ftell(fp);
	rewind(fp);
	bytes = malloc(len);
	assert_int_equal(fread(bytes, 1, len, fp), len);
	fclose(fp);
	head = len - (size_t)n * sizeof(*v) + 16;
	sparse_path = xasprintf("%s.sparse", path);
	fd = open(sparse_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	assert_int_equal(pwrite(fd, bytes, head, 0), (ssize_t)head);
	assert_int_equal(pwrite(fd, bytes + len - 16, 16, (off_t)(len - 16)), 16);
	close(fd);
	assert_int_equal(stat(sparse_path, &st), 0);
	assert_int_equal(st.st_size, (off_t)len);
	assert_int_equal(npy_summarize_file(sparse_path, DTYPE_INVALID, &sparse, err, sizeof err), TD_OK);
	assert_int_equal(sparse.elements, n);
	assert_int_equal(sparse.zero, n - 8);   /* 8 values written, one a NaN, one -inf */
	assert_int_equal(sparse.zero, dense.zero);
	assert_int_equal(sparse.negative, dense.negative);
	assert_int_equal(sparse.positive, dense.positive);
	assert_int_equal(sparse.nan, 1);
	assert_int_equal(sparse.neg_inf, 1);
	assert_true(sparse.min == -7.0 && sparse.max == 5.0);
	assert_true(fabs(sparse.mean - dense.mean) < 1e-12);
	assert_true(fabs(sparse.l2norm - dense.l2norm) < 1e-9);
	unlink(sparse_path);
	unlink(path);
	free(sparse_path);
	free(path);
	free(bytes);
	free(v);
}

static void
test_npy_summarize_file_big_endian_and_short_data(void **state)
{
	uint8_t be[8] = { 0x7f, 0xc0, 0, 0, 0xc0, 0x40, 0, 0 };   /* NaN, -3.0 */
	struct td_summary s;
	char err[256] = "", *path;

	(void)state;
	path = write_tmp_npy(1, "{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }\n", be, 8);
	assert_int_equal(npy_summarize_file(path, DTYPE_INVALID, &s, err, sizeof err), TD_OK);
	assert_int_equal(s.nan, 1);
	assert_int_equal(s.negative, 1);
	assert_true(s.min == -3.0);
	unlink(path);
	free(path);
	path = write_tmp_npy(1, "{'descr': '>f4', 'fortran_order': False, 'shape': (3,), }\n", be, 8);
	assert_int_equal(npy_summarize_file(path, DTYPE_INVALID, &s, err, sizeof err),
			 TD_ERR_TRUNCATED);
	unlink(path);
	free(path);
}

static void
test_npy_read_file_fortran_big_endian(void **state)
{
	/* [[1,2,3],[4,5,6]] int16, column-major, big-endian: 1 4 2 5 3 6 */
	uint8_t v[12] = { 0, 1, 0, 4, 0, 2, 0, 5, 0, 3, 0, 6 };
	char err[256] = "", *path;
	struct td_tensor *t;
	int i;

	(void)state;
	path = write_tmp_npy(1, "{'descr': '>i2', 'fortran_order': True, 'shape': (2, 3), }\n", v, 12);
	assert_int_equal(npy_read_file(path, DTYPE_INVALID, &t, err, sizeof err), TD_OK);
	for (i = 0; i < 6; i++)
		assert_true(td_tensor_get(t, i) == i + 1);
	td_tensor_free(t);
	unlink(path);
	free(path);
	path = write_tmp_npy(1, "{'descr': '>i2', 'fortran_order': True, 'shape': (2, 4), }\n", v, 12);
	assert_int_equal(npy_read_file(path, DTYPE_INVALID, &t, err, sizeof err), TD_ERR_TRUNCATED);
	assert_null(t);
	unlink(path);
	free(path);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_npy_v1_mindspore_shape_with_trailing_commas),
		cmocka_unit_test(test_npy_v2_numpy_shape_with_spaces),
		cmocka_unit_test(test_npy_v3_scalar_shape),
		cmocka_unit_test(test_npy_keys_in_any_order),
		cmocka_unit_test(test_npy_every_descr_maps_to_its_dtype),
		cmocka_unit_test(test_npy_bfloat16_T2_value_is_upper_half_of_float32),
		cmocka_unit_test(test_npy_V2_is_bfloat16_only_with_a_name_hint),
		cmocka_unit_test(test_npy_big_endian_is_byte_swapped),
		cmocka_unit_test(test_npy_fortran_order_is_transposed_to_c_order),
		cmocka_unit_test(test_npy_empty_tensor_has_no_data),
		cmocka_unit_test(test_npy_bad_magic_is_corrupt),
		cmocka_unit_test(test_npy_hlen_past_end_is_truncated),
		cmocka_unit_test(test_npy_missing_shape_key_is_corrupt),
		cmocka_unit_test(test_npy_short_data_is_truncated),
		cmocka_unit_test(test_npy_unknown_version_and_descr_are_unsupported),
		cmocka_unit_test(test_npy_garbage_shape_is_corrupt),
		cmocka_unit_test(test_npy_fixture_file_decodes),
		cmocka_unit_test(test_npy_read_header_of_a_long_v2_header),
		cmocka_unit_test(test_npy_summarize_file_streams_chunks_like_a_full_read),
		cmocka_unit_test(test_npy_summarize_file_sparse_hole_counts_as_zeros),
		cmocka_unit_test(test_npy_summarize_file_big_endian_and_short_data),
		cmocka_unit_test(test_npy_read_file_fortran_big_endian),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
