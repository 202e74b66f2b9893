/*
 * cmd_diff.c - "diff [--first] [--op REGEX] [--nonequal] [A:B]": two dumps
 * (or two hosts of one) compared pair by pair (model_diff.h).
 *
 * JSON: {"a": PATH, "b": PATH, "aligned": N, "only_a": N, "only_b": N,
 * "diverged": N, "first": PAIR|null, "first_by_host": [{"host", "a_index",
 * "b_index", "op_name", "position"}, ...], "first_host": HOST|null,
 * "rows": [PAIR, ...]} with PAIR =
 * {"a_index", "b_index", "op_name", "op_type", "output_slot", "step", "host",
 * "a": SUMMARY, "b": SUMMARY, "metrics": {...}, "diverged", "cause"}.
 * aligned/only_a/only_b count the pairs and unpaired rows (pairs of ops
 * matching --op with it); diverged counts the diverged pairs among them;
 * rows are the pairs (--nonequal: the diverged ones), A:B slicing them.
 * --first stops comparing at the first divergence: rows holds it alone and
 * diverged is 0 or 1.  --csv FILE [--force] [--stack] writes the compare
 * tool's CSV instead (cmd_diff_csv.c).
 */
#include "cmd_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_diff_csv.h"
#include "emit.h"
#include "model/model_diff.h"

struct diff_req {
	bool first, nonequal, force, stack;
	const char *op, *range, *csv;
};

/* A host (rank) of A: its first diverged pair and that pair's position
 * among the host's selected pairs (its place in the rank's run). */
struct host_first {
	const char *host;           /* the model's string */
	uint64_t seen;              /* selected pairs of the host so far */
	int64_t first;              /* pair, -1 none */
	uint64_t pos;
};

struct diff_tally {
	uint64_t aligned, diverged, rows;   /* selected pairs, diverged ones, rows to list */
	int64_t first;
	struct host_first *hosts;           /* in order of first appearance */
	size_t nhosts, caphosts;
	size_t memo;                        /* the last host looked up */
};

static struct host_first *
host_of(struct cmd_env *env, struct diff_tally *t, uint64_t k)
{
	const char *host = model_diff_host_a(env->diff, k);
	size_t i;

	host = host ? host : "";
	/* the model's strings are interned: the same host is the same
	 * pointer (the pairs of a host come in runs) */
	if (t->memo < t->nhosts &&
	    (t->hosts[t->memo].host == host || strcmp(t->hosts[t->memo].host, host) == 0))
		return &t->hosts[t->memo];
	for (i = 0; i < t->nhosts; i++)
		if (strcmp(t->hosts[i].host, host) == 0)
			break;
	if (i == t->nhosts) {
		TD_GROW(t->hosts, t->caphosts, t->nhosts + 1);
		t->hosts[t->nhosts++] = (struct host_first){ host, 0, -1, 0 };
	}
	t->memo = i;
	return &t->hosts[i];
}

/* The host whose first divergence comes earliest in its own run (ties:
 * the first listed), NULL when none diverged. */
static const struct host_first *
first_host(const struct diff_tally *t)
{
	const struct host_first *best = NULL;
	size_t i;

	for (i = 0; i < t->nhosts; i++)
		if (t->hosts[i].first >= 0 && (!best || t->hosts[i].pos < best->pos))
			best = &t->hosts[i];
	return best;
}

static bool
selected(struct cmd_env *env, const struct diff_req *q, uint64_t k)
{
	(void)q;
	return model_diff_selected(env->diff, k);
}

/* One pass over the pairs: counts (every pair's divergence is computed,
 * then remembered by the model, unless --first stops early). */
static void
tally(struct cmd_env *env, const struct diff_req *q, struct diff_tally *t)
{
	struct model_diff_counts c;
	uint64_t k;
	bool div;

	model_diff_counts(env->diff, &c);
	*t = (struct diff_tally){ .first = -1 };
	for (k = 0; k < c.aligned; k++) {
		if (!selected(env, q, k))
			continue;
		t->aligned++;
		if (q->first && t->first >= 0)
			continue;           /* --first: only counting from here */
		div = model_diff_diverged(env->diff, k);
		if (div && t->first < 0)
			t->first = (int64_t)k;
		{
			struct host_first *h = host_of(env, t, k);

			if (div && h->first < 0)
				h->first = (int64_t)k, h->pos = h->seen;
			h->seen++;
		}
		t->diverged += div;
		t->rows += !q->nonequal || div;
	}
	if (q->first)
		t->rows = t->diverged;
}

