/*
 * msp_state.c - the msprobe reader's resume state (reader.h save_state /
 * load_state), kept by the model with its cached index.
 *
 * Per unit (rank folder, in the reader's order): its dump.json path (below
 * the dump's folder as this open names it, so that a relative path, an
 * absolute one or a link to the same dump resume the same state), what
 * the index read (size, modification time, torn), the dump facts (task,
 * level, framework) and the entry table decode() needs (each entry's byte
 * offset and first trace, as varint changes from the entry before), plus
 * the entry names when follow mode keeps them (a later flush moves known
 * entries by name).  A state fits a freshly
 * opened reader that lists the same units first, in the same order.  The
 * side files (construct.json, stack.json) are read again at load, quietly:
 * the model has their frames from the cache.  Not here: whether the files
 * are unchanged (the model compares fingerprints first).
 */
#include "msp_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader/base/serial.h"

#define STATE_VERSION 4   /* 2: sources, links; 3: paths below the root;
			   * 4: entries as varint deltas */
#define ENTRY_MIN_BYTES 6 /* an entry's least: two one-byte varints, a u32 */

/* path without the dump folder's prefix (root as this open names it), or
 * path itself when it is not below root. */
static const char *
below_root(const struct reader *r, const char *path)
{
	size_t n = strlen(r->root);

	while (n > 1 && r->root[n - 1] == '/')
		n--;
	if (strncmp(path, r->root, n) != 0 || path[n] != '/')
		return path;
	for (path += n; *path == '/'; path++)       /* "dump/" + "/step0/..." */
		;
	return path;
}

static void
save_unit(const struct reader *r, const struct msp_unit *u, struct strbuf *o)
{
	size_t i;

	ser_put_str(o, below_root(r, u->json));
	ser_put_u8(o, u->indexed);
	ser_put_u8(o, u->torn);
	ser_put_u64(o, u->size);
	ser_put_u64(o, (uint64_t)u->mtime_ns);
	ser_put_str(o, u->task);
	ser_put_str(o, u->level);
	ser_put_str(o, u->framework);
	ser_put_u64(o, u->nentries);
	ser_put_u64(o, u->ntraces);
	/* each entry as the change from the one before (offsets grow in file
	 * order but for a follow flush's moves: zigzag; first traces never
	 * fall): 7 to 8 bytes where three fixed fields took 20 (4 MB of the
	 * save at 200,000 entries, issue 26) */
	for (i = 0; i < u->nentries; i++) {
		ser_put_delta(o, i ? u->entry_off[i - 1] : 0, u->entry_off[i]);
		ser_put_varint(o, u->first_trace[i] - (i ? u->first_trace[i - 1] : 0));
		ser_put_u32(o, u->entry_hash[i]);
	}
	ser_put_u64(o, u->sent.n);
	for (i = 0; i < u->sent.n; i++) {
		ser_put_str(o, u->sent.ents[i].key);
		ser_put_u64(o, u->sent.ents[i].val);
	}
}

void
msp_save_state(struct reader *r, struct strbuf *out)
{
	size_t i;

	pthread_mutex_lock(&r->lock);
	ser_put_u32(out, STATE_VERSION);
	ser_put_u64(out, r->nunits);
	ser_put_u64(out, (uint64_t)r->nexec);
	ser_put_u64(out, r->nrows);
	ser_put_u8(out, r->meta_sent);
	for (i = 0; i < r->nunits; i++)
		save_unit(r, &r->units[i], out);
	pthread_mutex_unlock(&r->lock);
}

static void
copy_str(char *dst, size_t len, const char *s)
{
	snprintf(dst, len, "%s", s ? s : "");
}

static bool
load_unit(const struct reader *r, struct msp_unit *u, struct ser_in *in)
{
	const char *json = ser_get_str(in);
	uint64_t n, nt, i, nsent;

	if (!json || strcmp(json, below_root(r, u->json)) != 0)
		return false;
	u->indexed = ser_get_u8(in);
	u->torn = ser_get_u8(in);
	u->size = ser_get_u64(in);
	u->mtime_ns = (int64_t)ser_get_u64(in);
	copy_str(u->task, sizeof u->task, ser_get_str(in));
	copy_str(u->level, sizeof u->level, ser_get_str(in));
	copy_str(u->framework, sizeof u->framework, ser_get_str(in));
	n = ser_get_count(in, ENTRY_MIN_BYTES);
	nt = ser_get_u64(in);
	if (in->bad)
		return false;
	u->cap = (size_t)n + 2;
	u->entry_off = xcalloc(u->cap, sizeof(*u->entry_off));
	u->first_trace = xcalloc(u->cap, sizeof(*u->first_trace));
	u->entry_hash = xcalloc(u->cap, sizeof(*u->entry_hash));
	for (i = 0; i < n; i++) {
		uint64_t ft = i ? u->first_trace[i - 1] : 0, d;

		u->entry_off[i] = ser_get_delta(in, i ? u->entry_off[i - 1] : 0);
		d = ser_get_varint(in);
		u->entry_hash[i] = ser_get_u32(in);
		if (in->bad || d > nt - ft)
			return false;
		u->first_trace[i] = ft + d;
	}
	u->nentries = (size_t)n;
	u->ntraces = nt;
	u->first_trace[n] = nt;
	nsent = ser_get_count(in, 13);
	for (i = 0; i < nsent && !in->bad; i++) {
		const char *name = ser_get_str(in);
		uint64_t e = ser_get_u64(in);

		if (!name || e >= n)
			return false;
		msp_map_put(&u->sent, name, e);
	}
	return !in->bad;
}

static bool
silent_stop(void *ctx)
{
	(void)ctx;
	return false;
}

bool
msp_load_state(struct reader *r, const void *data, size_t len)
{
	struct reader_sink quiet = { .should_stop = silent_stop };
	struct ser_in in;
	uint64_t n, i;
	enum td_status st;
	char why[128];

	ser_in_init(&in, data, len);
	if (ser_get_u32(&in) != STATE_VERSION)
		return false;
	n = ser_get_u64(&in);
	if (in.bad || n > r->nunits)
		return false;
	r->nexec = (int64_t)ser_get_u64(&in);
	r->nrows = ser_get_u64(&in);
	r->meta_sent = ser_get_u8(&in);
	for (i = 0; i < n; i++) {
		struct msp_unit *u = &r->units[i];

		if (!load_unit(r, u, &in))
			return false;
		if (!u->indexed)
			continue;
		/* decode() reads the file and the side tables; frames were
		 * sent by the saving reader (the model has them) */
		u->src = source_open_file(u->json, &st, why, sizeof why);
		msp_side_load(r, u, &quiet);
		msp_map_put(&r->graphs_sent, u->host, 1);
	}
	return ser_in_done(&in);
}
