/*
 * test_diff_csv.c - the number spellings of diff --csv: floats as Python's
 * repr writes them (the compare tool's CSV is written from Python), the
 * diff and relative-error cells with their special words, and strings as
 * Python's repr writes them (NPU_Stack_Info), and a non-tensor argument's
 * difference cells.  Expected strings are what python3 prints for the
 * same doubles and strings (the argument classes: msprobe_arg_rules.py),
 * and the tensor-mode checks and metrics of small pairs (numpy's numbers).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tui/cmd/cmd_diff_csv.h"
#include "tui/cmd/cmd_diff_rows.h"

static const char *
py(double v)
{
	static struct strbuf sb;

	sb.len = 0;
	cmd_csv_pyfloat(&sb, v);
	strbuf_addc(&sb, '\0');
	return sb.buf;
}

static void
test_pyfloat_matches_python_repr(void **state)
{
	(void)state;
	assert_string_equal(py(0.0), "0.0");
	assert_string_equal(py(-0.5), "-0.5");
	assert_string_equal(py(1.0), "1.0");
	assert_string_equal(py(0.1), "0.1");
	assert_string_equal(py(0.0001), "0.0001");
	assert_string_equal(py(1e-05), "1e-05");
	assert_string_equal(py(1.5e-07), "1.5e-07");
	assert_string_equal(py(3430.0), "3430.0");
	assert_string_equal(py(1e15), "1000000000000000.0");
	assert_string_equal(py(1e16), "1e+16");
	assert_string_equal(py(1.5e16), "1.5e+16");
	assert_string_equal(py(123456789.125), "123456789.125");
	assert_string_equal(py(1.0 / 3), "0.3333333333333333");
	assert_string_equal(py(3.3624985218048096), "3.3624985218048096");
	assert_string_equal(py(NAN), "nan");
	assert_string_equal(py(-INFINITY), "-inf");
	assert_string_equal(py(5e-324), "5e-324");
	assert_string_equal(py(2.2250738585072014e-308), "2.2250738585072014e-308");
}

/* The shortest digits that read back: on 20,000 doubles (bit patterns of
 * a fixed LCG, subnormals among them, and decimals of 1 to 17 digits) the
 * repr's significant
 * digits are those of the fewest %.*e digits that strtod reads back as v
 * (found here one count after another), and the repr reads back as v. */
static void
test_pyfloat_shortest_digits(void **state)
{
	uint64_t x = 0x9e3779b97f4a7c15ull;

	(void)state;
	for (int k = 0; k < 20000; k++) {
		char ref[40], got[64], want[24], have[24];
		size_t nw = 0, nh = 0;
		const char *p;
		double v;
		int prec;

		x = x * 6364136223846793005ull + 1442695040888963407ull;
		if (k % 10 == 1) {              /* a subnormal: its own ulp */
			uint64_t sub = x >> (12 + k % 50);

			memcpy(&v, &sub, sizeof v);
		} else if (k % 2) {
			memcpy(&v, &x, sizeof v);
		} else {                        /* a decimal of 1 + k % 17 digits */
			snprintf(ref, sizeof ref, "%.*e", k / 2 % 17, (double)(x >> 11) * 0x1p-53 *
				 (k % 3 ? 1e3 : 1e-7));
			v = strtod(ref, NULL);
		}
		if (!isfinite(v))
			continue;
		for (prec = 0; prec < 16; prec++) {
			snprintf(ref, sizeof ref, "%.*e", prec, v);
			if (strtod(ref, NULL) == v)
				break;
		}
		snprintf(ref, sizeof ref, "%.*e", prec, v);
		for (p = ref; *p && *p != 'e'; p++)
			if (*p >= '0' && *p <= '9')
				want[nw++] = *p;
		snprintf(got, sizeof got, "%s", py(v));
		assert_true(strtod(got, NULL) == v);
		for (p = got; *p && *p != 'e'; p++)
			if (*p >= '0' && *p <= '9' && (nh || *p != '0'))
				have[nh++] = *p;
		while (nw > 1 && want[nw - 1] == '0')
			nw--;
		while (nh > 1 && have[nh - 1] == '0')
			nh--;
		if (v == 0)
			nh = 1, have[0] = '0';
		want[nw] = have[nh] = '\0';
		assert_string_equal(have, want);
	}
}

