/*
 * jscan.h - a pull-style streaming JSON scanner over a byte source.
 *
 * Reads a JSON text (RFC 8259 plus the bare tokens NaN, Infinity and
 * -Infinity that Python's json writes for non-finite floats) token by token
 * from a struct source in fixed-size chunks: memory is the chunk, the
 * current token and a nesting stack, whatever the size of the file.
 * Structure is checked as it goes (a key where a key belongs, commas,
 * colons, matching brackets); the first error stops the scanner with a
 * message naming the line and column.  Not for: building a document tree,
 * writing JSON, or knowing any format (reader/msprobe/ does that).
 *
 *	struct jscan js;
 *	jscan_init(&js, src, 0, NULL);
 *	while ((tok = jscan_next(&js)) != JSCAN_EOF && tok != JSCAN_ERROR)
 *		... js.str / js.num / js.depth ...
 *	if (tok == JSCAN_ERROR) ... js.err ("line 3, column 7: ...") ...
 *	jscan_done(&js);
 */
#ifndef TD_JSCAN_H
#define TD_JSCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "reader/parse/decnum.h"

#include "reader/parse/source.h"

/* Defaults for struct jscan_limits (README, Limits). */
#define JSCAN_MAX_DEPTH  128
#define JSCAN_MAX_STRING ((size_t)1 << 20)
#define JSCAN_MAX_NUMBER 64

enum jscan_tok {
	JSCAN_ERROR,         /* js.err says why; every later call returns it again */
	JSCAN_EOF,           /* the end of a complete text (or of the member, jscan_init_member) */
	JSCAN_OBJ_BEGIN,
	JSCAN_OBJ_END,
	JSCAN_ARR_BEGIN,
	JSCAN_ARR_END,
	JSCAN_KEY,           /* an object key: js.str */
	JSCAN_STRING,        /* js.str, js.len (UTF-8, NUL-terminated, no NUL inside) */
	JSCAN_NUMBER,        /* js.num (NaN, +-Inf for the bare tokens) */
	JSCAN_TRUE,
	JSCAN_FALSE,
	JSCAN_NULL,
};

struct jscan_limits {
	int max_depth;          /* arrays and objects open at once */
	size_t max_string;      /* bytes of one decoded string or key */
	size_t max_number;      /* characters of one number */
};

struct jscan {
	/* Results of the last jscan_next(). */
	char *str;              /* JSCAN_KEY / JSCAN_STRING text, owned by the scanner
				 * (its own buffer, or its read buffer for a string
				 * without escapes), valid until the next call */
	size_t len;
	double num;
	int depth;              /* containers open after this token */
	uint64_t tok_off;       /* byte offset of the token's first byte */
	uint64_t line, col;     /* where the token starts, 1-based; line is 0 when
				 * the scan started mid-file (jscan_init_member) */
	bool bad_utf8;          /* a string held invalid UTF-8 (replaced by U+FFFD) */
	bool flat_defer;        /* set by the caller: jscan_flat leaves a member's
				 * number pending (its digits gathered, all of them:
				 * at most 19), for the caller to make where it has
				 * time (a pending last number leaves num as it was
				 * after jscan_flat_take) */
	char err[160];
	/* Private. */
	struct source *src;
	struct jscan_limits lim;
	uint64_t off, end;      /* next byte to read, end of the source at init */
	unsigned char *buf;
	size_t blen, bpos;
	size_t chunk;           /* bytes the next refill reads (grows to the buffer's size) */
	uint64_t boff;          /* source offset of buf[0] */
	uint64_t prefetched;    /* source_prefetch() asked for the bytes up to here
				 * (a whole-file scan; UINT64_MAX: not asked) */
	uint64_t cur_line;      /* line of the next byte (0: not counted, a member scan) */
	uint64_t line_start;    /* source offset of that line's first byte: the column
				 * is counted from it when asked, not byte by byte */
	char *own;              /* the strings' own buffer (scap bytes) */
	uint8_t *stack;         /* 'o' or 'a' per open container */
	int state;
	bool member_mode, done, failed;
	size_t scap;
};

