/*
 * node.c - tdbg --node: one JSON line per rank/host of this node's dumps
 * (node.h).
 *
 * Every figure comes from the model, format-neutrally: the hosts the dump
 * names (model_info), rows and executions per host (a host filter), the
 * first NaN/Inf row of the host, the headline origin as the `origins`
 * command gives it (run through the command table, so the line follows
 * whatever origins answers), the communication ops of the first bad step
 * and the step before it (op types of the collective and point-to-point
 * families; peers from the graph's rank attributes where the dump records
 * them), the watches' hits, and the dump's problem counts.  Not for
 * merging: merge.c reads these lines.
 */
#include "tui/cmd/node.h"

#include <ctype.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tui/cmd/cmd.h"
#include "tui/cmd/cmd_internal.h"
#include "tui/cmd/emit.h"
#include "tui/cmd/json.h"
#include "tui/cmd/jsonread.h"

/* Op types of communication: collectives and point-to-point, with the
 * prefixes the frameworks put on them (Hccl, Hcom, Nccl, Collective, _),
 * and the Distributed.* API names some dumps record. */
#define COMM_TYPES "(?i)^(?:Distributed\\..+|_?(?:Hccl|Hcom|Nccl|Mpi|Collective|Host)?" \
	"(?:AllReduce|AllGather|ReduceScatter|Broadcast|Send|Recv|Receive|AllToAllv?|Barrier)" \
	"(?:V\\d)?|(?:Hccl|Hcom|Nccl|Collective)(?:Reduce|Gather|Bcast\\w*)(?:V\\d)?)$"

#define COMM_MAX 32                 /* comm entries in a line */
#define COMM_MAX_SMALL 4            /* when the line would pass NODE_LINE_MAX */
#define PEERS_MAX 16

struct comm {
	uint32_t op;
	const char *name, *type;    /* borrowed from the model */
	uint64_t calls, nonfinite;
	int64_t peers[PEERS_MAX];
	size_t npeers;
	bool peers_known;           /* the graph records a peer rank attribute */
};

struct answer {
	const char *host;           /* borrowed from the model, NULL none */
	int64_t rank;
	uint64_t rows, executions;
	int64_t step_first, step_last;
	bool bad;
	int64_t bad_step;
	uint64_t bad_index;
	const char *bad_op, *bad_type;  /* borrowed from the model */
	double bad_wall;
	struct strbuf origin;       /* raw JSON, empty: null */
	struct comm *comm;
	size_t ncomm;
	uint64_t watch_hits;
	const char *error;
	char errbuf[512];
};

int64_t
node_rank_of(const char *name)
{
	const char *base = name, *p, *found = NULL;
	size_t len = strlen(name);

	while (len > 1 && name[len - 1] == '/')     /* "DIR/rank_7/" */
		len--;
	for (p = name; p < name + len; p++)
		if (*p == '/')
			base = p + 1;
	len -= (size_t)(base - name);
	for (p = base; p + 4 <= base + len; p++)
		if (strncasecmp(p, "rank", 4) == 0)
			found = p;
	if (!found)
		return -1;
	p = found + 4;
	if (*p == '_' || *p == '-')
		p++;
	if (p >= base + len || !isdigit((unsigned char)*p))
		return -1;
	{
		int64_t v = 0;

		for (; p < base + len; p++) {
			if (!isdigit((unsigned char)*p) || v > INT64_MAX / 10 - 10)
				return -1;
			v = v * 10 + (*p - '0');
		}
		return v;
	}
}

static const char *
node_name(const struct node_options *o, char *buf, size_t size)
{
	if (o && o->name)
		return o->name;
	if (gethostname(buf, size - 1) != 0)
		return "";
	buf[size - 1] = '\0';
	return buf;
}

static int64_t
rank_for(const char *host, const char *dump, size_t pos, const struct node_options *o)
{
	int64_t r = host ? node_rank_of(host) : -1;

	if (r < 0 && !host)
		r = node_rank_of(dump);
	if (r < 0)
		r = o && o->rank_base >= 0 ? o->rank_base + (int64_t)pos : (int64_t)pos;
	return r;
}