static void
test_diff_and_relative_cells(void **state)
{
	struct strbuf sb = { 0 };

	(void)state;
	cmd_csv_diff_cell(&sb, 1.5, 1.0);
	strbuf_addc(&sb, '|');
	cmd_csv_diff_cell(&sb, NAN, 1.0);
	strbuf_addc(&sb, '|');
	cmd_csv_diff_cell(&sb, INFINITY, INFINITY);
	strbuf_addc(&sb, '|');
	cmd_csv_diff_cell(&sb, INFINITY, 1.0);
	strbuf_addc(&sb, '|');
	cmd_csv_rel_cell(&sb, 1.5, 1.0);
	strbuf_addc(&sb, '|');
	cmd_csv_rel_cell(&sb, 2.0, 2.0);
	strbuf_addc(&sb, '|');
	cmd_csv_rel_cell(&sb, 2.0, 0.0);
	strbuf_addc(&sb, '|');
	cmd_csv_rel_cell(&sb, 1.0, NAN);
	strbuf_addc(&sb, '|');
	/* the tool's rules compare str(): equal values (NaN too) are "0" in
	 * both cells, -0.0 is not 0.0; an infinity gives the sign of the
	 * difference in both */
	cmd_csv_diff_cell(&sb, 2.0, 2.0);
	strbuf_addc(&sb, '|');
	cmd_csv_diff_cell(&sb, NAN, NAN);
	strbuf_addc(&sb, '|');
	cmd_csv_rel_cell(&sb, NAN, NAN);
	strbuf_addc(&sb, '|');
	cmd_csv_rel_cell(&sb, 1.0, INFINITY);
	strbuf_addc(&sb, '|');
	cmd_csv_rel_cell(&sb, -INFINITY, 1.0);
	strbuf_addc(&sb, '|');
	cmd_csv_rel_cell(&sb, -INFINITY, INFINITY);
	strbuf_addc(&sb, '|');
	cmd_csv_diff_cell(&sb, -0.0, 0.0);
	strbuf_addc(&sb, '|');
	cmd_csv_rel_cell(&sb, -0.0, 0.0);
	strbuf_addc(&sb, '\0');
	assert_string_equal(sb.buf, "0.5|Nan|0|inf|50.0%|0|inf|Nan|0|0|0|-inf|-inf|-inf|-0.0|inf");
	strbuf_done(&sb);
}

/* A tensor of n float16 values (bits) or float32 values in shape dims. */
static struct td_tensor *
tensor_of(enum td_dtype dt, int rank, const int64_t *dims, int64_t n, const void *data)
{
	static int64_t dimbuf[4][4];
	static int next;
	struct td_tensor *t = calloc(1, sizeof(*t));
	size_t size = (size_t)n * (dt == DTYPE_FLOAT16 ? 2 : 4);

	t->dtype = dt;
	t->rank = rank;
	t->dims = dimbuf[next++ % 4];
	memcpy(t->dims, dims, (size_t)rank * sizeof(*dims));
	t->n = n;
	t->data = malloc(size ? size : 1);
	memcpy(t->data, data, size);
	return t;
}

static void
tensor_drop(struct td_tensor *t)
{
	free(t->data);
	free(t);
}

/* The compare tool's checks and metrics on small pairs; the numbers are
 * what numpy gives for the same arrays as the tool computes them (RE in
 * float16 for two float16 tensors, float16's eps where Bench is 0). */
