/*
 * fmt.c - short text forms of summaries, shapes and function names.  The
 * summary column reads the field table of summary.h.
 */
#include "fmt.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "reader/base/util.h"
#include "summary.h"

/* Significant digits of numbers for people (--precision). */
static int precision = FMT_PRECISION;

void
fmt_set_precision(int digits)
{
	precision = digits < 1 ? 1 : digits > 17 ? 17 : digits;
}

const char *
fmt_double(double v, char *buf, size_t size)
{
	if (isnan(v))
		snprintf(buf, size, "nan");
	else if (isinf(v))
		snprintf(buf, size, v < 0 ? "-inf" : "inf");
	else
		snprintf(buf, size, "%.*g", precision, v);
	return buf;
}

/* Appends printf output at buf + *used, never past size. */
static void
fmt_add(char *buf, size_t size, size_t *used, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void
fmt_add(char *buf, size_t size, size_t *used, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*used >= size)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *used, size - *used, fmt, ap);
	va_end(ap);
	if (n > 0)
		*used = TD_MIN(size, *used + (size_t)n);
}

/* The shape where it is known; else the rank and element count, never a
 * shape made up from them ("float32 rank 2, 1000 el"). */
const char *
fmt_shape(const struct td_summary *s, char *buf, size_t size)
{
	size_t used = 0;

	buf[0] = '\0';
	if ((s->known & SUM_DTYPE) && s->dtype != DTYPE_INVALID)
		fmt_add(buf, size, &used, "%s", td_dtype_name(s->dtype));
	if ((s->known & SUM_SHAPE) || ((s->known & SUM_RANK) && s->rank == 0)) {
		fmt_add(buf, size, &used, "[%s", s->dims_truncated ? "...," : "");
		for (int i = 0; (s->known & SUM_SHAPE) && i < s->ndims && i < TD_MAX_DIMS; i++)
			fmt_add(buf, size, &used, "%s%lld", i ? "," : "", (long long)s->dims[i]);
		fmt_add(buf, size, &used, "]");
	} else if (s->known & SUM_RANK) {
		fmt_add(buf, size, &used, "%srank %d", used ? " " : "", s->rank);
		if (s->known & SUM_ELEMENTS)
			fmt_add(buf, size, &used, ", %lld el", (long long)s->elements);
	} else if (s->known & SUM_ELEMENTS) {
		fmt_add(buf, size, &used, "%s%lld el", used ? " " : "", (long long)s->elements);
	}
	return buf;
}

/* Appends the known-or-not fields with flags, in people's order: "a/b/c"
 * (values only) or "L:a L:b" (long label, sep between them). */
static size_t
join_counts(const struct td_summary *s, unsigned flags, bool labels, const char *sep,
	    char *buf, size_t size, size_t used)
{
	const struct summary_field *f;
	bool first = true;

	for (int pos = 0; (f = summary_by_order(pos)) && used < size; pos++) {
		if ((f->flags & flags) != flags)
			continue;
		/* a count the summary does not know is "-", never 0 */
		if (s->known & f->bit)
			used += snprintf(buf + used, size - used, "%s%s%s%lld", first ? "" : sep,
					 labels ? f->long_label : "", labels ? ":" : "",
					 (long long)summary_int(s, f->id));
		else
			used += snprintf(buf + used, size - used, "%s%s%s-", first ? "" : sep,
					 labels ? f->long_label : "", labels ? ":" : "");
		first = false;
	}
	return used;
}

/* "min -1 max 3.2 mean 0.5": the known real fields, long labels. */
static void
join_reals(const struct td_summary *s, char *buf, size_t size)
{
	const struct summary_field *f;
	size_t used = 0;
	char v[32];

	buf[0] = '\0';
	for (int pos = 0; (f = summary_by_order(pos)) && used < size; pos++) {
		if (f->kind != SK_REAL || !f->short_label || !(s->known & f->bit))
			continue;
		used += snprintf(buf + used, size - used, "%s%s %s", used ? " " : "", f->long_label,
				 fmt_double(summary_real(s, f->id), v, sizeof v));
	}
}

const char *
fmt_summary(const struct td_summary *s, char *buf, size_t size)
{
	uint32_t breakdown = summary_bits(SF_BREAKDOWN);

	buf[0] = '\0';
	if ((s->known & breakdown) == breakdown)
		join_counts(s, SF_BREAKDOWN, false, "/", buf, size, 0);
	else if (s->known & summary_bits(SF_NONFINITE))
		join_counts(s, SF_NONFINITE, true, " ", buf, size, 0);
	else if (s->known & summary_fields[SUMMARY_MIN].bit)
		join_reals(s, buf, size);
	else if (s->known & summary_fields[SUMMARY_HAS_INF_OR_NAN].bit)
		snprintf(buf, size, "%s", s->has_inf_or_nan ? "Inf/NaN" : "finite");
	else if (*fmt_shape(s, buf, size))
		;                           /* SHAPE mode: the shape is all there is */
	else
		snprintf(buf, size, "-");
	return buf;
}

