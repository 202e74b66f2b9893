/*
 * msp_side.c - a rank folder's side files: construct.json (the module tree,
 * FORMAT.md §6) and stack.json (call stacks in two layouts, §5).  Both are
 * streamed with the JSON scanner (up to TD_SIDE_FILE_MAX bytes); a JSON
 * error is a problem and keeps what came before it.  Frames go to the sink
 * once each (r->frames_sent).  Not for: dump.json (msp_index.c).
 */
#include "msp_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader/base/fileio.h"
#include "reader/reader_report.h"

/* Opens dir/name for a scan; NULL (with a problem when it exists but cannot
 * be read or is over the limit) when there is nothing to read. */
static struct source *
side_open(struct msp_unit *u, const char *name, const struct reader_sink *sink, char **path)
{
	enum td_status st;
	char why[128] = "";
	struct source *src;

	*path = xasprintf("%s/%s", u->dir, name);
	src = source_open_file(*path, &st, why, sizeof why);
	if (!src) {
		if (st != TD_ERR_NOENT)
			reader_report_problem(sink, PROBLEM_UNREADABLE, -1, *path, 0, -1, name, why);
		return NULL;
	}
	if (source_size(src) > TD_SIDE_FILE_MAX) {
		reader_report_problemf(sink, PROBLEM_UNREADABLE, -1, *path, 0, -1, name,
				       "%llu bytes, over the %llu-byte side-file limit",
				       (unsigned long long)source_size(src),
				       (unsigned long long)TD_SIDE_FILE_MAX);
		source_close(src);
		return NULL;
	}
	return src;
}

static void
json_problem(const struct reader_sink *sink, const char *path, const struct jscan *js,
	     const char *what)
{
	reader_report_problem(sink, strstr(js->err, "input ends") ? PROBLEM_TORN_TAIL
								  : PROBLEM_DECODE_ERROR,
			      -1, path, js->tok_off, -1, what, js->err);
}

/* ---- construct.json ------------------------------------------------------ */

static uint64_t
parent_id(struct msp_unit *u, struct msp_map *names, const char *parent)
{
	uint64_t *id = msp_map_get(names, parent);

	if (id)
		return *id;
	if (u->nparent_names + 1 > u->parent_cap) {
		u->parent_cap = u->parent_cap ? 2 * u->parent_cap : 16;
		u->parent_names = xrealloc(u->parent_names, u->parent_cap * sizeof(*u->parent_names));
		u->kids = xrealloc(u->kids, u->parent_cap * sizeof(*u->kids));
		u->nkids = xrealloc(u->nkids, u->parent_cap * sizeof(*u->nkids));
		u->kidcap = xrealloc(u->kidcap, u->parent_cap * sizeof(*u->kidcap));
	}
	u->parent_names[u->nparent_names] = xstrdup(parent);
	u->kids[u->nparent_names] = NULL;
	u->nkids[u->nparent_names] = u->kidcap[u->nparent_names] = 0;
	msp_map_put(names, parent, u->nparent_names);
	return u->nparent_names++;
}

static void
load_construct(struct msp_unit *u, const struct reader_sink *sink)
{
	char *path, key[512], parent[512];
	struct source *src = side_open(u, "construct.json", sink, &path);
	struct msp_map names = { 0 };
	struct jscan js;
	enum jscan_tok t;

	if (!src) {
		free(path);
		return;
	}
	jscan_init(&js, src, 0, NULL);
	if ((t = jscan_next(&js)) == JSCAN_OBJ_BEGIN) {
		while ((t = jscan_next(&js)) == JSCAN_KEY) {
			snprintf(key, sizeof key, "%s", js.str);
			parent[0] = '\0';
			t = jscan_next(&js);
			if (t == JSCAN_STRING) {
				snprintf(parent, sizeof parent, "%s", js.str);
			} else if (t == JSCAN_ARR_BEGIN) {
				/* Megatron: [parent, micro_step] */
				if ((t = jscan_next(&js)) == JSCAN_STRING)
					snprintf(parent, sizeof parent, "%s", js.str);
				while (t != JSCAN_ARR_END && t != JSCAN_ERROR && t != JSCAN_EOF)
					t = jscan_next(&js);
				if (t != JSCAN_ARR_END)
					break;
			} else if (t == JSCAN_OBJ_BEGIN && !jscan_skip(&js, t)) {
				break;
			} else if (t == JSCAN_ERROR || t == JSCAN_EOF) {
				break;
			}
			if (*parent) {
				uint64_t id = parent_id(u, &names, parent);

				msp_map_put(&u->parents, key, id);
				TD_GROW(u->kids[id], u->kidcap[id], u->nkids[id] + 1);
				u->kids[id][u->nkids[id]++] = xstrdup(key);
			}
		}
	}
	if (t == JSCAN_ERROR)
		json_problem(sink, path, &js, "construct.json");
	jscan_done(&js);
	msp_map_done(&names);
	source_close(src);
	free(path);
}