static void
test_tensor_metrics_as_the_tool_computes_them(void **state)
{
	const uint16_t n16[] = { 0x1019, 0x34cd, 0x3c00, 0x4100 };  /* 0.0005 0.3 1 2.5 */
	const uint16_t b16[] = { 0x0000, 0x34cc, 0x3c00, 0x4100 };  /* 0 0.2998 1 2.5 */
	const float six[] = { 0, 1, 2, 3, 4, 5 }, one[] = { 2 }, nan1[] = { NAN, 1 };
	const float fin2[] = { 1, 1 };
	const int64_t d4[] = { 4 }, d23[] = { 2, 3 }, d32[] = { 3, 2 }, d0[] = { 0 }, d2[] = { 2 };
	struct cmd_csv_tmetrics m;
	struct td_tensor *a, *b;

	(void)state;
	a = tensor_of(DTYPE_FLOAT16, 1, d4, 4, n16);
	b = tensor_of(DTYPE_FLOAT16, 1, d4, 4, b16);
	cmd_csv_tensor_metrics(a, b, &m);
	assert_true(m.max_rel == 0.51171875);
	assert_true(m.one == 0.75 && m.five == 0.75);
	assert_null(m.word);
	assert_string_equal(m.msg, "");
	tensor_drop(a), tensor_drop(b);

	{
		/* a float32 target against a float16 golden with a zero: float16's
		 * eps at the zero (the golden's type), float32 arithmetic */
		const float n32[] = { 0.5, 1 };
		const uint16_t b16z[] = { 0x0000, 0x3c00 };

		a = tensor_of(DTYPE_FLOAT32, 1, d2, 2, n32);
		b = tensor_of(DTYPE_FLOAT16, 1, d2, 2, b16z);
		cmd_csv_tensor_metrics(a, b, &m);
		assert_true(m.max_rel == 512.0);
		assert_string_equal(m.msg, "Dtype of NPU and bench tensor do not match.");
		tensor_drop(a), tensor_drop(b);
	}

	a = tensor_of(DTYPE_FLOAT32, 2, d23, 6, six);
	b = tensor_of(DTYPE_FLOAT32, 2, d32, 6, six);
	cmd_csv_tensor_metrics(a, b, &m);
	assert_string_equal(m.word, "shape unmatched");
	assert_string_equal(m.msg, "Shape of NPU and bench tensor do not match. Skipped.");
	tensor_drop(a), tensor_drop(b);

	a = tensor_of(DTYPE_FLOAT32, 1, d0, 0, six);
	b = tensor_of(DTYPE_FLOAT32, 1, d0, 0, six);
	cmd_csv_tensor_metrics(a, b, &m);
	assert_string_equal(m.word, "unsupported");
	assert_string_equal(m.msg, "This is empty data, can not compare.");
	tensor_drop(a), tensor_drop(b);

	a = tensor_of(DTYPE_FLOAT32, 0, d0, 1, one);
	b = tensor_of(DTYPE_FLOAT32, 0, d0, 1, fin2);
	cmd_csv_tensor_metrics(a, b, &m);
	assert_true(m.scalar && m.cosine_unsupported && m.max_abs == 1.0 && m.max_rel == 1.0);
	assert_true(isnan(m.one) && isnan(m.eucdist));
	tensor_drop(a), tensor_drop(b);

	a = tensor_of(DTYPE_FLOAT32, 1, d2, 2, nan1);
	b = tensor_of(DTYPE_FLOAT32, 1, d2, 2, fin2);
	cmd_csv_tensor_metrics(a, b, &m);
	assert_string_equal(m.word, "N/A");
	assert_string_equal(m.msg, "The position of inf or nan in NPU and bench Tensor do not match.");
	tensor_drop(a), tensor_drop(b);
}

static const char *
pyr(const char *s)
{
	static struct strbuf sb;

	sb.len = 0;
	cmd_csv_pyrepr(&sb, s);
	strbuf_addc(&sb, '\0');
	return sb.buf;
}

/* The quote Python picks, and its escapes (python3 -c 'print(repr(s))'). */
static void
test_pyrepr_matches_python_repr(void **state)
{
	(void)state;
	assert_string_equal(pyr("plain"), "'plain'");
	assert_string_equal(pyr("a'b"), "\"a'b\"");
	assert_string_equal(pyr("a\"b"), "'a\"b'");
	assert_string_equal(pyr("a'b\"c"), "'a\\'b\"c'");
	assert_string_equal(pyr("x\\y\n\tz\x01"), "'x\\\\y\\n\\tz\\x01'");
	assert_string_equal(pyr("caf\xc3\xa9"), "'caf\xc3\xa9'");
}

/* A non-tensor argument's difference cells (cmd_diff_args.c): the compare
 * tool's classes of the two value texts, one case each. */
static const char *
argc(const char *n, enum td_arg_num nn, const char *b, enum td_arg_num bn)
{
	static struct strbuf out;
	struct strbuf d = { 0 }, r = { 0 };
	struct td_arg x = { .value = (char *)n, .num = nn }, y = { .value = (char *)b, .num = bn };

	cmd_csv_arg_cells(&d, &r, &x, &y);
	out.len = 0;
	strbuf_addf(&out, "%s|%s", d.buf, r.buf);
	strbuf_done(&d);
	strbuf_done(&r);
	return out.buf;
}