/* Drops a trailing "_<digits>" group; returns the new length. */
static size_t
strip_number(const char *s, size_t len)
{
	size_t i = len;

	while (i > 0 && isdigit((unsigned char)s[i - 1]))
		i--;
	if (i > 0 && i < len && s[i - 1] == '_')
		return i - 1;
	return len;
}

const char *
fmt_function_name(const char *name, char *buf, size_t size)
{
	static const struct { const char *prefix, *suffix; int numbers; } kinds[] = {
		{ "__inference_", "", 1 },
		{ "__forward_", " (fwd)", 1 },
		{ "__backward_", " (bwd)", 2 },
	};

	for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
		size_t plen = strlen(kinds[k].prefix);
		if (strncmp(name, kinds[k].prefix, plen) || !name[plen])
			continue;
		const char *base = name + plen;
		size_t len = strlen(base);
		/* "__inference___backward_loss_318_347": the inner kind names it */
		if (k == 0 && !strncmp(base, "__", 2))
			return fmt_function_name(base, buf, size);
		for (int i = 0; i < kinds[k].numbers; i++)
			len = strip_number(base, len);
		snprintf(buf, size, "%.*s%s", (int)len, base, kinds[k].suffix);
		return buf;
	}
	snprintf(buf, size, "%s", name);
	return buf;
}

size_t
fmt_scope_len(const char *name)
{
	const char *slash = name ? strrchr(name, '/') : NULL;

	return slash ? (size_t)(slash - name) + 1 : 0;
}

const char *
fmt_scope_relative(const char *name, const char *base, char *buf, size_t size)
{
	size_t scope = fmt_scope_len(base), shared = 0;

	if (!name)
		name = "";
	/* the longest run of whole components both start with, within base's scope */
	for (size_t i = 0; i < scope && name[i] == base[i]; i++)
		if (base[i] == '/')
			shared = i + 1;
	if (shared == 0)
		snprintf(buf, size, "%s", name);
	else if (shared == scope && !strchr(name + shared, '/'))
		snprintf(buf, size, "%s", name + shared);
	else
		snprintf(buf, size, ".../%s", name + shared);
	return buf;
}

#define FMT_SEGS_MAX 16

static size_t
join_segments(const struct fmt_seg *segs, size_t n, const bool *use, const bool *shortv,
	      char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		if (!use[i])
			continue;
		int k = snprintf(buf + len, size - len, "%s%s", len ? "  " : " ",
				 shortv[i] ? segs[i].shorter : segs[i].text);
		len = TD_MIN(len + (size_t)(k > 0 ? k : 0), size - 1);
	}
	return len;
}

/* The used segment of lowest priority (the later on a tie) that can give
 * way: shorten (it has a shorter form not in use) or drop; -1 none. */
static int
weakest(const struct fmt_seg *segs, size_t n, const bool *use, const bool *shortv, bool shorten)
{
	int best = -1;

	for (size_t i = 0; i < n; i++) {
		if (!use[i] || (shorten && (!segs[i].shorter || shortv[i])))
			continue;
		if (best < 0 || segs[i].prio <= segs[best].prio)
			best = (int)i;
	}
	return best;
}

const char *
fmt_fit_segments(const struct fmt_seg *segs, size_t n, int width, char *buf, size_t size)
{
	bool use[FMT_SEGS_MAX], shortv[FMT_SEGS_MAX];
	size_t left;

	n = TD_MIN(n, (size_t)FMT_SEGS_MAX);
	for (size_t i = 0; i < n; i++)
		use[i] = segs[i].text != NULL, shortv[i] = false;
	left = 0;
	for (size_t i = 0; i < n; i++)
		left += use[i];
	while (join_segments(segs, n, use, shortv, buf, size) > (size_t)(width > 0 ? width : 0)) {
		int k = weakest(segs, n, use, shortv, true);
		if (k >= 0) {
			shortv[k] = true;
			continue;
		}
		if (left <= 1 || (k = weakest(segs, n, use, shortv, false)) < 0)
			break;
		use[k] = false;
		left--;
	}
	return buf;
}

const char *
fmt_cell_label(const char *label, int width, const char *ellipsis, char *buf, size_t size)
{
	size_t len = strlen(label);
	const char *last = strrchr(label, ' ');
	int tail = last ? (int)(label + len - last) : 0;    /* " #1234" */

	if ((int)len <= width || !last || tail > 7 || width - tail - 1 < 3) {
		snprintf(buf, size, "%s", label);
		return buf;
	}
	int keep = width - tail - 1;
	while (keep > 1 && label[keep - 1] == ' ')
		keep--;
	snprintf(buf, size, "%.*s%s%s", keep, label, ellipsis, last);
	return buf;
}

const char *
fmt_wall_time(double wall, char *buf, size_t size)
{
	time_t secs = (time_t)floor(wall);
	struct tm tm;
	char when[32];

	/* 1970 .. 2200: outside, or not a number, it is not a wall time */
	if (!(wall > 0 && wall < 7258118400.0) || !gmtime_r(&secs, &tm) ||
	    !strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S", &tm))
		return fmt_double(wall, buf, size);
	snprintf(buf, size, "%s.%03d UTC", when, (int)floor((wall - floor(wall)) * 1000.0));
	return buf;
}
