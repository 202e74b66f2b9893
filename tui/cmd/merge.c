/*
 * merge.c - reading the launchers' lines for tdbg --merge (merge.h): the
 * prefixes, node answers, messages and failures.  The answer itself is
 * built in merge_report.c.
 */
#include "tui/cmd/merge.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/cmd/emit.h"
#include "tui/cmd/hostlist.h"
#include "tui/cmd/json.h"
#include "tui/cmd/jsonread.h"
#include "tui/cmd/merge_internal.h"
#include "tui/cmd/node.h"

struct merge *
merge_new(const struct merge_options *o, char *err, size_t errlen)
{
	struct merge *mg = xcalloc(1, sizeof *mg);

	mg->ranks = o ? o->ranks : -1;
	mg->tdbg = xstrdup(o && o->tdbg ? o->tdbg : "tdbg");
	mg->launcher.name = xstrdup("");
	if (o && o->nodes &&
	    hostlist_expand(o->nodes, &mg->expected, &mg->nexpected, err, errlen) < 0) {
		merge_free(mg);
		return NULL;
	}
	return mg;
}

static void
node_done(struct merge_node *n)
{
	size_t i;

	free(n->name);
	for (i = 0; i < n->nmsgs; i++)
		free(n->msgs[i]);
}

void
merge_free(struct merge *mg)
{
	size_t i, k;

	if (!mg)
		return;
	for (i = 0; i < mg->nr; i++) {
		struct merge_rank *r = &mg->r[i];

		free(r->node), free(r->line), free(r->host), free(r->dump), free(r->error);
		free(r->op_name), free(r->op_type);
		for (k = 0; k < r->ncomm; k++)
			free(r->comm[k].op), free(r->comm[k].peers);
		free(r->comm);
	}
	free(mg->r);
	for (i = 0; i < mg->nn; i++)
		node_done(&mg->n[i]);
	free(mg->n);
	node_done(&mg->launcher);
	free(mg->block);
	for (i = 0; i < mg->npend; i++) {
		free(mg->pend[i].task);
		strbuf_done(&mg->pend[i].text);
	}
	free(mg->pend);
	hostlist_free(mg->expected, mg->nexpected);
	free(mg->tdbg);
	free(mg);
}

struct merge_node *
merge_node_get(struct merge *mg, const char *name)
{
	size_t i;

	for (i = mg->nn; i > 0; i--)    /* a launcher's lines come in runs */
		if (strcmp(mg->n[i - 1].name, name) == 0)
			return &mg->n[i - 1];
	TD_GROW(mg->n, mg->capn, mg->nn + 1);
	memset(&mg->n[mg->nn], 0, sizeof *mg->n);
	mg->n[mg->nn].name = xstrdup(name);
	return &mg->n[mg->nn++];
}

size_t
merge_nodes_seen(const struct merge *mg)
{
	return mg->nn;
}

size_t
merge_nodes_expected(const struct merge *mg)
{
	return mg->nexpected;
}

static void
add_message(struct merge_node *n, const char *s, size_t len)
{
	n->msgs_total++;
	if (n->nmsgs >= MERGE_MESSAGES)
		return;
	if (len > 400)
		len = 400;
	n->msgs[n->nmsgs] = xmalloc(len + 1);
	memcpy(n->msgs[n->nmsgs], s, len);
	n->msgs[n->nmsgs][len] = '\0';
	n->nmsgs++;
}

/* "NAME: " at s: the length of NAME (0 when there is no such prefix).
 * NAME is a host name, a host range or a task number, or pdsh@HOST. */
static size_t
prefix_len(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len && s[i] != ':'; i++)
		if (!isalnum((unsigned char)s[i]) && !strchr("._-@[],", s[i]))
			return 0;
	if (i == 0 || i >= len || (i + 1 < len && s[i + 1] != ' '))
		return 0;
	return i;
}

static bool
all_digits(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (!isdigit((unsigned char)s[i]))
			return false;
	return len > 0;
}

void
merge_fail(struct merge *mg, const char *node, const char *why)
{
	struct merge_node *n = node ? merge_node_get(mg, node) : &mg->launcher;

	if (node)
		n->failed = true;
	add_message(n, why, strlen(why));
}

