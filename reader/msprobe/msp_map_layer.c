/*
 * msp_map_layer.c - msprobe compare's layer map (`-lm`, FORMAT.md §11.3)
 * turned into entry renames: each entry of both runs gets a scope (its
 * construct.json layer path, the framework function stack.json shows it
 * called through, its API or layer name), a state (forward, backward,
 * parameters_grad) and its place among the entries of that scope and
 * state; the file's rules rename the target's scope part by part (by the
 * class of the layer each part is a child of), and the golden entry at
 * the renamed scope, state and place is the one each target leaf pairs
 * with (leaf for leaf, by its label; none when the golden has no entry
 * there).  Ranks pair by position (step, then rank number); one map
 * serves every rank, the first rank pair naming an entry wins.
 *
 * Reads the readers' tables after their index pass (entry names from
 * dump.json's keys, msp_side.c's parents and stacks); answers through
 * msp_map.c's map_leaf.  Not the file's syntax (msp_layer_file.c).
 */
#include "msp_internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader/parse/jscan.h"

#define MAX_PARTS 128

/* One entry of a run. */
struct item {
	char *name;
	char *type;                 /* class or API name (the scope node's type) */
	char *scope;                /* full scope without its first part */
	char state[24];
	bool ok;                    /* a name of at least four parts */
};

/* A scope node: its type and, per state, its entries in file order. */
struct node {
	const char *type;           /* borrowed from an item, or the path's last part */
	char *path;
	uint32_t *items;            /* indices into the side's items */
	size_t n, cap;
};

struct side {
	struct item *items;
	size_t nitems;
	struct msp_map nodes;       /* "path\x01state" -> node index */
	struct msp_map types;       /* path -> item whose type it takes */
	struct node *node;
	size_t nnodes, capnodes;
};

#define SAME UINT64_MAX          /* an entry the map gives its own name */

struct msp_layer_map {
	struct msp_map to;          /* target entry -> golden index + 1, 0: none, SAME */
	char **golden;
	size_t ngolden, cap;
	size_t nrules;              /* entries not SAME */
};

/* ---- an entry's scope ---------------------------------------------------- */

static size_t
split(char *s, char **parts, size_t max)
{
	size_t n = 0;

	for (parts[n++] = s; *s && n < max; s++)
		if (*s == '.') {
			*s = '\0';
			parts[n++] = s + 1;
		}
	return n;
}

static void
join(struct strbuf *sb, char *const *parts, size_t from, size_t to)
{
	size_t i;

	for (i = from; i < to; i++)
		strbuf_addf(sb, "%s%s", i > from ? "." : "", parts[i]);
}

static bool
is_layer(const char *s)
{
	return !strcmp(s, "Cell") || !strcmp(s, "Module");
}

/* A frame line's file and function (msprobe splits it on commas: the
 * first field, the third's second word). */
static bool
frame_fields(const char *line, char *file, size_t flen, char *func, size_t fulen)
{
	const char *c1 = strchr(line, ','), *c2 = c1 ? strchr(c1 + 1, ',') : NULL, *f;
	size_t n;

	if (!c2)
		return false;
	snprintf(file, flen, "%.*s", (int)(c1 - line), line);
	for (f = c2 + 1; *f == ' '; f++)
		;
	f += strcspn(f, " ,\n");        /* "in" */
	while (*f == ' ')
		f++;
	n = strcspn(f, " ,\n");
	if (!n)
		return false;
	snprintf(func, fulen, "%.*s", (int)n, f);
	return true;
}

static bool
any_in(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (strstr(s, *list))
			return true;
	return false;
}

static const char *const frame_files[] = { "site-packages/torch", "package/torch",
					    "site-packages/mindspore", "package/mindspore", NULL };
static const char *const skip_files[] = { "msprobe", "MindSpeed", NULL };
static const char *const skip_funcs[] = { "construct", "__call__", NULL };

/* The framework function an API was called through: between the
 * wrapper's frame (a line with "Template") and the caller's forward
 * (PyTorch: "in forward," / "in backward,"; MindSpore: "construct"), the
 * last framework frame before the first other one; "" none.  lines:
 * stack.json's order (innermost first). */
