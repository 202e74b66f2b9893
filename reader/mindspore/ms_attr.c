/*
 * ms_attr.c - a kernel's attributes and output types for the op details
 * view, from the graph .pb (NodeProto.attribute, output_type: FORMAT.md
 * §8) or the .ir text (primitive_attrs, the type line
 * "-> (<Tensor[Float32], (2, 120)>)": FORMAT.md §9).
 *
 * Values become text: strings quoted, numbers as written, lists and tuples
 * as "[a, b]"; tensors and graphs read "?".  A tuple output's type is
 * unknown (its elements have no shapes in the .pb).
 */
#include "ms_internal.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ms_graph.pb-c.h"

#define MS_DT_TENSOR 14  /* DataType DT_TENSOR, section 8.1 */

/* DataType numbers 1..12 (section 8.1) as neutral dtypes. */
static enum td_dtype
dtype_of(int32_t dt)
{
	static const enum td_dtype map[] = {
		DTYPE_INVALID, DTYPE_BOOL, DTYPE_INT8, DTYPE_INT16, DTYPE_INT32, DTYPE_INT64,
		DTYPE_UINT8, DTYPE_UINT16, DTYPE_UINT32, DTYPE_UINT64, DTYPE_FLOAT16,
		DTYPE_FLOAT32, DTYPE_FLOAT64,
	};

	return dt > 0 && (size_t)dt < TD_ARRAY_SIZE(map) ? map[dt] : DTYPE_INVALID;
}

static void
value_text(struct strbuf *sb, const Debugger__ValueProto *v, int depth)
{
	size_t k;

	if (!v || depth > 8) {
		strbuf_adds(sb, "?");
		return;
	}
	if (v->str_val) {
		strbuf_addf(sb, "\"%s\"", v->str_val);
	} else if (v->has_bool_val) {
		strbuf_adds(sb, v->bool_val ? "true" : "false");
	} else if (v->has_int_val) {
		strbuf_addf(sb, "%" PRId64, v->int_val);
	} else if (v->has_uint_val) {
		strbuf_addf(sb, "%" PRIu64, v->uint_val);
	} else if (v->has_float_val) {
		strbuf_addf(sb, "%g", (double)v->float_val);
	} else if (v->has_double_val) {
		strbuf_addf(sb, "%g", v->double_val);
	} else if (v->n_values || v->n_int_vals || v->n_float_vals || v->n_str_vals) {
		strbuf_addc(sb, '[');
		for (k = 0; k < v->n_values; k++) {
			strbuf_adds(sb, k ? ", " : "");
			value_text(sb, v->values[k], depth + 1);
		}
		for (k = 0; k < v->n_int_vals; k++)
			strbuf_addf(sb, "%s%" PRId64, k ? ", " : "", v->int_vals[k]);
		for (k = 0; k < v->n_float_vals; k++)
			strbuf_addf(sb, "%s%g", k ? ", " : "", (double)v->float_vals[k]);
		for (k = 0; k < v->n_str_vals; k++)
			strbuf_addf(sb, "%s\"%s\"", k ? ", " : "", v->str_vals[k]);
		strbuf_addc(sb, ']');
	} else {
		strbuf_adds(sb, "?");
	}
}

static void
add_attr(struct ms_node *n, const char *name, char *value)
{
	n->attrs = xrealloc(n->attrs, (n->nattrs + 1) * sizeof(*n->attrs));
	n->attrs[n->nattrs].name = xstrdup(name);
	n->attrs[n->nattrs++].value = value;
}

static void
add_otype(struct ms_node *n, enum td_dtype dt, int rank, int64_t *dims)
{
	n->otypes = xrealloc(n->otypes, (n->notypes + 1) * sizeof(*n->otypes));
	n->otypes[n->notypes++] = (struct reader_output_type){ dt, rank, dims };
}

