/*
 * tfdbg1_names.c - the names tfdbg v1 writes, parsed: run directories,
 * device directories, tensor dump files, debugger graph nodes, graph inputs,
 * and the core metadata JSON.
 *
 * These are pure string functions (no I/O), so the unit tests can feed them
 * every odd name.  Node names may contain '_' and digits, so dump file names
 * are split from the right (FORMAT.md §9).
 */
#include "tfdbg1_internal.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static bool
all_digits(const char *s, size_t n)
{
	size_t i;

	if (n == 0 || n > 20)
		return false;
	for (i = 0; i < n; i++)
		if (!isdigit((unsigned char)s[i]))
			return false;
	return true;
}

static uint64_t
digits_value(const char *s, size_t n)
{
	uint64_t v = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		if (v > (UINT64_MAX - 9) / 10)
			return UINT64_MAX;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	return v;
}

/* The last '_' in s[0, n), or NULL. */
static const char *
last_underscore(const char *s, size_t n)
{
	while (n > 0) {
		n--;
		if (s[n] == '_')
			return s + n;
	}
	return NULL;
}

/* "<us>" or "<us>-<n>" (FORMAT.md §3, collisions). */
static bool
parse_extended_ts(const char *s, size_t n, uint64_t *ts, uint32_t *collision)
{
	const char *dash = memchr(s, '-', n);
	uint64_t c;

	if (!dash) {
		if (!all_digits(s, n))
			return false;
		*ts = digits_value(s, n);
		*collision = 0;
		return true;
	}
	if (!all_digits(s, (size_t)(dash - s)))
		return false;
	if (!all_digits(dash + 1, n - (size_t)(dash - s) - 1))
		return false;
	c = digits_value(dash + 1, n - (size_t)(dash - s) - 1);
	if (c > UINT32_MAX)
		return false;
	*ts = digits_value(s, (size_t)(dash - s));
	*collision = (uint32_t)c;
	return true;
}

bool
tfdbg1_parse_dump_name(const char *relpath, struct tfdbg1_dump_name *out)
{
	const char *base = strrchr(relpath, '/');
	const char *u_ts, *u_op, *u_slot;
	size_t blen, dirlen;
	uint64_t slot;

	memset(out, 0, sizeof(*out));
	base = base ? base + 1 : relpath;
	dirlen = (size_t)(base - relpath);
	blen = strlen(base);
	u_ts = last_underscore(base, blen);
	u_op = u_ts ? last_underscore(base, (size_t)(u_ts - base)) : NULL;
	u_slot = u_op ? last_underscore(base, (size_t)(u_op - base)) : NULL;
	if (!u_slot || u_slot == base || u_op == u_slot + 1 || u_ts == u_op + 1)
		return false;
	if (!parse_extended_ts(u_ts + 1, blen - (size_t)(u_ts + 1 - base), &out->timestamp,
			       &out->collision))
		return false;
	if (!all_digits(u_slot + 1, (size_t)(u_op - u_slot - 1)))
		return false;
	slot = digits_value(u_slot + 1, (size_t)(u_op - u_slot - 1));
	if (slot > UINT32_MAX)
		return false;
	out->slot = (uint32_t)slot;
	out->debug_op = xstrndup(u_op + 1, (size_t)(u_ts - u_op - 1));
	/* node = the directories below the device dir, then the base's head. */
	out->node = xstrndup(relpath, dirlen + (size_t)(u_slot - base));
	return true;
}

void
tfdbg1_dump_name_done(struct tfdbg1_dump_name *n)
{
	if (!n)
		return;
	free(n->node);
	free(n->debug_op);
	memset(n, 0, sizeof(*n));
}

/* One ','-separated item of a device path: "device_" -> "device:" (all),
 * then the first remaining '_' -> ':' (FORMAT.md §4). */
static void
decode_device_item(struct strbuf *sb, const char *item, size_t n)
{
	static const char dev[] = "device_";
	const size_t devlen = sizeof(dev) - 1;
	bool first_done = false;
	size_t i = 0;

	while (i < n) {
		if (n - i >= devlen && memcmp(item + i, dev, devlen) == 0) {
			strbuf_adds(sb, "device:");
			i += devlen;
			continue;
		}
		if (item[i] == '_' && !first_done) {
			strbuf_addc(sb, ':');
			first_done = true;
		} else {
			strbuf_addc(sb, item[i]);
		}
		i++;
	}
}

char *
tfdbg1_device_decode(const char *name)
{
	const size_t plen = strlen(TFDBG1_DEVICE_PREFIX);
	struct strbuf sb = { 0 };
	const char *p, *comma;

	if (strncmp(name, TFDBG1_DEVICE_PREFIX, plen) != 0)
		return NULL;
	p = name + plen;
	for (;;) {
		comma = strchr(p, ',');
		decode_device_item(&sb, p, comma ? (size_t)(comma - p) : strlen(p));
		if (!comma)
			break;
		strbuf_addc(&sb, '/');
		p = comma + 1;
	}
	if (!sb.buf)
		return xstrdup("");
	return strbuf_take(&sb);
}

bool
tfdbg1_parse_run_dir(const char *name, uint64_t *us, const char **token, int64_t *counter)
{
	const char *p, *u;
	size_t tlen;

	if (strncmp(name, "run_", 4) != 0)
		return false;
	p = name + 4;
	u = strchr(p, '_');
	if (!u || !all_digits(p, (size_t)(u - p)))
		return false;
	tlen = strlen(u + 1);
	if (tlen == 0 || strchr(u + 1, '/'))
		return false;
	*us = digits_value(p, (size_t)(u - p));
	*token = u + 1;
	*counter = all_digits(u + 1, tlen) && digits_value(u + 1, tlen) <= INT64_MAX
			   ? (int64_t)digits_value(u + 1, tlen)
			   : -1;
	return true;
}

bool
tfdbg1_is_debug_node(const char *name)
{
	return strncmp(name, "__copy_", 7) == 0 || strncmp(name, "__dbg_", 6) == 0;
}

bool
tfdbg1_parse_input(const char *input, size_t *node_len, uint32_t *slot)
{
	const char *colon;
	size_t n = strlen(input);

	if (n == 0 || input[0] == '^')
		return false;
	colon = strrchr(input, ':');
	if (colon && all_digits(colon + 1, n - (size_t)(colon + 1 - input)) && colon != input) {
		uint64_t v = digits_value(colon + 1, n - (size_t)(colon + 1 - input));

		if (v > UINT32_MAX)
			return false;
		*node_len = (size_t)(colon - input);
		*slot = (uint32_t)v;
		return true;
	}
	*node_len = n;
	*slot = 0;
	return true;
}