/* The launcher's own line about a node: "n3: ssh exited with exit code 2"
 * after "pdsh@login: " or "clush: ", "error: HOST: task 3: ..." after
 * "srun: ".  NODE may be a host range (clush -b). */
static void
launcher_line(struct merge *mg, bool srun, const char *s, size_t len)
{
	char name[256], err[64], **names;
	size_t p, i, n;

	if (srun) {
		if (len < 7 || strncmp(s, "error: ", 7) != 0) {
			add_message(&mg->launcher, s, len);
			return;
		}
		s += 7, len -= 7;
	}
	p = prefix_len(s, len);
	if (!p || p >= sizeof name || (srun && !strstr(s, "xit"))) {
		add_message(&mg->launcher, s, len);
		return;
	}
	memcpy(name, s, p);
	name[p] = '\0';
	s += p + 1, len -= p + 1;
	while (len && *s == ' ')
		s++, len--;
	if (hostlist_expand(name, &names, &n, err, sizeof err) < 0) {
		names = NULL;
		n = 0;
	}
	for (i = 0; i < (names ? n : 1); i++) {
		struct merge_node *nd = merge_node_get(mg, names ? names[i] : name);

		nd->failed = true;
		add_message(nd, s, len);
	}
	hostlist_free(names, n);
}

static char *
dup_str(const struct jsonread_value *v, const char *key)
{
	const char *s = jsonread_str(v, key);

	return s ? xstrdup(s) : NULL;
}

/* The communication ops that carried NaN/Inf and name their peers. */
static void
read_comm(struct merge_rank *r, const struct jsonread_value *v)
{
	const struct jsonread_value *c, *peers, *p;
	double nf;
	size_t cap = 0;

	c = jsonread_get(v, "comm");
	if (!c || c->type != JSONREAD_ARRAY)
		return;
	for (c = c->child; c; c = c->next) {
		struct merge_comm *mc;

		peers = jsonread_get(c, "peers");
		if (!jsonread_str(c, "op") || !jsonread_num(c, "nonfinite", &nf) || nf <= 0 ||
		    !peers || peers->type != JSONREAD_ARRAY)
			continue;
		TD_GROW(r->comm, cap, r->ncomm + 1);
		mc = &r->comm[r->ncomm++];
		mc->op = xstrdup(jsonread_str(c, "op"));
		mc->peers = xcalloc(peers->nchild ? peers->nchild : 1, sizeof *mc->peers);
		mc->npeers = 0;
		for (p = peers->child; p; p = p->next)
			if (p->type == JSONREAD_NUMBER)
				mc->peers[mc->npeers++] = (int64_t)p->num;
	}
}

/* The line again, "node" set to the launcher's name. */
static char *
rewrite(const char *text, const struct jsonread_value *v, const char *node)
{
	struct strbuf sb = {0}, raw = {0};
	const struct jsonread_value *c;
	struct emit e;
	struct json *j;

	emit_init(&e, &sb, true);
	j = emit_json(&e);
	json_object_begin(j);
	for (c = v->child; c; c = c->next) {
		if (strcmp(c->key, "node") == 0) {
			json_kv_string(j, "node", node);
			continue;
		}
		strbuf_reset(&raw);
		strbuf_add(&raw, text + c->start, c->end - c->start);
		json_key(j, c->key);
		json_raw(j, raw.buf);
	}
	json_object_end(j);
	strbuf_done(&raw);
	emit_done(&e);
	return strbuf_take(&sb);
}

