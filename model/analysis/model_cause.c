/*
 * model_cause.c - words for why a row holds NaN/Inf: a short cause and the
 * evidence for it, computed from the summaries of the op's inputs and of
 * its output.
 *
 * Rules by op type (the common ops that make NaN/Inf out of finite values):
 * log of zero or of a negative, division / reciprocal / rsqrt by zero, sqrt
 * or pow of a negative, overflow of exp, square and matmul (finite inputs
 * large enough, or an output past the dtype's range), softmax or
 * cross-entropy of extreme logits.  Where a summary lacks the count a rule
 * needs (a mode without zero counts, without min/max), the evidence says
 * what is unknown and the cause says what the output suggests.
 *
 * Causes come only from what is recorded: a rule runs only when every
 * input the op read is recorded (listed by the graph, and a row holds
 * its value); else the cause says "N of M inputs not recorded".  M is
 * the larger of the inputs the graph lists and the op type's own arity
 * (a Mul reads two even where the graph lists one).  Overflow bounds use
 * the op's reduction size: MatMul's inner dimension from the shapes, a
 * convolution's filter size; none for elementwise ops.  Ranges come from
 * the one dtype table (td_dtype_max).
 */
#include "model/model.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static void __attribute__((format(printf, 2, 3)))
cause(struct model_origin *o, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(o->cause, sizeof o->cause, fmt, ap);
	va_end(ap);
}

void
origin_add_evidence(struct model_origin *o, const char *fmt, ...)
{
	va_list ap;

	if (o->nevidence >= MODEL_EVIDENCE_MAX)
		return;
	va_start(ap, fmt);
	vsnprintf(o->evidence[o->nevidence++], MODEL_CAUSE_LEN, fmt, ap);
	va_end(ap);
}

/* "probs:0" into buf. */
static const char *
tname(const struct model_origin_input *in, char *buf, size_t len)
{
	snprintf(buf, len, "%.120s:%u", in->op_name && *in->op_name ? in->op_name : "?", in->slot);
	return buf;
}

static enum td_dtype
out_dtype(const struct model_origin *o)
{
	size_t k;

	if ((o->summary.known & SUM_DTYPE) && td_dtype_is_float(o->summary.dtype))
		return o->summary.dtype;
	for (k = 0; k < o->ninputs; k++)
		if ((o->inputs[k].summary.known & SUM_DTYPE) && td_dtype_is_float(o->inputs[k].summary.dtype))
			return o->inputs[k].summary.dtype;
	return DTYPE_FLOAT32;
}

static const char *
dtype_label(enum td_dtype dt)
{
	return dt == DTYPE_INVALID ? "float32" : td_dtype_name(dt);
}

/* The input n if it was traced with a finite value, else NULL. */
static const struct model_origin_input *
finite_input(const struct model_origin *o, size_t n)
{
	return n < o->ninputs && o->inputs[n].state == INPUT_FINITE ? &o->inputs[n] : NULL;
}

/* Evidence "input k NAME has C WHAT in N elements"; returns the count, -1
 * when the mode does not count it (and says so), -2 when the input was not
 * traced with a finite value. */
static int64_t
count_evidence(struct model_origin *o, size_t k, uint32_t bit, const char *one, const char *many)
{
	const struct model_origin_input *in = finite_input(o, k);
	char nm[160];
	int64_t c;

	if (!in)
		return -2;
	if (!(in->summary.known & bit)) {
		origin_add_evidence(o, "unknown: the dump's mode does not count %s in input %zu %s", many, k,
			 tname(in, nm, sizeof nm));
		return -1;
	}
	c = bit == SUM_ZERO ? in->summary.zero : in->summary.negative;
	if (c > 0 && (in->summary.known & SUM_ELEMENTS))
		origin_add_evidence(o, "input %zu %s has %lld %s in %lld elements", k, tname(in, nm, sizeof nm),
			 (long long)c, c == 1 ? one : many, (long long)in->summary.elements);
	else if (c > 0)
		origin_add_evidence(o, "input %zu %s has %lld %s", k, tname(in, nm, sizeof nm), (long long)c,
			 c == 1 ? one : many);
	return c;
}

