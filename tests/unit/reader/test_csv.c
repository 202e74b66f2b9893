/*
 * test_csv.c - CSV line splitting and statistic.csv column mapping (reader/mindspore/FORMAT.md §7).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "reader/parse/csv.h"
#include "reader/mindspore/ms_internal.h"

static void
test_csv_quoted_field_keeps_commas(void **state)
{
	struct csv_row r = {0};
	const char *line = "MatMul,op,\"(2,400)\",1.5\r\n";

	(void)state;
	assert_int_equal(csv_split(line, strlen(line), &r), TD_OK);
	assert_int_equal(r.n, 4);
	assert_string_equal(r.fields[2], "(2,400)");
	assert_string_equal(r.fields[3], "1.5");
	csv_row_done(&r);
}

static void
test_csv_doubled_quote_and_empty_fields(void **state)
{
	struct csv_row r = {0};
	const char *line = "a,,\"say \"\"hi\"\"\",";

	(void)state;
	assert_int_equal(csv_split(line, strlen(line), &r), TD_OK);
	assert_int_equal(r.n, 4);
	assert_string_equal(r.fields[1], "");
	assert_string_equal(r.fields[2], "say \"hi\"");
	assert_string_equal(r.fields[3], "");
	csv_row_done(&r);
}

static void
test_csv_unterminated_quote_is_corrupt(void **state)
{
	struct csv_row r = {0};
	const char *line = "a,\"(2,3";

	(void)state;
	assert_int_equal(csv_split(line, strlen(line), &r), TD_ERR_CORRUPT);
	csv_row_done(&r);
}

static void
test_csv_row_reused_for_longer_and_shorter_lines(void **state)
{
	struct csv_row r = {0};
	const char *a = "x,y", *b = "\"a,b\",,\"q\"\"\",tail-field-longer", *c = "1";

	(void)state;
	assert_int_equal(csv_split(a, strlen(a), &r), TD_OK);
	assert_int_equal(r.n, 2);
	assert_string_equal(r.fields[1], "y");
	assert_int_equal(csv_split(b, strlen(b), &r), TD_OK);
	assert_int_equal(r.n, 4);
	assert_string_equal(r.fields[0], "a,b");
	assert_string_equal(r.fields[1], "");
	assert_string_equal(r.fields[2], "q\"");
	assert_string_equal(r.fields[3], "tail-field-longer");
	assert_int_equal(csv_split(c, strlen(c), &r), TD_OK);
	assert_int_equal(r.n, 1);
	assert_string_equal(r.fields[0], "1");
	/* text after a closing quote: corrupt, the fields read so far kept */
	assert_int_equal(csv_split("x,\"a\"\"\"b,c", 11, &r), TD_ERR_CORRUPT);
	assert_int_equal(r.n, 2);
	assert_string_equal(r.fields[0], "x");
	assert_string_equal(r.fields[1], "a\"");
	assert_int_equal(csv_split("a\"b,,\r\n", 7, &r), TD_OK);
	assert_int_equal(r.n, 3);
	assert_string_equal(r.fields[0], "a\"b");
	assert_string_equal(r.fields[2], "");
	csv_row_done(&r);
}

/* The next of a fixed pseudo-random sequence (the tests repeat). */
static uint32_t
lcg(uint32_t *x)
{
	*x = *x * 1664525u + 1013904223u;
	return *x >> 8;
}

/* csv.h's rules byte by byte: line's fields into f (n of them); -1 for
 * an unclosed quote or text after a closing one (the fields so far). */
static int
ref_split(const char *line, size_t len, char f[][72], size_t *n)
{
	size_t i = 0, w;

	while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		len--;
	for (*n = 0;; i++) {
		char *o = f[(*n)++];

		w = 0;
		if (i < len && line[i] == '"') {
			for (i++;; i++) {
				if (i >= len) {
					o[w] = '\0';
					return -1;
				}
				if (line[i] == '"' && i + 1 < len && line[i + 1] == '"')
					o[w++] = line[i++];
				else if (line[i] == '"')
					break;
				else
					o[w++] = line[i];
			}
			o[w] = '\0';
			if (++i < len && line[i] != ',')
				return -1;
		} else {
			while (i < len && line[i] != ',')
				o[w++] = line[i++];
			o[w] = '\0';
		}
		if (i >= len)
			return 0;
	}
}

