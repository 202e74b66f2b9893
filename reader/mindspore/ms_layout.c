/*
 * ms_layout.c - the rank layout kept in the reader's state (issue 25 item
 * 5): a reopen that does not walk the dump again.
 *
 * The walk (ms_sync.c) lists the root, each rank folder, its network and
 * graph folders (the iteration folders, the runs), and reads each rank's
 * metadata, graph files and execution orders.  Each of these is noted as
 * a dependency with its stat data, taken before the listing or the read;
 * the state saves them with what the walk found (the ranks, their graph
 * ids, the runs in their sorted order).  A reopen stats the dependencies
 * (a few per rank, not one per run): a folder's inode, modification and
 * status-change times move when an entry is added, removed or renamed
 * over, a file's when it is rewritten.  All unchanged: the ranks and runs
 * are made from the state, and the graphs, orders, frames and sources are
 * loaded only when something asks for them (a later index pass with work
 * to do, the decode of a source: ms_layout_materialize).  A listed folder
 * changed (a run or a rank added or removed): the walk is made as before
 * and the state fits or not by its checks (ms_state.c).  A graph, order
 * or metadata file changed, added or removed: the state is refused, since
 * the model's op table came from them.
 *
 * Not kept: the ACL layout (its walk is its own, ms_async.c) and a dump
 * opened inside a rank (runs chosen by real path); their states hold an
 * empty block and reopen by the walk.
 */
#include "ms_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "reader/base/serial.h"

struct ms_dep {
	uint8_t flags;              /* MS_DEP_* */
	uint64_t ino, size;
	int64_t mtime_ns, ctime_ns;
};

struct ms_deps {
	struct td_strpool paths;    /* below the root, "." the root itself */
	struct ms_dep *v;           /* by path id */
	size_t cap;
};

/* p below r->root ("." for the root, p itself when outside it): the same
 * dump opened by another path reads the same state. */
static const char *
layout_rel(const struct reader *r, const char *p)
{
	size_t n = strlen(r->root);

	if (strncmp(p, r->root, n) != 0)
		return p;
	return p[n] == '/' ? p + n + 1 : p[n] ? p : ".";
}

/* layout_rel()'s inverse, malloc'd. */
static char *
layout_abs(const struct reader *r, const char *rel)
{
	return rel[0] == '/' ? xstrdup(rel) : strcmp(rel, ".") == 0 ? xstrdup(r->root)
								   : ms_path_join(r->root, rel);
}

static void
dep_stat(const char *path, unsigned flags, struct ms_dep *d)
{
	struct stat st;

	memset(d, 0, sizeof(*d));
	d->flags = (uint8_t)(flags & MS_DEP_CONTENT);
	if (stat(path, &st) != 0)
		return;
	d->flags |= MS_DEP_PRESENT;
	d->ino = (uint64_t)st.st_ino;
	d->size = (uint64_t)st.st_size;
	d->mtime_ns = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
	d->ctime_ns = (int64_t)st.st_ctim.tv_sec * 1000000000 + st.st_ctim.tv_nsec;
}

void
ms_dep_note(struct reader *r, const char *path, unsigned flags)
{
	struct ms_deps *ds;
	size_t id;
	bool added;

	if (r->deps_frozen)
		return;
	if (!r->deps)
		r->deps = xcalloc(1, sizeof(*r->deps));
	ds = r->deps;
	id = td_strpool_id(&ds->paths, layout_rel(r, path), &added);
	TD_GROW(ds->v, ds->cap, id + 1);
	dep_stat(path, flags, &ds->v[id]);
}

void
ms_deps_free(struct reader *r)
{
	if (!r->deps)
		return;
	td_strpool_done(&r->deps->paths);
	free(r->deps->v);
	free(r->deps);
	r->deps = NULL;
}

/* ---- saving ------------------------------------------------------------------ */

