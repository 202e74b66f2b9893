/*
 * ms_run.c - loads one graph run (an iteration directory) of a MindSpore
 * dump into trace entries: parses file names (§5), joins statistic.csv
 * rows (§7), reads DumpData bin headers (§11), computes the summaries of
 * tensors statistic.csv does not cover (streamed, bounded memory),
 * and orders the rows (ms_sync.c's header comment says how).
 * Opdebug files are handed back to the caller for overflow alerts.  The
 * run folder's listing and statistic.csv may come read ahead by the
 * staging thread (ms_stage.h); what they gave is reported here either way.
 */
#include "ms_internal.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "reader/base/fileio.h"
#include "reader/parse/npy.h"

#include "ms_opmemo.h"
#include "ms_stage.h"

struct load_ctx {
	struct reader *r;
	const struct ms_rank *rank;
	const struct reader_sink *sink;
	struct ms_entry *e;
	size_t n, cap;
	struct ms_pend *p;          /* parallel to e (ms_run.pend) */
	size_t pcap;
	struct ms_stat *stat;       /* the run's statistic.csv (ms_staged.stat) */
	bool have_stat;
	char ***over;
	size_t *nover;
	const char *run_dir;        /* the run's folder (other folders: its const_dir) */
	struct strbuf names;        /* the run's name block (ms_run.names) */
	uint32_t last_name;         /* offset of the last name added, MS_NO_NAME none */
	uint32_t suffix;            /* ms_run.suffix, MS_NO_NAME until one is added */
	struct strbuf spelt;        /* a row's name as its fields spell it (spell_name) */
	/* add_stat_only: the last row's names and what they resolved to (the
	 * names live in stat's pool until the run ends) */
	const char *memo_type, *memo_op, *memo_full, *memo_rtype;
	bool memo_on;
	struct ms_op_memos *memos;  /* the run's rank and graph's (ms_opmemo.c), or NULL */
	const struct ms_op_memo *op_memo;   /* add_stat_only: this row's op */
	uint64_t stat_size;         /* statistic.csv's size and time as read */
	int64_t stat_mtime;         /* (ms_run.stat_size, .stat_mtime) */
	/* the names of the run folder's files whose bytes were read (side
	 * files, data files no statistic.csv row covers, bin and Opdebug
	 * files): ms_run.read; too many of them make the folder one whose
	 * every file counts */
	char **read;
	size_t nread;
	bool read_over;
};

/* Read files past this: the run is announced as read whole. */
#define MS_READ_NAMES_MAX 64

/* Notes that the bytes of the run folder's file name were read. */
static void
note_read(struct load_ctx *c, const char *dir, const char *name)
{
	if (strcmp(dir, c->run_dir) != 0 || c->read_over)
		return;
	if (c->nread == MS_READ_NAMES_MAX) {
		c->read_over = true;
		return;
	}
	c->read = xrealloc(c->read, (c->nread + 1) * sizeof(*c->read));
	c->read[c->nread++] = xstrdup(name);
}

/* The start of a .npy file's name as its row's fields spell it (§5.3),
 * appended to sb: "{op type}.{op name's file form}.{task}.{stream}.
 * {timestamp}.{input|output}.{slot}"; the run's suffix follows it.  The
 * index pass keeps a row's name this way only when it spells the file's
 * name exactly (a numbered file, a task id wider than the row's 32 bits or
 * another op type give a name of their own in the block). */
static void
add_dot_dec(struct strbuf *sb, uint64_t v)
{
	char d[21];
	size_t n = 0;

	do
		d[sizeof d - ++n] = (char)('0' + v % 10);
	while ((v /= 10));
	d[sizeof d - ++n] = '.';
	strbuf_add(sb, d + sizeof d - n, n);
}

static void
spell_name(const struct ms_entry *e, struct strbuf *sb)
{
	strbuf_adds(sb, e->op_type);
	strbuf_addc(sb, '.');
	ms_name_add_file_form(sb, e->op_name);
	add_dot_dec(sb, e->task);
	add_dot_dec(sb, e->stream);
	add_dot_dec(sb, e->ts);
	strbuf_adds(sb, e->is_input ? ".input" : ".output");
	add_dot_dec(sb, e->slot);
}