static void
test_csv_split_matches_a_byte_by_byte_split(void **state)
{
	static const char alphabet[] = "ab,,\"\r\n9 ";
	char line[72], want[72][72];
	struct csv_row r = {0};
	uint32_t seed = 25;
	size_t k, i, n;

	(void)state;
	/* lines of 0 to 70 bytes: fields that end on, before and after a
	 * word boundary of the comma scan, quoted ones, CRs inside and at
	 * the end; each split into the same row, reused */
	for (k = 0; k < 20000; k++) {
		size_t len = lcg(&seed) % 71;
		int rc;

		for (i = 0; i < len; i++)
			line[i] = alphabet[lcg(&seed) % (sizeof alphabet - 1)];
		rc = ref_split(line, len, want, &n);
		assert_int_equal(csv_split(line, len, &r), rc ? TD_ERR_CORRUPT : TD_OK);
		assert_int_equal(r.n, n);
		for (i = 0; i < n; i++)
			assert_string_equal(r.fields[i], want[i]);
	}
	csv_row_done(&r);
}

static const char classic_header[] =
	"Op Type,Op Name,Task ID,Stream ID,Timestamp,IO,Slot,Data Size,Data Type,Shape,"
	"Max Value,Min Value,Avg Value,Count,Negative Zero Count,Positive Zero Count,"
	"NaN Count,Negative Inf Count,Positive Inf Count,Zero Count\n";

static void
test_stat_classic_row_maps_counts(void **state)
{
	/* The fixture's MatMul-op10 output row of iteration 1. */
	char text[2048];
	struct ms_stat st;
	const struct ms_stat_row *r;
	char err[128];

	(void)state;
	snprintf(text, sizeof text, "%sMatMul,Default_x_MatMul-op10,0,0,1700000002000217,output,"
		 "0,960,float32,\"(2,120)\",1.36813,-1.20678,-0.0070703,240,132,106,2,1,0,0\n",
		 classic_header);
	assert_int_equal(ms_stat_parse(text, strlen(text), &st, err, sizeof err), TD_OK);
	assert_int_equal(st.n, 1);
	r = ms_stat_find(&st, "MatMul", 1700000002000217ull, false, 0);
	assert_non_null(r);
	assert_int_equal(r->summary.dtype, DTYPE_FLOAT32);
	assert_int_equal(r->summary.rank, 2);
	assert_int_equal(r->summary.dims[1], 120);
	assert_int_equal(r->summary.elements, 240);
	assert_int_equal(r->summary.nan, 2);
	assert_int_equal(r->summary.neg_inf, 1);
	assert_int_equal(r->summary.pos_inf, 0);
	/* "Negative Zero Count" is < 0 including the -inf: 132 - 1 finite */
	assert_int_equal(r->summary.negative, 131);
	assert_int_equal(r->summary.positive, 106);
	assert_true(r->summary.has_inf_or_nan);
	assert_true(r->summary.max > 1.368 && r->summary.max < 1.369);
	assert_null(ms_stat_find(&st, "MatMul", 1700000002000217ull, true, 0));
	ms_stat_done(&st);
}

static void
test_stat_null_values_stay_unknown(void **state)
{
	char text[2048];
	struct ms_stat st;
	char err[128];

	(void)state;
	snprintf(text, sizeof text, "%sAdd,a,0,0,5,output,0,8,float32,\"(2)\",null,null,null,"
		 "2,0,0,2,0,0,0\n", classic_header);
	assert_int_equal(ms_stat_parse(text, strlen(text), &st, err, sizeof err), TD_OK);
	assert_int_equal(st.n, 1);
	assert_false(st.rows[0].summary.known & SUM_MINMAX);
	assert_false(st.rows[0].summary.known & SUM_MEAN);
	assert_int_equal(st.rows[0].summary.nan, 2);
	ms_stat_done(&st);
}

