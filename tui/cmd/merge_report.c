/*
 * merge_report.c - the merged answer of tdbg --merge (merge.h): missing
 * and duplicated ranks, failed and silent nodes, the first rank to go bad
 * and through which op, the outcome groups, and the drill-down commands;
 * as text or JSON.
 */
#include "tui/cmd/merge.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/cmd/emit.h"
#include "tui/cmd/hostlist.h"
#include "tui/cmd/json.h"
#include "tui/cmd/merge_internal.h"
#include "tui/cmd/sanitize.h"

struct facts {
	struct merge_rank **by_rank;    /* every line, by rank (-1 last), then arrival */
	int64_t *missing, *dup;
	size_t nmissing, ndup, found;
	const char **failed, **silent;
	size_t nfailed, nsilent;
	const struct merge_rank *first;
	const char *via;
	char **outcome;                 /* per by_rank entry */
	size_t *group_order;            /* by_rank positions sorted by outcome, rank */
};

static int
rank_cmp(const void *pa, const void *pb)
{
	const struct merge_rank *a = *(const struct merge_rank *const *)pa;
	const struct merge_rank *b = *(const struct merge_rank *const *)pb;
	uint64_t ra = (uint64_t)a->rank, rb = (uint64_t)b->rank;   /* -1 sorts last */

	if (ra != rb)
		return ra < rb ? -1 : 1;
	return a->order < b->order ? -1 : a->order > b->order;
}

static void
ranks_found(struct merge *mg, struct facts *f)
{
	size_t i, cap = 0;
	int64_t top, k;

	f->by_rank = xcalloc(mg->nr ? mg->nr : 1, sizeof *f->by_rank);
	for (i = 0; i < mg->nr; i++)
		f->by_rank[i] = &mg->r[i];
	td_sort(f->by_rank, mg->nr, sizeof *f->by_rank, rank_cmp);
	top = mg->ranks;
	for (i = 0; i < mg->nr; i++) {
		int64_t r = f->by_rank[i]->rank;

		if (r < 0)
			continue;
		if (i && f->by_rank[i - 1]->rank == r) {
			if (!f->ndup || f->dup[f->ndup - 1] != r) {
				TD_GROW(f->dup, cap, f->ndup + 1);
				f->dup[f->ndup++] = r;
			}
			continue;
		}
		f->found++;
		if (mg->ranks < 0 && r + 1 > top)
			top = r + 1;
	}
	cap = 0;
	for (k = 0, i = 0; k < top; k++) {
		while (i < mg->nr && f->by_rank[i]->rank >= 0 && f->by_rank[i]->rank < k)
			i++;
		if (i < mg->nr && f->by_rank[i]->rank == k)
			continue;
		TD_GROW(f->missing, cap, f->nmissing + 1);
		f->missing[f->nmissing++] = k;
	}
}

static bool
node_failed(const struct merge_node *n)
{
	return n->failed || (n->answers == 0 && n->msgs_total > 0) ||
	       (n->answers > 0 && n->answers == n->unranked_errors);
}

static void
nodes_state(struct merge *mg, struct facts *f)
{
	size_t i, k;

	f->failed = xcalloc(mg->nn + 1, sizeof *f->failed);
	f->silent = xcalloc(mg->nexpected + 1, sizeof *f->silent);
	for (i = 0; i < mg->nn; i++)
		if (node_failed(&mg->n[i]))
			f->failed[f->nfailed++] = mg->n[i].name;
	for (i = 0; i < mg->nexpected; i++) {
		for (k = 0; k < mg->nn && strcmp(mg->n[k].name, mg->expected[i]); k++)
			;
		if (k == mg->nn)
			f->silent[f->nsilent++] = mg->expected[i];
	}
}

/* a went bad before b: by wall time when both have one, else by step. */
static bool
earlier(const struct merge_rank *a, const struct merge_rank *b, bool by_wall)
{
	uint64_t sa = (uint64_t)a->step, sb = (uint64_t)b->step;   /* -1 last */

	if (by_wall && a->wall != b->wall)
		return a->wall < b->wall;
	if (sa != sb)
		return sa < sb;
	if (a->wall >= 0 && b->wall >= 0 && a->wall != b->wall)
		return a->wall < b->wall;
	return (uint64_t)a->rank < (uint64_t)b->rank;
}