static void
frame_scope(char *const *lines, size_t n, bool mindspore, char *out, size_t len)
{
	char file[512], func[256];
	const char *frame = NULL;
	size_t start = 0, end = n, i;
	bool found = false;

	for (i = 0; i < n; i++) {
		if (strstr(lines[i], "Template")) {
			start = i + 1;
			found = true;
		} else if (found && (mindspore ? strstr(lines[i], "construct") != NULL
				     : strstr(lines[i], "in forward,") || strstr(lines[i], "in backward,"))) {
			end = i;
			break;
		}
	}
	for (i = start; i < end; i++) {
		if (!frame_fields(lines[i], file, sizeof file, func, sizeof func) ||
		    !any_in(file, frame_files))
			break;
		frame = lines[i];
	}
	*out = '\0';
	if (frame && frame_fields(frame, file, sizeof file, func, sizeof func) &&
	    !any_in(file, skip_files) && !any_in(func, skip_funcs))
		snprintf(out, len, "%s", func);
}

/* Fills it from entry name of unit u (msprobe's DumpDataItem). */
static void
item_make(struct msp_unit *u, const char *name, struct item *it)
{
	char *copy = xstrdup(name), *p[MAX_PARTS], *cp[MAX_PARTS], *pcopy = NULL;
	char frame[256] = "", **stack = NULL;
	const char *parent = msp_side_parent(u, name), *api;
	size_t n = split(copy, p, MAX_PARTS), nc, k, nf;
	struct strbuf scope = { 0 };
	char *const *ids;
	bool layer;

	memset(it, 0, sizeof(*it));
	it->name = xstrdup(name);
	if (n < 4) {
		free(copy);
		return;             /* msprobe refuses such a name; tdbg maps it to nothing */
	}
	it->ok = true;
	if (!strcmp(p[n - 1], "parameters_grad")) {
		it->type = xstrdup(p[n - 2]);
		snprintf(it->state, sizeof it->state, "parameters_grad");
		join(&scope, p, 0, n - 3);
		api = p[n - 3];
	} else {
		layer = is_layer(p[0]);
		it->type = xstrdup(p[n - 3]);
		snprintf(it->state, sizeof it->state, "%s", layer ? p[n - 2] : p[n - 1]);
		api = layer ? p[n - 4] : p[n - 3];
		if (layer) {
			join(&scope, p, 0, n - 4);
		} else if (parent && (pcopy = xstrdup(parent)) &&
			   (nc = split(pcopy, cp, MAX_PARTS)) > 3) {
			join(&scope, cp, 0, nc - 3);
		} else {
			strbuf_adds(&scope, "TopLayer");
		}
		nf = layer || !strcmp(p[0], "Primitive") || !strcmp(p[0], "Jit") ? 0
		     : msp_side_frames(u, name, &ids);
		if (nf) {
			stack = xcalloc(nf, sizeof(*stack));
			for (k = 0; k < nf; k++)        /* back to stack.json's order */
				stack[k] = ids[nf - 1 - k] + strlen(u->host) + 1;
			frame_scope(stack, nf, !strcmp(u->framework, "mindspore"), frame, sizeof frame);
			free(stack);
		}
	}
	if (*frame)
		strbuf_addf(&scope, ".%s", frame);
	strbuf_addf(&scope, ".%s", api);
	it->scope = strbuf_take(&scope);
	free(pcopy);
	free(copy);
}

/* The name of backward entry name's forward entry (malloc'd): "backward"
 * in its last two parts ("N.backward" of an API, "backward.N" of a
 * layer) made "forward"; NULL when neither says "backward". */
static char *
forward_name(const char *name)
{
	char *copy = xstrdup(name), *p[MAX_PARTS];
	size_t n = split(copy, p, MAX_PARTS), k;
	struct strbuf sb = { 0 };
	bool back = false;

	for (k = 0; k < n; k++) {
		bool is_back = k + 2 >= n && !strcmp(p[k], "backward");

		back = back || is_back;
		strbuf_addf(&sb, "%s%s", k ? "." : "", is_back ? "forward" : p[k]);
	}
	free(copy);
	if (!back)
		strbuf_done(&sb);
	return back ? strbuf_take(&sb) : NULL;
}

