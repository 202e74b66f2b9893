/*
 * fuzz_ms_stat_stream.c - libFuzzer target: statistic.csv and mapping.csv
 * streamed from a file (reader/base/fileio.c td_lines, ms_stat.c
 * ms_stat_read, ms_side.c ms_mapping_read), issue 13.
 *
 * Input: one byte choosing the line cap (16 + 4 * byte, so lines cross the
 * cap and the buffer's refills), then the file.  The file is written to a
 * temporary path and streamed; when no line was over the cap the result
 * must equal ms_stat_parse / ms_mapping_parse of the same bytes in memory
 * (a difference aborts: the streaming lost or invented a row).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "reader/mindspore/ms_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char path[64];

static void
write_input(const uint8_t *data, size_t size)
{
	FILE *f;

	if (!path[0]) {
		int fd;

		snprintf(path, sizeof path, "/tmp/fuzz_ms_stat_XXXXXX");
		if ((fd = mkstemp(path)) < 0)
			abort();
		close(fd);
	}
	if (!(f = fopen(path, "wb")) || fwrite(data, 1, size, f) != size)
		abort();
	fclose(f);
}

static void
same_rows(const struct ms_stat *a, const struct ms_stat *b)
{
	size_t i;

	if (a->n != b->n || a->bad_rows != b->bad_rows || a->ncolumns != b->ncolumns)
		abort();
	for (i = 0; i < a->n; i++)
		if (a->rows[i].ts != b->rows[i].ts || a->rows[i].slot != b->rows[i].slot ||
		    strcmp(a->rows[i].op_name, b->rows[i].op_name) != 0)
			abort();
}

static void
check_stat(const uint8_t *data, size_t size, size_t cap)
{
	struct ms_stat streamed = {0}, whole;
	char err[256];
	enum td_status a = ms_stat_read(path, cap, &streamed, err, sizeof err);
	enum td_status b = ms_stat_parse((const char *)data, size, &whole, err, sizeof err);

	if (streamed.long_lines == 0) {
		if (a != b)
			abort();
		if (a == TD_OK)
			same_rows(&streamed, &whole);
	}
	for (size_t i = 0; a == TD_OK && i < streamed.n && i < 64; i++)
		(void)ms_stat_find(&streamed, NULL, streamed.rows[i].ts, streamed.rows[i].is_input,
				   streamed.rows[i].slot);
	ms_stat_done(&streamed);
	ms_stat_done(&whole);
}

static void
check_mapping(const uint8_t *data, size_t size)
{
	struct ms_mapping streamed, whole;
	size_t i;

	ms_mapping_read(NULL, path, &streamed);
	ms_mapping_parse((const char *)data, size, &whole);
	if (streamed.n != whole.n)
		abort();
	for (i = 0; i < whole.n; i++)
		if (strcmp(streamed.numbers[i], whole.numbers[i]) != 0 ||
		    strcmp(streamed.names[i], whole.names[i]) != 0)
			abort();
	ms_mapping_done(&streamed);
	ms_mapping_done(&whole);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	write_input(data + 1, size - 1);
	check_stat(data + 1, size - 1, 16 + 4 * (size_t)data[0]);
	check_mapping(data + 1, size - 1);
	return 0;
}