static void
first_bad(struct merge *mg, struct facts *f)
{
	bool by_wall = true, any = false;
	const struct merge_rank *best = NULL, *via_rank = NULL;
	size_t i, c, p;

	for (i = 0; i < mg->nr; i++)
		if (mg->r[i].bad && !mg->r[i].error) {
			any = true;
			if (mg->r[i].wall <= 0)
				by_wall = false;
		}
	if (!any)
		return;
	for (i = 0; i < mg->nr; i++)
		if (mg->r[i].bad && !mg->r[i].error && (!best || earlier(&mg->r[i], best, by_wall)))
			best = &mg->r[i];
	f->first = best;
	/* through which op: the earliest other rank whose bad comm op names it */
	for (i = 0; i < mg->nr; i++) {
		const struct merge_rank *r = &mg->r[i];

		if (r == best || !r->bad || r->rank == best->rank)
			continue;
		for (c = 0; c < r->ncomm; c++)
			for (p = 0; p < r->comm[c].npeers; p++)
				if (r->comm[c].peers[p] == best->rank &&
				    (!via_rank || earlier(r, via_rank, by_wall))) {
					via_rank = r;
					f->via = r->comm[c].op;
				}
	}
}

static char *
outcome_of(const struct merge_rank *r)
{
	struct strbuf sb = {0};

	if (r->error)
		strbuf_addf(&sb, "error: %.200s", r->error);
	else if (r->bad && r->step >= 0)
		strbuf_addf(&sb, "NaN/Inf from step %" PRId64 ": %s (%s)", r->step,
			    r->op_name ? r->op_name : "", r->op_type ? r->op_type : "");
	else if (r->bad)
		strbuf_addf(&sb, "NaN/Inf: %s (%s)", r->op_name ? r->op_name : "",
			    r->op_type ? r->op_type : "");
	else
		strbuf_adds(&sb, "finite");
	return strbuf_take(&sb);
}

static struct facts *sort_facts;    /* for group_cmp: td_sort has no context */

static int
group_cmp(const void *pa, const void *pb)
{
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	int c = strcmp(sort_facts->outcome[a], sort_facts->outcome[b]);

	if (c)
		return c;
	return a < b ? -1 : a > b;
}

static void
groups(struct merge *mg, struct facts *f)
{
	size_t i;

	f->outcome = xcalloc(mg->nr + 1, sizeof *f->outcome);
	f->group_order = xcalloc(mg->nr + 1, sizeof *f->group_order);
	for (i = 0; i < mg->nr; i++) {
		f->outcome[i] = outcome_of(f->by_rank[i]);
		f->group_order[i] = i;
	}
	sort_facts = f;
	td_sort(f->group_order, mg->nr, sizeof *f->group_order, group_cmp);
	sort_facts = NULL;
}

static void
facts_done(struct merge *mg, struct facts *f)
{
	size_t i;

	for (i = 0; f->outcome && i < mg->nr; i++)
		free(f->outcome[i]);
	free(f->outcome);
	free(f->group_order);
	free(f->by_rank);
	free(f->missing);
	free(f->dup);
	free(f->failed);
	free(f->silent);
}

/* The group starting at group_order[i]: its end, ranks and nodes. */
static size_t
group_at(struct merge *mg, struct facts *f, size_t i, struct strbuf *ranks, struct strbuf *nodes)
{
	size_t j, k, nr = 0;
	int64_t *rv = xcalloc(mg->nr + 1, sizeof *rv);
	const char **nv = xcalloc(mg->nr + 1, sizeof *nv);

	for (j = i; j < mg->nr && !strcmp(f->outcome[f->group_order[j]], f->outcome[f->group_order[i]]);
	     j++) {
		const struct merge_rank *r = f->by_rank[f->group_order[j]];

		if (r->rank >= 0)
			rv[nr++] = r->rank;
		nv[j - i] = r->node;
	}
	hostlist_ranks(rv, nr, ranks);
	k = j - i;
	hostlist_compress(nv, k, nodes);
	free(rv);
	free(nv);
	return j;
}

static void
json_ranks_array(struct json *j, const char *key, const int64_t *v, size_t n)
{
	size_t i;

	json_key(j, key);
	json_array_begin(j);
	for (i = 0; i < n; i++)
		json_int(j, v[i]);
	json_array_end(j);
}

static void
json_names(struct json *j, const char *key, const char *const *v, size_t n)
{
	size_t i;

	json_key(j, key);
	json_array_begin(j);
	for (i = 0; i < n; i++)
		json_string(j, v[i]);
	json_array_end(j);
}