static struct model_filter *
host_filter(struct model *m, const char *host, bool nonfinite, const char *types)
{
	struct model_filter_spec spec = { .graph = -1, .execution = -1, .host = host,
					  .nonfinite = nonfinite, .type_regex = types };
	struct model_filter *f = NULL;
	char err[256];

	if (model_filter_new(m, &spec, &f, err, sizeof err) != TD_OK)
		return NULL;
	return f;
}

static void
count_rows(struct model *m, struct answer *a)
{
	struct model_filter *f = host_filter(m, a->host, false, NULL);
	int64_t r;

	a->step_first = a->step_last = -1;
	if (!f)
		return;
	a->rows = model_filter_count(m, f, TABLE_TRACES);
	a->executions = model_filter_count(m, f, TABLE_EXECUTIONS);
	if (a->rows) {
		if ((r = model_filter_nth(m, f, TABLE_TRACES, 0)) >= 0)
			a->step_first = model_trace_step(m, (uint64_t)r);
		if ((r = model_filter_nth(m, f, TABLE_TRACES, a->rows - 1)) >= 0)
			a->step_last = model_trace_step(m, (uint64_t)r);
	} else if (a->executions) {
		struct model_execution e;

		if ((r = model_filter_nth(m, f, TABLE_EXECUTIONS, 0)) >= 0 &&
		    model_execution_get(m, (uint64_t)r, &e) == TD_OK)
			a->step_first = e.step;
		if ((r = model_filter_nth(m, f, TABLE_EXECUTIONS, a->executions - 1)) >= 0 &&
		    model_execution_get(m, (uint64_t)r, &e) == TD_OK)
			a->step_last = e.step;
	}
	model_filter_free(f);
}

/* The host's first NaN/Inf row (a trace, else an execution). */
static void
first_bad(struct model *m, struct answer *a)
{
	struct model_filter *f = host_filter(m, a->host, true, NULL);
	struct model_trace t;
	struct model_execution e;
	int64_t r;

	if (!f)
		return;
	if ((r = model_filter_nth(m, f, TABLE_TRACES, 0)) >= 0 &&
	    model_trace_get(m, (uint64_t)r, &t) == TD_OK) {
		a->bad = true;
		a->bad_step = model_trace_step(m, (uint64_t)r);
		a->bad_index = t.index;
		a->bad_op = t.op_name;
		a->bad_type = t.op_type;
		a->bad_wall = t.wall_time;
	} else if ((r = model_filter_nth(m, f, TABLE_EXECUTIONS, 0)) >= 0 &&
		   model_execution_get(m, (uint64_t)r, &e) == TD_OK) {
		a->bad = true;
		a->bad_step = e.step;
		a->bad_index = e.index;
		a->bad_op = e.op_type;
		a->bad_type = e.op_type;
		a->bad_wall = e.wall_time;
	}
	model_filter_free(f);
}

/* The headline of `origins` for the host, as the command writes it. */
static void
origin_of(struct model *m, struct answer *a)
{
	struct strbuf out = {0}, err = {0};
	struct cmd_env env = { .m = m, .json = true, .out = &out, .err = &err };
	struct jsonread_value *v;
	const struct jsonread_value *first;
	char perr[128];

	env.host = a->host ? cmd_host_find(m, a->host) : NULL;
	if (a->bad && cmd_run(&env, "origins") == TD_OK && out.buf &&
	    jsonread_parse(out.buf, out.len, &v, perr, sizeof perr) == 0) {
		first = jsonread_get(v, "first");
		if (first && first->type == JSONREAD_OBJECT)
			strbuf_add(&a->origin, out.buf + first->start, first->end - first->start);
		jsonread_free(v);
	}
	strbuf_done(&out);
	strbuf_done(&err);
}

/* Ranks named by the op's attributes (src_rank, dest_rank, root_rank,
 * peer...): every integer in their values. */