static bool
minmax(const struct model_origin_input *in, double *lo, double *hi)
{
	if (!in || !(in->summary.known & SUM_MINMAX))
		return false;
	*lo = in->summary.min;
	*hi = in->summary.max;
	return isfinite(*lo) && isfinite(*hi);
}

static double
max_abs(const struct model_origin_input *in, bool *known)
{
	double lo, hi;

	*known = minmax(in, &lo, &hi);
	return *known ? fmax(fabs(lo), fabs(hi)) : 0;
}

static const char *
iname(const struct model_origin *o, size_t k, char *buf, size_t len)
{
	if (k < o->ninputs)
		return tname(&o->inputs[k], buf, len);
	snprintf(buf, len, "its input");
	return buf;
}

/* ---- rules ------------------------------------------------------------------- */

/* What the function (log, reciprocal...) of a zero / negative input made. */
static bool
zero_or_negative(struct model_origin *o, size_t k, const char *what, bool zero, bool negative)
{
	int64_t z = zero ? count_evidence(o, k, SUM_ZERO, "zero", "zeros") : 0;
	int64_t n = negative ? count_evidence(o, k, SUM_NEGATIVE, "negative", "negatives") : 0;
	char nm[160];
	double lo, hi;

	iname(o, k, nm, sizeof nm);
	if (z > 0 && n > 0) {
		cause(o, "%s a zero and negatives in %s", what, nm);
		return true;
	}
	if (z > 0 || n > 0) {
		cause(o, "%s a %s in %s", what, z > 0 ? "zero" : "negative", nm);
		return true;
	}
	if (k < o->ninputs && minmax(&o->inputs[k], &lo, &hi) && lo <= 0 && (negative || lo == 0)) {
		origin_add_evidence(o, "input %zu %s has min %g", k, nm, lo);
		cause(o, "%s a %s in %s", what, lo < 0 && negative ? "negative" : "zero", nm);
		return true;
	}
	if (z == -1 || n == -1) {
		/* Counts unknown: the output tells which. */
		bool inf = (o->summary.known & (SUM_NEG_INF | SUM_POS_INF)) &&
			   (o->summary.neg_inf || o->summary.pos_inf);
		bool nan = (o->summary.known & SUM_NAN) && o->summary.nan;

		if (zero && inf)
			cause(o, "%s a zero in %s, likely (Inf in the output; zeros not counted)", what, nm);
		else if (negative && nan)
			cause(o, "%s a negative in %s, likely (NaN in the output; negatives not counted)",
			      what, nm);
		else
			cause(o, "%s a zero or a negative in %s, likely (not counted in this mode)", what, nm);
		return true;
	}
	return false;
}

static bool
rule_log(struct model_origin *o)
{
	return zero_or_negative(o, 0, "log of", true, true);
}

static bool
rule_log1p(struct model_origin *o)
{
	char nm[160];
	double lo, hi;

	iname(o, 0, nm, sizeof nm);
	if (o->ninputs && minmax(&o->inputs[0], &lo, &hi)) {
		origin_add_evidence(o, "input 0 %s has min %g", nm, lo);
		if (lo <= -1) {
			cause(o, "log1p of a value <= -1 in %s", nm);
			return true;
		}
		return false;
	}
	origin_add_evidence(o, "unknown: the dump's mode does not record the min of input 0 %s", nm);
	cause(o, "log1p of a value <= -1 in %s, likely (min not recorded)", nm);
	return true;
}

static bool
rule_div(struct model_origin *o)
{
	return zero_or_negative(o, 1, "division by", true, false);
}

static bool
rule_reciprocal(struct model_origin *o)
{
	return zero_or_negative(o, 0, "reciprocal of", true, false);
}

