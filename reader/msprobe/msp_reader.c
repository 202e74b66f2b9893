/*
 * msp_reader.c - the msprobe dump reader (FORMAT.md): the reader_ops table,
 * detection of the folder levels (§1), open/close and the index driver.
 * One unit per rank folder (a dump.json or debug.json), ordered by level
 * (graph/, pynative/), step and rank; each unit is one file of the dump.
 * The entries of a unit are indexed by msp_index.c, its side files read
 * by msp_side.c, rows decoded by msp_decode.c.
 */
#include "msp_internal.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "reader/reader_listing.h"
#include "reader/reader_report.h"

/* ---- folder names (FORMAT.md §1) ---------------------------------------- */

static bool
is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool
is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* N of "{word}{N}" (word alone: 0 when bare is allowed); -1 otherwise. */
static int64_t
numbered(const char *name, const char *word, bool bare)
{
	size_t n = strlen(word), i;

	if (strncmp(name, word, n) != 0)
		return -1;
	if (!name[n])
		return bare ? 0 : -1;
	for (i = n; name[i]; i++)
		if (!isdigit((unsigned char)name[i]) || i - n > 17)
			return -1;
	return strtoll(name + n, NULL, 10);
}

static bool
rank_name(const char *name)
{
	return numbered(name, "rank", true) >= 0 || numbered(name, "proc", false) >= 0;
}

/* The dump.json (or debug.json) of a rank folder, or NULL. */
static char *
json_of(const char *dir)
{
	char *p = xasprintf("%s/dump.json", dir);

	if (is_file(p))
		return p;
	free(p);
	p = xasprintf("%s/debug.json", dir);
	if (is_file(p))
		return p;
	free(p);
	return NULL;
}

/* ---- units --------------------------------------------------------------- */

static void
add_unit(struct reader *r, const char *dir, char *json, const char *level, int64_t step)
{
	const char *base = strrchr(dir, '/');
	struct msp_unit *u;
	int64_t rank;

	base = base ? base + 1 : dir;
	r->units = xrealloc(r->units, (r->nunits + 1) * sizeof(*r->units));
	u = &r->units[r->nunits];
	memset(u, 0, sizeof(*u));
	u->dir = xstrdup(dir);
	u->json = json;
	u->step = step;
	rank = numbered(base, "rank", true);
	u->rank = rank;
	u->host = rank >= 0 ? xasprintf("%s%srank%lld", level, *level ? "/" : "", (long long)rank)
			    : xasprintf("%s%s%s", level, *level ? "/" : "", base);
	u->file_id = (uint32_t)r->nunits;
	r->nunits++;
}

static int
name_cmp(const void *a, const void *b)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;
	size_t i = strcspn(x, "0123456789"), j = strcspn(y, "0123456789");
	int c = strncmp(x, y, TD_MIN(i, j));

	if (c || i != j)
		return c ? c : (i < j ? -1 : 1);
	if (strtoll(x + i, NULL, 10) != strtoll(y + j, NULL, 10))
		return strtoll(x + i, NULL, 10) < strtoll(y + j, NULL, 10) ? -1 : 1;
	return strcmp(x, y);
}

/* Subfolder names of dir accepted by keep, sorted by their numbers; from
 * ls, the listing of dir, when not NULL. */
static size_t
list_dirs(const char *dir, const struct reader_listing *ls, bool (*keep)(const char *),
	  char ***out)
{
	struct reader_listing own;
	char **names = NULL;
	size_t n = 0, cap = 0, i;

	*out = NULL;
	if (!ls) {
		if (!reader_listing_make(dir, &own))
			return 0;
		ls = &own;
	}
	for (i = 0; i < ls->n && n < 100000; i++) {
		const char *name = ls->v[i].name;
		char *p;

		if (!keep(name))
			continue;
		p = xasprintf("%s/%s", dir, name);
		if (is_dir(p)) {
			TD_GROW(names, cap, n + 1);
			names[n++] = xstrdup(name);
		}
		free(p);
	}
	if (ls == &own)
		reader_listing_done(&own);
	if (n)
		td_sort(names, n, sizeof(*names), name_cmp);
	*out = names;
	return n;
}

