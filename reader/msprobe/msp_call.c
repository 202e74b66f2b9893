/*
 * msp_call.c - what the call count in an entry name means when two dumps
 * are compared (reader_ops.call_of): msprobe's compare matches entries by
 * full name, except that an API's backward count is the count of the
 * forward call it follows, so it matches backward entries by their rank
 * among that API's backward calls (formats/msprobe.md §7; FORMAT.md §10).
 * Not the parser of entry names: msp_name_parse (msp_entry.c) is.
 */
#include "msp_internal.h"

#include <stdio.h>
#include <string.h>

enum reader_call
msp_call_of(const char *name, char *key, size_t keylen, int64_t *count)
{
	char type[512];
	int64_t n;
	enum msp_dir dir = msp_name_parse(name, type, sizeof type, &n);
	size_t tl = strlen(type);
	const char *rest;
	bool api;

	if (dir == MSP_OTHER || n < 0 || tl >= strlen(name) || name[tl] != '.')
		return READER_CALL_NONE;
	rest = name + tl + 1;               /* "3.backward" or "backward.3" */
	api = rest[0] >= '0' && rest[0] <= '9';
	if (api)
		snprintf(key, keylen, "%s.*%s", type, strchr(rest, '.'));
	else
		snprintf(key, keylen, "%s.%.*s.*", type, (int)(strrchr(rest, '.') - rest), rest);
	*count = n;
	return api && dir == MSP_BACKWARD ? READER_CALL_ORDINAL : READER_CALL_EXACT;
}