static bool
rule_rsqrt(struct model_origin *o)
{
	return zero_or_negative(o, 0, "rsqrt of", true, true);
}

static bool
rule_sqrt(struct model_origin *o)
{
	return zero_or_negative(o, 0, "sqrt of", false, true);
}

static bool
rule_pow(struct model_origin *o)
{
	char nm[160];

	if (zero_or_negative(o, 0, "pow of", false, true)) {
		if (strstr(o->cause, "negative"))
			return true;
	}
	o->cause[0] = 0;
	if (count_evidence(o, 0, SUM_ZERO, "zero", "zeros") > 0 &&
	    (o->summary.known & SUM_POS_INF) && o->summary.pos_inf) {
		cause(o, "pow of a zero to a negative power in %s", iname(o, 0, nm, sizeof nm));
		return true;
	}
	return false;
}

/* Overflow of a function of one input whose largest finite argument is
 * limit. */
static bool
overflow_unary(struct model_origin *o, const char *what, double limit, bool abs_value)
{
	const struct model_origin_input *in = finite_input(o, 0);
	enum td_dtype dt = out_dtype(o);
	char nm[160];
	double lo, hi, v;

	if (!in)
		return false;
	tname(in, nm, sizeof nm);
	if (!minmax(in, &lo, &hi)) {
		origin_add_evidence(o, "unknown: the dump's mode does not record the max of input 0 %s", nm);
		if ((o->summary.known & SUM_POS_INF) && o->summary.pos_inf) {
			cause(o, "%s overflow, likely: +Inf in the output (%s's range is %g)", what,
			      dtype_label(dt), td_dtype_max(dt));
			return true;
		}
		return false;
	}
	v = abs_value ? fmax(fabs(lo), fabs(hi)) : hi;
	origin_add_evidence(o, "input 0 %s has %s %g; %s overflows %s past %g", nm, abs_value ? "max |x|" : "max",
		 v, what, dtype_label(dt), limit);
	if (v > limit) {
		cause(o, "%s overflow: %s reaches %g (limit %g for %s)", what, nm, v, limit, dtype_label(dt));
		return true;
	}
	return false;
}

static bool
rule_exp(struct model_origin *o)
{
	return overflow_unary(o, "exp", log(td_dtype_max(out_dtype(o))), false);
}

static bool
rule_square(struct model_origin *o)
{
	return overflow_unary(o, "square", sqrt(td_dtype_max(out_dtype(o))), true);
}

/* The reduction size of a matrix product or convolution of a and b, from
 * their shapes: MatMul's inner dimension (the dimension a and b share,
 * transposed or not), a convolution's filter elements per output channel
 * bounded by the whole filter; 0 when the shapes do not tell. */
static double
reduction_size(const char *type, const struct td_summary *a, const struct td_summary *b)
{
	const int64_t *da = a->dims, *db = b->dims;
	int na = a->ndims, nb = b->ndims;
	double k = 0;

	if (!(a->known & SUM_SHAPE) || !(b->known & SUM_SHAPE) || a->dims_truncated ||
	    b->dims_truncated)
		return 0;
	if (!strcmp(type, "Conv2D") || !strcmp(type, "Conv3D")) {
		int64_t e = 1;

		/* |out| <= max|x| max|w| (elements of w over one output
		 * channel) <= max|x| max|w| elements(w) */
		for (int i = 0; i < nb; i++)
			e *= db[i];
		return nb ? (double)e : 0;
	}
	if (na < 2 || nb < 2 || strstr(type, "MatMul") == NULL)
		return 0;
	/* the shared dimension; any transposition, the largest candidate */
	if (da[na - 1] == db[nb - 2])
		k = fmax(k, (double)da[na - 1]);
	if (da[na - 2] == db[nb - 2])
		k = fmax(k, (double)da[na - 2]);
	if (da[na - 1] == db[nb - 1])
		k = fmax(k, (double)da[na - 1]);
	if (da[na - 2] == db[nb - 1])
		k = fmax(k, (double)da[na - 2]);
	return k;
}

