/*
 * msp_arg.c - a non-tensor argument of a dump.json entry as msprobe's
 * compare writes its row (FORMAT.md §12): the Dtype cell (Python's
 * type() of the value, or the record's own type for a few), the Shape
 * cell, the text of the four statistics cells (Python's str() of the
 * value) and the md5-mode checksum (CRC-32 of that text).  The diff's CSV
 * writer takes these cells as they are (util.h struct td_arg); the walk
 * that finds the arguments is msp_entry.c's.  Not a row of the model:
 * arguments are not traces.
 */
#include "msp_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* zlib's CRC-32 (reflected, polynomial 0xEDB88320), bit by bit: the
 * arguments are a few short strings a row. */
static uint32_t
crc32_ieee(const char *s)
{
	uint32_t c = 0xFFFFFFFFu;
	int k;

	for (; *s; s++) {
		c ^= (unsigned char)*s;
		for (k = 0; k < 8; k++)
			c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
	}
	return ~c;
}

static char *
crc_text(const char *s)
{
	return xasprintf("%08x", crc32_ieee(s));
}

/* The last part of a path ("input.src" -> "src"). */
static const char *
last_part(const char *path)
{
	const char *dot = strrchr(path, '.');

	return dot ? dot + 1 : path;
}

/* A number value is a Python float when its record says so (float,
 * numpy.float32, double) or it is not whole; else an int (json.loads makes
 * 3 an int and 3.0 a float: the token's spelling is not kept, the record's
 * type stands in for it). */
static bool
is_float(const struct msp_record *r)
{
	return strstr(r->type, "float") || strstr(r->type, "double") || !isfinite(r->vnum) ||
	       r->vnum != (double)(long long)r->vnum || fabs(r->vnum) >= 9e18;
}

/* Python's str() of the value into out->value (and its number). */
static void
value_text(const struct msp_record *r, struct td_arg *out)
{
	struct strbuf sb = { 0 };

	switch (r->vkind) {
	case MSP_V_NUM:
		out->v = r->vnum;
		if (is_float(r)) {
			out->num = TD_ARG_FLOAT;
			strbuf_add_pyfloat(&sb, r->vnum);
		} else {
			out->num = TD_ARG_INT;
			strbuf_addf(&sb, "%lld", (long long)r->vnum);
		}
		out->value = strbuf_take(&sb);
		return;
	case MSP_V_BOOL:
		out->value = xstrdup(r->vnum != 0 ? "True" : "False");
		return;
	case MSP_V_STR:
	case MSP_V_LIST:
		out->value = xstrdup(r->pyval);
		return;
	default:
		out->value = xstrdup("None");
		return;
	}
}

static const char *
py_type(const struct msp_record *r)
{
	switch (r->vkind) {
	case MSP_V_NUM: return is_float(r) ? "<class 'float'>" : "<class 'int'>";
	case MSP_V_BOOL: return "<class 'bool'>";
	case MSP_V_STR: return "<class 'str'>";
	case MSP_V_LIST: return "<class 'list'>";
	default: return "<class 'NoneType'>";
	}
}

void
msp_arg_make(const char *path, const struct msp_record *r, struct td_arg *out)
{
	const char *last = last_part(path);

	out->path = xstrdup(path);
	out->num = TD_ARG_TEXT;
	out->v = 0;
	if (!r) {
		/* a bare null: no dtype, no shape, "None" statistics, and it
		 * pairs with nothing (pandas' None == None is False) */
		out->value = xstrdup("None");
		return;
	}
	if (strcmp(r->type, "torch.Size") == 0 || strcmp(r->type, "slice") == 0) {
		/* the shape cell holds the value; statistics None */
		out->dtype = xstrdup(r->type);
		out->shape = r->type[0] == 's' ? xasprintf("(%d,)", r->vcount) : xstrdup(r->pyval);
		out->value = xstrdup("None");
		out->md5 = crc_text(r->pyval);
		return;
	}
	out->shape = xstrdup("[]");
	if (strcmp(last, "src") == 0 || strcmp(last, "dst") == 0 ||
	    strcmp(last, "group_src") == 0 || strcmp(last, "group_dst") == 0) {
		/* a peer rank: the record's type as dtype, str(value) as the
		 * statistics and as the checksum */
		out->dtype = xstrdup(r->type);
		value_text(r, out);
		out->md5 = xstrdup(out->value);
		return;
	}
	if (strcmp(r->type, "torch.ProcessGroup") == 0) {
		out->dtype = xstrdup(r->type);
		out->value = xstrdup(*r->pyranks ? r->pyranks : "None");
		out->md5 = xstrdup(out->value);
		return;
	}
	out->dtype = xstrdup(strcmp(r->type, "ellipsis") == 0 ? "ellipsis" : py_type(r));
	value_text(r, out);
	/* str(value) of an absent value is '' */
	out->md5 = crc_text(r->vkind == MSP_V_ABSENT ? "" : out->value);
}
