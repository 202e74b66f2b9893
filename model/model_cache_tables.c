/*
 * model_cache_tables.c - the model's small tables in a cache file: strings,
 * meta, hosts, files, graphs, devices, frames, sources, ops (with their
 * inputs, the name maps and the consumer lists), problems and alert groups.
 *
 * Strings go first, in id order: interning them again in that order gives
 * every string its old id, so everything else refers to strings by id.
 * Lookup maps are written as (key, value) pairs and rebuilt by inserting
 * them; hash tables keyed by pointers (segments) or derived from other
 * tables (the op hash, ops per graph) are rebuilt from their tables.
 * Loaded sources start unloaded and ops' stacks unresolved: both are
 * filled on demand, as after an index pass.  Not here: the rows
 * (model_cache_rows.c), the file and its checks (model_cache.c).
 */
#include "model_cache.h"

#include <stdlib.h>
#include <string.h>

uint32_t
mc_sid(struct model *m, const char *s)
{
	return s ? intern_find(&m->str, s) : NO_ID;
}

bool
mc_str(struct model *m, uint32_t sid, const struct mc_counts *c, bool nullable, const char **out)
{
	if (sid == NO_ID && nullable) {
		*out = NULL;
		return true;
	}
	if (sid >= c->strings)
		return false;
	*out = intern_str(&m->str, sid);
	return true;
}

/* ---- helpers ------------------------------------------------------------ */

void
mc_put_sp(struct strbuf *o, struct model *m, const char *s)
{
	ser_put_u32(o, mc_sid(m, s));
}

/* A string (by id) into *out; false (in->bad) when out of range. */
bool
mc_get_sp(struct ser_in *in, struct model *m, const struct mc_counts *c, bool nullable,
       const char **out)
{
	uint32_t sid = ser_get_u32(in);

	if (in->bad || !mc_str(m, sid, c, nullable, out)) {
		in->bad = true;
		*out = "";
		return false;
	}
	return true;
}

uint32_t
mc_get_sid(struct ser_in *in, const struct mc_counts *c, bool nullable)
{
	uint32_t sid = ser_get_u32(in);

	if (!(sid < c->strings || (nullable && sid == NO_ID)))
		in->bad = true;
	return sid;
}

void
mc_put_map(struct strbuf *o, const struct hashtab_u64 *h)
{
	size_t pos = 0;
	uint64_t k, v;

	ser_put_u64(o, h->n);
	while (hashtab_u64_next(h, &pos, &k, &v)) {
		ser_put_u64(o, k);
		ser_put_u64(o, v);
	}
}

/* Pairs with values below vmax (UINT64_MAX: any).  An empty map is sized
 * once for the pairs (their count is bounded by the bytes left), not
 * doubled on the way (a 200,000-pair map grew 15 times). */
bool
mc_get_map(struct ser_in *in, struct hashtab_u64 *h, uint64_t vmax)
{
	uint64_t n = ser_get_count(in, 16), i;

	if (n && !in->bad && !h->cap)
		hashtab_u64_init(h, (size_t)n);
	for (i = 0; i < n && !in->bad; i++) {
		uint64_t k = ser_get_u64(in), v = ser_get_u64(in);

		if (k == UINT64_MAX || (vmax != UINT64_MAX && v >= vmax))
			in->bad = true;
		else
			*hashtab_u64_put(h, k, v) = v;
	}
	return !in->bad;
}

/* ---- counts -------------------------------------------------------------- */

void
mc_put_counts(struct model *m, struct mc_out *o)
{
	struct strbuf sb = {0};

	ser_put_u64(&sb, atomic_load(&m->str.n));
	ser_put_u64(&sb, rows_ntraces(m));
	ser_put_u64(&sb, rows_nexecs(m));
	ser_put_u64(&sb, m->ot.nops);
	ser_put_u64(&sb, m->src.nfiles);
	ser_put_u64(&sb, m->src.nhosts);
	ser_put_u64(&sb, m->src.nframes);
	ser_put_u64(&sb, m->src.nsources);
	ser_put_u64(&sb, m->ot.ngraphs);
	ser_put_u64(&sb, m->ot.ncons);
	mc_section(o, MC_COUNTS, &sb);
	strbuf_done(&sb);
}