/* Overflow of a product of two inputs: |out| <= max|a| max|b| k with k the
 * reduction size (1: elementwise). */
static bool
overflow_product(struct model_origin *o, bool reduces)
{
	const struct model_origin_input *a = finite_input(o, 0), *b = finite_input(o, 1);
	enum td_dtype dt = out_dtype(o);
	double ma, mb, k = 1, bound;
	bool ka, kb;
	char na[160], nb[160];

	if (!a || !b)
		return false;
	ma = max_abs(a, &ka);
	mb = max_abs(b, &kb);
	if (!ka || !kb) {
		origin_add_evidence(o, "unknown: the dump's mode does not record min/max of %s",
			 !ka ? tname(a, na, sizeof na) : tname(b, nb, sizeof nb));
		return false;
	}
	if (reduces && !(k = reduction_size(o->op_type, &a->summary, &b->summary))) {
		origin_add_evidence(o, "max |x| of %s is %g, of %s %g; reduction size unknown (the shapes do "
			 "not tell)", tname(a, na, sizeof na), ma, tname(b, nb, sizeof nb), mb);
		return false;
	}
	bound = ma * mb * k;
	if (reduces)
		origin_add_evidence(o, "max |x| of %s is %g, of %s %g; inner size %g: |output| <= %g",
			 tname(a, na, sizeof na), ma, tname(b, nb, sizeof nb), mb, k, bound);
	else
		origin_add_evidence(o, "max |x| of %s is %g, of %s %g; elementwise: |output| <= %g",
			 tname(a, na, sizeof na), ma, tname(b, nb, sizeof nb), mb, bound);
	if (bound <= td_dtype_max(dt))
		return false;
	if (reduces)
		cause(o, "%s overflow: %g x %g x %g passes %s's range (%g)", o->op_type, ma, mb, k,
		      dtype_label(dt), td_dtype_max(dt));
	else
		cause(o, "%s overflow: %g x %g passes %s's range (%g)", o->op_type, ma, mb,
		      dtype_label(dt), td_dtype_max(dt));
	return true;
}

static bool
rule_matmul(struct model_origin *o)
{
	return overflow_product(o, true);
}

static bool
rule_mul(struct model_origin *o)
{
	return overflow_product(o, false);
}

static bool
rule_softmax(struct model_origin *o)
{
	const struct model_origin_input *in = finite_input(o, 0);
	double lo, hi, limit = log(td_dtype_max(out_dtype(o)));
	char nm[160];

	if (!in)
		return false;
	tname(in, nm, sizeof nm);
	if (!minmax(in, &lo, &hi)) {
		origin_add_evidence(o, "unknown: the dump's mode does not record the range of the logits %s", nm);
		return false;
	}
	origin_add_evidence(o, "logits %s range from %g to %g (spread %g; exp overflows past %g)", nm, lo, hi,
		 hi - lo, limit);
	if (hi - lo > limit || hi > limit) {
		cause(o, "softmax/cross-entropy of extreme logits in %s (%g to %g)", nm, lo, hi);
		return true;
	}
	return false;
}

#define RULES(_) \
	_("|Log|", rule_log) \
	_("|Log1p|", rule_log1p) \
	_("|Div|RealDiv|FloorDiv|TruncateDiv|Xdivy|Xlogy|FloorMod|Mod|", rule_div) \
	_("|Reciprocal|Inv|", rule_reciprocal) \
	_("|Rsqrt|", rule_rsqrt) \
	_("|Sqrt|", rule_sqrt) \
	_("|Pow|", rule_pow) \
	_("|Exp|Expm1|", rule_exp) \
	_("|Square|", rule_square) \
	_("|MatMul|BatchMatMul|BatchMatMulV2|BatchMatMulV3|Conv2D|Conv3D|Einsum|", rule_matmul) \
	_("|Mul|", rule_mul) \
	_("|Softmax|LogSoftmax|SoftmaxCrossEntropyWithLogits|SparseSoftmaxCrossEntropyWithLogits|", \
	  rule_softmax)