size_t
msp_side_children(const struct msp_unit *u, const char *module, char *const **kids)
{
	size_t i;

	/* parents are few (modules): a scan of their names is enough */
	for (i = 0; i < u->nparent_names; i++)
		if (strcmp(u->parent_names[i], module) == 0) {
			*kids = u->kids[i];
			return u->nkids[i];
		}
	return 0;
}

const char *
msp_side_parent(const struct msp_unit *u, const char *entry)
{
	uint64_t *id = msp_map_get(&u->parents, entry);

	return id && *id < u->nparent_names ? u->parent_names[*id] : NULL;
}

/* ---- stack.json ----------------------------------------------------------- */

/* The source of path (sent to the sink when new), with the recorded line. */
static int64_t
source_of(struct reader *r, struct msp_unit *u, const struct reader_sink *sink, const char *path,
	  unsigned long line, const char *code)
{
	uint64_t *known = msp_map_get(&r->source_ids, path), id;
	struct msp_source *s;
	size_t k;

	if (!*path)
		return -1;
	pthread_mutex_lock(&r->lock);
	if (known) {
		id = *known;
	} else {
		TD_GROW(r->sources, r->capsources, r->nsources + 1);
		s = &r->sources[r->nsources];
		memset(s, 0, sizeof(*s));
		s->path = xstrdup(path);
		id = r->nsources++;
		msp_map_put(&r->source_ids, path, id);
		if (sink->on_source) {
			struct reader_source rs = { .id = (uint32_t)id, .host = u->host, .path = path,
						    .loc = { .file = 0, .offset = id } };

			pthread_mutex_unlock(&r->lock);
			sink->on_source(sink->ctx, &rs);
			pthread_mutex_lock(&r->lock);
		}
	}
	s = &r->sources[id];
	if (code && line && line <= MSP_MAX_LINE) {
		for (k = 0; k < s->nrec && s->line[k] != line; k++)
			;
		if (k == s->nrec) {
			if (s->nrec + 1 > s->caprec) {
				s->caprec = s->caprec ? 2 * s->caprec : 8;
				s->line = xrealloc(s->line, s->caprec * sizeof(*s->line));
				s->code = xrealloc(s->code, s->caprec * sizeof(*s->code));
			}
			s->line[s->nrec] = (uint32_t)line;
			s->code[s->nrec++] = xstrdup(code);
			s->maxline = TD_MAX(s->maxline, (uint32_t)line);
		}
	}
	pthread_mutex_unlock(&r->lock);
	return (int64_t)id;
}

/* "File {path}, line {n}, in {func}, \n {code}" (FORMAT.md §5). */
static void
send_frame(struct reader *r, struct msp_unit *u, const struct reader_sink *sink,
	   const char *id, const char *text)
{
	char file[1024] = "", func[256] = "", *code = NULL;
	const char *p, *q;
	unsigned long line = 0;
	int64_t source_id;

	if (msp_map_get(&r->frames_sent, id))
		return;
	msp_map_put(&r->frames_sent, id, 1);
	if (strncmp(text, "File ", 5) == 0 && (p = strstr(text, ", line "))) {
		snprintf(file, sizeof file, "%.*s", (int)TD_MIN((size_t)(p - text - 5), sizeof file - 1),
			 text + 5);
		line = strtoul(p + 7, NULL, 10);
		if ((q = strstr(p, ", in ")) != NULL) {
			const char *end = strstr(q + 5, ", \n");

			if (!end)
				end = q + 5 + strlen(q + 5);
			snprintf(func, sizeof func, "%.*s",
				 (int)TD_MIN((size_t)(end - q - 5), sizeof func - 1), q + 5);
			if (*end) {
				for (end += 3; *end == ' '; end++)
					;
				code = xstrdup(end);
			}
		}
	} else {
		snprintf(func, sizeof func, "%s", text);   /* "The call stack retrieval failed." */
	}
	/* sources are registered even with no frame callback: a reader
	 * restored from the persistent index rebuilds them (msp_state.c) */
	source_id = source_of(r, u, sink, file, line, code);
	if (sink->on_frame) {
		struct reader_frame f = {
			.id = id, .host = u->host, .file = file, .source_id = source_id,
			.line = line > UINT32_MAX ? 0 : (uint32_t)line, .func = func, .code = code,
			.framework = *file && reader_path_is_framework(file),
		};

		sink->on_frame(sink->ctx, &f);
	}
	free(code);
}

/* Reads an array of frame strings into a new group; returns its number. */
static bool
read_frames(struct reader *r, struct msp_unit *u, const struct reader_sink *sink,
	    struct jscan *js, size_t *group)
{
	char **ids = NULL;
	size_t n = 0, cap = 0, i;
	enum jscan_tok t;

