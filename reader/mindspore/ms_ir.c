/*
 * ms_ir.c - the .ir text dump of a kernel graph (FORMAT.md §9):
 * op lines, full-name lines (both markers) and "# In file" trace lines in
 * the three LOC forms.  Line-wise and tolerant: anything unrecognised is
 * skipped.  Not for: types, attributes, multi-subgraph call structure.
 */
#include "ms_internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader/parse/csv.h"

static const char trace_marker[] = "# In file ";
static const char shared_marker[] = "/<~~This line of code can be shared";

static size_t
digits_at(const char *s, size_t i, size_t len)
{
	size_t j = i;

	while (j < len && isdigit((unsigned char)s[j]))
		j++;
	return j - i;
}

/* Matches a LOC at s[i] ("(12)", ":12", ":12~14", ":12, 4~16"); returns its
 * length (ending before the '/' or the end of the text) or 0. */
static size_t
loc_at(const char *s, size_t i, size_t len)
{
	size_t j = i + 1, d;

	if (s[i] == '(') {
		if (!(d = digits_at(s, j, len)) || j + d >= len || s[j + d] != ')')
			return 0;
		j += d + 1;
	} else if (s[i] == ':') {
		if (!(d = digits_at(s, j, len)))
			return 0;
		j += d;
		if (j < len && s[j] == '~' && (d = digits_at(s, j + 1, len)))
			j += 1 + d;
		if (j + 1 < len && s[j] == ',' && s[j + 1] == ' ') {
			size_t k = j + 2, d1 = digits_at(s, k, len);

			if (d1 && k + d1 < len && s[k + d1] == '~' && (d = digits_at(s, k + d1 + 1, len)))
				j = k + d1 + 1 + d;
		}
	} else {
		return 0;
	}
	return (j == len || s[j] == '/') ? j - i : 0;
}

bool
ms_ir_parse_trace(const char *line, size_t len, struct ms_frame *f)
{
	size_t i = 0, start, loc = 0, end;
	const char *code;

	memset(f, 0, sizeof(*f));
	while (i < len && (line[i] == ' ' || line[i] == '\t'))
		i++;
	if (len - i < sizeof(trace_marker) - 1 ||
	    memcmp(line + i, trace_marker, sizeof(trace_marker) - 1) != 0)
		return false;
	start = i + sizeof(trace_marker) - 1;
	for (i = start + 1; i < len; i++)
		if ((line[i] == '(' || line[i] == ':') && (loc = loc_at(line, i, len)))
			break;
	if (!loc)
		return false;
	f->file = xstrndup(line + start, i - start);
	f->line = (uint32_t)strtoul(line + i + 1, NULL, 10);
	end = len;
	while (end > i + loc && (line[end - 1] == ' ' || line[end - 1] == '\r'))
		end--;
	if (i + loc + 1 < end) {
		const char *m;
		size_t clen;

		code = line + i + loc + 1;
		clen = end - (size_t)(code - line);
		m = memmem(code, clen, shared_marker, sizeof(shared_marker) - 1);
		if (m)
			clen = (size_t)(m - code);
		else if (clen && code[clen - 1] == '/')
			clen--;
		f->code = xstrndup(code, clen);
	}
	return true;
}

bool
ms_path_is_user_code(const char *path)
{
	return !strstr(path, "/site-packages/mindspore/") && !strstr(path, "/dist-packages/mindspore/") &&
	       !strstr(path, "/mindspore/python/");
}

/* ---- the .ir node records ------------------------------------------- */

struct ir_state {
	struct ms_graph *g;
	struct ms_node *cur;        /* node whose continuation lines we read */
	char **args;                /* raw "%k" refs of cur, resolved at the end */
};

static struct ms_node *
new_node(struct ms_graph *g)
{
	struct ms_node *n;

	TD_GROW(g->nodes, g->cap, g->nnodes + 1);
	n = &g->nodes[g->nnodes++];
	memset(n, 0, sizeof(*n));
	n->num_outputs = 1;
	return n;
}

/* Splits top-level comma-separated args of "(...)" into inputs: "%12"
 * stays as "%12" until resolved, "%para3_conv1.weight" becomes
 * "conv1.weight", literals are dropped. */