static void
comm_peers(struct model *m, struct comm *c)
{
	struct model_op op;
	size_t i;

	if (!model_op_get(m, c->op, &op))
		return;
	for (i = 0; i < op.nattrs; i++) {
		const char *n = op.attrs[i].name, *p = op.attrs[i].value;

		if (!strcasestr(n, "rank") && !strcasestr(n, "peer"))
			continue;
		if (!strcasestr(n, "src") && !strcasestr(n, "dest") && !strcasestr(n, "dst") &&
		    !strcasestr(n, "root") && !strcasestr(n, "peer") && !strcasestr(n, "send") &&
		    !strcasestr(n, "recv"))
			continue;
		c->peers_known = true;
		while (p && *p) {
			char *end;
			long long v;

			if (!isdigit((unsigned char)*p)) {
				p++;
				continue;
			}
			v = strtoll(p, &end, 10);
			if (c->npeers < PEERS_MAX)
				c->peers[c->npeers++] = v;
			p = end;
		}
	}
}

static struct comm *
comm_slot(struct answer *a, size_t *cap, uint32_t op)
{
	size_t i;

	for (i = 0; i < a->ncomm; i++)
		if (a->comm[i].op == op)
			return &a->comm[i];
	if (a->ncomm >= COMM_MAX)
		return NULL;
	TD_GROW(a->comm, *cap, a->ncomm + 1);
	memset(&a->comm[a->ncomm], 0, sizeof *a->comm);
	a->comm[a->ncomm].op = op;
	return &a->comm[a->ncomm++];
}

/* Communication ops of the first bad step and the step before it (of the
 * rows up to the first bad row when the dump records no step). */
static void
comm_of(struct model *m, struct answer *a)
{
	struct model_filter *f;
	size_t cap = 0;
	int64_t r;

	if (!a->bad || !(f = host_filter(m, a->host, false, COMM_TYPES)))
		return;
	for (r = model_filter_next(m, f, TABLE_TRACES, 0, 1); r >= 0;
	     r = model_filter_next(m, f, TABLE_TRACES, (uint64_t)r + 1, 1)) {
		int64_t step = model_trace_step(m, (uint64_t)r);
		uint32_t op, flags;
		struct comm *c;
		struct model_op o;

		if (a->bad_step >= 0 ? step > a->bad_step : (uint64_t)r > a->bad_index)
			break;
		if (a->bad_step >= 0 && step >= 0 && step < a->bad_step - 1)
			continue;
		if (!model_trace_quick(m, (uint64_t)r, &op, &flags) || !(c = comm_slot(a, &cap, op)))
			continue;
		if (!c->name && model_op_get(m, op, &o)) {
			c->name = o.name;
			c->type = o.type;
			comm_peers(m, c);
		}
		c->calls++;
		if (flags & ROW_NONFINITE)
			c->nonfinite++;
	}
	model_filter_free(f);
}

/* Watch hits per host (hosts[i]; one count when there are no hosts). */
static void
watch_counts(struct model *m, struct answer *a, size_t n)
{
	struct model_watch_run run;
	size_t i, k;

	model_watch_run_init(&run, -1);
	while (!model_watch_run_step(m, &run, 1u << 16))
		;
	for (i = 0; i < run.nhits; i++) {
		const struct model_watch_hit *h = &run.hits[i];
		const char *host = "";
		struct model_trace t;
		struct model_execution e;

		if (h->source == TABLE_TRACES && model_trace_get(m, h->index, &t) == TD_OK)
			host = t.host;
		else if (h->source == TABLE_EXECUTIONS && model_execution_get(m, h->index, &e) == TD_OK)
			host = e.host;
		for (k = 0; k < n; k++)
			if (!a[k].host || !*host || strcmp(a[k].host, host) == 0) {
				a[k].watch_hits++;
				break;
			}
	}
	model_watch_run_done(&run);
}