/* msprobe's backward pass: a backward entry takes the scope of its
 * forward entry (forward_name), when the run has it. */
static void
backward_scopes(struct side *s)
{
	struct msp_map byname = { 0 };
	uint64_t *fw;
	char *f;
	size_t i;

	for (i = 0; i < s->nitems; i++)
		msp_map_put(&byname, s->items[i].name, i);
	for (i = 0; i < s->nitems; i++) {
		struct item *it = &s->items[i];

		if (!it->ok || !(f = forward_name(it->name)))
			continue;
		if ((fw = msp_map_get(&byname, f)) && s->items[*fw].ok) {
			free(it->scope);
			it->scope = xstrdup(s->items[*fw].scope);
		}
		free(f);
	}
	msp_map_done(&byname);
}

/* The last number in the part of scope after "prefix.", -1 none; *end
 * gets that part's end. */
static long
next_number(const char *scope, const char *prefix, size_t *start, size_t *end)
{
	size_t pl = strlen(prefix), i;
	long v = -1;

	if (strncmp(scope, prefix, pl) || scope[pl] != '.')
		return -1;
	*start = pl + 1;
	*end = *start + strcspn(scope + *start, ".");
	if (*end == *start)
		return -1;
	for (i = *start; i < *end; i++) {
		if (!isdigit((unsigned char)scope[i]))
			continue;
		v = 0;
		for (; i < *end && isdigit((unsigned char)scope[i]) && v < 100000000; i++)
			v = v * 10 + (scope[i] - '0');
		i--;
	}
	return v;
}

/* msprobe's renumbering of ParallelTransformer's layers: the layers
 * under each such layer count from 0 (a pipeline stage's global numbers
 * made local), the part after "layers." becoming the number. */
static void
renumber_layers(struct side *s)
{
	struct msp_map seen = { 0 };
	char **prefix = NULL;
	long *min = NULL, v;
	size_t np = 0, cap = 0, i, j, a, b;

	for (i = 0; i < s->nitems; i++) {  /* the prefixes, then their least numbers */
		char *p;

		if (!s->items[i].ok || strcmp(s->items[i].type, "ParallelTransformer"))
			continue;
		p = xasprintf("%s.layers", s->items[i].scope);
		if (msp_map_get(&seen, p)) {
			free(p);
			continue;
		}
		msp_map_put(&seen, p, np);
		TD_GROW(prefix, cap, np + 1);
		prefix[np++] = p;
	}
	min = xcalloc(np + 1, sizeof(*min));
	for (i = 0; i < np; i++)
		for (j = 0, min[i] = -1; j < s->nitems; j++)
			if (s->items[j].ok && (v = next_number(s->items[j].scope, prefix[i], &a, &b)) >= 0 &&
			    (min[i] < 0 || v < min[i]))
				min[i] = v;
	for (i = 0; i < np; i++)
		for (j = 0; min[i] >= 0 && j < s->nitems; j++) {
			char *sc = s->items[j].scope;

			if (s->items[j].ok && (v = next_number(sc, prefix[i], &a, &b)) >= 0) {
				s->items[j].scope = xasprintf("%.*s%ld%s", (int)a, sc, v - min[i], sc + b);
				free(sc);
			}
		}
	for (i = 0; i < np; i++)
		free(prefix[i]);
	free(prefix);
	free(min);
	msp_map_done(&seen);
}

/* ---- the scopes of a run ------------------------------------------------ */

/* scope without its first part ("TopLayer.", "Module." ...). */
static const char *
path_of(const char *scope)
{
	const char *dot = strchr(scope, '.');

	return dot ? dot + 1 : "";
}

static struct node *
node_at(struct side *s, const char *path, const char *state, bool add)
{
	char *key = xasprintf("%s\x01%s", path, state);
	uint64_t *id = msp_map_get(&s->nodes, key);
	struct node *nd = NULL;

	if (id) {
		nd = &s->node[*id];
	} else if (add) {
		msp_map_put(&s->nodes, key, s->nnodes);
		TD_GROW(s->node, s->capnodes, s->nnodes + 1);
		nd = &s->node[s->nnodes++];
		memset(nd, 0, sizeof(*nd));
		nd->path = xstrdup(path);
	}
	free(key);
	return nd;
}