static void
report_json(struct merge *mg, struct facts *f, struct strbuf *out)
{
	struct strbuf ranks = {0}, nodes = {0};
	struct emit em;
	struct json *j;
	size_t i, e;

	emit_init(&em, out, true);
	j = emit_json(&em);
	json_object_begin(j);
	json_kv_uint(j, "nodes", mg->nn);
	json_kv_uint(j, "ranks_found", f->found);
	json_ranks_array(j, "missing", f->missing, f->nmissing);
	json_ranks_array(j, "duplicated", f->dup, f->ndup);
	json_names(j, "failed_nodes", f->failed, f->nfailed);
	json_names(j, "silent_nodes", f->silent, f->nsilent);
	json_key(j, "first");
	if (f->first) {
		json_object_begin(j);
		json_kv_int(j, "rank", f->first->rank);
		json_kv_string(j, "node", f->first->node);
		json_kv_string(j, "host", f->first->host);
		json_key(j, "step");
		if (f->first->step >= 0)
			json_int(j, f->first->step);
		else
			json_null(j);
		json_kv_uint(j, "index", f->first->index);
		json_kv_string(j, "op_name", f->first->op_name);
		json_kv_string(j, "via", f->via);
		json_object_end(j);
	} else {
		json_null(j);
	}
	json_key(j, "groups");
	json_array_begin(j);
	for (i = 0; i < mg->nr; i = e) {
		strbuf_reset(&ranks);
		strbuf_reset(&nodes);
		e = group_at(mg, f, i, &ranks, &nodes);
		json_object_begin(j);
		json_kv_string(j, "outcome", f->outcome[f->group_order[i]]);
		json_kv_string(j, "ranks", ranks.buf ? ranks.buf : "");
		json_kv_string(j, "nodes", nodes.buf ? nodes.buf : "");
		json_kv_uint(j, "count", e - i);
		json_object_end(j);
	}
	json_array_end(j);
	json_key(j, "ranks");
	json_array_begin(j);
	for (i = 0; i < mg->nr; i++)
		json_raw(j, f->by_rank[i]->line);
	json_array_end(j);
	json_object_end(j);
	strbuf_done(&ranks);
	strbuf_done(&nodes);
	emit_done(&em);
}

/* A dump's string (node names, op names, messages) made safe. */
static void
safe(struct strbuf *out, const char *s)
{
	sanitize_str(s ? s : "", -1, out);
}

static void
text_list(struct strbuf *out, const char *label, const int64_t *v, size_t n)
{
	strbuf_addf(out, "%s: ", label);
	if (n)
		hostlist_ranks(v, n, out);
	else
		strbuf_adds(out, "none");
	strbuf_addc(out, '\n');
}

static void
text_node_msgs(struct strbuf *out, const struct merge_node *n, const char *indent)
{
	size_t i;

	for (i = 0; i < n->nmsgs; i++) {
		strbuf_adds(out, indent);
		safe(out, n->msgs[i]);
		strbuf_addc(out, '\n');
	}
	if (n->msgs_total > n->nmsgs)
		strbuf_addf(out, "%s... %zu more lines\n", indent, n->msgs_total - n->nmsgs);
}

static void
text_first(struct merge *mg, struct facts *f, struct strbuf *out)
{
	const struct merge_rank *r = f->first;

	if (!r) {
		strbuf_adds(out, "first bad rank: none (no rank holds NaN/Inf)\n");
		return;
	}
	strbuf_addf(out, "first bad rank: %" PRId64 " on ", r->rank);
	safe(out, r->node);
	if (r->host) {
		strbuf_adds(out, " (host ");
		safe(out, r->host);
		strbuf_addc(out, ')');
	}
	if (r->step >= 0)
		strbuf_addf(out, ", step %" PRId64, r->step);
	strbuf_addf(out, ", row %" PRIu64 ": ", r->index);
	safe(out, r->op_name);
	strbuf_adds(out, " (");
	safe(out, r->op_type);
	strbuf_addc(out, ')');
	if (f->via) {
		strbuf_adds(out, ", spread via ");
		safe(out, f->via);
	}
	strbuf_adds(out, "\n  look closer: ");
	merge_drill(out, true, mg->tdbg, r->node, r->dump);
	strbuf_adds(out, "\n           or: ");
	merge_drill(out, false, mg->tdbg, r->node, r->dump);
	strbuf_addc(out, '\n');
}

