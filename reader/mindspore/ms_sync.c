/*
 * ms_sync.c - the rank layout of MindSpore dumps (FORMAT.md §3,
 * §4.1): rank_N/{.dump_metadata, graphs, execution_order, NET/GRAPH/ITER}.
 * Finds ranks, loads their graphs and execution orders, lists graph runs,
 * and loads one run's tensors (ms_run_load, shared with the ACL layout).
 * Directory listings are in ms_dir.c.
 *
 * Trace order inside a run: the kernels in ms_execution_order_graph_{id}.csv
 * order, each with its inputs then outputs by slot; then tensors of ops
 * the order file does not list (by timestamp); then Parameter files; then
 * constants/ (sent once, with the first run of the graph).
 */
#include "ms_internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader/parse/csv.h"
#include "reader/parse/npy.h"

static bool
is_rank_name(const char *s)
{
	return strncmp(s, "rank_", 5) == 0 && ms_all_digits(s + 5);
}

bool
ms_sync_has_ranks_listed(const char *dir, const struct reader_listing *ls)
{
	size_t i;
	bool hit = false;

	for (i = 0; i < ls->n && !hit; i++)
		if (is_rank_name(ls->v[i].name)) {
			char *p = xasprintf("%s/%s", dir, ls->v[i].name);

			hit = ms_is_dir(p);
			free(p);
		}
	return hit;
}

/* ---- metadata (§14) ------------------------------------------------- */

/* The string value of "key" in a JSON text (no nesting awareness: the
 * keys we read are unique in data_dump.json). */
static char *
json_string(const char *text, const char *key)
{
	char *pat = xasprintf("\"%s\"", key);
	const char *p = strstr(text, pat), *q;

	free(pat);
	if (!p || !(p = strchr(p + strlen(key) + 2, ':')))
		return NULL;
	p++;
	while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')
		p++;
	if (*p != '"' || !(q = strchr(p + 1, '"')))
		return NULL;
	return xstrndup(p + 1, (size_t)(q - p - 1));
}

/* e2e_dump_settings.enable: 1 true, 0 false, -1 unknown. */
static int
json_e2e_enable(const char *text)
{
	const char *p = strstr(text, "\"e2e_dump_settings\""), *e;

	if (!p)
		return -1;
	if (!(e = strstr(p, "\"enable\"")) || !(e = strchr(e, ':')))
		return -1;
	e++;
	while (*e == ' ' || *e == '\n' || *e == '\t' || *e == '\r')
		e++;
	return strncmp(e, "true", 4) == 0 ? 1 : strncmp(e, "false", 5) == 0 ? 0 : -1;
}

/* Returns the e2e flag (-1 unknown) and sets r->net_name if unset. */
static int
read_metadata(struct reader *r, const char *rank_dir, const struct reader_sink *sink)
{
	char *path = xasprintf("%s/.dump_metadata/data_dump.json", rank_dir);
	uint8_t *buf;
	size_t len;
	int e2e = -1;

	ms_dep_note(r, path, MS_DEP_CONTENT);

	if (ms_read_side(sink, path, "dump metadata", &buf, &len) == TD_OK) {
		char *net = json_string((const char *)buf, "net_name");

		e2e = json_e2e_enable((const char *)buf);
		if (net && !r->net_name)
			r->net_name = net;
		else
			free(net);
		free(buf);
	}
	free(path);
	/* MindInsight forces sync when config.json names a GPU target (§2) */
	path = xasprintf("%s/.dump_metadata/config.json", rank_dir);
	ms_dep_note(r, path, MS_DEP_CONTENT);
	if (e2e < 0 && ms_read_side(sink, path, "dump config", &buf, &len) == TD_OK) {
		char *target = json_string((const char *)buf, "device_target");

		if (target && strcmp(target, "GPU") == 0)
			e2e = 1;
		free(target);
		free(buf);
	}
	free(path);
	return e2e;
}

/* ---- graphs and execution orders ------------------------------------------ */