static void
json_num_or_null(struct json *j, const char *key, double v)
{
	if (isnan(v))
		json_kv_null(j, key);
	else
		json_kv_double(j, key, v);
}

static void
json_metrics(struct json *j, const struct model_diff_metrics *x)
{
	json_object_begin(j);
	json_num_or_null(j, "cosine", x->cosine);
	json_num_or_null(j, "max_abs_err", x->max_abs_err);
	json_num_or_null(j, "max_rel_err", x->max_rel_err);
	json_num_or_null(j, "rmse", x->rmse);
	json_num_or_null(j, "within_tolerance", x->within);
	json_num_or_null(j, "nonfinite_mismatch", x->nonfinite_mismatch);
	json_num_or_null(j, "finite_positions", x->finite_positions);
	json_num_or_null(j, "nan_delta", x->nan_delta);
	json_num_or_null(j, "inf_delta", x->inf_delta);
	json_num_or_null(j, "min_delta", x->min_delta);
	json_num_or_null(j, "max_delta", x->max_delta);
	json_num_or_null(j, "mean_delta", x->mean_delta);
	json_num_or_null(j, "abs_mean_delta", x->abs_mean_delta);
	json_num_or_null(j, "zero_fraction_delta", x->zero_fraction_delta);
	json_kv_bool(j, "values", x->values);
	json_kv_bool(j, "shape_differs", x->shape_differs);
	json_kv_bool(j, "dtype_differs", x->dtype_differs);
	json_kv_string(j, "reason", x->reason);
	json_kv_double(j, "rtol", x->rtol);
	json_kv_double(j, "atol", x->atol);
	json_kv_double(j, "cos_min", x->cos_min);
	json_object_end(j);
}

static void
json_pair(struct json *j, const struct model_diff_pair *p)
{
	json_object_begin(j);
	json_kv_uint(j, "a_index", p->a_index);
	json_kv_uint(j, "b_index", p->b_index);
	json_kv_string(j, "op_name", p->a.op_name);
	json_kv_string(j, "op_type", cmd_nz(p->a.op_type));
	json_kv_uint(j, "output_slot", p->a.slot);
	json_key(j, "step");
	if (p->step >= 0)
		json_int(j, p->step);
	else
		json_null(j);
	json_kv_string(j, "host", cmd_nz(p->a.host));
	json_kv_string(j, "b_op_name", p->b.op_name);
	json_kv_string(j, "b_host", cmd_nz(p->b.host));
	json_key(j, "a");
	cmd_json_summary(j, &p->a.summary);
	json_key(j, "b");
	cmd_json_summary(j, &p->b.summary);
	json_key(j, "metrics");
	json_metrics(j, &p->metrics);
	json_kv_bool(j, "diverged", p->diverged);
	json_kv_string(j, "cause", model_diff_cause_name(p->cause));
	json_object_end(j);
}

/* A number for a text column: "-" when not computable. */
static void
text_num(struct strbuf *sb, const char *label, double v)
{
	if (isnan(v))
		strbuf_addf(sb, " %s=-", label);
	else
		strbuf_addf(sb, " %s=%.6g", label, v);
}

