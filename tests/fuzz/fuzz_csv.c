/*
 * fuzz_csv.c - libFuzzer target: CSV splitting and the MindSpore CSV files
 * built on it (reader/csv.c, statistic.csv and mapping.csv in ms_stat.c /
 * ms_names.c), plus the tensor file-name grammar on each line.
 *
 * The input is the text of one file.  It is split line by line, parsed as
 * statistic.csv and as mapping.csv, and every line is tried as a tensor file
 * name (through the mapping just parsed) and as a Shape cell.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "reader/parse/csv.h"
#include "reader/mindspore/ms_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
each_line(const char *text, size_t size, const struct ms_mapping *map)
{
	struct csv_row row = { 0 };
	size_t pos = 0, len;
	const char *line;
	int n = 0;

	while ((line = csv_next_line(text, size, &pos, &len)) && n++ < 4096) {
		char *z = malloc(len + 1);
		struct ms_name name;
		struct td_summary s;
		if (!z)
			break;
		memcpy(z, line, len);
		z[len] = 0;
		(void)csv_split(line, len, &row);
		if (ms_name_parse(z, map, &name))
			ms_name_done(&name);
		memset(&s, 0, sizeof s);
		(void)ms_stat_parse_shape(z, &s);
		free(ms_name_file_form(z));
		(void)ms_name_op_tail(z);
		(void)ms_dtype_from_word(z);
		free(z);
	}
	csv_row_done(&row);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* The parsers take text with a length; give them a copy with no NUL
	 * after it so an overread is caught. */
	char *text = malloc(size ? size : 1);
	struct ms_stat st;
	struct ms_mapping map;
	char err[256];

	if (!text)
		return 0;
	memcpy(text, data, size);
	memset(&st, 0, sizeof st);
	if (ms_stat_parse(text, size, &st, err, sizeof err) == TD_OK)
		(void)ms_stat_find(&st, NULL, 0, false, 0);
	ms_stat_done(&st);
	memset(&map, 0, sizeof map);
	ms_mapping_parse(text, size, &map);
	each_line(text, size, &map);
	ms_mapping_done(&map);
	free(text);
	return 0;
}