static void
add_form(struct reader *r, struct ms_rank *rk, const char *key, const char *full, const char *type)
{
	bool added;
	size_t id = td_strpool_id(&rk->file_forms, key, &added);

	if (!added)
		return;
	if (id >= rk->capforms) {
		rk->capforms = rk->capforms ? rk->capforms * 2 : 256;
		rk->form_full = xrealloc(rk->form_full, rk->capforms * sizeof(*rk->form_full));
		rk->form_type = xrealloc(rk->form_type, rk->capforms * sizeof(*rk->form_type));
	}
	rk->form_full[id] = td_strpool_add(&r->strs, full);
	rk->form_type[id] = td_strpool_add(&r->strs, type);
	rk->nforms = id + 1;
}

/* §5.2: map file-name forms back by replacing in every node name; the
 * "{OpType}-op{N}" tail is the fallback ("T:" keys), parameters "P:". */
static void
index_forms(struct reader *r, struct ms_rank *rk, const struct ms_graph *g)
{
	size_t i;

	for (i = 0; i < g->nnodes; i++) {
		const struct ms_node *n = &g->nodes[i];
		char *form = ms_name_file_form(n->full_name);
		const char *tail = ms_name_op_tail(n->full_name);

		add_form(r, rk, form, n->full_name, n->op_type);
		free(form);
		if (tail) {
			char *key = xasprintf("T:%s", tail);

			add_form(r, rk, key, n->full_name, n->op_type);
			free(key);
		}
	}
	for (i = 0; i < g->nparams; i++) {
		char *form = ms_name_file_form(g->params[i]), *key = xasprintf("P:%s", form);

		add_form(r, rk, key, g->params[i], "Parameter");
		free(form);
		free(key);
	}
}

/* The id of prefix + name in pool (-1 when absent), the key built
 * without printf (once per row), on the stack when it is short. */
static int64_t
find_prefixed(const struct td_strpool *pool, const char *prefix, const char *name)
{
	char buf[256], *key = buf;
	size_t p = strlen(prefix), n = strlen(name) + 1;
	int64_t id;

	if (p + n > sizeof buf)
		key = xmalloc(p + n);
	memcpy(key, prefix, p);
	memcpy(key + p, name, n);
	id = td_strpool_find(pool, key);
	if (key != buf)
		free(key);
	return id;
}

void
ms_rank_resolve(struct reader *r, const struct ms_rank *rk, const char *op_type,
		const char *file_op, const char **full, const char **type)
{
	bool param = strcmp(op_type, "Parameter") == 0;
	const char *tail;
	int64_t id = -1;

	if (rk)
		id = param ? find_prefixed(&rk->file_forms, "P:", file_op)
			   : td_strpool_find(&rk->file_forms, file_op);
	if (id < 0 && rk && !param && (tail = ms_name_op_tail(file_op)))
		id = find_prefixed(&rk->file_forms, "T:", tail);
	if (id >= 0 && (size_t)id < rk->nforms) {
		*full = rk->form_full[id];
		*type = rk->form_type[id];
		return;
	}
	/* Not in any graph: keep the file's names. */
	*full = td_strpool_add(&r->strs, file_op);
	*type = td_strpool_add(&r->strs, op_type);
}

static bool
rank_has_graph(const struct ms_rank *rk, const char *gid)
{
	size_t i;

	for (i = 0; i < rk->ngraphs; i++)
		if (strcmp(rk->graph_ids[i], gid) == 0)
			return true;
	return false;
}

static struct ms_graph *
rank_graph_slot(struct ms_rank *rk, const char *gid)
{
	size_t i;

	for (i = 0; i < rk->ngraphs; i++)
		if (strcmp(rk->graph_ids[i], gid) == 0)
			return &rk->graphs[i];
	rk->graphs = xrealloc(rk->graphs, (rk->ngraphs + 1) * sizeof(*rk->graphs));
	rk->graph_ids = xrealloc(rk->graph_ids, (rk->ngraphs + 1) * sizeof(*rk->graph_ids));
	memset(&rk->graphs[rk->ngraphs], 0, sizeof(rk->graphs[0]));
	rk->graph_ids[rk->ngraphs] = xstrdup(gid);
	return &rk->graphs[rk->ngraphs++];
}