static void
test_argument_cells_by_value_class(void **state)
{
	(void)state;
	assert_string_equal(argc("3", TD_ARG_INT, "3", TD_ARG_INT), "0|0");
	assert_string_equal(argc("None", TD_ARG_TEXT, "None", TD_ARG_TEXT), "0|0");
	assert_string_equal(argc("1", TD_ARG_INT, "0", TD_ARG_INT), "1.0|inf");
	assert_string_equal(argc("1.5", TD_ARG_FLOAT, "1.0", TD_ARG_FLOAT), "0.5|50.0%");
	assert_string_equal(argc("2", TD_ARG_TEXT, "4", TD_ARG_TEXT), "-2.0|50.0%");  /* a peer rank */
	assert_string_equal(argc("True", TD_ARG_TEXT, "False", TD_ARG_TEXT), "Diff|Diff");
	assert_string_equal(argc("sum", TD_ARG_TEXT, "mean", TD_ARG_TEXT), "Diff|Diff");
	assert_string_equal(argc("cpu", TD_ARG_TEXT, "1", TD_ARG_INT), "Diff|Diff");
	assert_string_equal(argc("npu:0", TD_ARG_TEXT, "cpu", TD_ARG_TEXT), "N/A|N/A");
	assert_string_equal(argc("N/A", TD_ARG_TEXT, "sum", TD_ARG_TEXT), "N/A|N/A");
	assert_string_equal(argc("nan", TD_ARG_FLOAT, "1.0", TD_ARG_FLOAT), "Nan|Nan");
	assert_string_equal(argc("inf", TD_ARG_FLOAT, "2.0", TD_ARG_FLOAT), "inf|inf");
	assert_string_equal(argc("2.0", TD_ARG_FLOAT, "inf", TD_ARG_FLOAT), "-inf|-inf");
	assert_string_equal(argc("-inf", TD_ARG_FLOAT, "inf", TD_ARG_FLOAT), "-inf|-inf");
	assert_string_equal(argc("1.0", TD_ARG_FLOAT, "-inf", TD_ARG_FLOAT), "inf|inf");
}

/* An entry's arguments among its rows: by place (before the row of that
 * index, after the last row past it), paired by path when the dtypes
 * agree (a dtype-less one never), and the stack cell moved to a first
 * input row that is an argument. */
static void
test_arguments_placed_paired_and_stack_moved(void **state)
{
	struct td_arg bargs[3] = {
		{ .path = "input.0", .place = 0, .is_input = true, .dtype = "<class 'int'>",
		  .shape = "[]", .value = "3", .num = TD_ARG_INT, .v = 3 },
		{ .path = "input.none", .place = 1, .is_input = true, .value = "None" },
		{ .path = "output.1", .place = 9, .is_input = false, .dtype = "<class 'str'>",
		  .shape = "[]", .value = "x" },
	};
	struct td_arg aargs[2] = {
		{ .path = "input.0", .place = 0, .is_input = true, .dtype = "<class 'int'>",
		  .shape = "[]", .value = "4", .num = TD_ARG_INT, .v = 4 },
		{ .path = "input.none", .place = 1, .is_input = true, .value = "None" },
	};
	struct csv_call cb = { .found = true, .args = bargs, .nargs = 3 };
	struct csv_call ca = { .found = true, .args = aargs, .nargs = 2 };
	struct csv_row *g = calloc(2, sizeof(*g));
	size_t cap = 2, n;
	char stack[] = "['f']";

	(void)state;
	snprintf(cb.l.name, sizeof cb.l.name, "Torch.f.0.forward.input.1");
	cb.l.oplen = strlen("Torch.f.0.forward");
	snprintf(ca.l.name, sizeof ca.l.name, "Torch.f.1.forward.input.1");
	ca.l.oplen = strlen("Torch.f.1.forward");
	g[0].is_input = true;
	g[0].stack = stack;             /* the first tensor input's */
	snprintf(g[0].n.name, sizeof g[0].n.name, "Torch.f.0.forward.input.1");
	snprintf(g[1].n.name, sizeof g[1].n.name, "Torch.f.0.forward.output.0");
	n = cmd_csv_with_args(&g, &cap, 2, &cb, &ca, false);
	assert_int_equal(n, 5);
	assert_string_equal(g[0].n.name, "Torch.f.0.forward.input.0");
	assert_string_equal(g[0].b.name, "Torch.f.1.forward.input.0");
	assert_true(g[0].matched && g[0].is_input && g[0].n.arg == &bargs[0]);
	assert_ptr_equal(g[0].stack, stack);
	assert_string_equal(g[1].n.name, "Torch.f.0.forward.input.1");
	assert_null(g[1].stack);
	assert_string_equal(g[2].n.name, "Torch.f.0.forward.input.none");
	assert_false(g[2].matched);     /* no dtype: pairs with nothing */
	assert_string_equal(g[2].n.dtype, "N/A");
	assert_string_equal(g[3].n.name, "Torch.f.0.forward.output.0");
	assert_string_equal(g[4].n.name, "Torch.f.0.forward.output.1");
	assert_false(g[4].matched);     /* only in the target */
	assert_true(isnan(g[0].t.one) && isnan(g[0].t.cosine));
	free(g);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pyfloat_matches_python_repr),
		cmocka_unit_test(test_pyfloat_shortest_digits),
		cmocka_unit_test(test_diff_and_relative_cells),
		cmocka_unit_test(test_pyrepr_matches_python_repr),
		cmocka_unit_test(test_tensor_metrics_as_the_tool_computes_them),
		cmocka_unit_test(test_argument_cells_by_value_class),
		cmocka_unit_test(test_arguments_placed_paired_and_stack_moved),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