/* The type of the layer at path: the last entry's whose scope ends
 * there, else the path's last part ("TopLayer" at the top). */
static const char *
type_at(const struct side *s, const char *path)
{
	uint64_t *id = msp_map_get(&s->types, path);
	const char *dot = strrchr(path, '.');

	if (id)
		return s->items[*id].type;
	return !*path ? "TopLayer" : dot ? dot + 1 : path;
}

/* Entry e's name of unit u (malloc'd), NULL when it no longer reads. */
static char *
entry_name(struct reader *r, struct msp_unit *u, size_t e)
{
	struct jscan js;
	uint64_t off;
	char *name = NULL;

	pthread_mutex_lock(&r->lock);
	off = u->entry_off[e];
	pthread_mutex_unlock(&r->lock);
	jscan_init_member(&js, u->src, off, NULL);
	if (jscan_next(&js) == JSCAN_KEY)
		name = xstrdup(js.str);
	jscan_done(&js);
	return name;
}

/* The entries of u with their scopes; none when the run lacks
 * construct.json or stack.json (msprobe then has no scopes either). */
static void
side_build(struct reader *r, struct msp_unit *u, struct side *s)
{
	size_t e, n;

	memset(s, 0, sizeof(*s));
	if (!u->src || !u->parents.n || !u->stacks.n)
		return;
	pthread_mutex_lock(&r->lock);
	n = u->nentries;
	pthread_mutex_unlock(&r->lock);
	s->items = xcalloc(n + 1, sizeof(*s->items));
	for (e = 0; e < n; e++) {
		char *name = entry_name(r, u, e);

		if (name)
			item_make(u, name, &s->items[s->nitems++]);
		free(name);
	}
	backward_scopes(s);
	renumber_layers(s);
	for (e = 0; e < s->nitems; e++) {
		struct node *nd;

		if (!s->items[e].ok)
			continue;
		nd = node_at(s, path_of(s->items[e].scope), s->items[e].state, true);
		TD_GROW(nd->items, nd->cap, nd->n + 1);
		nd->items[nd->n++] = (uint32_t)e;
		msp_map_put(&s->types, path_of(s->items[e].scope), e);
	}
}

static void
side_done(struct side *s)
{
	size_t i;

	for (i = 0; i < s->nitems; i++) {
		free(s->items[i].name);
		free(s->items[i].type);
		free(s->items[i].scope);
	}
	for (i = 0; i < s->nnodes; i++) {
		free(s->node[i].path);
		free(s->node[i].items);
	}
	free(s->items);
	free(s->node);
	msp_map_done(&s->nodes);
	msp_map_done(&s->types);
}

/* The golden entry target item k pairs with (msprobe's convert_scope and
 * query_data), NULL none. */
static const char *
convert(const struct msp_layer_file *f, struct side *t, size_t k, struct side *g)
{
	const struct item *it = &t->items[k];
	char *copy = xstrdup(it->scope), *p[MAX_PARTS];
	size_t n = split(copy, p, MAX_PARTS), idx = 0, used, i;
	struct strbuf to = { 0 }, cur = { 0 };
	const struct node *nt, *ng;
	const char *res = NULL;

	while (idx + 1 < n) {
		char *curpath = cur.buf ? cur.buf : "";
		const char *name = msp_layer_file_rename(f, type_at(t, curpath), (const char *const *)p +
							 idx + 1, n - 1 - idx, &used);

		strbuf_addf(&to, "%s%s", to.len ? "." : "", name);
		for (i = 0; i < used; i++)
			strbuf_addf(&cur, "%s%s", cur.len ? "." : "", p[idx + 1 + i]);
		idx += used;
	}
	nt = node_at(t, path_of(it->scope), it->state, false);
	ng = node_at(g, to.buf ? to.buf : "", it->state, false);
	for (i = 0; nt && i < nt->n && nt->items[i] != k; i++)
		;
	if (nt && ng && i < ng->n)
		res = g->items[ng->items[i]].name;
	strbuf_done(&to);
	strbuf_done(&cur);
	free(copy);
	return res;
}