char *
ms_entry_path(const struct ms_run *run, const struct ms_entry *e)
{
	const char *dir = e->in_const ? run->const_dir : run->path;
	struct strbuf sb = {0};

	if (!dir)
		return NULL;
	if (e->name == MS_NAME_REBUILT) {
		if (run->suffix >= run->names_len)
			return NULL;
		strbuf_adds(&sb, dir);
		strbuf_addc(&sb, '/');
		spell_name(e, &sb);
		strbuf_adds(&sb, run->names + run->suffix);
		return sb.buf;
	}
	if (e->name == MS_NO_NAME || e->name >= run->names_len)
		return NULL;
	return xasprintf("%s/%s", dir, run->names + e->name);
}

static int
wide_cmp(const void *key, const void *w)
{
	uint32_t k = *(const uint32_t *)key, e = ((const struct ms_wide *)w)->entry;

	return k < e ? -1 : k > e;
}

static const struct ms_wide *
wide_of(const struct ms_run *run, size_t k)
{
	uint32_t key = (uint32_t)k;

	return bsearch(&key, run->wide, run->nwide, sizeof(*run->wide), wide_cmp);
}

uint64_t
ms_entry_task(const struct ms_run *run, size_t k)
{
	const struct ms_wide *w;

	if (run->entries[k].task != MS_WIDE_ID)
		return run->entries[k].task;
	return (w = wide_of(run, k)) ? w->task : MS_WIDE_ID;
}

uint64_t
ms_entry_stream(const struct ms_run *run, size_t k)
{
	const struct ms_wide *w;

	if (run->entries[k].stream != MS_WIDE_ID)
		return run->entries[k].stream;
	return (w = wide_of(run, k)) ? w->stream : MS_WIDE_ID;
}

/* An id in ms_entry's 32 bits, MS_WIDE_ID when it does not fit. */
static uint32_t
narrow_id(uint64_t v)
{
	return v < MS_WIDE_ID ? (uint32_t)v : MS_WIDE_ID;
}

/* The pending part of entry e. */
static struct ms_pend *
pend_of(struct load_ctx *c, const struct ms_entry *e)
{
	return &c->p[e - c->e];
}

/* The offset of name in the run's name block: the last one again (the rows
 * of one bin file) or a new one; MS_NO_NAME when the block is full. */
static uint32_t
name_of(struct load_ctx *c, const char *name)
{
	size_t n = strlen(name) + 1;

	if (c->last_name != MS_NO_NAME && strcmp(c->names.buf + c->last_name, name) == 0)
		return c->last_name;
	if (c->names.len + n >= MS_NAME_REBUILT)
		return MS_NO_NAME;
	c->last_name = (uint32_t)c->names.len;
	strbuf_add(&c->names, name, n);    /* with its NUL: the next name follows it */
	return c->last_name;
}

/* e's name: MS_NAME_REBUILT when its fields spell the .npy file's name up
 * to the run's suffix (the first such row's gives it), else its offset in
 * the block.  Nothing is kept per row of a run whose files all follow the
 * grammar (issue 25 item 1: ~130 bytes a row of LeNet's names). */
static uint32_t
npy_name_of(struct load_ctx *c, const struct ms_entry *e, const char *name)
{
	const char *tail;

	c->spelt.len = 0;
	spell_name(e, &c->spelt);
	if (strncmp(name, c->spelt.buf, c->spelt.len) != 0)
		return name_of(c, name);
	tail = name + c->spelt.len;
	if (c->suffix == MS_NO_NAME) {
		uint32_t at = name_of(c, tail);

		if (at == MS_NO_NAME)
			return MS_NO_NAME;
		c->suffix = at;
		c->last_name = MS_NO_NAME;  /* not a row's name */
	}
	return strcmp(tail, c->names.buf + c->suffix) == 0 ? MS_NAME_REBUILT : name_of(c, name);
}