static const struct {
	const char *types;
	bool (*fn)(struct model_origin *o);
} rules[] = {
#define RULE_ENTRY(types, fn) { types, fn },
	RULES(RULE_ENTRY)
#undef RULE_ENTRY
};

static bool
type_in(const char *list, const char *type)
{
	size_t n = strlen(type);
	const char *p;

	if (!n)
		return false;
	for (p = strstr(list, type); p; p = strstr(p + 1, type))
		if (p[-1] == '|' && p[n] == '|')
			return true;
	return false;
}

/* ---- roles ------------------------------------------------------------------------ */

/* The inputs an op of this type reads (binary ops), 0 when the table does
 * not say: then the graph's list is all we know. */
static size_t
op_arity(const char *type)
{
	static const char binary[] =
		"|Mul|MatMul|BatchMatMul|BatchMatMulV2|BatchMatMulV3|Conv2D|Conv3D|Div|RealDiv|"
		"FloorDiv|TruncateDiv|DivNoNan|Xdivy|Xlogy|FloorMod|Mod|Pow|Add|AddV2|Sub|Maximum|"
		"Minimum|SquaredDifference|BiasAdd|SoftmaxCrossEntropyWithLogits|"
		"SparseSoftmaxCrossEntropyWithLogits|";

	return type_in(binary, type) ? 2 : 0;
}

static bool
is_feed(const char *type)
{
	return type_in("|Placeholder|Parameter|_Arg|PlaceholderWithDefault|", type ? type : "");
}

static void
input_evidence(struct model_origin *o)
{
	char nm[160];
	size_t k;

	for (k = 0; k < o->ninputs; k++) {
		const struct model_origin_input *in = &o->inputs[k];

		tname(in, nm, sizeof nm);
		if (in->state == INPUT_UNKNOWN && in->trace_index < 0)
			origin_add_evidence(o, "input %zu %s was never traced: its value is unknown", k, nm);
		else if (in->state == INPUT_UNKNOWN)
			origin_add_evidence(o, "input %zu %s (row %lld): the dump's mode does not say whether it is "
				 "finite", k, nm, (long long)in->trace_index);
		else if (is_feed(in->op_type) && in->state == INPUT_FINITE)
			origin_add_evidence(o, "input %zu %s is a %s: its value came in from outside the graph", k, nm,
				 in->op_type);
	}
}

static void
explain_propagation(struct model_origin *o)
{
	char nm[160];
	size_t k;
	bool first = true;

	for (k = 0; k < o->ninputs; k++) {
		const struct model_origin_input *in = &o->inputs[k];
		const struct td_summary *s = &in->summary;

		if (in->state != INPUT_NONFINITE)
			continue;
		tname(in, nm, sizeof nm);
		if (first)
			cause(o, "carries NaN/Inf from input %zu %s (row %lld)", k, nm,
			      (long long)in->trace_index);
		first = false;
		if ((s->known & (SUM_NAN | SUM_NEG_INF | SUM_POS_INF)) == (SUM_NAN | SUM_NEG_INF | SUM_POS_INF))
			origin_add_evidence(o, "input %zu %s (row %lld) has %lld NaN, %lld -Inf, %lld +Inf", k, nm,
				 (long long)in->trace_index, (long long)s->nan, (long long)s->neg_inf,
				 (long long)s->pos_inf);
		else
			origin_add_evidence(o, "input %zu %s (row %lld) has NaN/Inf", k, nm, (long long)in->trace_index);
	}
	if (first && o->nfrom)
		cause(o, "the value it read (row %lld) already held NaN/Inf", (long long)o->from[0]);
	if (o->origin >= 0)
		origin_add_evidence(o, "it goes back to the origin at row %lld", (long long)o->origin);
}

