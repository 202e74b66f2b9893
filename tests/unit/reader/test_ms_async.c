/*
 * test_ms_async.c - DumpData bin files (reader/mindspore/FORMAT.md §11) and Opdebug overflow records
 * (§12): the async_small fixture plus corrupt copies built byte by byte.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "reader/mindspore/ms_internal.h"

#define IT0 "tests/fixtures/mindspore/async_small/rank_0/Net/0/0/"
#define ADD IT0 "Add.Default_Add-op1.1.2.1700000000000010"

/* Writes len bytes to a new temp file; returns its path (caller frees). */
static char *
tmp_file(const void *data, size_t len)
{
	char *path = xstrdup("/tmp/tdbg-ms-bin-XXXXXX");
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, data, len), (ssize_t)len);
	close(fd);
	return path;
}

static uint8_t *
read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;

	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	*len = (size_t)ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc(*len);
	assert_int_equal(fread(buf, 1, *len, f), *len);
	fclose(f);
	return buf;
}

static void
test_ms_bin_reads_inputs_then_outputs(void **state)
{
	struct ms_bin b;
	char err[256] = "";
	struct td_tensor *t;

	(void)state;
	assert_int_equal(ms_bin_read(ADD, &b, err, sizeof err), TD_OK);
	assert_string_equal(b.op_name, "Default/Add-op1");
	assert_int_equal(b.n, 3);
	assert_true(b.t[0].is_input && b.t[0].slot == 0);
	assert_true(b.t[1].is_input && b.t[1].slot == 1);
	assert_false(b.t[2].is_input);
	assert_int_equal(b.t[2].dtype, DTYPE_FLOAT32);
	assert_int_equal(b.t[2].rank, 2);
	assert_int_equal(b.t[2].dims[1], 3);
	assert_int_equal(b.t[0].size, 24);
	assert_int_equal(b.t[1].offset, b.t[0].offset + 24);
	assert_int_equal(b.t[2].offset + 24, b.file_size);
	assert_int_equal(ms_bin_tensor_value(ADD, &b.t[2], &t, err, sizeof err), TD_OK);
	assert_true(td_tensor_get(t, 0) == 2.0 && td_tensor_get(t, 5) == 12.0);
	td_tensor_free(t);
	ms_bin_done(&b);
}

static void
test_ms_bin_header_length_past_end_is_truncated(void **state)
{
	uint8_t bad[16] = { 0xff, 0xff, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8 };
	char *p = tmp_file(bad, sizeof bad), err[256];
	struct ms_bin b;

	(void)state;
	assert_int_equal(ms_bin_read(p, &b, err, sizeof err), TD_ERR_TRUNCATED);
	assert_non_null(strstr(err, "past the end"));
	unlink(p);
	free(p);
}

static void
test_ms_bin_undecodable_header_is_a_decode_error(void **state)
{
	uint8_t bad[12] = { 4, 0, 0, 0, 0, 0, 0, 0, 0x0a, 0x7f, 0xff, 0xff };
	char *p = tmp_file(bad, sizeof bad), err[256];
	struct ms_bin b;

	(void)state;
	assert_int_equal(ms_bin_read(p, &b, err, sizeof err), TD_ERR_DECODE);
	unlink(p);
	free(p);
}

static void
test_ms_bin_sizes_past_the_data_are_truncated(void **state)
{
	size_t len;
	uint8_t *buf = read_all(ADD, &len);
	char *p = tmp_file(buf, len - 10), err[256];
	struct ms_bin b;

	(void)state;
	assert_int_equal(ms_bin_read(p, &b, err, sizeof err), TD_ERR_TRUNCATED);
	unlink(p);
	free(p);
	free(buf);
}