static void
set_error(struct model *m, struct answer *a, uint64_t problems)
{
	struct model_problem p;

	a->error = a->errbuf;
	if (problems && model_problem_get(m, 0, &p))
		snprintf(a->errbuf, sizeof a->errbuf, "%" PRIu64 " problems, the first: %s: %s %s%s%s",
			 problems, p.kind ? p.kind : "", p.path ? p.path : "", p.what ? p.what : "",
			 p.detail ? ": " : "", p.detail ? p.detail : "");
	else
		snprintf(a->errbuf, sizeof a->errbuf, "no tensor row could be read");
}

static void
write_comm(struct json *j, const struct answer *a, size_t max)
{
	size_t i, k;

	json_array_begin(j);
	for (i = 0; i < a->ncomm && i < max; i++) {
		const struct comm *c = &a->comm[i];

		json_object_begin(j);
		json_kv_string(j, "op", c->name ? c->name : "");
		json_kv_string(j, "type", c->type ? c->type : "");
		json_kv_uint(j, "calls", c->calls);
		json_kv_uint(j, "nonfinite", c->nonfinite);
		json_kv_bool(j, "finite", c->nonfinite == 0);
		json_key(j, "peers");
		if (!c->peers_known) {
			json_null(j);
		} else {
			json_array_begin(j);
			for (k = 0; k < c->npeers; k++)
				json_int(j, c->peers[k]);
			json_array_end(j);
		}
		json_object_end(j);
	}
	json_array_end(j);
}

/* The members of a reduced origin (when the whole would pass the limit). */
static void
write_small_origin(struct json *j, const struct answer *a)
{
	static const char *const keep[] = { "role", "op_name", "op_type", "step", "index", "host" };
	struct jsonread_value *v;
	const struct jsonread_value *c;
	struct strbuf raw = {0};
	char err[64];
	size_t i;

	if (jsonread_parse(a->origin.buf, a->origin.len, &v, err, sizeof err) != 0) {
		json_null(j);
		return;
	}
	json_object_begin(j);
	for (i = 0; i < TD_ARRAY_SIZE(keep); i++) {
		if (!(c = jsonread_get(v, keep[i])) || c->end - c->start > 1024)
			continue;
		strbuf_reset(&raw);
		strbuf_add(&raw, a->origin.buf + c->start, c->end - c->start);
		json_key(j, keep[i]);
		json_raw(j, raw.buf);
	}
	json_kv_bool(j, "truncated", true);
	json_object_end(j);
	strbuf_done(&raw);
	jsonread_free(v);
}

static void
write_line(struct strbuf *sb, const char *node, const char *dump, const char *format,
	   const struct answer *a, uint64_t problems, bool small)
{
	struct emit e;
	struct json *j;

	emit_init(&e, sb, true);
	j = emit_json(&e);
	json_object_begin(j);
	json_kv_int(j, "tdbg_node", 1);
	json_kv_string(j, "node", node);
	json_kv_string(j, "dump", dump);
	json_kv_string(j, "format", format);
	json_kv_int(j, "rank", a->rank);
	json_kv_string(j, "host", a->host);
	json_kv_uint(j, "rows", a->rows);
	json_kv_uint(j, "executions", a->executions);
	json_key(j, "steps");
	if (a->step_first >= 0) {
		json_array_begin(j);
		json_int(j, a->step_first);
		json_int(j, a->step_last);
		json_array_end(j);
	} else {
		json_null(j);
	}
	json_key(j, "first_bad");
	if (a->bad) {
		json_object_begin(j);
		json_key(j, "step");
		if (a->bad_step >= 0)
			json_int(j, a->bad_step);
		else
			json_null(j);
		json_kv_uint(j, "index", a->bad_index);
		json_kv_string(j, "op_name", a->bad_op);
		json_kv_string(j, "op_type", a->bad_type);
		json_key(j, "wall_time");
		if (a->bad_wall > 0)
			json_double(j, a->bad_wall);
		else
			json_null(j);
		json_object_end(j);
	} else {
		json_null(j);
	}
	json_key(j, "origin");
	if (!a->origin.len)
		json_null(j);
	else if (small)
		write_small_origin(j, a);
	else
		json_raw(j, a->origin.buf);
	json_key(j, "comm");
	write_comm(j, a, small ? COMM_MAX_SMALL : COMM_MAX);
	json_kv_uint(j, "watch_hits", a->watch_hits);
	json_kv_uint(j, "problems", problems);
	json_kv_string(j, "error", a->error);
	json_object_end(j);
	emit_done(&e);
}