static void
test_stat_device_variant_and_unknown_columns(void **state)
{
	const char *text =
		"Op Type,Op Name,Task ID,Stream ID,Timestamp,IO,Slot,Data Size,Data Type,Shape,"
		"Max Value,Min Value,Avg Value,L2Norm Value,Count,Fancy\n"
		"Conv2D,c,1,2,9,input,1,24,float16,\"(2, 3)\",8,-1,0.5,3.2,6,zz\n";
	struct ms_stat st;
	char err[128];
	const struct ms_stat_row *r;

	(void)state;
	assert_int_equal(ms_stat_parse(text, strlen(text), &st, err, sizeof err), TD_OK);
	r = ms_stat_find(&st, NULL, 9, true, 1);
	assert_non_null(r);
	assert_int_equal(r->task, 1);
	assert_int_equal(r->stream, 2);
	assert_int_equal(r->summary.dtype, DTYPE_FLOAT16);
	assert_int_equal(r->summary.elements, 6);
	assert_true(r->summary.max == 8.0);
	assert_false(r->summary.known & SUM_NAN);
	assert_false(r->summary.known & SUM_NONFINITE);
	ms_stat_done(&st);
}

static void
test_stat_missing_key_column_is_an_error(void **state)
{
	const char *text = "Op Type,Op Name,Timestamp,Slot\nAdd,a,1,0\n";
	struct ms_stat st;
	char err[128];

	(void)state;
	assert_int_equal(ms_stat_parse(text, strlen(text), &st, err, sizeof err), TD_ERR_CORRUPT);
	assert_non_null(strstr(err, "IO"));
	ms_stat_done(&st);
}

static void
test_stat_short_row_is_skipped_and_counted(void **state)
{
	char text[2048];
	struct ms_stat st;
	char err[128];

	(void)state;
	snprintf(text, sizeof text, "%sAdd,a,0,0,5,output,0\n"
		 "Add,a,0,0,6,output,0,8,float32,\"()\",1,1,1,1,0,1,0,0,0,0\n", classic_header);
	assert_int_equal(ms_stat_parse(text, strlen(text), &st, err, sizeof err), TD_OK);
	assert_int_equal(st.n, 1);
	assert_int_equal(st.bad_rows, 1);
	assert_int_equal(st.rows[0].summary.rank, 0);
	assert_int_equal(st.rows[0].summary.elements, 1);
	ms_stat_done(&st);
}

/* Number cells the writer prints and odd ones: every value is what
 * strtod / strtoull give for the whole cell (the pass's parse used them
 * alone before its fast paths), computed here by those functions. */
static const char *const number_cells[] = {
	"0", "8", "-0", "1e-05", "-3.40282e+38", "1.36813", "-0.0070703", "0.1",
	"0.10000000149011612", "123456789012345678", "1234567890123456789",
	"12345678901234567890", "99999999999999999999", "18446744073709551615",
	"9223372036854775807", "9223372036854775808", "007", "+7", " 7", "7 ", "1.",
	".5", "0x10", "1e400", "-1e-400", "inf", "nan", "1e", "--1", "1,5", "",
};

static void
check_count(const char *cell, int64_t got, bool known)
{
	char *e;
	unsigned long long v;

	errno = 0;
	v = *cell && *cell != '-' ? strtoull(cell, &e, 10) : 0;
	if (*cell && *cell != '-' && !errno && !*e && v <= INT64_MAX) {
		assert_true(known);
		assert_int_equal(got, (int64_t)v);
	} else {
		assert_false(known);
	}
}

static void
test_stat_number_cells_match_strtod_and_strtoull(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof number_cells / sizeof *number_cells; i++) {
		const char *v = number_cells[i];
		char text[2048], err[128], *e;
		struct ms_stat st;
		const struct td_summary *s;
		double want = strtod(v, &e);
		bool full = *v && !*e;

		/* the cell as Max, Min, Avg, and the NaN and Zero counts (quoted
		 * when it holds a comma) */
		snprintf(text, sizeof text, "%sAdd,a,0,0,5,output,0,8,float32,\"(2)\",\"%s\",\"%s\","
			 "\"%s\",2,0,0,\"%s\",0,0,\"%s\"\n", classic_header, v, v, v, v, v);
		assert_int_equal(ms_stat_parse(text, strlen(text), &st, err, sizeof err), TD_OK);
		assert_int_equal(st.n, 1);
		s = &st.rows[0].summary;
		if (full) {
			assert_true(s->known & SUM_MINMAX);
			assert_memory_equal(&s->max, &want, sizeof want);
			assert_memory_equal(&s->min, &want, sizeof want);
			assert_memory_equal(&s->mean, &want, sizeof want);
		} else {
			assert_false(s->known & (SUM_MINMAX | SUM_MEAN));
		}
		check_count(v, s->nan, s->known & SUM_NAN);
		check_count(v, s->zero, s->known & SUM_ZERO);
		ms_stat_done(&st);
	}
}