/* A row for the file path (named name in folder dir), or for a
 * statistic.csv row without a file (path NULL). */
static struct ms_entry *
new_entry(struct load_ctx *c, const char *dir, const char *name, const char *path,
	  const struct ms_name *nm, uint8_t kind)
{
	struct ms_entry *e;
	struct ms_pend *p;

	if (c->n == c->cap)
		TD_GROW(c->e, c->cap, c->n + 1);
	if (c->n == c->pcap)
		TD_GROW(c->p, c->pcap, c->n + 1);
	e = &c->e[c->n];
	p = &c->p[c->n++];
	memset(e, 0, sizeof(*e));
	/* every field of p is set below but the summary, which a statistic
	 * row's caller copies in whole (add_stat_only) */
	if (kind != MS_ENTRY_STAT)
		memset(&p->summary, 0, sizeof(p->summary));
	e->in_const = path && strcmp(dir, c->run_dir) != 0;
	ms_entry_set_line(e, MS_NO_LINE);
	p->size = MS_SIZE_UNKNOWN;
	if (path && c->r->may_follow) { /* follow mode compares it later; a batch
					 * run stats no tensor file (network file
					 * systems: one round trip each) */
		struct stat st;

		if (stat(path, &st) == 0)
			p->size = (uint64_t)st.st_size;
	}
	p->memo = -1;
	if (c->op_memo) {
		e->op_name = c->op_memo->full;  /* resolved once for the rank's graph */
		e->op_type = c->op_memo->type;
	} else if (c->memo_on && c->memo_op && strcmp(nm->op_name, c->memo_op) == 0 &&
	    strcmp(nm->op_type, c->memo_type) == 0) {
		e->op_name = c->memo_full;      /* the row before's op again */
		e->op_type = c->memo_rtype;
	} else {
		ms_rank_resolve(c->r, c->rank, nm->op_type, nm->op_name, &e->op_name, &e->op_type);
		if (c->memo_on) {
			c->memo_type = nm->op_type;
			c->memo_op = nm->op_name;
			c->memo_full = e->op_name;
			c->memo_rtype = e->op_type;
		}
	}
	p->task = nm->task;
	p->stream = nm->stream;
	e->task = narrow_id(nm->task);
	e->stream = narrow_id(nm->stream);
	e->ts = nm->ts;
	e->slot = nm->slot;
	e->is_input = nm->is_input;
	e->kind = kind;
	e->hint = (uint8_t)nm->dtype;
	if (!path)
		e->name = MS_NO_NAME;
	else if (kind == MS_ENTRY_NPY)
		e->name = npy_name_of(c, e, name);
	else
		e->name = name_of(c, name);
	return e;
}

/* statistic.csv row for the entry (§7 join: op type, ts, io, slot). */
static bool
join_stat(struct load_ctx *c, struct ms_entry *e, const char *file_op_type)
{
	const struct ms_stat_row *row;

	if (!c->have_stat)
		return false;
	row = ms_stat_find(c->stat, file_op_type, e->ts, e->is_input, e->slot);
	if (!row)
		return false;
	c->stat->rows[row - c->stat->rows].used = true;
	pend_of(c, e)->summary = row->summary;
	ms_entry_set_line(e, row->off);
	return true;
}

static void
npy_summary(struct load_ctx *c, struct ms_entry *e, const char *dir, const char *name,
	    const char *path)
{
	char err[256] = "";
	enum td_status st;

	note_read(c, dir, name);
	st = npy_summarize_file(path, e->hint, &pend_of(c, e)->summary, err, sizeof err);

	if (st != TD_OK)
		ms_problem(c->sink, st == TD_ERR_TRUNCATED ? PROBLEM_TORN_TAIL : PROBLEM_DECODE_ERROR,
			   path, ".npy tensor", err);
}