bool
mc_get_counts(struct ser_in *in, struct mc_counts *c)
{
	struct ser_in s;

	if (!mc_section_in(in, MC_COUNTS, &s))
		return false;
	c->strings = ser_get_u64(&s);
	c->traces = ser_get_u64(&s);
	c->execs = ser_get_u64(&s);
	c->ops = ser_get_u64(&s);
	c->files = ser_get_u64(&s);
	c->hosts = ser_get_u64(&s);
	c->frames = ser_get_u64(&s);
	c->sources = ser_get_u64(&s);
	c->graphs = ser_get_u64(&s);
	c->cons = ser_get_u64(&s);
	/* ids are 32-bit; rows fit the chunk directory */
	return ser_in_done(&s) && c->strings && c->strings < NO_ID && c->ops < NO_ID &&
	       c->traces <= (uint64_t)MODEL_MAX_CHUNKS * MODEL_CHUNK &&
	       c->execs <= (uint64_t)MODEL_MAX_CHUNKS * MODEL_CHUNK && c->hosts &&
	       c->hosts <= UINT16_MAX;
}

/* ---- strings, meta, hosts, files ---------------------------------------- */

/* Path strings: the dump's folder as the user named it (m->path) is not
 * kept; a string below it is written as REL_BELOW and the rest, the
 * folder itself as REL_ROOT, a string that starts with one of the marks
 * after REL_ESC.  Read back under the path of this open, the strings are
 * those a fresh index of the dump by that path makes (relative,
 * absolute, through a link), and the files' fingerprints are found. */
enum { REL_BELOW = 1, REL_ROOT = 2, REL_ESC = 3 };

void
mc_put_path(struct strbuf *sb, struct model *m, const char *s)
{
	size_t n = strlen(m->path);
	char mark[2] = {0, 0};

	if (strncmp(s, m->path, n) == 0 && (s[n] == '/' || s[n] == '\0')) {
		mark[0] = s[n] ? REL_BELOW : REL_ROOT;
		s += s[n] ? n + 1 : n;
	} else if (s[0] >= REL_BELOW && s[0] <= REL_ESC) {
		mark[0] = REL_ESC;
	}
	if (mark[0]) {
		struct strbuf t = {0};

		strbuf_adds(&t, mark);
		strbuf_adds(&t, s);
		ser_put_str(sb, t.buf);
		strbuf_done(&t);
	} else {
		ser_put_str(sb, s);
	}
}

const char *
mc_get_path(struct ser_in *in, struct model *m, struct strbuf *buf)
{
	const char *s = ser_get_str(in);

	if (!s || s[0] < REL_BELOW || s[0] > REL_ESC)
		return s;
	strbuf_reset(buf);
	if (s[0] != REL_ESC)
		strbuf_adds(buf, m->path);
	if (s[0] == REL_BELOW)
		strbuf_adds(buf, "/");
	strbuf_adds(buf, s + 1);
	return buf->buf;
}

static void
put_strings_chunked(struct model *m, struct strbuf *sb, struct mc_chunks *ck)
{
	uint32_t n = atomic_load(&m->str.n), i;

	ser_put_u64(sb, n);
	for (i = 0; i < n; i++) {
		mc_put_path(sb, m, intern_str(&m->str, i));
		mc_chunk(ck, sb, false);
	}
}

/* MC_STRINGS a chunk at a time (7 MB of names at 200,000 calls). */
static void
put_strings(struct model *m, struct mc_out *o)
{
	mc_section_chunked(o, MC_STRINGS, m, put_strings_chunked);
}

/* A window of the strings section (streamed: mc_load_piece) from its
 * byte at, into w; false when it cannot be read. */
static bool
strings_window(const struct ser_in *s, size_t at, struct ser_in *w)
{
	size_t len = TD_MIN(s->n - at, (size_t)MC_LOAD_PIECE);
	const unsigned char *q = mc_load_piece(s->p + at, len);

	if (!q)
		return false;
	ser_in_init(w, q, len);
	return true;
}

/* The section is not in the load's buffer (mc_load_section): its count is
 * read there, its strings through a window of a piece that slides to a
 * string it cuts; a string longer than a piece, and what follows it, are
 * read into the buffer as any section is. */