static void
test_stat_timestamp_and_slot_cells_match_strtoull(void **state)
{
	static const char *const ts[] = {
		"1234567890123456789", "12345678901234567890", "18446744073709551615",
		"18446744073709551616", "+5", " 5", "05",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof ts / sizeof *ts; i++) {
		char text[2048], err[128], *e;
		struct ms_stat st;
		unsigned long long want;

		errno = 0;
		want = strtoull(ts[i], &e, 10);
		snprintf(text, sizeof text, "%sAdd,a,0,0,%s,output,3,8,float32,\"(2)\",1,1,1,"
			 "2,0,0,0,0,0,0\n", classic_header, ts[i]);
		assert_int_equal(ms_stat_parse(text, strlen(text), &st, err, sizeof err), TD_OK);
		if (!errno && !*e) {
			assert_int_equal(st.n, 1);
			assert_int_equal(st.rows[0].ts, want);
			assert_int_equal(st.rows[0].slot, 3);
		} else {
			assert_int_equal(st.n, 0);
			assert_int_equal(st.bad_rows, 1);
		}
		ms_stat_done(&st);
	}
}

/* Decimals as a writer prints them and as it might: up to 21 digits
 * before the point (leading zeros too), none or up to 21 after, a sign:
 * every Max, Min and Avg cell is strtod's double, bit for bit. */
static void
test_stat_decimal_cells_match_strtod_bit_for_bit(void **state)
{
	enum { ROWS = 200, ROUNDS = 25 };
	static char text[ROWS * 256 + 512];
	char cells[ROWS][3][48];
	uint32_t seed = 7;
	size_t round, i, c, pos;

	(void)state;
	for (round = 0; round < ROUNDS; round++) {
		struct ms_stat st;
		char err[128];

		pos = (size_t)snprintf(text, sizeof text, "%s", classic_header);
		for (i = 0; i < ROWS; i++) {
			for (c = 0; c < 3; c++) {
				char *v = cells[i][c];
				size_t w = 0, nd = 1 + lcg(&seed) % (lcg(&seed) % 4 ? 8 : 21), d;

				if (lcg(&seed) % 4 == 0)
					v[w++] = '-';
				for (d = 0; d < nd; d++)
					v[w++] = (char)('0' + lcg(&seed) % 10);
				if (lcg(&seed) % 3) {
					nd = 1 + lcg(&seed) % (lcg(&seed) % 4 ? 10 : 21);
					v[w++] = '.';
					for (d = 0; d < nd; d++)
						v[w++] = (char)('0' + lcg(&seed) % 10);
				}
				v[w] = '\0';
			}
			pos += (size_t)snprintf(text + pos, sizeof text - pos,
						"Add,a,0,0,%zu,output,0,8,float32,\"(2)\",%s,%s,%s,"
						"2,0,0,0,0,0,0\n", i + 1, cells[i][0],
						cells[i][1], cells[i][2]);
		}
		assert_int_equal(ms_stat_parse(text, pos, &st, err, sizeof err), TD_OK);
		assert_int_equal(st.n, ROWS);
		for (i = 0; i < ROWS; i++) {
			const struct td_summary *s = &st.rows[i].summary;
			double want[3];

			for (c = 0; c < 3; c++)
				want[c] = strtod(cells[i][c], NULL);
			assert_int_equal(st.rows[i].ts, i + 1);
			assert_true((s->known & (SUM_MINMAX | SUM_MEAN)) == (SUM_MINMAX | SUM_MEAN));
			assert_memory_equal(&s->max, &want[0], sizeof(double));
			assert_memory_equal(&s->min, &want[1], sizeof(double));
			assert_memory_equal(&s->mean, &want[2], sizeof(double));
		}
		ms_stat_done(&st);
	}
}