static void
test_ms_bin_dtype_numbers(void **state)
{
	(void)state;
	assert_int_equal(ms_bin_dtype(1), DTYPE_FLOAT32);
	assert_int_equal(ms_bin_dtype(2), DTYPE_FLOAT16);
	assert_int_equal(ms_bin_dtype(11), DTYPE_BOOL);
	assert_int_equal(ms_bin_dtype(12), DTYPE_FLOAT64);
	assert_int_equal(ms_bin_dtype(27), DTYPE_BFLOAT16);
	assert_int_equal(ms_bin_dtype(13), DTYPE_INVALID);   /* DT_STRING */
}

static void
test_ms_overflow_bin_record_ai_core(void **state)
{
	struct ms_overflow ov[3];
	char err[256] = "";
	size_t n, i, hits = 0;

	(void)state;
	n = ms_overflow_read(IT0 "Opdebug.Node_OpDebug.7.2.1700000000000040", false, ov, err,
			     sizeof err);
	assert_int_equal(n, 3);
	for (i = 0; i < n; i++)
		if (ov[i].status) {
			hits++;
			assert_string_equal(ov[i].section, "AI Core");
			assert_int_equal(ov[i].status, 0x800);
			assert_int_equal(ov[i].stream_id, 2);
			assert_int_equal(ov[i].task_id, 2);
		}
	assert_int_equal(hits, 1);
}

static void
test_ms_overflow_json_nonzero_status(void **state)
{
	const char *json = "{\"AI Core\":{\"block_idx\":0,\"kernel_code\":\"0x12c0a8000\","
			   "\"model_id\":1,\"para_base\":\"0x12c0b1000\",\"pc_start\":\"0x12c0a8000\","
			   "\"status\":2048,\"stream_id\":5,\"task_id\":20,\"task_type\":0},"
			   "\"DHA Atomic Add\":{\"model_id\":1,\"para_base\":\"0x0\",\"pc_start\":\"0x0\","
			   "\"status\":0,\"stream_id\":2,\"task_id\":20,\"task_type\":0}}\n";
	char *p = tmp_file(json, strlen(json)), err[256] = "";
	struct ms_overflow ov[3];
	size_t n;

	(void)state;
	n = ms_overflow_read(p, true, ov, err, sizeof err);
	assert_int_equal(n, 2);
	assert_string_equal(ov[1].section, "AI Core");
	assert_int_equal(ov[1].status, 2048);
	assert_int_equal(ov[1].stream_id, 5);
	assert_int_equal(ov[1].task_id, 20);
	assert_int_equal(ov[0].status, 0);
	unlink(p);
	free(p);
}

static void
test_ms_overflow_json_without_sections_is_an_error(void **state)
{
	const char *json = "{\"nothing\":1}\n";
	char *p = tmp_file(json, strlen(json)), err[256] = "";
	struct ms_overflow ov[3];

	(void)state;
	assert_int_equal(ms_overflow_read(p, true, ov, err, sizeof err), 0);
	assert_non_null(strstr(err, "AI Core"));
	unlink(p);
	free(p);
}

/* issue 13: a file whose fstat size is under 8 bytes while a read gives 8
 * (a /proc file linked into the dump) must not wrap file_size - 8 and
 * allocate the header length it reads */
static void
test_ms_bin_size_below_header_is_truncated(void **state)
{
	struct ms_bin b;
	char err[256];

	(void)state;
	assert_int_equal(ms_bin_read("/proc/self/stat", &b, err, sizeof err), TD_ERR_TRUNCATED);
	assert_non_null(strstr(err, "past the end"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ms_bin_reads_inputs_then_outputs),
		cmocka_unit_test(test_ms_bin_header_length_past_end_is_truncated),
		cmocka_unit_test(test_ms_bin_undecodable_header_is_a_decode_error),
		cmocka_unit_test(test_ms_bin_sizes_past_the_data_are_truncated),
		cmocka_unit_test(test_ms_bin_dtype_numbers),
		cmocka_unit_test(test_ms_overflow_bin_record_ai_core),
		cmocka_unit_test(test_ms_overflow_json_nonzero_status),
		cmocka_unit_test(test_ms_overflow_json_without_sections_is_an_error),
		cmocka_unit_test(test_ms_bin_size_below_header_is_truncated),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