static bool
get_strings(struct model *m, struct ser_in *s, const struct mc_counts *c)
{
	uint64_t n, i;
	struct strbuf buf = {0};
	struct ser_in w, *in = &w;
	size_t wat;
	bool ok;

	if (!mc_load_fill(s->p, TD_MIN(s->n, (size_t)8)))
		return false;
	n = ser_get_count(s, 5);
	ok = n == c->strings && !s->bad && strings_window(s, wat = s->off, &w);
	if (ok)         /* each string is its length (4 bytes), its bytes and a NUL */
		intern_reserve(&m->str, s->n - s->off - (size_t)n * 4);
	for (i = 0; i < n && ok && !in->bad; i++) {
		size_t at = in->off;
		const char *str = mc_get_path(in, m, &buf);

		if (!str && in == &w && w.bad && wat + w.n < s->n) {
			/* cut by the window's end: the window from this string on */
			ok = strings_window(s, wat += at, &w);
			str = ok ? mc_get_path(in, m, &buf) : NULL;
			if (ok && !str && w.bad && wat + w.n < s->n) {
				/* longer than a piece: the rest into the buffer */
				s->off = wat;
				ok = mc_load_fill(s->p + wat, s->n - wat);
				in = s;
				str = ok ? mc_get_path(in, m, &buf) : NULL;
			}
		}
		/* id 0 is "", interned with the table */
		ok = ok && str && (i ? intern_append(&m->str, str, strlen(str)) == i : !*str);
	}
	strbuf_done(&buf);
	if (!ok || in->bad)
		return false;
	if (in == &w)
		s->off = wat + w.off;   /* where the window's strings ended */
	/* a duplicate would make a lookup give another string's id: refused */
	return ok && ser_in_done(s) && intern_index(&m->str);
}

static void
put_meta(struct model *m, struct strbuf *sb)
{
	size_t i, j;

	ser_put_u64(sb, m->md.nmeta);
	for (i = 0; i < m->md.nmeta; i++) {
		ser_put_str(sb, m->md.meta[i]->key);
		ser_put_u8(sb, m->md.meta[i]->list);
		ser_put_u64(sb, m->md.meta[i]->n);
		for (j = 0; j < m->md.meta[i]->n; j++)
			mc_put_sp(sb, m, m->md.meta[i]->values[j]);
	}
}

static bool
get_meta(struct model *m, struct ser_in *s, const struct mc_counts *c)
{
	uint64_t n = ser_get_count(s, 14), i, j;

	for (i = 0; i < n && !s->bad; i++) {
		const char *key = ser_get_str(s);
		bool list = ser_get_u8(s) != 0;
		uint64_t nv = ser_get_count(s, 4);
		struct meta_entry *e;

		if (!key)
			return false;
		TD_GROW(m->md.meta, m->md.capmeta, m->md.nmeta + 1);
		e = m->md.meta[m->md.nmeta++] = xcalloc(1, sizeof(*e));
		e->key = arena_dup(&m->str, key, strlen(key));
		e->list = list;
		for (j = 0; j < nv && !s->bad; j++) {
			TD_GROW(e->values, e->cap, e->n + 1);
			mc_get_sp(s, m, c, false, &e->values[e->n++]);
		}
	}
	return !s->bad;
}

static void
put_files(struct model *m, struct strbuf *sb)
{
	size_t i;

	ser_put_u64(sb, m->src.nhosts);
	for (i = 0; i < m->src.nhosts; i++)
		ser_put_u32(sb, m->src.hosts[i]);
	ser_put_u64(sb, m->src.nfiles);
	for (i = 0; i < m->src.nfiles; i++) {
		const struct file_entry *f = &m->src.files[i];

		ser_put_u32(sb, f->id);
		mc_put_sp(sb, m, f->path);
		ser_put_u32(sb, f->host_sid);
		mc_put_sp(sb, m, f->role);
		ser_put_u64(sb, f->size);
		ser_put_u64(sb, f->problems);
	}
}