/* Graph id of "ms_output_trace_code_graph_{id}.{ext}", or NULL. */
static char *
graph_file_id(const char *name, const char *ext)
{
	static const char prefix[] = "ms_output_trace_code_graph_";
	size_t plen = sizeof(prefix) - 1, len = strlen(name), elen = strlen(ext);
	char *id;

	if (len <= plen + elen || strncmp(name, prefix, plen) != 0 ||
	    strcmp(name + len - elen, ext) != 0)
		return NULL;
	id = xstrndup(name + plen, len - plen - elen);
	if (!ms_all_digits(id)) {
		free(id);
		return NULL;
	}
	return id;
}

static void
load_pb(struct ms_rank *rk, const char *path, const char *gid, const struct reader_sink *sink)
{
	uint8_t *buf;
	size_t len;
	char err[256];
	struct ms_graph g, *slot;
	enum td_status st = ms_read_side(sink, path, "graph .pb", &buf, &len);

	if (st != TD_OK) {
		if (st == TD_ERR_NOENT)       /* listed, then gone; ms_read_side says the rest */
			ms_problem(sink, PROBLEM_UNREADABLE, path, "graph .pb", td_strerror(st));
		return;
	}
	st = ms_graph_decode(buf, len, &g, err, sizeof err);
	free(buf);
	if (st != TD_OK) {
		ms_problem(sink, PROBLEM_DECODE_ERROR, path, "graph .pb", err);
		return;
	}
	slot = rank_graph_slot(rk, gid);
	ms_graph_done(slot);
	*slot = g;
}

static void
load_ir(struct ms_rank *rk, const char *path, const char *gid, const struct reader_sink *sink)
{
	uint8_t *buf;
	size_t len;
	struct ms_graph ir = {0}, *slot;
	enum td_status st = ms_read_side(sink, path, "graph .ir", &buf, &len);

	if (st != TD_OK) {
		if (st == TD_ERR_NOENT)       /* listed, then gone; ms_read_side says the rest */
			ms_problem(sink, PROBLEM_UNREADABLE, path, "graph .ir", td_strerror(st));
		return;
	}
	ms_ir_parse((const char *)buf, len, &ir);
	free(buf);
	if (ir.bad_refs) {
		char detail[128];

		snprintf(detail, sizeof detail, "%zu input reference%s to no node (first %s)", ir.bad_refs,
			 ir.bad_refs == 1 ? "" : "s", ir.first_bad_ref);
		ms_problem(sink, PROBLEM_INCONSISTENT, path, "graph .ir", detail);
	}
	slot = rank_graph_slot(rk, gid);
	if (slot->nnodes == 0) {
		ms_graph_done(slot);
		*slot = ir;            /* no .pb: the .ir is the graph */
		return;
	}
	ms_graph_merge_frames(slot, &ir);   /* frames, output counts the .pb lacks */
	ms_graph_done(&ir);
}

static void
load_graphs(struct reader *r, struct ms_rank *rk, const struct reader_sink *sink)
{
	char *dir = xasprintf("%s/graphs", rk->dir), *id;
	size_t n, i, g;
	char **names;

	ms_dep_note(r, dir, MS_DEP_CONTENT);
	names = ms_list_dir(dir, &n);
	for (i = 0; i < n; i++)   /* .pb first: it has the inputs and types */
		if ((id = graph_file_id(names[i], ".pb"))) {
			char *p = xasprintf("%s/%s", dir, names[i]);

			ms_dep_note(r, p, MS_DEP_CONTENT);
			load_pb(rk, p, id, sink);
			free(p);
			free(id);
		}
	for (i = 0; i < n; i++)
		if ((id = graph_file_id(names[i], ".ir"))) {
			char *p = xasprintf("%s/%s", dir, names[i]);

			ms_dep_note(r, p, MS_DEP_CONTENT);
			load_ir(rk, p, id, sink);
			free(p);
			free(id);
		}
	ms_names_free(names, n);
	free(dir);
	for (g = 0; g < rk->ngraphs; g++)
		index_forms(r, rk, &rk->graphs[g]);
}

static struct ms_order *
rank_order_slot(struct ms_rank *rk, const char *gid)
{
	size_t i;

	for (i = 0; i < rk->norders; i++)
		if (strcmp(rk->orders[i].graph_id, gid) == 0)
			return &rk->orders[i];
	rk->orders = xrealloc(rk->orders, (rk->norders + 1) * sizeof(*rk->orders));
	memset(&rk->orders[rk->norders], 0, sizeof(rk->orders[0]));
	rk->orders[rk->norders].graph_id = xstrdup(gid);
	return &rk->orders[rk->norders++];
}