/* ---- the map ------------------------------------------------------------ */

static int
unit_cmp(const void *x, const void *y)
{
	const struct msp_unit *a = *(struct msp_unit *const *)x, *b = *(struct msp_unit *const *)y;

	if (a->step != b->step)
		return a->step < b->step ? -1 : 1;
	if (a->rank != b->rank)
		return a->rank < b->rank ? -1 : 1;
	return strcmp(a->host, b->host);
}

/* The units of r in order of step, then rank. */
static struct msp_unit **
units_sorted(struct reader *r)
{
	struct msp_unit **v = xcalloc(r->nunits + 1, sizeof(*v));
	size_t i;

	for (i = 0; i < r->nunits; i++)
		v[i] = &r->units[i];
	qsort(v, r->nunits, sizeof(*v), unit_cmp);
	return v;
}

static void
add_pair(struct msp_layer_map *m, const struct msp_layer_file *f, struct reader *rb,
	 struct msp_unit *ub, struct reader *ra, struct msp_unit *ua)
{
	struct side t, g;
	size_t k;

	side_build(rb, ub, &t);
	side_build(ra, ua, &g);
	for (k = 0; k < t.nitems; k++) {
		const char *to;

		if (!t.items[k].ok || msp_map_get(&m->to, t.items[k].name))
			continue;       /* an earlier rank pair named it */
		to = convert(f, &t, k, &g);
		if (to && !strcmp(to, t.items[k].name)) {
			/* its own name: the leaves pair as without the map (model_diff_leaf.c
			 * pairs a leaf of the call's own name as the call pairs), at no cost */
			msp_map_put(&m->to, t.items[k].name, SAME);
			continue;
		}
		if (to) {
			TD_GROW(m->golden, m->cap, m->ngolden + 1);
			m->golden[m->ngolden++] = xstrdup(to);
		}
		msp_map_put(&m->to, t.items[k].name, to ? m->ngolden : 0);
		m->nrules++;
	}
	side_done(&t);
	side_done(&g);
}

enum td_status
msp_layer_map_make(struct msp_layer_map **out, struct reader *b, struct reader *a,
		   const char *path, char *err, size_t errlen)
{
	struct msp_layer_file *f;
	struct msp_layer_map *m;
	struct msp_unit **ub, **ua;
	enum td_status st;
	size_t i, j;

	*out = NULL;
	if ((st = msp_layer_file_read(&f, path, err, errlen)) != TD_OK)
		return st;
	m = xcalloc(1, sizeof(*m));
	ub = units_sorted(b);
	ua = units_sorted(a);
	for (i = 0; i < b->nunits; i++) {
		/* as many units: by position; else by the same step and rank */
		for (j = 0; j < a->nunits && b->nunits != a->nunits; j++)
			if (ua[j]->step == ub[i]->step && !strcmp(ua[j]->host, ub[i]->host))
				break;
		if (b->nunits == a->nunits)
			j = i;
		if (j < a->nunits)
			add_pair(m, f, b, ub[i], a, ua[j]);
	}
	free(ub);
	free(ua);
	msp_layer_file_free(f);
	*out = m;
	return TD_OK;
}

bool
msp_layer_map_leaf(const struct msp_layer_map *m, const char *op, const char *leaf, char *buf,
		   size_t len)
{
	uint64_t *g;
	int w;

	if (!op)
		return m->nrules > 0;
	if (!(g = msp_map_get(&m->to, op)) || *g == SAME)
		return false;
	if (!leaf)
		return true;
	w = *g ? snprintf(buf, len, "%s.%s", m->golden[*g - 1], leaf) : snprintf(buf, len, "%s", "");
	return w >= 0 && (size_t)w < len;
}

void
msp_layer_map_free(struct msp_layer_map *m)
{
	size_t i;

	if (!m)
		return;
	for (i = 0; i < m->ngolden; i++)
		free(m->golden[i]);
	free(m->golden);
	msp_map_done(&m->to);
	free(m);
}
