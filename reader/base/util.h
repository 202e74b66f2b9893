/*
 * util.h - status codes, allocators and small helpers shared by every layer.
 *
 * This is the bottom of the tree: it includes only libc and knows nothing of
 * formats, models or screens.  Small allocations that fail abort through
 * xmalloc() and friends (as htop's xMalloc does); data-sized allocations are
 * checked by their callers and reported as TD_ERR_NOMEM.
 */
#ifndef TD_UTIL_H
#define TD_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdarg.h>

#define STATUS_CODE_INFO(_) \
	_(OK,             "ok") \
	_(ERR_IO,         "input/output error") \
	_(ERR_NOENT,      "no such file or directory") \
	_(ERR_NOMEM,      "out of memory") \
	_(ERR_FORMAT,     "unrecognised dump format") \
	_(ERR_CORRUPT,    "corrupt record") \
	_(ERR_TRUNCATED,  "truncated record") \
	_(ERR_DECODE,     "protobuf decode error") \
	_(ERR_RANGE,      "index out of range") \
	_(ERR_ARGS,       "bad arguments") \
	_(ERR_REGEX,      "bad regular expression") \
	_(ERR_NOTFOUND,   "not found") \
	_(ERR_UNSUPPORTED,"not supported") \
	_(ERR_AGAIN,      "not indexed yet") \
	_(ERR_TOO_LARGE,  "larger than tdbg's limit") \
	_(ERR_STALE,      "the file changed since this row was read (truncated, replaced or rewritten)")

enum td_status {
#define TD_STATUS_ENUM(name, msg) TD_##name,
	STATUS_CODE_INFO(TD_STATUS_ENUM)
#undef TD_STATUS_ENUM
	TD_STATUS_COUNT
};

/* Returns a static, human readable message for a status code. */
const char *td_strerror(enum td_status code);

/* Allocators that abort with a message on failure.  xfree() is free(). */
void *xmalloc(size_t size);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *ptr, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* Returns a newly allocated printf-formatted string. */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Grows *items (of *cap elements of size elem) so that it holds at least
 * need elements; doubles the capacity.  Aborts on overflow or OOM. */
void td_grow(void **items, size_t *cap, size_t need, size_t elem);
#define TD_GROW(arr, cap, need) td_grow((void **)&(arr), &(cap), (need), sizeof(*(arr)))

/* A growable, NUL-terminated byte string.  Zero-initialise, then append.
 * strbuf_done() frees; strbuf_take() hands the buffer to the caller. */
struct strbuf {
	char *buf;
	size_t len;
	size_t cap;
};
void strbuf_add(struct strbuf *sb, const char *data, size_t len);
void strbuf_adds(struct strbuf *sb, const char *s);
/* One byte; inline because JSON and text output append byte by byte. */
static inline void
strbuf_addc(struct strbuf *sb, char c)
{
	if (sb->len + 2 > sb->cap)
		td_grow((void **)&sb->buf, &sb->cap, sb->len + 2, 1);
	sb->buf[sb->len++] = c;
	sb->buf[sb->len] = '\0';
}
void strbuf_addf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap);
/* s (NULL as "") as one field of a "key: value" text line: a newline or
 * carriage return becomes "^J" / "^M", so a value from a dump cannot start
 * a line of its own (other control bytes are left to the terminal layer's
 * sanitizer).  The result lives in a ring of buffers: valid until 8 more
 * calls on the same thread. */
const char *td_oneline(const char *s);
void strbuf_reset(struct strbuf *sb);
char *strbuf_take(struct strbuf *sb);
void strbuf_done(struct strbuf *sb);

/* Runs fn on each line of a configuration text (whole, whatever its
 * length: a line is never cut), fn writing a message into msg when it
 * rejects a line.
 * Returns the number of rejected lines; err gets "line N: message" of the
 * first one (or "" when none). */
int td_parse_lines(const char *text, bool (*fn)(void *ctx, char *line, char *msg, size_t msglen),
		   void *ctx, char *err, size_t errlen);

/* qsort that accepts an empty array: qsort(NULL, 0, ...) is undefined
 * behaviour (its base is declared non-null), and an empty list's pointer
 * is often NULL. */
void td_sort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *));

/* tdbg's directory in an XDG base directory: "$VAR/tdbg" when the
 * variable var holds an absolute path (a relative one is invalid, as the
 * XDG spec says), else "$HOME/home_rel/tdbg" ("~/.config/tdbg").  False,
 * buf empty, when neither is set or the path does not fit size. */
bool td_xdg_dir(const char *var, const char *home_rel, char *buf, size_t size);

/* Monotonic clock in seconds. */
double td_now(void);

#define TD_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define TD_MIN(a, b) ((a) < (b) ? (a) : (b))
#define TD_MAX(a, b) ((a) > (b) ? (a) : (b))

/* Appends v in the shortest %g form that reads back (strtod) as the same
 * double: 0.05, not 0.050000000000000003; at most 17 digits.  Infinities
 * and NaN as printf writes them ("inf", "-inf", "nan"). */
void strbuf_add_double(struct strbuf *sb, double v);
/* Appends v as Python's repr writes a float: the fewest digits that read
 * back, fixed notation for decimal exponents -4..15 ("1.0", "0.0001"),
 * else "1e-05", "1.5e+16"; "nan", "inf", "-inf". */
void strbuf_add_pyfloat(struct strbuf *sb, double v);
/* Tests: strbuf_add_pyfloat without its fast way (shortest.h). */
extern bool strbuf_pyfloat_exact_only;

/* A non-tensor argument of a call (a number, a flag, a name, a range ...
 * that the dump records beside the call's tensors but that is not a
 * trace row), with the cells the dump's own compare tool writes for it.
 * Plain data; the strings are owned (td_args_free). */
enum td_arg_num { TD_ARG_TEXT, TD_ARG_INT, TD_ARG_FLOAT };
struct td_arg {
	char *path;                 /* its leaf path in the call: "input.1", "input.alpha" */
	uint32_t place;             /* the call's tensor rows (in row order) before it */
	bool is_input;
	char *dtype;                /* the tool's Dtype cell; NULL: it pairs with nothing */
	char *shape;                /* the tool's Shape cell; NULL: unknown ("N/A") */
	char *value;                /* the four statistics cells' text */
	enum td_arg_num num;        /* value is a number (compared as one) or text */
	double v;                   /* the number when num != TD_ARG_TEXT */
	char *md5;                  /* the md5-mode checksum cell; NULL: none */
};
/* Frees n arguments and the array; NULL is fine. */
void td_args_free(struct td_arg *a, size_t n);

#endif