struct order_ctx {
	struct td_strpool *into;
	bool skip_header, first;
};

static void
order_line(void *ctx, const char *line, size_t llen)
{
	struct order_ctx *o = ctx;
	char *s = xstrndup(line, llen), *comma = strchr(s, ',');
	bool added;

	if (comma && !o->skip_header)
		*comma = '\0';   /* MindInsight reads column 0 */
	if (*s && !(o->first && o->skip_header))
		td_strpool_id(o->into, s, &added);
	o->first = false;
	free(s);
}

/* One name (kernels) or iteration number (global) per line, §10;
 * streamed, as the file may be large. */
static void
load_order_file(const char *path, struct td_strpool *into, bool skip_header,
		const struct reader_sink *sink)
{
	struct order_ctx o = { into, skip_header, true };

	ms_read_lines(sink, path, "execution order", order_line, &o);
}

static void
load_orders(struct reader *r, struct ms_rank *rk, const struct reader_sink *sink)
{
	static const char kprefix[] = "ms_execution_order_graph_";
	static const char gprefix[] = "ms_global_execution_order_graph_";
	char *dir = xasprintf("%s/execution_order", rk->dir);
	size_t n, i;
	char **names;

	ms_dep_note(r, dir, MS_DEP_CONTENT);
	names = ms_list_dir(dir, &n);

	for (i = 0; i < n; i++) {
		size_t len = strlen(names[i]);
		bool k = strncmp(names[i], kprefix, sizeof(kprefix) - 1) == 0;
		bool g = strncmp(names[i], gprefix, sizeof(gprefix) - 1) == 0;
		size_t plen = k ? sizeof(kprefix) - 1 : sizeof(gprefix) - 1;
		char *gid, *p;

		if ((!k && !g) || len <= plen + 4 || strcmp(names[i] + len - 4, ".csv") != 0)
			continue;
		gid = xstrndup(names[i] + plen, len - plen - 4);
		p = xasprintf("%s/%s", dir, names[i]);
		if (ms_all_digits(gid)) {
			struct ms_order *o = rank_order_slot(rk, gid);

			ms_dep_note(r, p, MS_DEP_CONTENT);

			load_order_file(p, k ? &o->kernels : &o->iters, k, sink);
		}
		free(p);
		free(gid);
	}
	ms_names_free(names, n);
	free(dir);
}

const struct ms_order *
ms_rank_order(const struct ms_rank *rk, const char *gid)
{
	size_t i;

	for (i = 0; rk && i < rk->norders; i++)
		if (strcmp(rk->orders[i].graph_id, gid) == 0)
			return &rk->orders[i];
	return NULL;
}

/* Without metadata: bin-named files mean an async dump (§2 step 1). */
static bool
dir_has_bin_files(const char *dir)
{
	size_t n, i;
	char **names = ms_list_dir(dir, &n);
	bool bin = false;

	for (i = 0; i < n && !bin; i++) {
		struct ms_name nm;

		if (ms_name_parse(names[i], NULL, &nm)) {
			bin = nm.kind == MS_NAME_BIN || nm.kind == MS_NAME_OVERFLOW_BIN;
			ms_name_done(&nm);
		}
	}
	ms_names_free(names, n);
	return bin;
}

struct ms_run *
ms_run_new(struct reader *r, const char *dir)
{
	struct ms_run *run;
	bool added;

	td_strpool_id(&r->run_paths, dir, &added);
	if (!added)
		return NULL;
	pthread_mutex_lock(&r->lock);
	TD_GROW(r->runs, r->capruns, r->nruns + 1);
	run = &r->runs[r->nruns++];
	memset(run, 0, sizeof(*run));
	run->path = xstrdup(dir);
	run->execution = -1;
	run->suffix = MS_NO_NAME;
	pthread_mutex_unlock(&r->lock);
	return run;
}

/* "graph <gid> iter <iter>" (malloc'd), built without printf: one a run. */
char *
ms_run_label(const char *gid, const char *iter)
{
	size_t g = strlen(gid), n = strlen(iter) + 1;
	char *l = xmalloc(6 + g + 6 + n);

	memcpy(l, "graph ", 6);
	memcpy(l + 6, gid, g);
	memcpy(l + 6 + g, " iter ", 6);
	memcpy(l + 12 + g, iter, n);
	return l;
}

