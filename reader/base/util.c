/*
 * util.c - status messages, aborting allocators, growable strings.
 */
#include "util.h"
#include "shortest.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *const status_messages[] = {
#define TD_STATUS_MSG(name, msg) msg,
	STATUS_CODE_INFO(TD_STATUS_MSG)
#undef TD_STATUS_MSG
};

const char *
td_strerror(enum td_status code)
{
	if ((unsigned)code >= TD_STATUS_COUNT)
		return "unknown error";
	return status_messages[code];
}

static void
die_oom(size_t size)
{
	fprintf(stderr, "tdbg: out of memory allocating %zu bytes\n", size);
	abort();
}

void *
xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (!p)
		die_oom(size);
	return p;
}

void *
xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		die_oom(n * size);
	return p;
}

void *
xrealloc(void *ptr, size_t size)
{
	void *p = realloc(ptr, size ? size : 1);

	if (!p)
		die_oom(size);
	return p;
}

char *
xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *
xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *
xasprintf(const char *fmt, ...)
{
	struct strbuf sb = {0};
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	return strbuf_take(&sb);
}

void
td_grow(void **items, size_t *cap, size_t need, size_t elem)
{
	size_t ncap;

	if (need <= *cap)
		return;
	ncap = *cap ? *cap : 8;
	while (ncap < need) {
		if (ncap > SIZE_MAX / 2)
			die_oom(SIZE_MAX);
		ncap *= 2;
	}
	if (ncap > SIZE_MAX / elem)
		die_oom(SIZE_MAX);
	*items = xrealloc(*items, ncap * elem);
	*cap = ncap;
}

void
strbuf_add(struct strbuf *sb, const char *data, size_t len)
{
	TD_GROW(sb->buf, sb->cap, sb->len + len + 1);
	memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
}

void
strbuf_adds(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void
strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	size_t room;
	int n;

	/* Format once into the spare room; only a too-small buffer formats twice. */
	TD_GROW(sb->buf, sb->cap, sb->len + 64);
	room = sb->cap - sb->len;
	va_copy(cp, ap);
	n = vsnprintf(sb->buf + sb->len, room, fmt, cp);
	va_end(cp);
	if (n < 0) {
		sb->buf[sb->len] = '\0';
		return;
	}
	if ((size_t)n >= room) {
		TD_GROW(sb->buf, sb->cap, sb->len + (size_t)n + 1);
		vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	}
	sb->len += (size_t)n;
}

void
strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

#define ONELINE_RING 8

/* Each thread's ring of td_oneline results, freed when the thread ends (a
 * _Thread_local array would leak the index thread's buffers). */
struct oneline_ring {
	struct strbuf b[ONELINE_RING];
	unsigned next;
};
static pthread_key_t oneline_key;
static pthread_once_t oneline_once = PTHREAD_ONCE_INIT;

static void
oneline_free(void *p)
{
	struct oneline_ring *r = p;

	for (size_t i = 0; i < ONELINE_RING; i++)
		strbuf_done(&r->b[i]);
	free(r);
}

static void
oneline_init(void)
{
	pthread_key_create(&oneline_key, oneline_free);
}

const char *
td_oneline(const char *s)
{
	struct oneline_ring *r;
	struct strbuf *sb;

	pthread_once(&oneline_once, oneline_init);
	if (!(r = pthread_getspecific(oneline_key))) {
		r = xcalloc(1, sizeof *r);
		pthread_setspecific(oneline_key, r);
	}
	sb = &r->b[r->next++ % ONELINE_RING];
	strbuf_reset(sb);
	for (; s && *s; s++) {
		if (*s == '\n')
			strbuf_adds(sb, "^J");
		else if (*s == '\r')
			strbuf_adds(sb, "^M");
		else
			strbuf_addc(sb, *s);
	}
	return sb->buf ? sb->buf : "";
}

void
strbuf_reset(struct strbuf *sb)
{
	sb->len = 0;
	if (sb->buf)
		sb->buf[0] = '\0';
}

char *
strbuf_take(struct strbuf *sb)
{
	char *p = sb->buf ? sb->buf : xstrdup("");

	sb->buf = NULL;
	sb->len = sb->cap = 0;
	return p;
}

void
strbuf_done(struct strbuf *sb)
{
	free(sb->buf);
	sb->buf = NULL;
	sb->len = sb->cap = 0;
}

int
td_parse_lines(const char *text, bool (*fn)(void *ctx, char *line, char *msg, size_t msglen),
	       void *ctx, char *err, size_t errlen)
{
	int bad = 0, lineno = 0;

	if (errlen)
		err[0] = '\0';
	for (const char *p = text; *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char *line = xstrndup(p, len), msg[200];

		lineno++;
		if (!fn(ctx, line, msg, sizeof msg) && bad++ == 0)
			snprintf(err, errlen, "line %d: %s", lineno, msg);
		free(line);
		p += len + (nl ? 1 : 0);
	}
	return bad;
}

void
td_sort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
	if (n > 1)
		qsort(base, n, size, cmp);
}

bool
td_xdg_dir(const char *var, const char *home_rel, char *buf, size_t size)
{
	const char *x = getenv(var), *home = getenv("HOME");
	int n = -1;

	if (x && *x == '/')
		n = snprintf(buf, size, "%s/tdbg", x);
	else if (home && *home)
		n = snprintf(buf, size, "%s/%s/tdbg", home, home_rel);
	if (n < 0 || (size_t)n >= size) {
		if (size)
			buf[0] = '\0';
		return false;
	}
	return true;
}

