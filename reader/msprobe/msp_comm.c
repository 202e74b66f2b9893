/*
 * msp_comm.c - how values travel between rows that msprobe does not tie
 * together (FORMAT.md §9): communication entries across ranks, paired by
 * API, call count and direction within a step, their direction from the
 * src/dst arguments and the group's ranks; and an input record that holds
 * a NaN/Inf, tied to the latest earlier output of its rank and step with
 * the same dtype, shape and statistics.  Both go to the sink as
 * reader_link (row numbers as sent).  Not for: anything finite (origins
 * only follow bad values), the graph (msprobe records none).
 */
#include "msp_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- communication entries ---------------------------------------------- */

static bool
is_comm(const char *name)
{
	return strncmp(name, "Distributed.", 12) == 0 || strncmp(name, "MintDistributed.", 16) == 0;
}

/* The int of an argument's text ("int 1"), -1 none. */
static int64_t
arg_int(const char *text)
{
	const char *sp = strrchr(text, ' ');

	if (strncmp(text, "int ", 4) != 0 || !sp)
		return -1;
	return strtoll(sp + 1, NULL, 10);
}

/* The ranks listed in "torch.ProcessGroup [0, 1, 2]". */
static void
parse_group(struct msp_comm *c, const char *text)
{
	const char *p = strchr(text, '[');

	while (p && *p && *p != ']' && c->ngroup < MSP_MAX_GROUP) {
		char *end;
		long long v = strtoll(p + 1, &end, 10);

		if (end == p + 1)
			break;
		c->group[c->ngroup++] = v;
		p = strchr(end, ',');
	}
}

void
msp_comm_note(struct reader *r, const struct msp_unit *u, const char *name, const char *type,
	      uint64_t first_row, uint32_t nin, uint32_t nout, const struct msp_arg *args,
	      size_t nargs)
{
	const char *api = strrchr(type, '.');
	struct msp_comm *c;
	size_t i;

	if (!is_comm(name) || !api)
		return;
	TD_GROW(r->comms, r->capcomms, r->ncomms + 1);
	c = &r->comms[r->ncomms++];
	memset(c, 0, sizeof(*c));
	c->unit = u->file_id;
	c->key = xstrdup(name);
	c->api = c->key + (api + 1 - type);     /* type is a prefix of name */
	c->rank = u->rank;
	c->step = u->step;
	c->first_row = first_row;
	c->nin = nin;
	c->nout = nout;
	c->src = c->dst = c->peer = -1;
	for (i = 0; i < nargs; i++) {
		if (strcmp(args[i].name, "input.src") == 0)
			c->src = arg_int(args[i].value);
		else if (strcmp(args[i].name, "input.dst") == 0)
			c->dst = arg_int(args[i].value);
		else if (strcmp(args[i].name, "input.1") == 0)
			c->peer = arg_int(args[i].value);
		else if (strcmp(args[i].name, "input.group") == 0)
			parse_group(c, args[i].value);
	}
}

static bool
api_is(const struct msp_comm *c, const char *a, const char *b)
{
	size_t n = strcspn(c->api, ".");

	return (strlen(a) == n && strncmp(c->api, a, n) == 0) ||
	       (b && strlen(b) == n && strncmp(c->api, b, n) == 0);
}

static bool
in_group(const struct msp_comm *c, int64_t rank)
{
	size_t i;

	if (!c->ngroup)
		return true;   /* no group named: the world */
	for (i = 0; i < c->ngroup; i++)
		if (c->group[i] == rank)
			return true;
	return false;
}

static int64_t
src_of(const struct msp_comm *c)
{
	return c->src >= 0 ? c->src : c->peer;
}

static int64_t
dst_of(const struct msp_comm *c)
{
	return c->dst >= 0 ? c->dst : c->peer;
}

/* Entries named alike (API, count, direction) in the same step. */
static bool
same_call(const struct msp_comm *a, const struct msp_comm *b)
{
	return a->step == b->step && a->unit != b->unit && strcmp(a->key, b->key) == 0;
}