static bool
get_files(struct model *m, struct ser_in *s, const struct mc_counts *c)
{
	uint64_t n = ser_get_count(s, 4), i;

	if (n != c->hosts)
		return false;
	free(m->src.hosts);
	m->src.hosts = xcalloc(n, sizeof(*m->src.hosts));
	m->src.nhosts = m->src.caphosts = n;
	for (i = 0; i < n; i++)
		m->src.hosts[i] = mc_get_sid(s, c, false);
	n = ser_get_count(s, 32);
	if (s->bad || m->src.hosts[0] != 0 || n != c->files)
		return false;
	m->src.files = xcalloc(n ? n : 1, sizeof(*m->src.files));
	m->src.capfiles = n ? n : 1;
	for (i = 0; i < n && !s->bad; i++) {
		struct file_entry *f = &m->src.files[i];

		f->id = ser_get_u32(s);
		mc_get_sp(s, m, c, false, &f->path);
		f->host_sid = mc_get_sid(s, c, false);
		mc_get_sp(s, m, c, false, &f->role);
		f->size = ser_get_u64(s);
		f->problems = ser_get_u64(s);
		if (s->bad || hashtab_u64_get(&m->src.file_by_id, f->id, NULL))
			return false;
		f->host = intern_str(&m->str, f->host_sid);
		*hashtab_u64_put(&m->src.file_by_id, f->id, i) = i;
		m->src.nfiles++;
	}
	return !s->bad;
}

/* ---- graphs, devices, frames, sources ----------------------------------- */

static void
put_graphs(struct model *m, struct strbuf *sb)
{
	size_t i;

	ser_put_u64(sb, m->ot.ngraphs);
	for (i = 0; i < m->ot.ngraphs; i++) {
		ser_put_u32(sb, m->ot.graphs[i].id_sid);
		ser_put_u32(sb, m->ot.graphs[i].name_sid);
		ser_put_u32(sb, m->ot.graphs[i].outer_sid);
		ser_put_u32(sb, m->ot.graphs[i].host_sid);
	}
	ser_put_u64(sb, m->ot.ndevices);
	for (i = 0; i < m->ot.ndevices; i++) {
		ser_put_u32(sb, (uint32_t)m->ot.devices[i].id);
		mc_put_sp(sb, m, m->ot.devices[i].name);
		mc_put_sp(sb, m, m->ot.devices[i].host);
	}
}

static bool
get_graphs(struct model *m, struct ser_in *s, const struct mc_counts *c)
{
	uint64_t n = ser_get_count(s, 16), i;

	if (n != c->graphs)
		return false;
	for (i = 0; i < n && !s->bad; i++) {
		struct graph_entry *g;

		TD_GROW(m->ot.graphs, m->ot.capgraphs, m->ot.ngraphs + 1);
		g = &m->ot.graphs[m->ot.ngraphs];
		g->id_sid = mc_get_sid(s, c, false);
		g->name_sid = mc_get_sid(s, c, false);
		g->outer_sid = mc_get_sid(s, c, true);
		g->host_sid = mc_get_sid(s, c, false);
		if (s->bad || hashtab_u64_get(&m->ot.graph_by_sid, g->id_sid, NULL))
			return false;
		*hashtab_u64_put(&m->ot.graph_by_sid, g->id_sid, m->ot.ngraphs) = m->ot.ngraphs;
		m->ot.ngraphs++;
	}
	n = ser_get_count(s, 12);
	for (i = 0; i < n && !s->bad; i++) {
		struct reader_device *d;

		TD_GROW(m->ot.devices, m->ot.capdevices, m->ot.ndevices + 1);
		d = &m->ot.devices[m->ot.ndevices++];
		d->id = (int32_t)ser_get_u32(s);
		mc_get_sp(s, m, c, false, &d->name);
		mc_get_sp(s, m, c, false, &d->host);
	}
	return !s->bad;
}

static void
put_frames(struct model *m, struct strbuf *sb)
{
	size_t i;

	ser_put_u64(sb, m->src.nframes);
	for (i = 0; i < m->src.nframes; i++) {
		const struct frame_entry *f = &m->src.frames[i];

		mc_put_sp(sb, m, f->file);
		mc_put_sp(sb, m, f->host);
		mc_put_sp(sb, m, f->func);
		mc_put_sp(sb, m, f->code);
		ser_put_u32(sb, f->line);
		ser_put_u64(sb, (uint64_t)f->source_id);
		ser_put_u8(sb, f->user_code);
	}
	mc_put_map(sb, &m->src.frame_by_sid);
	ser_put_u64(sb, m->src.nsources);
	for (i = 0; i < m->src.nsources; i++) {
		const struct source_entry *e = &m->src.sources[i];

		mc_put_sp(sb, m, e->host);
		mc_put_sp(sb, m, e->path);
		ser_put_u32(sb, e->reader_id);
		ser_put_u32(sb, e->loc.file);
		ser_put_u64(sb, e->loc.offset);
		ser_put_u64(sb, e->nlines);
		ser_put_u8(sb, e->in_dump);
	}
	mc_put_map(sb, &m->src.source_by_rid);
}

