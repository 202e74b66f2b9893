/*
 * tfdbg1_attr.c - a NodeDef's attributes as text, for the op details view
 * (`ni -a`): scalars as written, types by their dtype names, shapes as
 * "[8,10]" ("<unknown rank>", -1 for an unknown dimension), a tensor as its
 * dtype and shape (values are not shown), lists as "[a, b]".  Functions
 * and anything else unknown read "?".  The debugger's own attributes on
 * the hidden debug nodes never reach here (those nodes are not emitted).
 */
#include "tfdbg1_internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader/parse/tf_tensor.h"
#include "tf_event.pb-c.h"

/* Attribute values past this many list items end in ", ..." */
#define ATTR_LIST_MAX 16

static void
add_type(struct strbuf *sb, int32_t type)
{
	enum td_dtype dt = tf_dtype_to_td(type);

	if (dt != DTYPE_INVALID && dt != DTYPE_OTHER)
		strbuf_adds(sb, td_dtype_name(dt));
	else
		strbuf_addf(sb, "DataType(%d)", (int)type);
}

static void
add_shape(struct strbuf *sb, const Tensorflow__TensorShapeProto *sh)
{
	size_t k;

	if (!sh) {
		strbuf_adds(sb, "[]");
		return;
	}
	if (sh->unknown_rank) {
		strbuf_adds(sb, "<unknown rank>");
		return;
	}
	strbuf_addc(sb, '[');
	for (k = 0; k < sh->n_dim; k++)
		strbuf_addf(sb, "%s%" PRId64, k ? "," : "", sh->dim[k] ? sh->dim[k]->size : -1);
	strbuf_addc(sb, ']');
}

static void
add_bytes(struct strbuf *sb, ProtobufCBinaryData b)
{
	strbuf_addc(sb, '"');
	if (b.len)              /* an empty string has no data pointer */
		strbuf_add(sb, (const char *)b.data, b.len);
	strbuf_addc(sb, '"');
}

static void
add_list(struct strbuf *sb, const Tensorflow__AttrValue__ListValue *l)
{
	size_t k, n = 0;

	strbuf_addc(sb, '[');
#define TD_ITEMS(count, emit) \
	for (k = 0; l && k < (count); k++, n++) { \
		if (n == ATTR_LIST_MAX) { strbuf_adds(sb, ", ..."); break; } \
		if (n) strbuf_adds(sb, ", "); \
		emit; \
	}
	TD_ITEMS(l->n_s, add_bytes(sb, l->s[k]))
	TD_ITEMS(l->n_i, strbuf_addf(sb, "%" PRId64, l->i[k]))
	TD_ITEMS(l->n_f, strbuf_addf(sb, "%g", (double)l->f[k]))
	TD_ITEMS(l->n_b, strbuf_adds(sb, l->b[k] ? "true" : "false"))
	TD_ITEMS(l->n_type, add_type(sb, l->type[k]))
	TD_ITEMS(l->n_shape, add_shape(sb, l->shape[k]))
#undef TD_ITEMS
	strbuf_addc(sb, ']');
}

char *
tfdbg1_attr_text(const Tensorflow__AttrValue *v)
{
	struct strbuf sb = { 0 };

	switch (v ? v->value_case : TENSORFLOW__ATTR_VALUE__VALUE__NOT_SET) {
	case TENSORFLOW__ATTR_VALUE__VALUE_LIST:
		add_list(&sb, v->list);
		break;
	case TENSORFLOW__ATTR_VALUE__VALUE_S:
		add_bytes(&sb, v->s);
		break;
	case TENSORFLOW__ATTR_VALUE__VALUE_I:
		strbuf_addf(&sb, "%" PRId64, v->i);
		break;
	case TENSORFLOW__ATTR_VALUE__VALUE_F:
		strbuf_addf(&sb, "%g", (double)v->f);
		break;
	case TENSORFLOW__ATTR_VALUE__VALUE_B:
		strbuf_adds(&sb, v->b ? "true" : "false");
		break;
	case TENSORFLOW__ATTR_VALUE__VALUE_TYPE:
		add_type(&sb, v->type);
		break;
	case TENSORFLOW__ATTR_VALUE__VALUE_SHAPE:
		add_shape(&sb, v->shape);
		break;
	case TENSORFLOW__ATTR_VALUE__VALUE_TENSOR:
		strbuf_adds(&sb, "tensor ");
		add_type(&sb, v->tensor ? v->tensor->dtype : 0);
		add_shape(&sb, v->tensor ? v->tensor->tensor_shape : NULL);
		break;
	case TENSORFLOW__ATTR_VALUE__VALUE_PLACEHOLDER:
		strbuf_addf(&sb, "$%s", v->placeholder ? v->placeholder : "");
		break;
	default:
		strbuf_adds(&sb, "?");
		break;
	}
	return strbuf_take(&sb);
}