static void
free_names(char **names, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

static bool
step_name(const char *name)
{
	return numbered(name, "step", false) >= 0;
}

/* The rank folders of a step folder (ls: its listing, or NULL); returns
 * how many were added. */
static size_t
add_step(struct reader *r, const char *dir, const struct reader_listing *ls, const char *level,
	 int64_t step)
{
	char **ranks;
	size_t n = list_dirs(dir, ls, rank_name, &ranks), i, added = 0;

	for (i = 0; i < n; i++) {
		char *p = xasprintf("%s/%s", dir, ranks[i]), *json = json_of(p);

		if (json) {
			add_unit(r, p, json, level, step);
			added++;
		}
		free(p);
	}
	free_names(ranks, n);
	return added;
}

/* The step folders of a root (or of its graph/ or pynative/ level; ls:
 * its listing, or NULL). */
static size_t
add_root(struct reader *r, const char *dir, const struct reader_listing *ls, const char *level)
{
	char **steps;
	size_t n = list_dirs(dir, ls, step_name, &steps), i, added = 0;

	for (i = 0; i < n; i++) {
		char *p = xasprintf("%s/%s", dir, steps[i]);

		added += add_step(r, p, NULL, level, numbered(steps[i], "step", false));
		free(p);
	}
	free_names(steps, n);
	return added;
}

static int64_t
step_of_parent(const char *dir)
{
	char *copy = xstrdup(dir), *slash, *base;
	int64_t step = -1;

	while ((slash = strrchr(copy, '/')) && slash[1] == '\0' && slash != copy)
		*slash = '\0';
	if ((slash = strrchr(copy, '/'))) {
		*slash = '\0';
		base = strrchr(copy, '/');
		step = numbered(base ? base + 1 : copy, "step", false);
	}
	free(copy);
	return step;
}

static int64_t
step_of(const char *dir)
{
	const char *base = strrchr(dir, '/');

	return numbered(base ? base + 1 : dir, "step", false);
}

/* Every level the user may open (FORMAT.md §1); ls: the listing of dir,
 * or NULL. */
static size_t
find_units(struct reader *r, const char *dir, const struct reader_listing *ls)
{
	static const char *const levels[] = { "graph", "pynative" };
	char *json = json_of(dir);
	size_t added, i;

	if (json) {
		add_unit(r, dir, json, "", step_of_parent(dir));
		return 1;
	}
	if ((added = add_step(r, dir, ls, "", step_of(dir))))
		return added;
	added = add_root(r, dir, ls, "");
	for (i = 0; i < TD_ARRAY_SIZE(levels); i++) {
		char *p = xasprintf("%s/%s", dir, levels[i]);

		if (is_dir(p))
			added += add_root(r, p, NULL, levels[i]);
		free(p);
	}
	return added;
}

static void
unit_free(struct msp_unit *u)
{
	source_close(u->src);
	free(u->entry_off);
	free(u->first_trace);
	free(u->entry_hash);
	msp_side_done(u);
	msp_map_done(&u->sent);
	msp_map_done(&u->bad_out);
	free(u->dir);
	free(u->json);
	free(u->host);
}

static void
msp_close(struct reader *r)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; i < r->nunits; i++)
		unit_free(&r->units[i]);
	free(r->units);
	msp_map_done(&r->frames_sent);
	msp_map_done(&r->graphs_sent);
	msp_map_done(&r->source_ids);
	for (i = 0; i < r->nsources; i++) {
		size_t k;

		for (k = 0; k < r->sources[i].nrec; k++)
			free(r->sources[i].code[k]);
		free(r->sources[i].code);
		free(r->sources[i].line);
		free(r->sources[i].path);
	}
	free(r->sources);
	msp_comm_done(r);
	msp_entry_cache_free(r->ecache);
	pthread_mutex_destroy(&r->lock);
	free(r->source_root);
	free(r->root);
	free(r);
}

static int
probe_list(const char *dir, const struct reader_listing *ls)
{
	struct reader tmp = { 0 };
	size_t n = find_units(&tmp, dir, ls), i;

	for (i = 0; i < n; i++)
		unit_free(&tmp.units[i]);
	free(tmp.units);
	return n ? 70 : 0;
}

static int
probe(const char *dir)
{
	return reader_listing_probe(dir, probe_list);
}