/* Adds the run of gdir/iter; false when it was listed before. */
static bool
add_run(struct reader *r, struct ms_rank *rk, size_t rank_idx, const char *gdir, const char *gid,
	const char *iter)
{
	const struct ms_order *o = ms_rank_order(rk, gid);
	struct ms_run *run;
	int64_t pos = o ? td_strpool_find(&o->iters, iter) : -1;
	char *p = ms_path_join(gdir, iter);

	if (r->only) {
		char *real = realpath(p, NULL);
		size_t n = strlen(r->only);
		bool inside = real && strncmp(real, r->only, n) == 0 && (!real[n] || real[n] == '/');

		free(real);
		if (!inside) {
			free(p);
			return true;   /* outside the opened directory: never a run */
		}
	}
	run = ms_run_new(r, p);
	free(p);
	if (!run)
		return false;
	run->host = rk->host;
	run->graph_id = td_strpool_add(&r->strs, gid);
	run->iteration = strtoull(iter, NULL, 10);
	/* §10: the global execution order file gives the run order; runs it
	 * does not list go after, by iteration. */
	run->order = pos >= 0 ? (uint64_t)pos : (UINT64_MAX / 2) + run->iteration;
	run->rank_order = (int)rank_idx;
	run->label = ms_run_label(gid, iter);
	return true;
}

static void
scan_graph_dir(struct reader *r, struct ms_rank *rk, size_t rank_idx, const char *gdir,
	       const char *gid, const struct reader_sink *sink)
{
	size_t n, i, first_run = r->nruns;
	unsigned char *types;
	char **names;
	struct ms_run *lowest = NULL;
	bool constants = false;

	ms_dep_note(r, gdir, 0);
	names = ms_list_dir_report_typed(r, gdir, &n, &types, sink, "graph directory");

	for (i = 0; i < n; i++) {
		char *p = ms_path_join(gdir, names[i]);
		/* the entry's type spares a stat per iteration directory */
		bool dir = types[i] == MS_DT_DIR || (types[i] == MS_DT_OTHER && ms_is_dir(p));

		if (ms_all_digits(names[i]) && dir)
			add_run(r, rk, rank_idx, gdir, gid, names[i]);
		else if (strcmp(names[i], "constants") == 0 && dir)
			constants = true;
		free(p);
	}
	ms_names_free(names, n);
	free(types);
	/* a data directory with no graph file still names a graph */
	if (r->nruns > first_run && !rank_has_graph(rk, gid)) {
		struct ms_graph *g = rank_graph_slot(rk, gid);

		g->name = xstrdup("");
	}
	if (!constants)
		return;
	/* sent once, with the graph's first run not sent yet (constants/ may
	 * appear after the first iteration in follow mode) */
	for (i = r->nemitted; i < r->nruns; i++)
		if (r->runs[i].host == rk->host && strcmp(r->runs[i].graph_id, gid) == 0 &&
		    (!lowest || r->runs[i].iteration < lowest->iteration))
			lowest = &r->runs[i];
	if (lowest) {
		char *cdir = xasprintf("%s/constants", gdir);
		bool added;

		td_strpool_id(&r->const_dirs, cdir, &added);
		if (added)
			lowest->const_dir = cdir;
		else
			free(cdir);
	}
}

static bool
is_side_dir(const char *name)
{
	return name[0] == '.' || strcmp(name, "graphs") == 0 ||
	       strcmp(name, "execution_order") == 0 || strcmp(name, "_") == 0;
}