static void
parse_args(struct ms_node *n, const char *p, const char *end)
{
	int depth = 0;
	const char *arg = p;

	for (; p <= end; p++) {
		if (p < end && (*p == '(' || *p == '[' || *p == '{' || *p == '<'))
			depth++;
		else if (p < end && (*p == ')' || *p == ']' || *p == '}' || *p == '>'))
			depth--;
		if (p < end && (depth > 0 || *p != ','))
			continue;
		while (arg < p && *arg == ' ')
			arg++;
		if (arg < p && *arg == '%') {
			const char *s = arg + 1, *q;
			size_t alen = (size_t)(p - arg);

			/* bounded: the argument may end right after the % */
			if (p - s >= 4 && memcmp(s, "para", 4) == 0 && (q = memchr(s, '_', p - s)))
				s = q + 1, alen = (size_t)(p - s);
			else
				s = arg;
			while (alen && s[alen - 1] == ' ')
				alen--;
			n->inputs = xrealloc(n->inputs, (n->ninputs + 1) * sizeof(*n->inputs));
			n->inputs[n->ninputs++] = xstrndup(s, alen);
		}
		arg = p + 1;
	}
}

/* "  %3(Conv2D-op1) = Conv2D(%2, %1) primitive_attrs: ..." */
static bool
parse_op_line(struct ir_state *st, const char *s, size_t len)
{
	const char *end = s + len, *p = s + 3, *close, *eq, *type, *open, *q;
	struct ms_node *n;
	int depth = 0;

	if (len < 4 || memcmp(s, "  %", 3) != 0 || !isdigit((unsigned char)*p))
		return false;
	while (p < end && isdigit((unsigned char)*p))
		p++;
	if (p >= end || *p != '(' || !(close = memchr(p, ')', end - p)))
		return false;
	if (!(eq = memmem(close, end - close, " = ", 3)))
		return false;
	type = eq + 3;
	if (!(open = memchr(type, '(', end - type)))
		return false;
	n = new_node(st->g);
	n->name = xstrndup(s + 3, (size_t)(p - s - 3));
	n->full_name = xstrndup(p + 1, (size_t)(close - p - 1));   /* until a full-name line */
	if ((size_t)(open - type) > 9 && memcmp(type, "PrimFunc_", 9) == 0)
		type += 9;
	n->op_type = xstrndup(type, (size_t)(open - type));
	n->scope = xstrdup("");
	for (q = open; q < end; q++) {
		depth += (*q == '(') - (*q == ')');
		if (depth == 0)
			break;
	}
	parse_args(n, open + 1, q < end ? q : end);
	ms_node_ir_attrs(n, s, len);
	st->cur = n;
	return true;
}

/* "      : full_name_with_scope: (X)" or "      # Fullname with scope: (X)" */
static void
parse_full_name(struct ms_node *n, const char *s, size_t len)
{
	const char *open = memchr(s, '(', len), *close = NULL, *p;
	char *slash;

	for (p = s + len; p > s; p--)
		if (p[-1] == ')') {
			close = p - 1;
			break;
		}
	if (!open || !close || close <= open)
		return;
	free(n->full_name);
	n->full_name = xstrndup(open + 1, (size_t)(close - open - 1));
	free(n->scope);
	slash = strrchr(n->full_name, '/');
	n->scope = xstrndup(n->full_name, slash ? (size_t)(slash - n->full_name) : 0);
}

/* "      : (<in>) -> (<Tuple[<a>, <b>]>)": the output count of a tuple. */
static void
parse_type_line(struct ms_node *n, const char *s, size_t len)
{
	const char *arrow = memmem(s, len, ") -> (<Tuple[", 13), *p, *end = s + len;
	uint32_t count = 1;
	int depth = 0;

	if (!arrow || n->num_outputs > 1)
		return;
	for (p = arrow + 13; p < end; p++) {
		if (*p == '<' || *p == '[' || *p == '(')
			depth++;
		else if (*p == '>' || *p == ']' || *p == ')') {
			if (depth-- == 0)
				break;
		} else if (*p == ',' && depth == 0)
			count++;
	}
	n->num_outputs = count;
}

