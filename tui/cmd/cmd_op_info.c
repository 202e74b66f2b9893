/*
 * cmd_op_info.c - an op's details beyond its links, as the older CLI's
 * `ni -a -d` shows them: control inputs, attributes, output dtypes and
 * shapes.  Part of every OP object (op, trace, ni) and of its text.
 *
 * An output's type comes from the graph where the dump records it
 * ("from": "graph"), else from the op's latest trace row of that output
 * ("from": "trace"), else it is unknown.  Attributes the format never
 * records are said so (attributes_known false, attributes_note why).
 */
#include "cmd_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"

/* Outputs listed at most (ops with thousands of outputs exist). */
#define OP_OUTPUTS_MAX 64

struct out_type {
	enum td_dtype dtype;        /* DTYPE_INVALID unknown */
	int rank;                   /* -1 unknown */
	int64_t dims[TD_MAX_DIMS];
	const char *from;           /* "graph", "trace" or NULL */
	int64_t trace;              /* the row it came from, -1 */
};

static void
output_type(struct cmd_env *env, const struct model_op *o, uint32_t k, struct out_type *t)
{
	struct model_trace tr;
	int64_t r;

	memset(t, 0, sizeof(*t));
	t->dtype = DTYPE_INVALID;
	t->rank = -1;
	t->trace = -1;
	if (k < o->noutput_types && (o->output_types[k].dtype != DTYPE_INVALID ||
				     o->output_types[k].rank >= 0)) {
		const struct model_output_type *g = &o->output_types[k];

		t->dtype = g->dtype;
		t->rank = g->rank > TD_MAX_DIMS ? -1 : g->rank;
		for (int d = 0; d < t->rank; d++)
			t->dims[d] = g->dims[d];
		t->from = "graph";
		return;
	}
	r = model_trace_of_op(env->m, o->id, k, model_trace_count(env->m), -1);
	if (r < 0 || model_trace_get(env->m, (uint64_t)r, &tr) != TD_OK)
		return;
	t->trace = r;
	t->from = "trace";
	if (tr.summary.known & SUM_DTYPE)
		t->dtype = tr.summary.dtype;
	if ((tr.summary.known & SUM_SHAPE) && !tr.summary.dims_truncated &&
	    tr.summary.ndims == tr.summary.rank) {
		t->rank = tr.summary.rank;
		memcpy(t->dims, tr.summary.dims, sizeof(t->dims));
	}
	if (t->dtype == DTYPE_INVALID && t->rank < 0)
		t->from = NULL;
}

static uint32_t
output_count(const struct model_op *o)
{
	uint32_t n = TD_MAX(o->num_outputs, (uint32_t)o->noutput_types);

	return TD_MIN(n, OP_OUTPUTS_MAX);
}

static void
text_shape(struct strbuf *out, const struct out_type *t)
{
	strbuf_adds(out, t->dtype != DTYPE_INVALID ? td_dtype_name(t->dtype) : "?");
	if (t->rank < 0) {
		strbuf_adds(out, " shape ?");
		return;
	}
	strbuf_addc(out, '[');
	for (int d = 0; d < t->rank; d++)
		strbuf_addf(out, "%s%lld", d ? "," : "", (long long)t->dims[d]);
	strbuf_addc(out, ']');
}

static void
emit_outputs(struct cmd_env *env, struct emit *e, const struct model_op *o)
{
	struct strbuf *text;
	struct out_type t;
	uint32_t k, n = output_count(o);

	emit_textf(e, "outputs\n");
	emit_key(e, "outputs");
	emit_table_begin(e, NULL);
	for (k = 0; k < n; k++) {
		output_type(env, o, k, &t);
		emit_object_begin(e, NULL);
		emit_kv_uint(e, "output_slot", k);
		emit_kv_str(e, "dtype", t.dtype != DTYPE_INVALID ? td_dtype_name(t.dtype) : NULL);
		emit_key(e, "shape");
		if (t.rank >= 0) {
			emit_list_begin(e);
			for (int d = 0; d < t.rank; d++)
				emit_int(e, t.dims[d]);
			emit_list_end(e);
		} else {
			emit_null(e);
		}
		emit_kv_str(e, "from", t.from);
		emit_kv_index(e, "trace_index", t.trace);
		emit_object_end(e);
		if (!(text = emit_text(e)))
			continue;
		strbuf_addf(text, "  %u  ", k);
		text_shape(text, &t);
		if (t.from && t.trace >= 0)
			strbuf_addf(text, "  (from trace %lld)", (long long)t.trace);
		else if (!t.from)
			strbuf_adds(text, "  (not recorded)");
		strbuf_addc(text, '\n');
	}
	emit_table_end(e);
}

/* JSON has the attributes before the outputs, text after them. */
static void
text_attributes(struct emit *e, const struct model_op *o, const struct model_info *info)
{
	struct strbuf *text = emit_text(e);

	if (!text)
		return;
	if (info->no_attrs_why) {
		strbuf_addf(text, "attributes: %s\n", info->no_attrs_why);
		return;
	}
	strbuf_addf(text, "attributes %zu\n", o->nattrs);
	for (size_t i = 0; i < o->nattrs; i++) {
		strbuf_adds(text, "  ");
		cmd_cell(text, o->attrs[i].name, 24);
		strbuf_addc(text, ' ');
		cmd_cell(text, o->attrs[i].value, -1);
		strbuf_addc(text, '\n');
	}
}

void
cmd_emit_op_details(struct cmd_env *env, struct emit *e, const struct model_op *o)
{
	struct model_info info;
	struct strbuf *text;
	size_t i;

	model_info(env->m, &info);
	if (o->ncontrol_inputs)
		emit_textf(e, "control   %zu\n", o->ncontrol_inputs);
	emit_key(e, "control_inputs");
	emit_list_begin(e);
	for (i = 0; i < o->ncontrol_inputs; i++) {
		emit_str(e, o->control_inputs[i].op_name);
		if ((text = emit_text(e))) {
			strbuf_adds(text, "  ^");
			cmd_cell(text, o->control_inputs[i].op_name, -1);
			strbuf_addc(text, '\n');
		}
	}
	emit_list_end(e);
	emit_key(e, "attributes");
	emit_table_begin(e, NULL);
	for (i = 0; i < o->nattrs; i++) {
		emit_object_begin(e, NULL);
		emit_kv_str(e, "name", o->attrs[i].name);
		emit_kv_str(e, "value", o->attrs[i].value);
		emit_object_end(e);
	}
	emit_table_end(e);
	emit_kv_bool(e, "attributes_known", info.no_attrs_why == NULL);
	emit_kv_str(e, "attributes_note", info.no_attrs_why);
	emit_outputs(env, e, o);
	text_attributes(e, o, &info);
}