/* Lists the graph runs of rank rank_idx: NET/GRAPH/ITER directories. */
static void
scan_rank_runs(struct reader *r, size_t rank_idx, const struct reader_sink *sink)
{
	struct ms_rank *rk = &r->ranks[rank_idx];
	size_t n, i, k, ng;
	char **names;

	ms_dep_note(r, rk->dir, 0);
	names = ms_list_dir_report(r, rk->dir, &n, sink, "rank directory");

	for (i = 0; i < n; i++) {
		char *net = xasprintf("%s/%s", rk->dir, names[i]), **gids;

		if (is_side_dir(names[i]) || !ms_is_dir(net)) {
			free(net);
			continue;
		}
		if (!r->net_name)
			r->net_name = xstrdup(names[i]);
		ms_dep_note(r, net, 0);
		gids = ms_list_dir_report(r, net, &ng, sink, "network directory");
		for (k = 0; k < ng; k++) {
			char *gdir = xasprintf("%s/%s", net, gids[k]);

			if (ms_all_digits(gids[k]) && ms_is_dir(gdir))
				scan_graph_dir(r, rk, rank_idx, gdir, gids[k], sink);
			free(gdir);
		}
		ms_names_free(gids, ng);
		free(net);
	}
	ms_names_free(names, n);
}

static void
scan_rank(struct reader *r, const char *dir, int id, const struct reader_sink *sink)
{
	struct ms_rank *rk;
	size_t first_run = r->nruns;
	char host[32];
	int e2e;

	r->ranks = xrealloc(r->ranks, (r->nranks + 1) * sizeof(*r->ranks));
	rk = &r->ranks[r->nranks++];
	memset(rk, 0, sizeof(*rk));
	rk->dir = xstrdup(dir);
	rk->id = id;
	snprintf(host, sizeof host, "rank_%d", id);
	rk->host = td_strpool_add(&r->strs, host);
	e2e = read_metadata(r, dir, sink);
	load_graphs(r, rk, sink);
	load_orders(r, rk, sink);
	scan_rank_runs(r, r->nranks - 1, sink);
	if (e2e < 0 && r->nruns > first_run)
		ms_dep_note(r, r->runs[first_run].path, 0);
	if (e2e == 0 || (e2e < 0 && r->nruns > first_run && dir_has_bin_files(r->runs[first_run].path)))
		r->async = true;
}

void
ms_sync_load_rank(struct reader *r, struct ms_rank *rk)
{
	const struct reader_sink quiet = {0};

	load_graphs(r, rk, &quiet);
	load_orders(r, rk, &quiet);
}

static int
rank_id_cmp(const void *a, const void *b)
{
	long x = strtol(*(char *const *)a + 5, NULL, 10), y = strtol(*(char *const *)b + 5, NULL, 10);

	return (x > y) - (x < y);
}

static bool
rank_known(const struct reader *r, const char *dir)
{
	size_t i;

	for (i = 0; i < r->nranks; i++)
		if (strcmp(r->ranks[i].dir, dir) == 0)
			return true;
	return false;
}

/* The rank_N directories of the root not scanned yet, by id; returns how
 * many were added. */
static size_t
scan_new_ranks(struct reader *r, const struct reader_sink *sink)
{
	size_t n, i, nr = 0;
	char **names, **ranks;

	ms_dep_note(r, r->root, 0);
	names = ms_list_dir(r->root, &n);
	ranks = xcalloc(n ? n : 1, sizeof(*ranks));

	for (i = 0; i < n; i++) {
		char *p = xasprintf("%s/%s", r->root, names[i]);

		if (is_rank_name(names[i]) && ms_is_dir(p) && !rank_known(r, p))
			ranks[nr++] = names[i];
		free(p);
	}
	td_sort(ranks, nr, sizeof(*ranks), rank_id_cmp);
	for (i = 0; i < nr; i++) {
		char *p = xasprintf("%s/%s", r->root, ranks[i]);

		scan_rank(r, p, atoi(ranks[i] + 5), sink);
		free(p);
	}
	free(ranks);
	ms_names_free(names, n);
	return nr;
}

void
ms_sync_rescan(struct reader *r, const struct reader_sink *sink)
{
	size_t i, known = r->nranks;

	for (i = 0; i < known; i++)
		scan_rank_runs(r, i, sink);
	if (r->rank_parent)   /* a rank directory that appeared since (follow mode) */
		scan_new_ranks(r, sink);
}

void
ms_sync_scan(struct reader *r, const struct reader_sink *sink)
{
	r->rank_parent = scan_new_ranks(r, sink) > 0;
	if (!r->rank_parent) {   /* the user opened one rank_N directory */
		const char *base = strrchr(r->root, '/');

		base = base && base[1] ? base + 1 : r->root;
		scan_rank(r, r->root, is_rank_name(base) ? atoi(base + 5) : 0, sink);
	}
}