static void
text_pair(struct cmd_env *env, const struct model_diff_pair *p)
{
	const struct model_diff_metrics *x = &p->metrics;

	strbuf_addf(env->out, "%c %7llu %7llu  ", p->diverged ? '!' : ' ',
		    (unsigned long long)p->a_index, (unsigned long long)p->b_index);
	cmd_cell_name(env->out, p->a.op_name, 36);
	strbuf_addf(env->out, " %3u", p->a.slot);
	if (x->values) {
		if (x->nonfinite_mismatch > 0)
			text_num(env->out, "nonfinite_mismatch", x->nonfinite_mismatch);
		text_num(env->out, "cos", x->cosine);
		text_num(env->out, "max_abs", x->max_abs_err);
		text_num(env->out, "max_rel", x->max_rel_err);
		text_num(env->out, "rmse", x->rmse);
		text_num(env->out, "within", x->within);
	} else {
		text_num(env->out, "dnan", x->nan_delta);
		text_num(env->out, "dinf", x->inf_delta);
		text_num(env->out, "dmin", x->min_delta);
		text_num(env->out, "dmax", x->max_delta);
		text_num(env->out, "dmean", x->mean_delta);
	}
	if (p->diverged)
		strbuf_addf(env->out, "  DIVERGED (%s; %s)", x->reason, model_diff_cause_name(p->cause));
	strbuf_addc(env->out, '\n');
}

static void
text_head(struct cmd_env *env, const struct diff_tally *t)
{
	struct model_diff_counts c;
	struct model_diff_pair p;
	struct model_info in;

	model_diff_counts(env->diff, &c);
	model_info(model_diff_a(env->diff), &in);
	strbuf_addf(env->out, "A %s\n", cmd_safe(in.path));
	model_info(model_diff_b(env->diff), &in);
	strbuf_addf(env->out, "B %s\n", cmd_safe(in.path));
	strbuf_addf(env->out, "aligned %llu  only in A %llu  only in B %llu  diverged %llu\n",
		    (unsigned long long)t->aligned, (unsigned long long)c.only_a,
		    (unsigned long long)c.only_b, (unsigned long long)t->diverged);
	if (t->first < 0 || model_diff_pair_get(env->diff, (uint64_t)t->first, &p) != TD_OK) {
		strbuf_adds(env->out, "first divergence: none\n");
		return;
	}
	strbuf_addf(env->out, "first divergence: A row %llu, B row %llu, %s:%u (%s; %s)\n",
		    (unsigned long long)p.a_index, (unsigned long long)p.b_index, cmd_txt(p.a.op_name),
		    p.a.slot, p.metrics.reason, model_diff_cause_name(p.cause));
	if (t->nhosts > 1 && first_host(t))
		strbuf_addf(env->out, "earliest in its run: %s (pair %llu of that host)\n",
			    cmd_txt(first_host(t)->host), (unsigned long long)first_host(t)->pos);
}

/* The rows: the n-th listed pair is in the output when range r holds n. */
static void
list_rows(struct cmd_env *env, const struct diff_req *q, const struct diff_tally *t,
	  const struct cmd_range *r, struct json *j)
{
	struct model_diff_counts c;
	struct model_diff_pair p;
	uint64_t k, n = 0;
	bool div;

	model_diff_counts(env->diff, &c);
	for (k = q->first && t->first >= 0 ? (uint64_t)t->first : 0; k < c.aligned && n < r->stop; k++) {
		if (q->first && (t->first < 0 || k != (uint64_t)t->first))
			break;
		if (!selected(env, q, k))
			continue;
		div = model_diff_diverged(env->diff, k);
		if (q->nonequal && !div)
			continue;
		if (n >= r->start && (n - r->start) % r->step == 0 &&
		    model_diff_pair_get(env->diff, k, &p) == TD_OK) {
			if (j)
				json_pair(j, &p);
			else
				text_pair(env, &p);
			cmd_maybe_flush(env);
		}
		n++;
	}
}

/* "first_by_host": per host (rank) of A with a divergence, its first
 * diverged pair and that pair's position among the host's pairs;
 * "first_host": the host whose first divergence is earliest in its run. */