static void
put_line(FILE *out, const char *node, const char *dump, const char *format,
	 const struct answer *a, uint64_t problems)
{
	struct strbuf sb = {0};

	write_line(&sb, node, dump, format, a, problems, false);
	if (sb.len >= NODE_LINE_MAX) {
		strbuf_reset(&sb);
		write_line(&sb, node, dump, format, a, problems, true);
	}
	fwrite(sb.buf, 1, sb.len, out);
	fputc('\n', out);
	fflush(out);
	strbuf_done(&sb);
}

void
node_answer(struct model *m, const char *dump, const struct node_options *o, FILE *out)
{
	struct model_info in;
	struct answer *a;
	char host[256], real[PATH_MAX];
	const char *node = node_name(o, host, sizeof host), *path, *format;
	char **names;
	uint64_t problems;
	size_t i, n;

	path = realpath(dump, real) ? real : dump;
	model_info(m, &in);         /* valid until the next model_info(): copied */
	n = in.nhosts ? in.nhosts : 1;
	names = xcalloc(n, sizeof *names);
	for (i = 0; i < in.nhosts; i++)
		names[i] = xstrdup(in.hosts[i]);
	format = in.format ? xstrdup(in.format) : NULL;
	problems = in.corrupt_records + in.torn_files + in.missing_files;
	a = xcalloc(n, sizeof *a);
	for (i = 0; i < n; i++) {
		a[i].host = names[i] ? cmd_host_find(m, names[i]) : NULL;
		a[i].rank = rank_for(a[i].host, dump, i, o);
		free(names[i]);
	}
	free(names);
	for (i = 0; i < n; i++) {
		count_rows(m, &a[i]);
		first_bad(m, &a[i]);
		origin_of(m, &a[i]);
		comm_of(m, &a[i]);
		/* nothing read, or no more rows than problems: a rank it cannot read */
		if (a[i].rows + a[i].executions == 0 || problems >= a[i].rows + a[i].executions)
			set_error(m, &a[i], problems);
	}
	watch_counts(m, a, n);
	for (i = 0; i < n; i++) {
		put_line(out, node, path, format, &a[i], problems);
		strbuf_done(&a[i].origin);
		free(a[i].comm);
	}
	free((char *)format);
	free(a);
}

void
node_error(const char *dump, const struct node_options *o, const char *msg, FILE *out)
{
	char host[256], real[PATH_MAX];
	const char *node = node_name(o, host, sizeof host);
	struct strbuf sb = {0};
	struct emit e;
	struct json *j;
	int64_t rank = node_rank_of(dump);

	if (rank < 0 && o && o->rank_base >= 0)
		rank = o->rank_base;
	emit_init(&e, &sb, true);
	j = emit_json(&e);
	json_object_begin(j);
	json_kv_int(j, "tdbg_node", 1);
	json_kv_string(j, "node", node);
	json_kv_string(j, "dump", realpath(dump, real) ? real : dump);
	json_kv_null(j, "format");
	if (rank >= 0)
		json_kv_int(j, "rank", rank);
	else
		json_kv_null(j, "rank");
	static const char *const nulls[] = { "host", "rows", "executions", "steps", "first_bad",
					     "origin" };
	for (size_t i = 0; i < TD_ARRAY_SIZE(nulls); i++)
		json_kv_null(j, nulls[i]);
	json_key(j, "comm");
	json_array_begin(j);
	json_array_end(j);
	json_kv_null(j, "watch_hits");
	json_kv_null(j, "problems");
	json_kv_string(j, "error", msg);
	json_object_end(j);
	emit_done(&e);
	fwrite(sb.buf, 1, sb.len, out);
	fputc('\n', out);
	fflush(out);
	strbuf_done(&sb);
}