/* A random cell of the forms a number column may hold: plain digits
 * (1 to 22 of them), signs, spaces, a point, an exponent, "null", empty,
 * quoted, letters after the digits; v holds 48 bytes. */
static void
odd_number_cell(char *v, uint32_t *seed)
{
	static const char *const odd[] = {
		"", "null", " 12", "+7", "-0", "-0.0", "1.", ".5", "1e3", "12x", "\"42\"",
		"\"3.25\"", "0x1p3", "inf", "-", ".", "18446744073709551615",
		"18446744073709551616", "9223372036854775808", "00000000000000000000001",
	};
	size_t w = 0, nd, d;

	if (lcg(seed) % 3 == 0) {
		strcpy(v, odd[lcg(seed) % (sizeof odd / sizeof *odd)]);
		return;
	}
	if (lcg(seed) % 5 == 0)
		v[w++] = '-';
	nd = 1 + lcg(seed) % (lcg(seed) % 3 ? 17 : 22);
	for (d = 0; d < nd; d++)
		v[w++] = (char)('0' + lcg(seed) % 10);
	if (lcg(seed) % 2) {
		v[w++] = '.';
		nd = 1 + lcg(seed) % 12;
		for (d = 0; d < nd; d++)
			v[w++] = (char)('0' + lcg(seed) % 10);
	}
	v[w] = '\0';
}

/* The same rows, once as written and once with a last column quoted with
 * a '"' inside: the same rows, bad rows and summaries, byte for byte,
 * whatever the number cells hold (odd cells: signs, spaces, exponents,
 * "null", long digit runs, each through its parser). */
static void
test_stat_number_cells_whatever_the_quoting(void **state)
{
	enum { ROWS = 400, ROUNDS = 10, NUM = 14 };
	static char text[2][ROWS * 600 + 512];
	static const char hdr[] =
		"Op Type,Op Name,Task ID,Stream ID,Timestamp,IO,Slot,Data Size,Data Type,Shape,"
		"Max Value,Min Value,Avg Value,Count,Negative Zero Count,Positive Zero Count,"
		"NaN Count,Negative Inf Count,Positive Inf Count,Zero Count,L2 Value,X\n";
	static const char *const shapes[] = { "\"(2,3)\"", "\"()\"", "(5)", "\"(4,\"", "" };
	uint32_t seed = 11;
	size_t round, i, c, k;

	(void)state;
	for (round = 0; round < ROUNDS; round++) {
		struct ms_stat st[2];
		size_t pos[2];
		char err[128];

		for (k = 0; k < 2; k++)
			pos[k] = (size_t)snprintf(text[k], sizeof text[k], "%s", hdr);
		for (i = 0; i < ROWS; i++) {
			char cell[NUM][48];
			const char *io = lcg(&seed) % 8 ? (lcg(&seed) % 2 ? "input" : "output") : "in";
			const char *shape = shapes[lcg(&seed) % 5];

			for (c = 0; c < NUM; c++)
				odd_number_cell(cell[c], &seed);
			/* mostly good keys, so that most rows are kept */
			if (lcg(&seed) % 4)
				snprintf(cell[2], sizeof cell[2], "%zu", 1000 + i);
			if (lcg(&seed) % 4)
				strcpy(cell[3], "0");
			for (k = 0; k < 2; k++)
				pos[k] += (size_t)snprintf(text[k] + pos[k], sizeof text[k] - pos[k],
					"Add,op%zu,%s,%s,%s,%s,%s,8,float32,%s,%s,%s,%s,%s,%s,%s,%s,"
					"%s,%s,%s,%s,%s\n", i % 7, cell[0], cell[1], cell[2], io,
					cell[3], shape, cell[4], cell[5], cell[6], cell[7], cell[8],
					cell[9], cell[10], cell[11], cell[12], cell[13], cell[13],
					k ? "\"a\"\"b\"" : "ab");
		}
		for (k = 0; k < 2; k++)
			assert_int_equal(ms_stat_parse(text[k], pos[k], &st[k], err, sizeof err), TD_OK);
		assert_true(st[0].n > ROWS / 4);
		assert_true(st[0].bad_rows > 0);
		assert_int_equal(st[0].n, st[1].n);
		assert_int_equal(st[0].bad_rows, st[1].bad_rows);
		for (i = 0; i < st[0].n; i++) {
			const struct ms_stat_row *a = &st[0].rows[i], *b = &st[1].rows[i];

			assert_string_equal(a->op_name, b->op_name);
			assert_int_equal(a->ts, b->ts);
			assert_int_equal(a->task, b->task);
			assert_int_equal(a->stream, b->stream);
			assert_int_equal(a->slot, b->slot);
			assert_int_equal(a->is_input, b->is_input);
			assert_memory_equal(&a->summary, &b->summary, sizeof a->summary);
		}
		ms_stat_done(&st[0]);
		ms_stat_done(&st[1]);
	}
}

