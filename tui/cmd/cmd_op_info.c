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

void
cmd_json_op_details(struct cmd_env *env, struct json *j, const struct model_op *o)
{
	struct model_info info;
	struct out_type t;
	uint32_t k, n = output_count(o);
	size_t i;

	model_info(env->m, &info);
	json_key(j, "control_inputs");
	json_array_begin(j);
	for (i = 0; i < o->ncontrol_inputs; i++)
		json_string(j, o->control_inputs[i].op_name);
	json_array_end(j);
	json_key(j, "attributes");
	json_array_begin(j);
	for (i = 0; i < o->nattrs; i++) {
		json_object_begin(j);
		json_kv_string(j, "name", o->attrs[i].name);
		json_kv_string(j, "value", o->attrs[i].value);
		json_object_end(j);
	}
	json_array_end(j);
	json_kv_bool(j, "attributes_known", info.no_attrs_why == NULL);
	json_key(j, "attributes_note");
	if (info.no_attrs_why)
		json_string(j, info.no_attrs_why);
	else
		json_null(j);
	json_key(j, "outputs");
	json_array_begin(j);
	for (k = 0; k < n; k++) {
		output_type(env, o, k, &t);
		json_object_begin(j);
		json_kv_uint(j, "output_slot", k);
		json_key(j, "dtype");
		if (t.dtype != DTYPE_INVALID)
			json_string(j, td_dtype_name(t.dtype));
		else
			json_null(j);
		json_key(j, "shape");
		if (t.rank >= 0) {
			json_array_begin(j);
			for (int d = 0; d < t.rank; d++)
				json_int(j, t.dims[d]);
			json_array_end(j);
		} else {
			json_null(j);
		}
		json_key(j, "from");
		if (t.from)
			json_string(j, t.from);
		else
			json_null(j);
		json_key(j, "trace_index");
		if (t.trace >= 0)
			json_int(j, t.trace);
		else
			json_null(j);
		json_object_end(j);
	}
	json_array_end(j);
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

void
cmd_text_op_details(struct cmd_env *env, const struct model_op *o)
{
	struct strbuf *out = env->out;
	struct model_info info;
	struct out_type t;
	uint32_t k, n = output_count(o);
	size_t i;

	model_info(env->m, &info);
	if (o->ncontrol_inputs) {
		strbuf_addf(out, "control   %zu\n", o->ncontrol_inputs);
		for (i = 0; i < o->ncontrol_inputs; i++) {
			strbuf_adds(out, "  ^");
			cmd_cell(out, o->control_inputs[i].op_name, -1);
			strbuf_addc(out, '\n');
		}
	}
	strbuf_adds(out, "outputs\n");
	for (k = 0; k < n; k++) {
		output_type(env, o, k, &t);
		strbuf_addf(out, "  %u  ", k);
		text_shape(out, &t);
		if (t.from && t.trace >= 0)
			strbuf_addf(out, "  (from trace %lld)", (long long)t.trace);
		else if (!t.from)
			strbuf_adds(out, "  (not recorded)");
		strbuf_addc(out, '\n');
	}
	if (info.no_attrs_why) {
		strbuf_addf(out, "attributes: %s\n", info.no_attrs_why);
		return;
	}
	strbuf_addf(out, "attributes %zu\n", o->nattrs);
	for (i = 0; i < o->nattrs; i++) {
		strbuf_adds(out, "  ");
		cmd_cell(out, o->attrs[i].name, 24);
		strbuf_addc(out, ' ');
		cmd_cell(out, o->attrs[i].value, -1);
		strbuf_addc(out, '\n');
	}
}