	while ((t = jscan_next(js)) != JSCAN_ARR_END) {
		if (t == JSCAN_ERROR || t == JSCAN_EOF)
			break;
		if (t != JSCAN_STRING) {
			if (!jscan_skip(js, t))
				break;
			continue;
		}
		{
			char *id = xasprintf("%s|%s", u->host, js->str);

			send_frame(r, u, sink, id, js->str);
			TD_GROW(ids, cap, n + 1);
			ids[n++] = id;
		}
	}
	/* innermost first in the file; outermost first for the model */
	for (i = 0; i < n / 2; i++) {
		char *tmp = ids[i];

		ids[i] = ids[n - 1 - i];
		ids[n - 1 - i] = tmp;
	}
	if (u->ngroups + 1 > u->group_cap) {
		u->group_cap = u->group_cap ? 2 * u->group_cap : 16;
		u->groups = xrealloc(u->groups, u->group_cap * sizeof(*u->groups));
		u->ngroup = xrealloc(u->ngroup, u->group_cap * sizeof(*u->ngroup));
	}
	u->groups[u->ngroups] = ids;
	u->ngroup[u->ngroups] = n;
	*group = u->ngroups++;
	return t == JSCAN_ARR_END;
}

/* Current layout: "N": [[names...], [frames...]]. */
static bool
read_group(struct reader *r, struct msp_unit *u, const struct reader_sink *sink, struct jscan *js)
{
	char **names = NULL;
	size_t n = 0, cap = 0, i, group = 0;
	enum jscan_tok t = jscan_next(js);
	bool ok = false;

	if (t != JSCAN_ARR_BEGIN)
		return jscan_skip(js, t);
	if ((t = jscan_next(js)) != JSCAN_ARR_BEGIN)
		return false;
	while ((t = jscan_next(js)) == JSCAN_STRING) {
		TD_GROW(names, cap, n + 1);
		names[n++] = xstrdup(js->str);
	}
	if (t == JSCAN_ARR_END && jscan_next(js) == JSCAN_ARR_BEGIN && read_frames(r, u, sink, js, &group)) {
		for (i = 0; i < n; i++)
			msp_map_put(&u->stacks, names[i], group);
		ok = jscan_next(js) == JSCAN_ARR_END;
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return ok;
}

static void
load_stack(struct reader *r, struct msp_unit *u, const struct reader_sink *sink)
{
	char *path, key[512];
	struct source *src = side_open(u, "stack.json", sink, &path);
	struct jscan js;
	enum jscan_tok t;
	int legacy = -1;

	if (!src) {
		free(path);
		return;
	}
	jscan_init(&js, src, 0, NULL);
	if ((t = jscan_next(&js)) == JSCAN_OBJ_BEGIN) {
		while ((t = jscan_next(&js)) == JSCAN_KEY) {
			size_t group;

			snprintf(key, sizeof key, "%s", js.str);
			if (legacy < 0)
				legacy = strcmp(key, "0") != 0;
			if (!legacy) {
				if (!read_group(r, u, sink, &js))
					break;
				continue;
			}
			t = jscan_next(&js);
			if (t != JSCAN_ARR_BEGIN) {
				if (!jscan_skip(&js, t))
					break;
				continue;
			}
			if (!read_frames(r, u, sink, &js, &group))
				break;
			msp_map_put(&u->stacks, key, group);
		}
	}
	if (js.failed || (t != JSCAN_OBJ_END && t != JSCAN_EOF))
		json_problem(sink, path, &js, "stack.json");
	jscan_done(&js);
	source_close(src);
	free(path);
}

size_t
msp_side_frames(const struct msp_unit *u, const char *entry, char *const **ids)
{
	uint64_t *g = msp_map_get(&u->stacks, entry);

	if (!g || *g >= u->ngroups)
		return 0;
	*ids = u->groups[*g];
	return u->ngroup[*g];
}

void
msp_side_load(struct reader *r, struct msp_unit *u, const struct reader_sink *sink)
{
	load_construct(u, sink);
	load_stack(r, u, sink);
}

void
msp_side_done(struct msp_unit *u)
{
	size_t i, k;

	msp_map_done(&u->parents);
	msp_map_done(&u->stacks);
	for (i = 0; i < u->nparent_names; i++) {
		for (k = 0; k < u->nkids[i]; k++)
			free(u->kids[i][k]);
		free(u->kids[i]);
		free(u->parent_names[i]);
	}
	free(u->parent_names);
	free(u->kids);
	free(u->nkids);
	free(u->kidcap);
	for (i = 0; i < u->ngroups; i++) {
		for (k = 0; k < u->ngroup[i]; k++)
			free(u->groups[i][k]);
		free(u->groups[i]);
	}
	free(u->groups);
	free(u->ngroup);
}