enum td_status
ms_bin_summary(const char *path, const struct ms_bin_tensor *bt, struct td_summary *s)
{
	enum td_status st = TD_ERR_UNSUPPORTED;
	char err[256];
	int fd = -1;

	if (bt->dtype != DTYPE_INVALID && (uint64_t)bt->n * td_dtype_size(bt->dtype) == bt->size) {
		st = TD_ERR_IO;
		if ((fd = td_open_regular(path, NULL, &st, err, sizeof err)) >= 0) {
			st = npy_summarize_region(fd, bt->offset, bt->dtype, bt->n, false, s);
			close(fd);
		}
	}
	if (st != TD_OK) {
		/* unsupported dtype or unreadable data: what the header says */
		memset(s, 0, sizeof(*s));
		if (bt->dtype != DTYPE_INVALID) {
			s->dtype = bt->dtype;
			s->known |= SUM_DTYPE;
		}
		s->elements = bt->n;
		s->known |= SUM_ELEMENTS;
	}
	s->rank = bt->rank;
	s->ndims = TD_MIN(bt->rank, TD_MAX_DIMS);
	memcpy(s->dims, bt->dims, sizeof(bt->dims));
	s->known |= SUM_RANK | SUM_SHAPE;
	return st;
}

static void
bin_summary(struct load_ctx *c, struct ms_entry *e, const struct ms_bin_tensor *bt, const char *path)
{
	enum td_status st = ms_bin_summary(path, bt, &pend_of(c, e)->summary);

	if (st != TD_OK && bt->dtype != DTYPE_INVALID)
		ms_problem(c->sink, PROBLEM_DECODE_ERROR, path, "bin tensor data", td_strerror(st));
}

static void
add_bin(struct load_ctx *c, const char *dir, const char *name, const char *path, struct ms_name *nm)
{
	struct ms_bin b;
	char err[256] = "";
	enum td_status st;
	size_t i;

	note_read(c, dir, name);
	st = ms_bin_read(path, &b, err, sizeof err);

	if (st != TD_OK) {
		ms_problem(c->sink, st == TD_ERR_TRUNCATED ? PROBLEM_TORN_TAIL : PROBLEM_DECODE_ERROR,
			   path, "DumpData bin file", err);
		return;
	}
	for (i = 0; i < b.n; i++) {
		struct ms_entry *e;

		nm->is_input = b.t[i].is_input;
		nm->slot = b.t[i].slot;
		e = new_entry(c, dir, name, path, nm, MS_ENTRY_BIN);
		/* No graph knew the file-name form (ACL dumps have no graphs/):
		 * the DumpData header holds the scoped name (§11). */
		if (*b.op_name && strcmp(e->op_name, nm->op_name) == 0)
			e->op_name = td_strpool_add(&c->r->strs, b.op_name);
		if (!join_stat(c, e, nm->op_type))
			bin_summary(c, e, &b.t[i], path);
	}
	ms_bin_done(&b);
}

static bool
is_side_file(const char *name)
{
	size_t len = strlen(name);

	return strcmp(name, "statistic.csv") == 0 || strcmp(name, "mapping.csv") == 0 ||
	       (len > 4 && (strcmp(name + len - 4, ".txt") == 0 ||
			    strcmp(name + len - 5, ".json") == 0));
}

/* type: the directory entry's (MS_DT_*); only MS_DT_OTHER costs a stat. */
static void
add_file(struct load_ctx *c, const char *dir, const char *name, unsigned char type,
	 const struct ms_mapping *map)
{
	char *path = ms_path_join(dir, name);
	struct ms_name nm;

	if (type == MS_DT_DIR || (type == MS_DT_OTHER && ms_is_dir(path)) ||
	    strcmp(name, "statistic.csv") == 0 || strcmp(name, "mapping.csv") == 0) {
		free(path);
		return;
	}
	if (!ms_name_parse(name, map, &nm)) {
		if (!is_side_file(name))
			ms_problem(c->sink, PROBLEM_UNPARSED_NAME, path, "MindSpore tensor file name",
				   "does not fit the file-name grammar (reader/mindspore/FORMAT.md §5)");
		free(path);
		return;
	}
	if (nm.kind == MS_NAME_OVERFLOW_BIN || nm.kind == MS_NAME_OVERFLOW_JSON) {
		note_read(c, dir, name);
		*c->over = xrealloc(*c->over, (*c->nover + 1) * sizeof(**c->over));
		(*c->over)[(*c->nover)++] = path;
		path = NULL;
	} else if (nm.kind == MS_NAME_NPY) {
		struct ms_entry *e = new_entry(c, dir, name, path, &nm, MS_ENTRY_NPY);

		if (!join_stat(c, e, nm.op_type))
			npy_summary(c, e, dir, name, path);
	} else if (nm.kind == MS_NAME_BIN) {
		add_bin(c, dir, name, path, &nm);
	}
	ms_name_done(&nm);
	free(path);
}