/* Every input's min/max is known. */
static bool
ranges_known(const struct model_origin *o)
{
	double lo, hi;
	size_t k;

	for (k = 0; k < o->ninputs; k++)
		if (!minmax(&o->inputs[k], &lo, &hi))
			return false;
	return true;
}

static void
explain_origin(struct model_origin *o)
{
	const char *type = o->op_type ? o->op_type : "";
	enum td_dtype dt = out_dtype(o);
	size_t k, unknown = 0, read = TD_MAX(o->ninputs, op_arity(type)), unrecorded;

	if (o->source == TABLE_EXECUTIONS) {
		cause(o, "%s made NaN/Inf; the inputs of this execution are not linked to rows", type);
		return;
	}
	if (o->source_op) {
		cause(o, "came in from outside the graph: %s%s%s has no inputs in it",
		      o->op_name ? o->op_name : "?", *type ? " " : "", *type ? type : "");
		return;
	}
	/* an input is recorded when the graph lists it and a row holds it */
	unrecorded = read - o->ninputs;
	for (k = 0; k < o->ninputs; k++) {
		unrecorded += o->inputs[k].trace_index < 0;
		unknown += o->inputs[k].state == INPUT_UNKNOWN && o->inputs[k].trace_index >= 0;
	}
	if (unrecorded && read) {
		/* no cause from part of the inputs: the missing one may be it */
		cause(o, "%s made NaN/Inf; %zu of its %zu inputs not recorded", *type ? type : "the op",
		      unrecorded, read);
		if (read > o->ninputs)
			origin_add_evidence(o, "the graph lists %zu of the %zu inputs a %s reads", o->ninputs, read,
				 type);
		input_evidence(o);
		return;
	}
	for (k = 0; k < TD_ARRAY_SIZE(rules); k++) {
		if (type_in(rules[k].types, type) && rules[k].fn(o))
			break;
	}
	if (!o->cause[0]) {
		bool inf = (o->summary.known & (SUM_NEG_INF | SUM_POS_INF)) &&
			   (o->summary.neg_inf || o->summary.pos_inf) &&
			   !((o->summary.known & SUM_NAN) && o->summary.nan);

		if (!o->ninputs)
			cause(o, "%s made NaN/Inf; its inputs are unknown (the dump does not record them)",
			      *type ? type : "the op");
		else if (unknown)
			cause(o, "%s made NaN/Inf; %zu of its %zu inputs unknown", *type ? type : "the op",
			      unknown, o->ninputs);
		else if (inf && ranges_known(o))
			cause(o, "overflow: %s's output passed %s's range (%g) from finite inputs",
			      *type ? type : "the op", dtype_label(dt), td_dtype_max(dt));
		else if (inf)
			cause(o, "%s made Inf from finite inputs: an overflow past %s's range (%g), "
			      "likely (their min/max are not recorded)", *type ? type : "the op",
			      dtype_label(dt), td_dtype_max(dt));
		else
			cause(o, "%s made NaN/Inf from finite inputs (no cause in their summaries)",
			      *type ? type : "the op");
	}
	input_evidence(o);
}

void
origin_explain(struct model_origin *o)
{
	o->cause[0] = 0;
	o->nevidence = 0;
	switch (o->role) {
	case ORIGIN_FINITE:
		cause(o, "no NaN/Inf in this row");
		break;
	case ORIGIN_REPEAT:
		cause(o, "another record of the value in row %lld", o->nfrom ? (long long)o->from[0] : -1LL);
		if (o->origin >= 0)
			origin_add_evidence(o, "it goes back to the origin at row %lld", (long long)o->origin);
		break;
	case ORIGIN_PROPAGATION:
		explain_propagation(o);
		break;
	case ORIGIN_ORIGIN:
		explain_origin(o);
		break;
	case ORIGIN_CARRIED:        /* worded by model_origin_carry.c */
		break;
	}
}