/* A Shape cell's element count: the product of its dimensions, held at
 * INT64_MAX once it passes it (and 0 again after a 0 dimension). */
static void
test_stat_shape_elements_saturate(void **state)
{
	static const struct {
		const char *cell;
		int rank;
		int64_t elements;
	} cases[] = {
		{ "(2,3)", 2, 6 },
		{ "()", 0, 1 },
		{ "( 2 , 3 )", 2, 6 },
		{ "(4294967296,4294967296)", 2, INT64_MAX },
		{ "(3037000500,3037000500)", 2, INT64_MAX },
		{ "(3037000499,3037000499)", 2, 9223372030926249001 },
		{ "(7,3037000499,3037000499)", 3, INT64_MAX },
		{ "(99999999999999999,99999999999999999,0)", 3, 0 },
		{ "(0,99999999999999999)", 2, 0 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof *cases; i++) {
		struct td_summary s = {0};

		assert_true(ms_stat_parse_shape(cases[i].cell, &s));
		assert_int_equal(s.rank, cases[i].rank);
		assert_int_equal(s.elements, cases[i].elements);
	}
	for (i = 0; i < 3; i++) {
		struct td_summary s = {0};

		assert_false(ms_stat_parse_shape((const char *[]){ "(-1)", "(2,x)", "2,3" }[i], &s));
	}
}

/* Writes text to a fresh temporary file; its path in path. */
static void
write_tmp(char *path, size_t size, const char *text)
{
	FILE *f;
	int fd;

	snprintf(path, size, "/tmp/test_csv_XXXXXX");
	assert_true((fd = mkstemp(path)) >= 0);
	assert_non_null(f = fdopen(fd, "w"));
	assert_int_equal(fwrite(text, 1, strlen(text), f), strlen(text));
	fclose(f);
}

static void
test_stat_read_again_after_clear_maps_each_header(void **state)
{
	/* one ms_stat read file after file (the reader's, ms_run.c): the
	 * classic header, the device one (other columns, other places), the
	 * classic again; Data Type words change between rows */
	char classic[2048], path[3][64], err[128];
	const char *device =
		"Op Type,Op Name,Task ID,Stream ID,Timestamp,IO,Slot,Data Size,Data Type,Shape,"
		"Max Value,Min Value,Avg Value,L2Norm Value,Count\n"
		"Conv2D,c,1,2,9,input,1,24,float16,\"(2, 3)\",8,-1,0.5,3.2,6\n"
		"Conv2D,c,1,2,9,output,0,24,int32,\"(6)\",4,-4,0,2,6\n";
	struct ms_stat st = {0};
	int i;

	(void)state;
	snprintf(classic, sizeof classic, "%sAdd,a,0,0,5,output,0,8,float32,\"(2)\",1,1,1,"
		 "2,0,2,0,0,0,0\nAdd,a,0,0,6,output,0,8,float64,\"(3)\",2,2,2,3,0,3,1,0,0,0\n",
		 classic_header);
	write_tmp(path[0], sizeof path[0], classic);
	write_tmp(path[1], sizeof path[1], device);
	write_tmp(path[2], sizeof path[2], classic);
	for (i = 0; i < 3; i++) {
		assert_int_equal(ms_stat_read(path[i], 0, &st, err, sizeof err), TD_OK);
		assert_int_equal(st.n, 2);
		if (i == 1) {
			assert_int_equal(st.ncolumns, 15);
			assert_int_equal(st.rows[0].ts, 9);
			assert_true(st.rows[0].is_input);
			assert_int_equal(st.rows[0].summary.dtype, DTYPE_FLOAT16);
			assert_int_equal(st.rows[1].summary.dtype, DTYPE_INT32);
			assert_true(st.rows[0].summary.l2norm == 3.2);
			assert_int_equal(st.rows[0].summary.elements, 6);
			assert_false(st.rows[0].summary.known & SUM_NAN);
			assert_string_equal(st.rows[0].op_type, "Conv2D");
		} else {
			assert_int_equal(st.ncolumns, 20);
			assert_int_equal(st.rows[0].ts, 5);
			assert_int_equal(st.rows[0].summary.dtype, DTYPE_FLOAT32);
			assert_int_equal(st.rows[1].summary.dtype, DTYPE_FLOAT64);
			assert_int_equal(st.rows[1].summary.nan, 1);
			assert_int_equal(st.rows[1].summary.positive, 3);
			assert_string_equal(st.rows[1].op_name, "a");
		}
		ms_stat_clear(&st);
		unlink(path[i]);
	}
	ms_stat_done(&st);
}

static void
test_stat_rows_sorted_by_time_io_slot(void **state)
{
	char text[2048], err[128];
	struct ms_stat st;
	static const char row[] = "Add,a,0,0,%d,%s,%d,8,float32,\"(2)\",1,1,1,2,0,2,0,0,0,0\n";
	char r1[256], r2[256], r3[256], r4[256];

	(void)state;
	snprintf(r1, sizeof r1, row, 7, "output", 0);
	snprintf(r2, sizeof r2, row, 3, "output", 1);
	snprintf(r3, sizeof r3, row, 3, "input", 0);
	snprintf(r4, sizeof r4, row, 3, "output", 0);
	snprintf(text, sizeof text, "%s%s%s%s%s", classic_header, r1, r2, r3, r4);
	assert_int_equal(ms_stat_parse(text, strlen(text), &st, err, sizeof err), TD_OK);
	assert_int_equal(st.n, 4);
	assert_int_equal(st.rows[0].ts, 3);
	assert_true(st.rows[0].is_input);
	assert_int_equal(st.rows[1].slot, 0);
	assert_false(st.rows[1].is_input);
	assert_int_equal(st.rows[2].slot, 1);
	assert_int_equal(st.rows[3].ts, 7);
	assert_int_equal(st.rows[3].off, strlen(classic_header));
	ms_stat_done(&st);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_csv_quoted_field_keeps_commas),
		cmocka_unit_test(test_csv_doubled_quote_and_empty_fields),
		cmocka_unit_test(test_csv_unterminated_quote_is_corrupt),
		cmocka_unit_test(test_csv_row_reused_for_longer_and_shorter_lines),
		cmocka_unit_test(test_csv_split_matches_a_byte_by_byte_split),
		cmocka_unit_test(test_stat_classic_row_maps_counts),
		cmocka_unit_test(test_stat_null_values_stay_unknown),
		cmocka_unit_test(test_stat_device_variant_and_unknown_columns),
		cmocka_unit_test(test_stat_missing_key_column_is_an_error),
		cmocka_unit_test(test_stat_short_row_is_skipped_and_counted),
		cmocka_unit_test(test_stat_number_cells_match_strtod_and_strtoull),
		cmocka_unit_test(test_stat_timestamp_and_slot_cells_match_strtoull),
		cmocka_unit_test(test_stat_decimal_cells_match_strtod_bit_for_bit),
		cmocka_unit_test(test_stat_shape_elements_saturate),
		cmocka_unit_test(test_stat_number_cells_whatever_the_quoting),
		cmocka_unit_test(test_stat_read_again_after_clear_maps_each_header),
		cmocka_unit_test(test_stat_rows_sorted_by_time_io_slot),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