/* statistic.csv as ms_stat_read gave it (status st, message err, rows in
 * c->stat): every skipped line is said. */
static void
load_stat(struct load_ctx *c, const char *p, enum td_status st, const char *err)
{
	if (st == TD_OK) {
		c->have_stat = true;
		c->stat_size = c->stat->size;
		c->stat_mtime = c->stat->mtime_ns;
		if (c->stat->bad_rows)
			ms_problem(c->sink, PROBLEM_DECODE_ERROR, p, "statistic.csv rows",
				   "some rows do not fit the header and were skipped");
		if (c->stat->over_rows) {
			char *d = xasprintf("%llu rows past the first %zu not read",
					    (unsigned long long)c->stat->over_rows,
					    MS_STAT_ROWS_MAX);

			ms_problem(c->sink, PROBLEM_UNREADABLE, p, "statistic.csv rows", d);
			free(d);
		}
	} else if (st == TD_ERR_CORRUPT) {
		ms_problem(c->sink, PROBLEM_DECODE_ERROR, p, "statistic.csv header", err);
	} else if (st != TD_ERR_NOENT) {
		ms_problem(c->sink, PROBLEM_UNREADABLE, p, "statistic.csv", err);
	}
	if (st != TD_ERR_NOENT && st != TD_ERR_IO)
		ms_report_long_lines(c->sink, p, "statistic.csv", c->stat->long_lines);
	if (st != TD_OK)
		ms_stat_clear(c->stat);
}

/* A directory's listing (ms_list_dir_report_typed). */
struct listing {
	char **names;               /* sorted; NULL when it could not be listed */
	unsigned char *types;
	size_t n;
};

static int
name_key_cmp(const void *key, const void *name)
{
	return strcmp(key, *(char *const *)name);
}

/* Whether a file of that name may be there: listed, or the directory could
 * not be listed (then its files are tried by name, as a directory that can
 * be searched but not read allows). */
static bool
may_hold(const struct listing *ls, const char *name)
{
	return !ls->names || bsearch(name, ls->names, ls->n, sizeof(*ls->names), name_key_cmp);
}

/* mapping.csv and statistic.csv are opened only when the listing has them:
 * a failed open per iteration directory is a round trip on a network file
 * system (issue 18).  statistic.csv was read with the listing (d). */
static void
load_side_files(struct load_ctx *c, const char *dir, const struct listing *ls,
		const struct ms_staged *d, struct ms_mapping *map)
{
	char *p = ms_path_join(dir, "mapping.csv");

	memset(map, 0, sizeof(*map));
	if (may_hold(ls, "mapping.csv")) {
		note_read(c, dir, "mapping.csv");
		ms_mapping_read(c->sink, p, map);
	}
	free(p);
	if (d->stat_read) {
		note_read(c, dir, "statistic.csv");
		p = ms_path_join(dir, "statistic.csv");
		load_stat(c, p, d->stat_st, d->stat_err);
		free(p);
	}
}