static void
add_rank(struct merge *mg, const char *text, const struct jsonread_value *v, const char *node)
{
	const struct jsonread_value *fb = jsonread_get(v, "first_bad");
	struct merge_rank *r;
	double d;

	TD_GROW(mg->r, mg->capr, mg->nr + 1);
	r = memset(&mg->r[mg->nr], 0, sizeof *mg->r);
	r->order = mg->nr++;
	r->rank = jsonread_num(v, "rank", &d) && d >= 0 ? (int64_t)d : -1;
	r->node = xstrdup(node);
	r->line = rewrite(text, v, node);
	r->host = dup_str(v, "host");
	r->dump = dup_str(v, "dump");
	r->error = dup_str(v, "error");
	r->step = -1;
	r->wall = -1;
	if (fb && fb->type == JSONREAD_OBJECT) {
		r->bad = true;
		if (jsonread_num(fb, "step", &d))
			r->step = (int64_t)d;
		if (jsonread_num(fb, "index", &d))
			r->index = (uint64_t)d;
		if (jsonread_num(fb, "wall_time", &d))
			r->wall = d;
		r->op_name = dup_str(fb, "op_name");
		r->op_type = dup_str(fb, "op_type");
	}
	read_comm(r, v);
}

/* A merged answer read back (its "ranks": node lines): each line added. */
static bool
merged_ranks(struct merge *mg, const char *line, struct jsonread_value *v)
{
	const struct jsonread_value *r = jsonread_get(v, "ranks"), *c;

	if (!r || r->type != JSONREAD_ARRAY)
		return false;
	for (c = r->child; c; c = c->next)
		if (c->type == JSONREAD_OBJECT)
			merge_line(mg, line + c->start, c->end - c->start);
	jsonread_free(v);
	return true;
}

/* clush -b (dshbak -c) prints blocks: a line of 15 dashes, the node set
 * ("n[1-3] (3)", or one name), dashes again, then the lines of those nodes
 * without prefix.  True when the line was part of a header. */
static bool
block_header(struct merge *mg, const char *line, size_t len)
{
	bool dashes = len == 15 && strspn(line, "-") == 15;
	const char *sp;

	if (dashes && mg->block_state != 1) {
		mg->block_state = 1;
		return true;
	}
	if (mg->block_state == 1 && dashes) {
		mg->block_state = 2;
		return true;
	}
	if (mg->block_state == 1) {
		free(mg->block);
		sp = memchr(line, ' ', len);
		mg->block = xmalloc(len + 1);
		memcpy(mg->block, line, sp ? (size_t)(sp - line) : len);
		mg->block[sp ? (size_t)(sp - line) : len] = '\0';
		return true;
	}
	return false;
}

/* A line of a clush -b block of several nodes: each one said it. */
static void
block_message(struct merge *mg, const char *line, size_t len)
{
	char **names, err[64];
	size_t n, i;

	if (hostlist_expand(mg->block, &names, &n, err, sizeof err) < 0) {
		add_message(&mg->launcher, line, len);
		return;
	}
	for (i = 0; i < n; i++)
		add_message(merge_node_get(mg, names[i]), line, len);
	hostlist_free(names, n);
}

/* A line after its prefix: a node answer (or a merged answer read back),
 * else a message of the node.  task: name is srun's task number. */
static void
take(struct merge *mg, const char *name, bool task, const char *line, size_t len)
{
	struct jsonread_value *v = NULL;
	const char *jnode;
	char err[64], tname[280];

	if (len && *line == '{' && !name && jsonread_parse(line, len, &v, err, sizeof err) == 0 &&
	    !jsonread_get(v, "tdbg_node") && merged_ranks(mg, line, v))
		return;
	if (len && *line == '{' && len <= NODE_LINE_MAX && (v ||
	    jsonread_parse(line, len, &v, err, sizeof err) == 0) && jsonread_get(v, "tdbg_node")) {
		char *text = xmalloc(len + 1);

		memcpy(text, line, len);
		text[len] = '\0';
		jnode = jsonread_str(v, "node");
		if (!name || task)
			name = jnode && *jnode ? jnode : name ? name : "?";
		add_rank(mg, text, v, name);
		merge_node_get(mg, name)->answers++;
		if (mg->r[mg->nr - 1].rank < 0 && mg->r[mg->nr - 1].error)
			merge_node_get(mg, name)->unranked_errors++;
		free(text);
	} else {
		if (task) {             /* srun -l: a task number, not a node */
			snprintf(tname, sizeof tname, "task %s", name);
			name = tname;
		}
		add_message(name ? merge_node_get(mg, name) : &mg->launcher, line, len);
	}
	jsonread_free(v);
}

/* srun -l labels each SRUN_CHUNK bytes of a task's output, so a long
 * node line arrives as several labelled pieces: a piece of exactly that
 * size that is not JSON by itself waits for the task's next pieces. */