static bool
get_frames(struct model *m, struct ser_in *s, const struct mc_counts *c)
{
	uint64_t n = ser_get_count(s, 29), i;

	if (n != c->frames)
		return false;
	m->src.frames = xcalloc(n ? n : 1, sizeof(*m->src.frames));
	m->src.capframes = n ? n : 1;
	for (i = 0; i < n && !s->bad; i++) {
		struct frame_entry *f = &m->src.frames[m->src.nframes++];

		mc_get_sp(s, m, c, true, &f->file);
		mc_get_sp(s, m, c, true, &f->host);
		mc_get_sp(s, m, c, true, &f->func);
		mc_get_sp(s, m, c, true, &f->code);
		f->line = ser_get_u32(s);
		f->source_id = ser_get_i64(s);
		f->user_code = ser_get_u8(s) != 0;
	}
	if (!mc_get_map(s, &m->src.frame_by_sid, n))
		return false;
	n = ser_get_count(s, 33);
	if (n != c->sources)
		return false;
	m->src.sources = xcalloc(n ? n : 1, sizeof(*m->src.sources));
	m->src.capsources = n ? n : 1;
	for (i = 0; i < n && !s->bad; i++) {
		struct source_entry *e = &m->src.sources[m->src.nsources++];

		mc_get_sp(s, m, c, false, &e->host);
		mc_get_sp(s, m, c, false, &e->path);
		e->reader_id = ser_get_u32(s);
		e->loc.file = ser_get_u32(s);
		e->loc.offset = ser_get_u64(s);
		e->nlines = ser_get_u64(s);
		e->in_dump = ser_get_u8(s) != 0;
	}
	return mc_get_map(s, &m->src.source_by_rid, n);
}

/* ---- sections ------------------------------------------------------------ */

void
mc_put_tables(struct model *m, struct mc_out *o)
{
	struct strbuf sb = {0};

	put_strings(m, o);
	put_meta(m, &sb);
	mc_section(o, MC_META, &sb);
	strbuf_reset(&sb);
	put_files(m, &sb);
	mc_section(o, MC_FILES, &sb);
	strbuf_reset(&sb);
	put_graphs(m, &sb);
	mc_section(o, MC_GRAPHS, &sb);
	strbuf_reset(&sb);
	put_frames(m, &sb);
	mc_section(o, MC_FRAMES, &sb);
	strbuf_reset(&sb);
	mc_section_chunked(o, MC_OPS, m, mc_put_ops_chunked);
	mc_put_problems(m, &sb);
	mc_section(o, MC_PROBLEMS, &sb);
	strbuf_done(&sb);
}

bool
mc_get_tables(struct model *m, struct ser_in *in, const struct mc_counts *c, bool lazy_ops)
{
	static const struct {
		enum mc_tag tag;
		bool (*get)(struct model *, struct ser_in *, const struct mc_counts *);
	} steps[] = {
		{MC_STRINGS, get_strings}, {MC_META, get_meta}, {MC_FILES, get_files},
		{MC_GRAPHS, get_graphs}, {MC_FRAMES, get_frames}, {MC_OPS, mc_get_ops},
		{MC_PROBLEMS, mc_get_problems},
	};
	size_t i;

	for (i = 0; i < TD_ARRAY_SIZE(steps); i++) {
		struct ser_in s;

		if (!mc_section_in(in, steps[i].tag, &s))
			return false;
		if (steps[i].tag == MC_OPS && mc_load_streamed(s.p)) {
			/* decoded now, a piece at a time (ops_at_open) */
			if (!mc_get_ops_streamed(m, &s, c) || !ser_in_done(&s))
				return false;
			mc_release(m, s.p, s.n);        /* the part read at its place */
			continue;
		}
		if (lazy_ops && steps[i].tag == MC_OPS) {
			enum mc_opcheck r = mc_check_ops(m, &s, c);

			if (r == MC_OPS_CHAINS)
				mc_refuse(m, "op chains");
			if (r != MC_OPS_OK)
				return false;
			continue;       /* kept for ops_ready() */
		}
		if (!steps[i].get(m, &s, c) || !ser_in_done(&s))
			return false;
		if (steps[i].tag == MC_STRINGS || steps[i].tag == MC_OPS)
			mc_release(m, s.p, s.n);        /* copied: interned, op table */
	}
	return true;
}