/* statistic.csv rows with no data file (saved_data "statistic"). */
static void
add_stat_only(struct load_ctx *c, const char *gid)
{
	const struct ms_stat_row *last = NULL;
	int64_t memo = -1;
	size_t i;

	if (!c->have_stat)
		return;
	/* room for every row at once: the arrays grow once per run */
	if (c->n + c->stat->n > c->cap) {
		c->cap = c->n + c->stat->n;
		c->e = xrealloc(c->e, c->cap * sizeof(*c->e));
	}
	if (c->n + c->stat->n > c->pcap) {
		c->pcap = c->n + c->stat->n;
		c->p = xrealloc(c->p, c->pcap * sizeof(*c->p));
	}
	for (i = 0; i < c->stat->n; i++) {
		const struct ms_stat_row *row = &c->stat->rows[i];
		/* new_entry only reads nm's names (the pool keeps row's) */
		struct ms_name nm = {
			.op_type = (char *)row->op_type, .op_name = (char *)row->op_name,
			.task = row->task, .stream = row->stream, .ts = row->ts,
			.is_input = row->is_input, .slot = row->slot,
		};
		char *form = NULL;
		struct ms_entry *e;

		if (row->used)
			continue;
		/* newest kernel-by-kernel dumps write the raw scoped name (§7);
		 * last's name (the same copy: ms_stat.c) has no '/' */
		if ((!last || row->op_name != last->op_name) && strchr(row->op_name, '/'))
			nm.op_name = form = ms_name_file_form(row->op_name);
		c->memo_on = !form;     /* form is freed below: never a memo */
		/* the op of a name as written: one lookup per name and run (the
		 * row before's again when it names the same) */
		if (!c->memos || form) {
			memo = -1;
			last = NULL;
		} else if (!last || (row->op_name != last->op_name &&
				     strcmp(row->op_name, last->op_name) != 0) ||
			   (row->op_type != last->op_type && strcmp(row->op_type, last->op_type) != 0)) {
			memo = ms_op_memo(c->r, c->rank, c->memos, gid, row->op_type, row->op_name);
			last = row;
		}
		c->op_memo = memo >= 0 ? &c->memos->v[memo] : NULL;
		e = new_entry(c, NULL, NULL, NULL, &nm, MS_ENTRY_STAT);
		pend_of(c, e)->memo = memo;
		pend_of(c, e)->summary = row->summary;
		ms_entry_set_line(e, row->off);
		if (form) {
			/* no graph node matched: keep the scoped name as written */
			if (strcmp(e->op_name, form) == 0)
				e->op_name = td_strpool_add(&c->r->strs, row->op_name);
			free(form);
		}
	}
	c->memo_on = false;         /* the pool's names end with the run */
	c->memo_op = NULL;
	c->op_memo = NULL;
}

static void
list_dir(struct load_ctx *c, const char *dir, struct listing *ls)
{
	ls->names = ms_list_dir_report_typed(c->r, dir, &ls->n, &ls->types, c->sink,
					     "iteration directory");
	if (!ls->names && !ms_is_dir(dir))
		ms_problem(c->sink, PROBLEM_MISSING_FILE, dir, "iteration directory", "is gone");
}

/* The run folder's listing as read (d), reported as list_dir does. */
static void
take_listing(struct load_ctx *c, const char *dir, struct ms_staged *d, struct listing *ls)
{
	ls->names = d->names;
	ls->types = d->types;
	ls->n = d->n;
	d->names = NULL;
	d->types = NULL;
	d->n = 0;
	if (!ls->names)
		ms_report_unlisted(c->r, dir, d->list_errno, c->sink, "iteration directory");
	if (!ls->names && !d->is_dir)
		ms_problem(c->sink, PROBLEM_MISSING_FILE, dir, "iteration directory", "is gone");
}

static void
load_listing(struct load_ctx *c, const char *dir, struct listing *ls, const struct ms_mapping *map)
{
	size_t i;

	for (i = 0; i < ls->n; i++)
		add_file(c, dir, ls->names[i], ls->types[i], map);
	ms_names_free(ls->names, ls->n);
	free(ls->types);
}

static void
load_dir(struct load_ctx *c, const char *dir, const struct ms_mapping *map)
{
	struct listing ls;

	list_dir(c, dir, &ls);
	load_listing(c, dir, &ls, map);
}