static void
json_host_firsts(struct cmd_env *env, struct json *j, const struct diff_tally *t)
{
	const struct host_first *best = first_host(t);
	uint64_t a, b;
	size_t i;

	json_key(j, "first_by_host");
	json_array_begin(j);
	for (i = 0; i < t->nhosts; i++) {
		const struct host_first *h = &t->hosts[i];
		const char *name = NULL, *type, *host;

		if (h->first < 0 || !model_diff_rows(env->diff, (uint64_t)h->first, &a, &b))
			continue;
		model_trace_names(model_diff_a(env->diff), a, &name, &type, &host);
		json_object_begin(j);
		json_kv_string(j, "host", h->host);
		json_kv_uint(j, "a_index", a);
		json_kv_uint(j, "b_index", b);
		json_kv_string(j, "op_name", name);
		json_kv_uint(j, "position", h->pos);
		json_object_end(j);
	}
	json_array_end(j);
	json_kv_string(j, "first_host", best ? best->host : NULL);
}

static void
json_head(struct cmd_env *env, struct json *j, const struct diff_tally *t)
{
	struct model_diff_counts c;
	struct model_diff_pair p;
	struct model_info in;

	model_diff_counts(env->diff, &c);
	model_info(model_diff_a(env->diff), &in);
	json_kv_string(j, "a", in.path);
	model_info(model_diff_b(env->diff), &in);
	json_kv_string(j, "b", in.path);
	json_kv_uint(j, "aligned", t->aligned);
	json_kv_uint(j, "only_a", c.only_a);
	json_kv_uint(j, "only_b", c.only_b);
	json_kv_uint(j, "diverged", t->diverged);
	json_key(j, "first");
	if (t->first >= 0 && model_diff_pair_get(env->diff, (uint64_t)t->first, &p) == TD_OK)
		json_pair(j, &p);
	else
		json_null(j);
	json_host_firsts(env, j, t);
}

static enum td_status
diff_output(struct cmd_env *env, const struct diff_req *q)
{
	struct diff_tally t;
	struct cmd_range r = { 0, UINT64_MAX, 1 };
	struct emit e;
	struct json *j;

	tally(env, q, &t);
	if (q->range && !cmd_parse_range(q->range, t.rows, &r)) {
		free(t.hosts);
		return cmd_fail(env, TD_ERR_ARGS, "bad range \"%s\" (A:B over %llu rows)", q->range,
				(unsigned long long)t.rows);
	}
	if (!env->json) {
		text_head(env, &t);
		list_rows(env, q, &t, &r, NULL);
		free(t.hosts);
		return TD_OK;
	}
	/* the emitter's JSON writer (emit.h): the pairs' nested metrics and
	 * summaries are JSON only, the text form is text_pair's columns */
	emit_init(&e, env->out, true);
	j = emit_json(&e);
	json_object_begin(j);
	json_head(env, j, &t);
	json_key(j, "rows");
	json_array_begin(j);
	list_rows(env, q, &t, &r, j);
	json_array_end(j);
	json_object_end(j);
	emit_done(&e);
	free(t.hosts);
	return TD_OK;
}

enum td_status
cmd_diff(struct cmd_env *env, int argc, char **argv)
{
	struct diff_req q = {0};
	const struct cmd_opt opts[] = {
		{ "first", NULL, &q.first }, { "nonequal", NULL, &q.nonequal },
		{ "op", &q.op, NULL }, { "csv", &q.csv, NULL }, { "force", NULL, &q.force },
		{ "stack", NULL, &q.stack },
		{ NULL, NULL, NULL },
	};
	char *pos[1], err[512];
	enum td_status st;
	int npos;

	if ((st = cmd_parse_opts(env, argc, argv, opts, pos, &npos, 1)) != TD_OK)
		return st;
	if (!env->diff)
		return cmd_fail(env, TD_ERR_ARGS, "needs two dumps: tdbg DUMP_A DUMP_B, "
				"or tdbg --compare-hosts A,B DUMP");
	q.range = npos ? pos[0] : NULL;
	if (q.stack && !q.csv)
		return cmd_fail(env, TD_ERR_ARGS, "--stack: a column of diff --csv FILE --stack");
	if (q.csv)
		return cmd_diff_csv(env, q.csv, q.force, q.stack);
	if ((st = model_diff_select(env->diff, q.op, err, sizeof err)) != TD_OK)
		return cmd_fail(env, st, "%s", err);
	st = diff_output(env, &q);
	model_diff_select(env->diff, NULL, err, sizeof err);
	return st;
}