static struct merge_pending *
pending_find(struct merge *mg, const char *task)
{
	size_t i;

	for (i = 0; i < mg->npend; i++)
		if (strcmp(mg->pend[i].task, task) == 0)
			return &mg->pend[i];
	return NULL;
}

static void
pending_done(struct merge *mg, struct merge_pending *pd)
{
	free(pd->task);
	strbuf_done(&pd->text);
	*pd = mg->pend[--mg->npend];
}

/* True when the piece was kept for later. */
static bool
srun_piece(struct merge *mg, const char *task, const char *line, size_t len)
{
	struct merge_pending *pd = pending_find(mg, task);
	struct jsonread_value *v;
	char err[64];

	if (!pd) {
		if (len != SRUN_CHUNK || *line != '{' ||
		    jsonread_parse(line, len, &v, err, sizeof err) == 0) {
			if (len == SRUN_CHUNK && *line == '{')
				jsonread_free(v);
			return false;
		}
		TD_GROW(mg->pend, mg->cappend, mg->npend + 1);
		pd = &mg->pend[mg->npend++];
		memset(pd, 0, sizeof *pd);
		pd->task = xstrdup(task);
	}
	strbuf_add(&pd->text, line, len);
	if (len == SRUN_CHUNK && pd->text.len <= NODE_LINE_MAX)
		return true;
	take(mg, task, true, pd->text.buf, pd->text.len);
	pending_done(mg, pd);
	return true;
}

void
merge_flush(struct merge *mg)
{
	while (mg->npend) {
		struct merge_pending *pd = &mg->pend[mg->npend - 1];

		take(mg, pd->task, true, pd->text.buf, pd->text.len);
		pending_done(mg, pd);
	}
}

void
merge_line(struct merge *mg, const char *line, size_t len)
{
	const char *name = NULL;
	char namebuf[256];
	size_t p;
	bool task = false;

	while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		len--;
	while (len && *line == ' ')        /* srun -l pads the task number */
		line++, len--;
	if (!len || block_header(mg, line, len))
		return;
	if (mg->block_state == 2 && !strpbrk(mg->block, "[,"))
		name = mg->block;       /* a block of one node */
	else if (mg->block_state == 2 && *line != '{') {
		block_message(mg, line, len);
		return;
	}
	if (mg->block_state != 2 && *line != '{' && (p = prefix_len(line, len)) &&
	    p < sizeof namebuf) {
		memcpy(namebuf, line, p);
		namebuf[p] = '\0';
		line += p + 1, len -= p + 1;
		if (len && *line == ' ')   /* "NAME: ": one blank, the rest is the line's */
			line++, len--;
		if (strncmp(namebuf, "pdsh@", 5) == 0 || strcmp(namebuf, "clush") == 0 ||
		    strcmp(namebuf, "srun") == 0) {
			launcher_line(mg, strcmp(namebuf, "srun") == 0, line, len);
			return;
		}
		task = all_digits(namebuf, p);
		name = namebuf;
		if (task && srun_piece(mg, namebuf, line, len))
			return;
	}
	take(mg, name, task, line, len);
}

/* A word for a POSIX shell: as is when it is safe, else in single quotes. */
static void
shell_word(struct strbuf *out, const char *s)
{
	const char *p;

	if (*s && strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
			    "@%+=:,./_-") == strlen(s)) {
		strbuf_adds(out, s);
		return;
	}
	strbuf_addc(out, '\'');
	for (p = s; *p; p++) {
		if (*p == '\'')
			strbuf_adds(out, "'\\''");
		else
			strbuf_addc(out, *p);
	}
	strbuf_addc(out, '\'');
}

void
merge_drill(struct strbuf *out, bool ssh, const char *tdbg, const char *node, const char *dump)
{
	strbuf_adds(out, ssh ? "ssh " : "srun -w ");
	shell_word(out, node);
	strbuf_adds(out, ssh ? " " : " --pty ");
	shell_word(out, tdbg);
	strbuf_addc(out, ' ');
	shell_word(out, dump ? dump : "DUMP");
}