static enum td_status
msp_open(const char *dir, const struct reader_options *opt, struct reader **out, char *err,
	 size_t errlen)
{
	struct reader *r;

	*out = NULL;
	if (!is_dir(dir)) {
		snprintf(err, errlen, "%s: not a directory", dir);
		return TD_ERR_NOENT;
	}
	r = xcalloc(1, sizeof(*r));
	pthread_mutex_init(&r->lock, NULL);
	r->ecache = msp_entry_cache_new();
	r->root = xstrdup(dir);
	r->source_root = opt && opt->source_root ? xstrdup(opt->source_root) : NULL;
	r->follow = opt && opt->follow;
	r->may_follow = opt && (opt->follow || opt->may_follow);
	if (!find_units(r, dir, opt ? opt->root_listing : NULL)) {
		msp_close(r);
		snprintf(err, errlen, "%s: no dump.json or debug.json in it, its rank folders or "
			 "step*/rank*/ (msprobe dump)", dir);
		return TD_ERR_FORMAT;
	}
	*out = r;
	return TD_OK;
}

/* ---- index ------------------------------------------------------------------ */

static void
meta(const struct reader_sink *sink, const char *key, const char *value)
{
	if (sink->on_meta && value && *value)
		sink->on_meta(sink->ctx, key, value);
}

static void
send_meta(struct reader *r, const struct reader_sink *sink)
{
	struct msp_map hosts = { 0 }, steps = { 0 };
	char buf[32];
	size_t i;

	meta(sink, "format", "msprobe");
	for (i = 0; i < r->nunits; i++) {
		const struct msp_unit *u = &r->units[i];

		meta(sink, "framework", u->framework);
		meta(sink, "task", u->task);
		meta(sink, "level", u->level);
		snprintf(buf, sizeof buf, "%lld", (long long)u->step);
		msp_map_put(&steps, buf, 1);
		if (msp_map_get(&hosts, u->host))
			continue;
		msp_map_put(&hosts, u->host, 1);
		meta(sink, "host[]", u->host);
		if (u->rank >= 0) {
			snprintf(buf, sizeof buf, "%lld", (long long)u->rank);
			meta(sink, "rank_ids[]", buf);
		}
	}
	snprintf(buf, sizeof buf, "%zu", hosts.n);
	meta(sink, "ranks", buf);
	snprintf(buf, sizeof buf, "%zu", steps.n);
	meta(sink, "steps", buf);
	msp_map_done(&hosts);
	msp_map_done(&steps);
}

static enum td_status
msp_index(struct reader *r, const struct reader_sink *sink)
{
	size_t i;

	for (i = 0; i < r->nunits; i++) {
		struct msp_unit *u = &r->units[i];

		if (sink->should_stop && sink->should_stop(sink->ctx))
			return TD_OK;
		if (!u->indexed) {
			struct reader_file f = { .id = u->file_id, .path = u->json, .host = u->host,
						 .role = "dump.json" };

			struct reader_graph g = { .graph_id = u->host, .name = u->host, .outer_id = "",
						  .host = u->host };

			if (sink->on_file)
				sink->on_file(sink->ctx, &f);
			if (sink->on_graph && !msp_map_get(&r->graphs_sent, u->host)) {
				msp_map_put(&r->graphs_sent, u->host, 1);
				sink->on_graph(sink->ctx, &g);   /* a host's entries form one graph */
			}
			msp_side_load(r, u, sink);
		}
		msp_index_unit(r, u, sink);
	}
	msp_comm_link(r, sink);
	if (!r->meta_sent) {
		send_meta(r, sink);
		r->meta_sent = true;
	}
	return TD_OK;
}

const struct reader_ops msprobe_reader_ops = {
	.name = "msprobe",
	.looks_for = "dump.json in step*/rank*/ folders (msprobe dump)",
	.description = "msprobe (MindStudio Probe) dumps of PyTorch and MindSpore: dump.json "
		       "statistics, .npy tensors, stack.json, construct.json",
	.values_in = "msprobe tensor-task (dump_tensor_data/*.npy, *.pt)",
	.no_control_inputs = "msprobe dumps record calls, not a graph's control edges",
	.flags = READER_ROWS_TIME_ORDERED | READER_ROW_FACTS | READER_CALL_TREE |
		 READER_PAIR_HOSTS_BY_POSITION,
	.probe = probe,
	.probe_list = probe_list,
	.open = msp_open,
	.index = msp_index,
	.decode = msp_decode,
	.op_prefix = msp_op_prefix,
	.advance = msp_advance,
	.close = msp_close,
	.save_state = msp_save_state,
	.load_state = msp_load_state,
	.call_of = msp_call_of,
	.map_add = msp_map_add,
	.map_name = msp_map_name,
	.map_free = msp_map_free,
	.map_leaf = msp_map_leaf,
	.map_layers = msp_map_layers,
};