static void
report_text(struct merge *mg, struct facts *f, struct strbuf *out)
{
	struct strbuf ranks = {0}, nodes = {0};
	size_t i, e, k;

	strbuf_addf(out, "%zu node%s answered", mg->nn, mg->nn == 1 ? "" : "s");
	if (mg->nexpected)
		strbuf_addf(out, " of %zu", mg->nexpected);
	strbuf_addf(out, "; %zu rank%s found", f->found, f->found == 1 ? "" : "s");
	if (mg->ranks >= 0)
		strbuf_addf(out, " of %" PRId64, mg->ranks);
	strbuf_addc(out, '\n');
	text_list(out, "missing ranks", f->missing, f->nmissing);
	text_list(out, "duplicated ranks", f->dup, f->ndup);
	strbuf_adds(out, "failed nodes:");
	for (i = 0; i < f->nfailed; i++) {
		strbuf_addc(out, ' ');
		safe(out, f->failed[i]);
	}
	strbuf_adds(out, f->nfailed ? "\n" : " none\n");
	strbuf_adds(out, "silent nodes: ");
	hostlist_compress(f->silent, f->nsilent, out);
	strbuf_adds(out, f->nsilent ? "\n" : "none\n");
	text_first(mg, f, out);
	strbuf_adds(out, "outcomes:\n");
	for (i = 0; i < mg->nr; i = e) {
		strbuf_reset(&ranks);
		strbuf_reset(&nodes);
		e = group_at(mg, f, i, &ranks, &nodes);
		strbuf_addf(out, "  %zu rank%s %s on ", e - i, e - i == 1 ? "" : "s",
			    ranks.len ? ranks.buf : "?");
		safe(out, nodes.buf);
		strbuf_adds(out, ": ");
		safe(out, f->outcome[f->group_order[i]]);
		strbuf_addc(out, '\n');
	}
	strbuf_adds(out, "per rank (look closer on its node):\n");
	for (i = 0; i < mg->nr; i++) {
		const struct merge_rank *r = f->by_rank[i];

		if (r->rank >= 0)
			strbuf_addf(out, "  %6" PRId64 "  ", r->rank);
		else
			strbuf_adds(out, "       ?  ");
		merge_drill(out, true, mg->tdbg, r->node, r->dump);
		strbuf_adds(out, "   ");
		merge_drill(out, false, mg->tdbg, r->node, r->dump);
		strbuf_addc(out, '\n');
	}
	for (k = 0, i = 0; i < mg->nn; i++)
		if (mg->n[i].nmsgs) {
			if (!k++)
				strbuf_adds(out, "messages:\n");
			strbuf_adds(out, "  ");
			safe(out, mg->n[i].name);
			strbuf_adds(out, ":\n");
			text_node_msgs(out, &mg->n[i], "    ");
		}
	if (mg->launcher.nmsgs) {
		strbuf_adds(out, "launcher:\n");
		text_node_msgs(out, &mg->launcher, "  ");
	}
	strbuf_done(&ranks);
	strbuf_done(&nodes);
}

void
merge_report(struct merge *mg, bool json, struct strbuf *out)
{
	struct facts f = {0};

	merge_flush(mg);
	ranks_found(mg, &f);
	nodes_state(mg, &f);
	first_bad(mg, &f);
	groups(mg, &f);
	if (json)
		report_json(mg, &f, out);
	else
		report_text(mg, &f, out);
	facts_done(mg, &f);
}

size_t
merge_ranks(struct merge *mg, struct merge_rank_view **out, int64_t **missing, size_t *nmissing)
{
	struct facts f = {0};
	struct merge_rank_view *v = xcalloc(mg->nr + 1, sizeof *v);
	size_t i;

	merge_flush(mg);
	ranks_found(mg, &f);
	first_bad(mg, &f);
	for (i = 0; i < mg->nr; i++) {
		const struct merge_rank *r = f.by_rank[i];

		v[i] = (struct merge_rank_view){ .rank = r->rank, .node = r->node, .dump = r->dump,
						 .host = r->host, .line = r->line, .error = r->error,
						 .bad = r->bad, .step = r->step, .first = r == f.first };
	}
	*out = v;
	*missing = f.missing;
	*nmissing = f.nmissing;
	f.missing = NULL;
	facts_done(mg, &f);
	return mg->nr;
}