static void
put_layout(struct reader *r, struct strbuf *o)
{
	const struct ms_deps *ds = r->deps;
	size_t i, g;

	ser_put_u8(o, r->rank_parent);
	ser_put_str(o, r->net_name);
	ser_put_u64(o, ds->paths.n);
	for (i = 0; i < ds->paths.n; i++) {
		const struct ms_dep *d = &ds->v[i];

		ser_put_str(o, ds->paths.strs[i]);
		ser_put_u8(o, d->flags);
		ser_put_u64(o, d->ino);
		ser_put_u64(o, d->size);
		ser_put_u64(o, (uint64_t)d->mtime_ns);
		ser_put_u64(o, (uint64_t)d->ctime_ns);
	}
	ser_put_u64(o, r->nranks);
	for (i = 0; i < r->nranks; i++) {
		const struct ms_rank *rk = &r->ranks[i];

		ser_put_str(o, layout_rel(r, rk->dir));
		ser_put_u64(o, (uint64_t)(int64_t)rk->id);
		ser_put_u64(o, rk->ngraphs);
		for (g = 0; g < rk->ngraphs; g++)
			ser_put_str(o, rk->graph_ids[g]);
	}
	ser_put_u64(o, r->nruns);
	for (i = 0; i < r->nruns; i++) {
		const struct ms_run *run = &r->runs[i];

		ser_put_str(o, layout_rel(r, run->path));
		ser_put_u32(o, (uint32_t)run->rank_order);
		ser_put_str(o, run->graph_id);
		ser_put_u64(o, run->iteration);
		ser_put_u64(o, run->order);
		ser_put_str(o, run->const_dir ? layout_rel(r, run->const_dir) : NULL);
	}
}

/* Called under r->lock (ms_save_state). */
void
ms_layout_save(struct reader *r, struct strbuf *out)
{
	struct strbuf sb = {0};
	bool keep = !r->acl && !r->only && r->deps && r->nranks;
	size_t i;

	/* every run belongs to a rank of the walk (rank_order its place) */
	for (i = 0; keep && i < r->nruns; i++)
		keep = r->runs[i].rank_order >= 0 && (size_t)r->runs[i].rank_order < r->nranks &&
		       r->runs[i].graph_id;
	if (keep)
		put_layout(r, &sb);
	ser_put_u64(out, sb.len);
	ser_put_bytes(out, sb.buf, sb.len);
	strbuf_done(&sb);
}

/* ---- loading ----------------------------------------------------------------- */

/* The dependencies read from in (kept in r->deps for the next save) and
 * checked on disk. */
static enum ms_layout_fit
load_deps(struct reader *r, struct ser_in *in)
{
	uint64_t n = ser_get_count(in, 34), i;   /* a path, a byte, four u64 */
	enum ms_layout_fit fit = MS_LAYOUT_LAZY;
	struct ms_deps *ds;

	if (in->bad)
		return MS_LAYOUT_WALK;
	ms_deps_free(r);
	ds = r->deps = xcalloc(1, sizeof(*r->deps));
	for (i = 0; i < n && !in->bad; i++) {
		const char *rel = ser_get_str(in);
		struct ms_dep d, now;
		bool added;
		size_t id;
		char *p;

		d.flags = ser_get_u8(in);
		d.ino = ser_get_u64(in);
		d.size = ser_get_u64(in);
		d.mtime_ns = ser_get_i64(in);
		d.ctime_ns = ser_get_i64(in);
		if (!rel || in->bad)
			break;
		id = td_strpool_id(&ds->paths, rel, &added);
		TD_GROW(ds->v, ds->cap, id + 1);
		ds->v[id] = d;
		if (fit == MS_LAYOUT_REFUSE)
			continue;
		p = layout_abs(r, rel);
		dep_stat(p, d.flags, &now);
		free(p);
		if (now.flags == d.flags && (!(d.flags & MS_DEP_PRESENT) ||
		    (now.ino == d.ino && now.size == d.size && now.mtime_ns == d.mtime_ns &&
		     now.ctime_ns == d.ctime_ns)))
			continue;
		fit = d.flags & MS_DEP_CONTENT ? MS_LAYOUT_REFUSE : MS_LAYOUT_WALK;
	}
	if (in->bad) {
		in->bad = false;     /* the block is skipped whole by its length */
		return MS_LAYOUT_WALK;
	}
	return fit;
}

static bool
load_ranks(struct reader *r, struct ser_in *in)
{
	uint64_t n = ser_get_count(in, 17), i, g, ng;   /* a path, two u64 */

	if (in->bad)
		return false;
	r->ranks = xcalloc(n ? n : 1, sizeof(*r->ranks));
	for (i = 0; i < n; i++) {
		struct ms_rank *rk = &r->ranks[i];
		const char *rel = ser_get_str(in);
		char host[32];

		rk->id = (int)(int64_t)ser_get_u64(in);
		ng = ser_get_count(in, 4);
		if (!rel || in->bad)
			return false;
		r->nranks = i + 1;
		rk->dir = layout_abs(r, rel);
		snprintf(host, sizeof host, "rank_%d", rk->id);
		rk->host = td_strpool_add(&r->strs, host);
		rk->graphs = xcalloc(ng ? ng : 1, sizeof(*rk->graphs));
		rk->graph_ids = xcalloc(ng ? ng : 1, sizeof(*rk->graph_ids));
		for (g = 0; g < ng; g++) {
			const char *gid = ser_get_str(in);

			if (!gid)
				return false;
			rk->graph_ids[g] = xstrdup(gid);
			rk->graphs[g].name = xstrdup("");   /* loaded when materialized */
			rk->ngraphs = g + 1;
		}
		rk->ngraphs_sent = rk->ngraphs;
	}
	return true;
}