/* Sort keys: class 0 = kernel in the order file (by position), 1 = other
 * kernels, 2 = Parameter files, 3 = constants; then, for listed kernels,
 * the launch number (a kernel launched twice in one step, §5.3), inputs
 * before outputs, by slot; by timestamp otherwise. */
struct order_key {
	int cls;
	uint64_t pos;
	uint32_t occ;               /* launch number of the kernel in this run */
	size_t idx;
	const struct ms_entry *e;
};

static int
order_cmp(const void *a, const void *b)
{
	const struct order_key *x = a, *y = b;

	if (x->cls != y->cls)
		return x->cls < y->cls ? -1 : 1;
	if (x->pos != y->pos)
		return x->pos < y->pos ? -1 : 1;
	if (x->occ != y->occ)
		return x->occ < y->occ ? -1 : 1;
	if (x->cls == 0 && x->e->is_input != y->e->is_input)
		return x->e->is_input ? -1 : 1;
	if (x->cls == 0 && x->e->slot != y->e->slot)
		return x->e->slot < y->e->slot ? -1 : 1;
	if (x->e->ts != y->e->ts)
		return x->e->ts < y->e->ts ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* Sorts k unless it is in order already: order_cmp ends on the row's
 * place, so any sort of the keys gives one order, and a list in that
 * order is left as it is. */
static void
sort_keys(struct order_key *k, size_t n)
{
	size_t i;

	for (i = 1; i < n && order_cmp(&k[i - 1], &k[i]) < 0; i++)
		;
	if (i < n)
		td_sort(k, n, sizeof(*k), order_cmp);
}

static void
sort_entries(struct load_ctx *c, const struct ms_run *run, size_t nconst)
{
	const struct ms_order *o = ms_rank_order(c->rank, run->graph_id);
	struct order_key *k = xcalloc(c->n ? c->n : 1, sizeof(*k));
	struct ms_entry *sorted;
	struct ms_pend *psorted;
	size_t i;
	bool again = false;
	const char *last_op = NULL;     /* op names are interned: one pointer each */
	int64_t pos = -1;

	for (i = 0; i < c->n; i++) {
		const struct ms_entry *e = &c->e[i];

		if (e->op_name != last_op) {
			pos = c->p[i].memo >= 0 ? c->memos->v[c->p[i].memo].pos
			    : o ? td_strpool_find(&o->kernels, e->op_name) : -1;
			last_op = e->op_name;
		}

		k[i].idx = i;
		k[i].e = e;
		if (i >= c->n - nconst)
			k[i].cls = 3;
		else if (pos >= 0)
			k[i].cls = 0, k[i].pos = (uint64_t)pos;
		else
			k[i].cls = strcmp(e->op_type, "Parameter") == 0 ? 2 : 1;
	}
	sort_keys(k, c->n);
	/* the same (io, slot) of a kernel again, by timestamp: a later launch */
	for (i = 1; i < c->n; i++)
		if (k[i].cls == 0 && k[i - 1].cls == 0 && k[i].pos == k[i - 1].pos &&
		    k[i].e->is_input == k[i - 1].e->is_input && k[i].e->slot == k[i - 1].e->slot) {
			k[i].occ = k[i - 1].occ + 1;
			again = true;
		}
	if (again)          /* launch numbers changed some keys */
		sort_keys(k, c->n);
	for (i = 0; i < c->n && k[i].idx == i; i++)
		;
	if (i == c->n) {    /* in order already: the arrays stay, without slack */
		if (c->n && c->cap != c->n) {
			c->e = xrealloc(c->e, c->n * sizeof(*c->e));
			c->cap = c->n;
		}
		free(k);
		return;
	}
	sorted = xcalloc(c->n, sizeof(*sorted));
	psorted = xcalloc(c->n, sizeof(*psorted));
	for (i = 0; i < c->n; i++) {
		sorted[i] = c->e[k[i].idx];
		psorted[i] = c->p[k[i].idx];
	}
	free(c->e);
	free(c->p);
	c->e = sorted;
	c->p = psorted;
	c->cap = c->pcap = c->n;
	free(k);
}

/* From run->pend (in the entries' final order): the ids that do not fit
 * an entry, and in follow mode the data files' sizes. */
static void
keep_wide_and_sizes(const struct reader *r, struct ms_run *run)
{
	size_t k, cap = 0;

	for (k = 0; k < run->n; k++)
		if (run->entries[k].task == MS_WIDE_ID || run->entries[k].stream == MS_WIDE_ID) {
			TD_GROW(run->wide, cap, run->nwide + 1);
			run->wide[run->nwide++] = (struct ms_wide){ (uint32_t)k, run->pend[k].task,
								   run->pend[k].stream };
		}
	if (r->may_follow && run->n) {
		run->sizes = xcalloc(run->n, sizeof(*run->sizes));
		for (k = 0; k < run->n; k++)
			run->sizes[k] = run->pend[k].size;
	}
}

void
ms_run_load(struct reader *r, struct ms_run *run, const struct reader_sink *sink,
	    struct ms_staged *ahead, char ***overflow, size_t *noverflow)
{
	struct load_ctx c = {
		.r = r, .sink = sink, .over = overflow, .nover = noverflow,
		.rank = (size_t)run->rank_order < r->nranks ? &r->ranks[run->rank_order] : NULL,
		.run_dir = run->path, .last_name = MS_NO_NAME, .suffix = MS_NO_NAME,
	};
	struct ms_staged now, *d = ahead;
	struct ms_mapping map;
	struct listing ls;
	size_t before_const;
	bool listed;

	*overflow = NULL;
	*noverflow = 0;
	if (!d) {           /* not read ahead: read it now, the same way */
		ms_stage_read_dir(run->path, r->may_follow, &r->stat, &now);
		d = &now;
	}
	c.stat = d->stat;
	if (c.rank && run->graph_id)
		c.memos = ms_op_memos_of(&r->ranks[run->rank_order], run->graph_id);
	if (d->noted) {
		run->dir_mtime = d->dir_mtime;
		run->nnames = d->nnames;
	}
	take_listing(&c, run->path, d, &ls);
	/* listed only: a folder that could be listed, whose statistic.csv
	 * gave the summaries (its data files are named, not read) */
	listed = ls.names != NULL;
	load_side_files(&c, run->path, &ls, d, &map);
	load_listing(&c, run->path, &ls, &map);
	listed = listed && c.have_stat && !c.read_over;
	add_stat_only(&c, run->graph_id);
	ms_mapping_done(&map);
	ms_stat_clear(c.stat);
	c.have_stat = false;
	before_const = c.n;
	if (run->const_dir)
		load_dir(&c, run->const_dir, NULL);
	sort_entries(&c, run, c.n - before_const);
	pthread_mutex_lock(&r->lock);
	run->entries = c.e;
	run->n = c.n;
	run->cap = c.cap;
	run->pend = c.p;
	run->stat_size = c.stat_size;
	run->stat_mtime = c.stat_mtime;
	keep_wide_and_sizes(r, run);
	run->names_len = c.names.len;
	run->names = c.names.len ? xrealloc(c.names.buf, c.names.len + 1) : NULL;  /* no slack */
	run->suffix = c.suffix;
	if (!c.names.len)
		strbuf_done(&c.names);
	pthread_mutex_unlock(&r->lock);
	strbuf_done(&c.spelt);
	ms_run_read_free(run);
	run->listed_only = listed;
	if (listed) {
		run->read = c.read;
		run->nread = c.nread;
	} else {
		for (size_t k = 0; k < c.nread; k++)
			free(c.read[k]);
		free(c.read);
	}
}

void
ms_run_read_free(struct ms_run *run)
{
	for (size_t k = 0; k < run->nread; k++)
		free(run->read[k]);
	free(run->read);
	run->read = NULL;
	run->nread = 0;
}