/* Whether b's inputs reach a's outputs (a receives from b). */
static bool
receives_from(const struct msp_comm *a, const struct msp_comm *b)
{
	int64_t peer;

	if (a->rank < 0 || b->rank < 0)
		return false;
	if (api_is(a, "broadcast", "scatter")) {
		peer = src_of(a);
		return same_call(a, b) && peer == b->rank && a->rank != peer;
	}
	if (api_is(a, "reduce", "gather")) {
		peer = dst_of(a);
		return same_call(a, b) && peer == a->rank && in_group(a, b->rank);
	}
	if (api_is(a, "send", "isend"))
		return false;
	if (api_is(a, "recv", "irecv")) {
		/* send -> recv: b sends to a's rank, a receives from b's */
		peer = src_of(a);
		return a->step == b->step && b->rank == peer && api_is(b, "send", "isend") &&
		       dst_of(b) == a->rank;
	}
	return same_call(a, b) && in_group(a, b->rank) && in_group(b, a->rank);
}

static void
link(const struct reader_sink *sink, uint64_t from, uint64_t to)
{
	struct reader_link l = { .from = from, .to = to };

	if (sink->on_link)
		sink->on_link(sink->ctx, &l);
}

/* A recv pairs with the send of the same rank pair and the same place in
 * order: the k-th recv from S on D with the k-th send to D on S (FORMAT.md
 * §9).  Other pairs are matched by name already. */
static bool
nth_pair(struct reader *r, size_t ai, size_t bi)
{
	const struct msp_comm *a = &r->comms[ai], *b = &r->comms[bi];
	size_t i, ka = 0, kb = 0;

	if (!api_is(a, "recv", "irecv"))
		return true;
	for (i = 0; i < ai; i++)
		ka += r->comms[i].unit == a->unit && r->comms[i].step == a->step &&
		      api_is(&r->comms[i], "recv", "irecv") && src_of(&r->comms[i]) == src_of(a);
	for (i = 0; i < bi; i++)
		kb += r->comms[i].unit == b->unit && r->comms[i].step == b->step &&
		      api_is(&r->comms[i], "send", "isend") && dst_of(&r->comms[i]) == a->rank;
	return ka == kb;
}

void
msp_comm_link(struct reader *r, const struct reader_sink *sink)
{
	size_t a, b;
	uint32_t i, j;

	for (a = r->ncomms_linked; a < r->ncomms; a++)
		for (b = 0; b < r->ncomms; b++) {
			const struct msp_comm *x = &r->comms[a], *y = &r->comms[b];

			if (a == b || !receives_from(x, y) || !nth_pair(r, a, b))
				continue;
			for (i = 0; i < x->nout; i++)
				for (j = 0; j < y->nin; j++)
					link(sink, y->first_row + j, x->first_row + x->nin + i);
		}
	/* links from comms of this pass into older ones (both directions) */
	for (a = 0; a < r->ncomms_linked; a++)
		for (b = r->ncomms_linked; b < r->ncomms; b++) {
			const struct msp_comm *x = &r->comms[a], *y = &r->comms[b];

			if (!receives_from(x, y) || !nth_pair(r, a, b))
				continue;
			for (i = 0; i < x->nout; i++)
				for (j = 0; j < y->nin; j++)
					link(sink, y->first_row + j, x->first_row + x->nin + i);
		}
	r->ncomms_linked = r->ncomms;
}

void
msp_comm_done(struct reader *r)
{
	size_t i;

	for (i = 0; i < r->ncomms; i++)
		free(r->comms[i].key);
	free(r->comms);
}

/* ---- input records of bad values ------------------------------------------- */

static void
signature(const struct td_summary *s, char *buf, size_t len)
{
	size_t used = (size_t)snprintf(buf, len, "%d|%x|%d", (int)s->dtype, s->known, s->rank);
	int k;

	for (k = 0; k < s->ndims && used < len; k++)
		used += (size_t)snprintf(buf + used, len - used, ",%lld", (long long)s->dims[k]);
	if (used < len)
		snprintf(buf + used, len - used, "|%.17g|%.17g|%.17g|%.17g", s->min, s->max, s->mean,
			 s->l2norm);
}

void
msp_bad_input_link(struct msp_unit *u, const struct reader_sink *sink, const struct td_summary *s,
		   bool is_record, uint64_t row)
{
	char sig[256];
	uint64_t *from;

	if (!td_summary_nonfinite(s))
		return;
	signature(s, sig, sizeof sig);
	if (is_record) {
		if ((from = msp_map_get(&u->bad_out, sig)))
			link(sink, *from, row);
		return;
	}
	msp_map_put(&u->bad_out, sig, row);
}