static bool
load_run(struct reader *r, struct ser_in *in, struct ms_run *run)
{
	const char *rel = ser_get_str(in), *gid, *cdir, *base;
	uint32_t rank = ser_get_u32(in);

	gid = ser_get_str(in);
	run->iteration = ser_get_u64(in);
	run->order = ser_get_u64(in);
	cdir = ser_get_str(in);
	if (in->bad || !rel || !gid || rank >= r->nranks)
		return false;
	run->path = layout_abs(r, rel);
	run->host = r->ranks[rank].host;
	run->rank_order = (int)rank;
	run->graph_id = td_strpool_add(&r->strs, gid);
	run->execution = -1;
	run->suffix = MS_NO_NAME;
	base = strrchr(run->path, '/');
	run->label = ms_run_label(gid, base ? base + 1 : run->path);
	run->const_dir = cdir ? layout_abs(r, cdir) : NULL;
	return true;
}

static bool
load_runs(struct reader *r, struct ser_in *in, uint64_t nruns)
{
	uint64_t n = ser_get_count(in, 23), i;   /* a path, a u32, a string, two u64, a NULL */

	if (in->bad || n != nruns)
		return false;
	r->runs = xcalloc(n ? n : 1, sizeof(*r->runs));
	r->capruns = n ? n : 1;
	for (i = 0; i < n; i++) {
		r->nruns = i + 1;
		if (!load_run(r, in, &r->runs[i]))
			return false;
		r->runs[i].file_id = (uint32_t)i;
	}
	return true;
}

enum ms_layout_fit
ms_layout_load(struct reader *r, struct ser_in *in, uint64_t nruns)
{
	uint64_t len = ser_get_count(in, 1);
	const void *p = len ? ser_get_bytes(in, (size_t)len) : NULL;
	enum ms_layout_fit fit;
	struct ser_in b;
	uint8_t rank_parent;
	const char *net;

	if (in->bad || !p || r->acl || r->only)
		return MS_LAYOUT_WALK;
	ser_in_init(&b, p, (size_t)len);
	rank_parent = ser_get_u8(&b);
	net = ser_get_str(&b);
	if (b.bad)
		return MS_LAYOUT_WALK;
	fit = load_deps(r, &b);
	if (fit != MS_LAYOUT_LAZY) {
		ms_deps_free(r);     /* the walk notes them afresh */
		return fit;
	}
	/* a block that does not hold what it should: walk (ms_state.c's
	 * checks then decide), with what was made of it freed by close */
	if (!load_ranks(r, &b) || !load_runs(r, &b, nruns) || !ser_in_done(&b)) {
		in->bad = true;
		return MS_LAYOUT_WALK;
	}
	r->rank_parent = rank_parent != 0;
	free(r->net_name);
	r->net_name = net ? xstrdup(net) : NULL;
	r->nranks_sent = r->nranks;
	r->lazy = true;
	return MS_LAYOUT_LAZY;
}

void
ms_layout_materialize(struct reader *r)
{
	size_t i;

	pthread_mutex_lock(&r->layout_lock);
	if (!r->lazy) {
		pthread_mutex_unlock(&r->layout_lock);
		return;
	}
	/* the dependencies stay those the state was checked against: a file
	 * changed since is seen at the next open */
	r->deps_frozen = true;
	for (i = 0; i < r->nranks; i++)
		ms_sync_load_rank(r, &r->ranks[i]);
	for (i = 0; i < r->nruns; i++) {
		td_strpool_add(&r->run_paths, r->runs[i].path);
		if (r->runs[i].const_dir)
			td_strpool_add(&r->const_dirs, r->runs[i].const_dir);
	}
	ms_register_frames(r);
	ms_state_note_sent(r);
	r->deps_frozen = false;
	r->lazy = false;
	pthread_mutex_unlock(&r->layout_lock);
}