double
td_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void
strbuf_add_double(struct strbuf *sb, double v)
{
	char buf[40];
	int n;

	/* the count from shortest.h (one printf), else counted up */
	if ((n = shortest_g_precision(v)) > 0)
		snprintf(buf, sizeof buf, "%.*g", n, v);
	else
		for (int digits = 1; digits <= 17; digits++) {
			snprintf(buf, sizeof buf, "%.*g", digits, v);
			if (strtod(buf, NULL) == v || v != v)
				break;
		}
	/* %g's shortest form of 50 is "5e+01": between 1e-4 and 1e15 the
	 * fewest decimals that read back the same read better */
	if (strchr(buf, 'e') && fabs(v) >= 1e-4 && fabs(v) < 1e15) {
		for (int decimals = 0; decimals <= 17; decimals++) {
			snprintf(buf, sizeof buf, "%.*f", decimals, v);
			if (strtod(buf, NULL) == v)
				break;
		}
	}
	strbuf_adds(sb, buf);
}

/* The exact way to shortest_digits' answer (when it declines): the
 * fewest digits that read back as v, the nearest of that many, as digits
 * and the exponent of the first.  When some count up to 15 reads back, v
 * lies within half an ulp (1.1e-16 of it) of that decimal, far nearer
 * than half a step of 15 digits (5e-16 of it), so 15 digits round to
 * that decimal padded with zeros; else 16, else 17 (always enough).  Not
 * so at a power of two, whose lower neighbour is half as far as its upper
 * (the decimal nearest v may fall below the lower boundary while the one
 * above it reads back: Python's repr(2.0 ** -1017) has 16 digits, the
 * correctly rounded 16 do not read back), nor for a subnormal, whose ulp
 * is large beside it: counted up from one digit, and the neighbour across
 * v tried when the nearest does not read back. */
static int
pyfloat_digits_exact(double v, char *digits, int *exp_sci)
{
	uint64_t bits;
	char buf[48], nb[48];
	bool two;
	int p, n, k;

	memcpy(&bits, &v, sizeof bits);
	two = (bits & (((uint64_t)1 << 52) - 1)) == 0;
	for (p = two || v < DBL_MIN ? 1 : 15; p <= 17; p++) {
		const char *x;
		bool up;

		snprintf(buf, sizeof buf, "%.*e", p - 1, v);
		x = strchr(buf, 'e');
		n = 0;
		for (const char *c = buf; c < x; c++)
			if (*c != '.')
				digits[n++] = *c;
		digits[n] = '\0';
		*exp_sci = atoi(x + 1);
		if (strtod(buf, NULL) == v || p == 17)
			return n;
		if (!two)
			continue;
		/* one unit in the last place toward v */
		up = strtod(buf, NULL) < v;
		for (k = n - 1; k >= 0; k--) {
			if (up ? digits[k] != '9' : digits[k] != '0') {
				digits[k] = (char)(digits[k] + (up ? 1 : -1));
				break;
			}
			digits[k] = up ? '0' : '9';
		}
		if (k < 0 && up) {
			digits[0] = '1';
			(*exp_sci)++;
		}
		if (digits[0] == '0')
			continue;
		snprintf(nb, sizeof nb, "%c.%se%d", digits[0], digits + 1, *exp_sci);
		if (strtod(nb, NULL) == v)
			return n;
	}
	return n;
}

bool strbuf_pyfloat_exact_only;

void
strbuf_add_pyfloat(struct strbuf *sb, double v)
{
	char digits[24];
	int exp, nd, i;

	if (isnan(v) || isinf(v)) {
		strbuf_adds(sb, isnan(v) ? "nan" : v < 0 ? "-inf" : "inf");
		return;
	}
	if (signbit(v))
		strbuf_addc(sb, '-');
	v = fabs(v);
	if (v == 0) {
		strbuf_adds(sb, "0.0");
		return;
	}
	/* the shortest digits that read back, the nearest of them (a CSV of
	 * 800,000 rows writes 16 numbers a row): the fast exact way, else
	 * printf's and strtod's */
	if (!strbuf_pyfloat_exact_only && (nd = shortest_digits(v, digits, &exp)) > 0)
		exp += nd - 1;
	else
		nd = pyfloat_digits_exact(v, digits, &exp);
	while (nd > 1 && digits[nd - 1] == '0')
		digits[--nd] = '\0';
	digits[nd] = '\0';
	if (exp >= -4 && exp < 16) {
		if (exp < 0) {
			strbuf_adds(sb, "0.");
			for (i = 0; i < -exp - 1; i++)
				strbuf_addc(sb, '0');
			strbuf_adds(sb, digits);
			return;
		}
		for (i = 0; i <= exp; i++)
			strbuf_addc(sb, i < nd ? digits[i] : '0');
		strbuf_addc(sb, '.');
		strbuf_adds(sb, nd > exp + 1 ? digits + exp + 1 : "0");
		return;
	}
	strbuf_addc(sb, digits[0]);
	if (nd > 1) {
		strbuf_addc(sb, '.');
		strbuf_adds(sb, digits + 1);
	}
	strbuf_addf(sb, "e%c%02d", exp < 0 ? '-' : '+', exp < 0 ? -exp : exp);
}

void
td_args_free(struct td_arg *a, size_t n)
{
	size_t i;

	for (i = 0; a && i < n; i++) {
		free(a[i].path);
		free(a[i].dtype);
		free(a[i].shape);
		free(a[i].value);
		free(a[i].md5);
	}
	free(a);
}