static void
parse_line(struct ir_state *st, const char *s, size_t len)
{
	struct ms_frame f;

	if (len > 5 && memcmp(s, "%para", 5) == 0) {
		const char *u = memchr(s, '_', len), *sp = memmem(s, len, " : ", 3);

		if (u && sp && u < sp) {
			TD_GROW(st->g->params, st->g->pcap, st->g->nparams + 1);
			st->g->params[st->g->nparams++] = xstrndup(u + 1, (size_t)(sp - u - 1));
		}
		return;
	}
	if (len > 10 && memcmp(s, "subgraph @", 10) == 0 && !st->g->name) {
		const char *open = memchr(s, '(', len);

		st->g->name = xstrndup(s + 10, open ? (size_t)(open - s - 10) : len - 10);
		return;
	}
	if (parse_op_line(st, s, len))
		return;
	if (len > 2 && s[0] == ' ' && s[1] == ' ' && s[2] != ' ')
		st->cur = NULL;   /* Return(...) or another record */
	if (!st->cur)
		return;
	if (memmem(s, len, "full_name_with_scope: (", 23) ||
	    memmem(s, len, "# Fullname with scope: (", 24))
		parse_full_name(st->cur, s, len);
	else if (len > 8 && memcmp(s, "      : (", 9) == 0) {
		parse_type_line(st->cur, s, len);
		ms_node_ir_types(st->cur, s, len);
	}
	else if (ms_ir_parse_trace(s, len, &f)) {
		st->cur->frames = xrealloc(st->cur->frames, (st->cur->nframes + 1) * sizeof(f));
		st->cur->frames[st->cur->nframes++] = f;
	}
}

/* The node number of a "%k" reference (digits only, below 10 * n + 1000:
 * numbers need not be dense, but one far past the file's nodes names
 * nothing); false for a sign, an overflow or no digits. */
static bool
ref_number(const char *s, size_t n, size_t *k)
{
	size_t v = 0;

	if (!ms_all_digits(s))
		return false;
	for (; *s; s++) {
		v = v * 10 + (size_t)(*s - '0');
		if (v > 10 * n + 1000)
			return false;
	}
	*k = v;
	return true;
}

/* "%12" inputs become the full name of the node printed as %12. */
static void
resolve_refs(struct ms_graph *g, size_t first)
{
	struct ms_name_ix *ix = NULL;   /* names, sorted once at the first miss */
	const struct ms_name_ix *hit;
	size_t i, k, j;

	for (i = first; i < g->nnodes; i++)
		for (k = 0; k < g->nodes[i].ninputs; k++) {
			char *in = g->nodes[i].inputs[k];

			if (in[0] != '%')
				continue;
			/* "%k": a node number of this file (§9); a sign, a
			 * number past the nodes or not a number is said */
			if (!ref_number(in + 1, g->nnodes - first, &j)) {
				if (g->bad_refs++ == 0)
					snprintf(g->first_bad_ref, sizeof g->first_bad_ref, "%s", in);
				continue;
			}
			/* Fast path: "%k" is usually the k-th record. */
			j += first;
			if (!(j < g->nnodes && strcmp(g->nodes[j].name, in + 1) == 0)) {
				if (!ix)
					ix = ms_name_index(g, first, false);
				hit = ms_name_find(ix, g->nnodes - first, in + 1);
				if (!hit)
					continue;   /* a reference to nothing stays as written */
				j = hit->node;
			}
			g->nodes[i].inputs[k] = xstrdup(g->nodes[j].full_name);
			free(in);
		}
	free(ix);
}

/*
 * The order of trace lines changed across MindSpore versions (FORMAT.md
 * §9: the order across versions is not confirmed): 1.x files print the
 * framework frame first and the user's call after it, newer ones the outer
 * definition first.  User code calls the framework, never the reverse, so
 * a record that starts inside mindspore and ends in user code was printed
 * innermost first: reverse it so every stack is outermost first.
 */
void
ms_node_orient_frames(struct ms_node *n)
{
	size_t i;

	if (n->nframes < 2 || ms_path_is_user_code(n->frames[0].file) ||
	    !ms_path_is_user_code(n->frames[n->nframes - 1].file))
		return;
	for (i = 0; i < n->nframes / 2; i++) {
		struct ms_frame t = n->frames[i];

		n->frames[i] = n->frames[n->nframes - 1 - i];
		n->frames[n->nframes - 1 - i] = t;
	}
}

size_t
ms_ir_parse(const char *text, size_t len, struct ms_graph *g)
{
	struct ir_state st = { .g = g };
	size_t pos = 0, llen, first = g->nnodes;
	const char *line;

	while ((line = csv_next_line(text, len, &pos, &llen)))
		parse_line(&st, line, llen);
	resolve_refs(g, first);
	for (pos = first; pos < g->nnodes; pos++)
		ms_node_orient_frames(&g->nodes[pos]);
	if (!g->name)
		g->name = xstrdup("");
	return g->nnodes - first;
}
