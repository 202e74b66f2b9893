/*
 * msp_call.c - what the call count in an entry name means when two dumps
 * are compared (reader_ops.call_of): msprobe's compare matches entries by
 * full name, except that an API's backward count is the count of the
 * forward call it follows, so it matches backward entries by their rank
 * among that API's backward calls (formats/msprobe.md §7; FORMAT.md §10).
 * Not the parser of entry names: msp_name_parse (msp_entry.c) is.
 */
#include "msp_internal.h"

#include <string.h>

/* Appends n bytes of s to dst (len bytes, *at used), cut as snprintf cuts:
 * the key is built for every op of both dumps, printf was a tenth of a
 * warm compare. */
static void
put(char *dst, size_t len, size_t *at, const char *s, size_t n)
{
	if (!len)
		return;
	if (n > len - 1 - *at)
		n = len - 1 - *at;
	memcpy(dst + *at, s, n);
	*at += n;
	dst[*at] = '\0';
}

enum reader_call
msp_call_of(const char *name, char *key, size_t keylen, int64_t *count)
{
	char type[512];
	int64_t n;
	enum msp_dir dir = msp_name_parse(name, type, sizeof type, &n);
	size_t tl = strlen(type), at = 0;
	const char *rest;
	bool api;

	if (dir == MSP_OTHER || n < 0 || tl >= strlen(name) || name[tl] != '.')
		return READER_CALL_NONE;
	rest = name + tl + 1;               /* "3.backward" or "backward.3" */
	api = rest[0] >= '0' && rest[0] <= '9';
	put(key, keylen, &at, type, tl);
	if (api) {                          /* "TYPE.*.backward" */
		put(key, keylen, &at, ".*", 2);
		put(key, keylen, &at, strchr(rest, '.'), strlen(strchr(rest, '.')));
	} else {                            /* "TYPE.forward.*" */
		put(key, keylen, &at, ".", 1);
		put(key, keylen, &at, rest, (size_t)(strrchr(rest, '.') - rest));
		put(key, keylen, &at, ".*", 2);
	}
	*count = n;
	return api && dir == MSP_BACKWARD ? READER_CALL_ORDINAL : READER_CALL_EXACT;
}