/* Most members jscan_flat() takes of one object, and numbers in its arrays. */
#define JSCAN_FLAT_MEMBERS 16
#define JSCAN_FLAT_NUMS    16

/* One member of a flat object. */
struct jscan_member {
	const char *key;        /* not NUL-terminated until jscan_flat_take() */
	size_t klen;
	enum jscan_tok tok;     /* JSCAN_STRING, _NUMBER, _TRUE, _FALSE, _NULL, or
				 * JSCAN_ARR_BEGIN: an array of numbers */
	const char *str;        /* JSCAN_STRING: as key */
	size_t len;
	double num;             /* JSCAN_NUMBER, unless pending */
	bool pending;           /* JSCAN_NUMBER whose value is not made yet (the
				 * scanner's flat_defer): dec holds it, and
				 * jscan_member_num() makes it */
	struct decnum_dec dec;
	int first, count;       /* JSCAN_ARR_BEGIN: nums[first, first + count) */
};

/* A whole object read at once (jscan_flat). */
struct jscan_flat {
	struct jscan_member m[JSCAN_FLAT_MEMBERS];
	int n;
	double nums[JSCAN_FLAT_NUMS];
	int nnums;
	/* Private: where the scan goes on after the object. */
	size_t end_pos, close_pos;
	uint64_t lines, line_start;
};

/* Starts a scan of src from byte off to its end; lim NULL takes the
 * defaults.  The scanner borrows src until jscan_done(). */
void jscan_init(struct jscan *js, struct source *src, uint64_t off,
	       const struct jscan_limits *lim);
/* Starts a scan at off of one object member ("key": value) inside an
 * object, as if the object had just been opened: jscan_next() gives
 * JSCAN_KEY, the value's tokens, then JSCAN_EOF after the value (or an error).
 * Line numbers are unknown (0). */
void jscan_init_member(struct jscan *js, struct source *src, uint64_t off,
		      const struct jscan_limits *lim);
/* The next token.  On malformed input, a limit passed, a read error or the
 * end of the bytes inside a value: JSCAN_ERROR with js.err. */
enum jscan_tok jscan_next(struct jscan *js);
/* Skips the value whose first token was just returned (its whole subtree for
 * a container; nothing for a scalar).  Returns false on an error (js.err). */
bool jscan_skip(struct jscan *js, enum jscan_tok first);
/* Right after a JSCAN_OBJ_BEGIN: reads the object's members at once when
 * the whole object lies in the read buffer and is flat (each value a
 * string without escapes or bytes past ASCII, a number, true, false, null
 * or an array of numbers; no NaN or Infinity; within the limits and
 * JSCAN_FLAT_*).  Returns true and f filled, the scanner unchanged until
 * jscan_flat_take(); false when not (the object is then read token by
 * token, which reports its errors).  The tokens it stands for are the
 * ones jscan_next() would give, numbers with the same bits (a member's
 * number left pending under js->flat_defer: jscan_member_num() gives
 * those bits).  f's strings borrow the read buffer until the next call on
 * the scanner. */
bool jscan_flat(struct jscan *js, struct jscan_flat *f);
/* The number of member mb (JSCAN_NUMBER), made now when it is pending. */
static inline double
jscan_member_num(const struct jscan_member *mb)
{
	return mb->pending ? decnum_dec_value(&mb->dec) : mb->num;
}
/* Consumes the object jscan_flat() read into f (which must be the last
 * call on the scanner): its keys and strings NUL-terminated, the scanner
 * as after the object's JSCAN_OBJ_END (token position, line, column,
 * depth, the comma after it). */
void jscan_flat_take(struct jscan *js, struct jscan_flat *f);
/* Frees the buffers; the scanner may be initialised again. */
void jscan_done(struct jscan *js);
/* The name of a token kind ("number"), for messages. */
const char *jscan_tok_name(enum jscan_tok t);

#endif