void
ms_node_pb_details(struct ms_node *n, const Debugger__NodeProto *np)
{
	const Debugger__TypeProto *t = np->output_type;
	size_t k;

	for (k = 0; k < np->n_attribute; k++) {
		struct strbuf sb = { 0 };

		if (!np->attribute[k] || !np->attribute[k]->name)
			continue;
		value_text(&sb, np->attribute[k]->value, 0);
		add_attr(n, np->attribute[k]->name, strbuf_take(&sb));
	}
	if (t && t->has_data_type && t->data_type == MS_DT_TENSOR && t->tensor_type) {
		const Debugger__TensorShapeProto *sh = t->tensor_type->shape;
		int64_t *dims = NULL;
		int rank = sh ? (int)sh->n_dim : -1;

		if (rank > 0) {
			dims = xmalloc((size_t)rank * sizeof(*dims));
			for (k = 0; k < (size_t)rank; k++)
				dims[k] = sh->dim[k] && sh->dim[k]->has_size ? sh->dim[k]->size : -1;
		}
		add_otype(n, dtype_of(t->tensor_type->has_elem_type ? t->tensor_type->elem_type : 0),
			  rank, dims);
	}
}

/* "{format: "NCHW", transpose_a: false}": top-level "key: value" pairs. */
void
ms_node_ir_attrs(struct ms_node *n, const char *s, size_t len)
{
	const char *p = memmem(s, len, "primitive_attrs: {", 18), *end = s + len, *item;
	int depth = 0;

	if (!p || n->nattrs)
		return;
	for (p += 18, item = p; p < end; p++) {
		if (*p == '{' || *p == '[' || *p == '(' || *p == '<')
			depth++;
		else if ((*p == '}' || *p == ']' || *p == ')' || *p == '>') && depth > 0)
			depth--;
		else if (*p == '"')
			while (p + 1 < end && *++p != '"')
				;
		if (depth == 0 && (*p == ',' || *p == '}')) {
			const char *colon = memchr(item, ':', (size_t)(p - item));

			while (item < p && *item == ' ')
				item++;
			if (colon && colon > item) {
				char *name = xstrndup(item, (size_t)(colon - item));
				const char *v = colon + 1;

				while (v < p && *v == ' ')
					v++;
				add_attr(n, name, xstrndup(v, (size_t)(p - v)));
				free(name);
			}
			item = p + 1;
			if (*p == '}')
				break;
		}
	}
}

/* "      : (<in>) -> (<Tensor[Float32], (2, 120)>)": one tensor output. */
void
ms_node_ir_types(struct ms_node *n, const char *s, size_t len)
{
	const char *p = memmem(s, len, ") -> (<Tensor[", 14), *end = s + len, *close;
	char word[32];
	int64_t dims[TD_MAX_DIMS];
	int rank = 0;
	size_t i;

	if (!p || n->notypes)
		return;
	p += 14;
	if (!(close = memchr(p, ']', (size_t)(end - p))) || (size_t)(close - p) >= sizeof word)
		return;
	for (i = 0; p + i < close; i++)
		word[i] = (char)tolower((unsigned char)p[i]);
	word[i] = '\0';
	p = close + 1;
	if (p + 3 < end && p[0] == ',' && p[1] == ' ' && p[2] == '(') {
		for (p += 3; p < end && *p != ')' && rank < TD_MAX_DIMS; rank++) {
			dims[rank] = strtoll(p, (char **)&p, 10);
			while (p < end && (*p == ',' || *p == ' '))
				p++;
		}
	}
	add_otype(n, ms_dtype_from_word(word), rank,
		  rank ? memcpy(xmalloc((size_t)rank * sizeof(*dims)), dims, (size_t)rank * sizeof(*dims))
		       : NULL);
}

void
ms_node_details_done(struct ms_node *n)
{
	size_t k;

	for (k = 0; k < n->nattrs; k++) {
		free((char *)n->attrs[k].name);
		free((char *)n->attrs[k].value);
	}
	free(n->attrs);
	for (k = 0; k < n->notypes; k++)
		free((void *)n->otypes[k].dims);
	free(n->otypes);
}
