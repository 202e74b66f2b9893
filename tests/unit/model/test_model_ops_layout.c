/*
 * test_model_ops_layout.c - the compact op table (model_internal.h's
 * struct op_entry, issue 26): an op's strings kept as string ids, the
 * lists most ops lack behind one pointer, the writer's per-op state out
 * of the entry.  Checks ops with and without each list, a long name, op
 * ids past 2^16, placeholders typed by their traces, and the op section's
 * round trip through the persistent index's writer and decoder
 * (mc_put_ops, mc_get_ops).  The expected facts are the script's: op i's
 * name, type and lists follow from i (op_truth below).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model_cache.h"
#include "tests/unit/helpers/fake_model.h"

#define NOPS 70000u             /* past 2^16 op ids */
#define LONG_LEN 5000u          /* the long name's length */

/* The script's op i: its name, type and which lists it has. */
struct op_truth {
	char name[16];
	char type[8];
	char input[24];             /* "" none */
	bool frames, attr, ctrl;
};

static void
op_truth(uint32_t i, struct op_truth *t)
{
	snprintf(t->name, sizeof t->name, "op%05u", i);
	snprintf(t->type, sizeof t->type, "T%u", i % 7);
	t->input[0] = 0;
	if (i && i % 3 == 0)
		snprintf(t->input, sizeof t->input, "op%05u:1", i - 1);
	t->frames = i % 5 == 0;
	t->attr = i % 11 == 0;
	t->ctrl = i && i % 13 == 0;
}

static char long_name[LONG_LEN + 1];

/* The script: NOPS ops with lists by op_truth, the long-named op (id
 * NOPS), a trace on op NOPS - 1 and one on an op no on_op describes. */
static struct fake *
script(void)
{
	struct fake *f = fake_new();
	static const char *const frames[] = { "fr1", "fr2", NULL };
	struct td_summary s;
	uint32_t i;

	memset(&s, 0, sizeof s);
	fake_file(f, 0, "f0", "host0");
	fake_graph(f, "g", "main", NULL);
	fake_frame(f, "fr1", "host0", "a.py", 10, "outer", -1);
	fake_frame(f, "fr2", "host0", "a.py", 20, "inner", -1);
	for (i = 0; i < NOPS; i++) {
		struct op_truth t;
		const char *in[] = { NULL, NULL };
		char v[16];

		op_truth(i, &t);
		in[0] = t.input[0] ? t.input : NULL;
		fake_op(f, "g", t.name, t.type, in[0] ? in : NULL, t.frames ? frames : NULL);
		if (t.attr) {
			snprintf(v, sizeof v, "v%u", i);
			fake_op_attr(f, "k", v);
		}
		if (t.ctrl)
			fake_op_control(f, "op00000");
		if (i == 65537)
			fake_op_alias(f, "alias_x");
	}
	memset(long_name, 'L', LONG_LEN);
	long_name[LONG_LEN] = 0;
	fake_op(f, "g", long_name, "Long", NULL, NULL);
	fake_trace(f, 0, "g", "op69999", 0, 1.0, &s);
	fake_trace(f, 0, "g", "undescribed", 0, 2.0, &s);
	fake_trace_type(f, "FromTrace");
	return f;
}

/* Op i of m is what the script gave it. */
static void
assert_op(struct model *m, uint32_t i)
{
	struct model_op op;
	struct op_truth t;

	op_truth(i, &t);
	assert_true(model_op_get(m, i, &op));
	assert_string_equal(op.name, t.name);
	assert_string_equal(op.type, t.type);
	assert_string_equal(op.graph_id, "g");
	if (t.input[0]) {
		char prod[16];

		snprintf(prod, sizeof prod, "op%05u", i - 1);
		assert_int_equal(op.ninputs, 1);
		assert_string_equal(op.inputs[0].op_name, prod);
		assert_int_equal(op.inputs[0].slot, 1);
		assert_int_equal(op.inputs[0].op, i - 1);
	} else {
		assert_int_equal(op.ninputs, 0);
	}
	assert_int_equal(op.nstack, t.frames ? 2 : 0);
	if (t.attr) {
		char v[16];

		snprintf(v, sizeof v, "v%u", i);
		assert_int_equal(op.nattrs, 1);
		assert_string_equal(op.attrs[0].name, "k");
		assert_string_equal(op.attrs[0].value, v);
	} else {
		assert_int_equal(op.nattrs, 0);
	}
	assert_int_equal(op.ncontrol_inputs, t.ctrl ? 1 : 0);
	if (t.ctrl) {
		assert_string_equal(op.control_inputs[0].op_name, "op00000");
		assert_int_equal(op.control_inputs[0].op, 0);
	}
	assert_int_equal(op.noutput_types, 0);
	assert_int_equal(op.noutput_tensor_ids, 0);
}

/* Every op, the finds and the consumers of m are the script's. */
static void
assert_table(struct model *m)
{
	struct model_consumer c[4];
	struct model_op op;
	uint64_t first, last;
	uint32_t i;

	assert_int_equal(model_op_count(m), NOPS + 2);
	for (i = 0; i < NOPS; i++)
		assert_op(m, i);
	assert_true(model_op_get(m, NOPS, &op));
	assert_int_equal(strlen(op.name), LONG_LEN);
	assert_string_equal(op.name, long_name);
	assert_string_equal(op.type, "Long");
	assert_int_equal(model_op_find(m, long_name, NULL), NOPS);
	assert_int_equal(model_op_find(m, "op69999", NULL), 69999);
	assert_int_equal(model_op_find(m, "op65537", NULL), 65537);
	assert_int_equal(model_op_find(m, "alias_x", NULL), 65537);
	assert_true(model_op_get(m, NOPS + 1, &op));
	assert_string_equal(op.name, "undescribed");
	assert_string_equal(op.type, "FromTrace");
	assert_true(model_op_rows(m, 69999, &first, &last));
	assert_int_equal(first, 0);
	assert_int_equal(last, 0);
	assert_true(model_op_rows(m, NOPS + 1, &first, &last));
	assert_int_equal(first, 1);
	assert_false(model_op_rows(m, 65537, &first, &last));
	/* op 69998 feeds op 69999 (input 0, its output 1) */
	assert_int_equal(model_op_consumers(m, 69998, c, 4), 1);
	assert_int_equal(c[0].op, 69999);
	assert_int_equal(c[0].output_slot, 1);
	assert_int_equal(model_op_consumers(m, 69999, c, 4), 0);
	/* control inputs from every 13th op to op 0 */
	assert_int_equal(model_op_control_consumers(m, 0, c, 4), (NOPS - 1) / 13);
	assert_int_equal(c[1].op, 26);
}

static void
test_op_entry_is_compact(void **state)
{
	(void)state;
	assert_true(sizeof(struct op_entry) <= 72);
}

/* An execution row (56 bytes before issue 26's index-pass work) and the
 * writer's per-op state. */
static void
test_exec_row_is_compact(void **state)
{
	(void)state;
	assert_true(sizeof(struct exec_row) <= 48);
	assert_int_equal(sizeof(struct op_writer), 12);     /* 16 before */
}

static void
test_ops_lists_present_and_absent(void **state)
{
	struct fake *f = script();
	struct model *m = fake_model_open(f, NULL);

	(void)state;
	assert_table(m);
	/* an op with no list holds no list block; one with any list does */
	assert_null(m->ot.opv[1].more);
	assert_null(m->ot.opv[1].inputs);
	assert_non_null(m->ot.opv[5].more);
	assert_null(m->ot.opv[3].more);
	assert_non_null(m->ot.opv[3].inputs);
	model_close(m);
	fake_free(f);
}

/* Inputs that label an op's own leaves (reader_op.input_labels, as
 * msprobe's "input.0") stay with the op but file no consumer: an op that
 * happens to bear the label's name has only the consumers that named it
 * as a producer (issue 26: the index pass's consumer lists). */
static void
test_ops_input_labels_file_no_consumer(void **state)
{
	static const char *const in[] = { "input.0", "input.1:2", NULL };
	struct fake *f = fake_new();
	struct model_consumer c[4];
	struct model_op op;
	struct model *m;
	int64_t producer;

	(void)state;
	fake_file(f, 0, "f0", "host0");
	fake_graph(f, "g", "main", NULL);
	fake_op(f, "g", "input.0", "Producer", NULL, NULL);
	fake_op(f, "g", "labelled", "Call", in, NULL);
	fake_op_input_labels(f);
	fake_op(f, "g", "consumer", "Use", in, NULL);
	m = fake_model_open(f, NULL);
	producer = model_op_find(m, "input.0", NULL);
	assert_true(producer >= 0);
	assert_int_equal(model_op_consumers(m, (uint32_t)producer, c, 4), 1);
	assert_int_equal(c[0].op, (uint32_t)model_op_find(m, "consumer", NULL));
	assert_int_equal(c[0].input_slot, 0);
	assert_true(model_op_get(m, (uint32_t)model_op_find(m, "labelled", NULL), &op));
	assert_int_equal(op.ninputs, 2);
	assert_string_equal(op.inputs[0].op_name, "input.0");
	assert_string_equal(op.inputs[1].op_name, "input.1");
	assert_int_equal(op.inputs[1].slot, 2);
	model_close(m);
	fake_free(f);
}

/* Label lists (reader_op.input_labels) are kept once per graph and list:
 * ops of one graph with equal labels point at one list, another graph or
 * other labels get their own, and each op resolves its inputs as before
 * (an op named like a label resolves in its own graph only). */
static struct fake *
labels_script(void)
{
	static const char *const two[] = { "input.0", "input.1", NULL };
	static const char *const other[] = { "input.0", "input.1:1", NULL };
	struct fake *f = fake_new();

	fake_file(f, 0, "f0", "host0");
	fake_graph(f, "g", "main", NULL);
	fake_graph(f, "h", "other", NULL);
	fake_op(f, "g", "input.0", "Producer", NULL, NULL);
	fake_op(f, "g", "a", "Call", two, NULL);
	fake_op_input_labels(f);
	fake_op(f, "g", "b", "Call", two, NULL);
	fake_op_input_labels(f);
	fake_op(f, "h", "c", "Call", two, NULL);
	fake_op_input_labels(f);
	fake_op(f, "g", "d", "Call", other, NULL);
	fake_op_input_labels(f);
	return f;
}

/* labels_script's ops a and b (graph g) share one list; c (graph h) and
 * d (other labels) have their own; the inputs resolve in their graph
 * (producer: the id of op "input.0" of graph g). */
static void
assert_labels_shared(struct model *m, int64_t producer)
{
	const struct op_entry *a, *b, *c, *d;
	struct model_op op;

	a = &m->ot.opv[model_op_find(m, "a", NULL)];
	b = &m->ot.opv[model_op_find(m, "b", NULL)];
	c = &m->ot.opv[model_op_find(m, "c", NULL)];
	d = &m->ot.opv[model_op_find(m, "d", NULL)];
	assert_ptr_equal(a->inputs, b->inputs);
	assert_ptr_not_equal(a->inputs, c->inputs);
	assert_ptr_not_equal(a->inputs, d->inputs);
	assert_ptr_not_equal(c->inputs, d->inputs);
	assert_true(producer >= 0);
	assert_true(model_op_get(m, (uint32_t)model_op_find(m, "b", NULL), &op));
	assert_int_equal(op.ninputs, 2);
	assert_int_equal(op.inputs[0].op, producer);
	assert_int_equal(op.inputs[1].op, -1);
	assert_true(model_op_get(m, (uint32_t)model_op_find(m, "c", NULL), &op));
	assert_int_equal(op.inputs[0].op, -1);      /* no "input.0" in graph h */
	assert_true(model_op_get(m, (uint32_t)model_op_find(m, "d", NULL), &op));
	assert_string_equal(op.inputs[1].op_name, "input.1");
	assert_int_equal(op.inputs[1].slot, 1);
}

static void
test_ops_input_labels_shared_per_graph(void **state)
{
	struct fake *f = labels_script();
	struct model *m = fake_model_open(f, NULL);

	(void)state;
	assert_int_equal(m->ot.nshared, 3);
	assert_labels_shared(m, model_op_find(m, "input.0", "g"));
	model_close(m);
	fake_free(f);
}

/* An op's labels compared as text with the lists used last
 * (model_op_inputs.c label_list_recent) parse as before: a list whose
 * name holds ':' ("a:1:2" of "a:1:2:0") is never taken for a label of the
 * same text ("a:1:2" is "a:1" slot 2), while plain labels sent again
 * share the list first made (among more lists than the memo holds). */
static void
test_ops_input_labels_recent_parse_as_before(void **state)
{
	static const char *const zero[] = { "a:1:2:0", NULL };
	static const char *const two[] = { "a:1:2", NULL };
	static const char *const plain[] = { "input.0", "input.1", NULL };
	static const char *const more[][2] = { { "x0", NULL }, { "x1", NULL }, { "x2", NULL },
					       { "x3", NULL }, { "x4", NULL } };
	struct fake *f = fake_new();
	struct model *m;
	struct model_op op;
	char name[16];
	int i;

	(void)state;
	fake_file(f, 0, "f0", "host0");
	fake_op(f, "g", "p", "Call", zero, NULL);
	fake_op_input_labels(f);
	fake_op(f, "g", "q", "Call", two, NULL);
	fake_op_input_labels(f);
	fake_op(f, "g", "r", "Call", plain, NULL);
	fake_op_input_labels(f);
	for (i = 0; i < 5; i++) {
		snprintf(name, sizeof name, "s%d", i);
		fake_op(f, "g", name, "Call", more[i], NULL);
		fake_op_input_labels(f);
	}
	fake_op(f, "g", "t", "Call", plain, NULL);
	fake_op_input_labels(f);
	fake_op(f, "g", "u", "Call", plain, NULL);
	fake_op_input_labels(f);
	m = fake_model_open(f, NULL);
	assert_true(model_op_get(m, (uint32_t)model_op_find(m, "p", NULL), &op));
	assert_string_equal(op.inputs[0].op_name, "a:1:2");
	assert_int_equal(op.inputs[0].slot, 0);
	assert_true(model_op_get(m, (uint32_t)model_op_find(m, "q", NULL), &op));
	assert_string_equal(op.inputs[0].op_name, "a:1");
	assert_int_equal(op.inputs[0].slot, 2);
	assert_ptr_equal(m->ot.opv[model_op_find(m, "r", NULL)].inputs,
			 m->ot.opv[model_op_find(m, "t", NULL)].inputs);
	assert_ptr_equal(m->ot.opv[model_op_find(m, "t", NULL)].inputs,
			 m->ot.opv[model_op_find(m, "u", NULL)].inputs);
	assert_int_equal(m->ot.nshared, 8);
	model_close(m);
	fake_free(f);
}

/* The op table given back by ops_done, left empty for mc_get_ops (the
 * strings, frames and rows stay: the section refers to them). */
static void
empty_op_table(struct model *m)
{
	ops_done(m);
	memset(&m->ot, 0, sizeof m->ot);
	m->src.hosts = NULL;
	m->src.nhosts = m->src.caphosts = 0;
	m->wr.opw = NULL;
	m->wr.nopw = m->wr.capopw = 0;
}

/* The counts b checks a section of a's ops against (a and b open the same
 * script: the same string ids). */
static void
ops_counts(struct model *a, struct mc_counts *c)
{
	memset(c, 0, sizeof *c);
	c->strings = atomic_load(&a->str.n);
	c->ops = a->ot.nops;
	c->traces = atomic_load(&a->rows.ntraces);
	c->cons = a->ot.ncons;
}

/* b's op table emptied, then the first len bytes of sb decoded into it
 * through s (left for ser_in_done). */
static bool
ops_reload(struct model *b, const struct strbuf *sb, size_t len, const struct mc_counts *c,
	   struct ser_in *s)
{
	empty_op_table(b);
	ser_in_init(s, sb->buf, len);
	return mc_get_ops(b, s, c);
}

static void
test_ops_cache_round_trip(void **state)
{
	struct fake *f = script();
	struct model *a = fake_model_open(f, NULL), *b = fake_model_open(f, NULL);
	struct strbuf sb = {0};
	struct mc_counts c;
	struct ser_in s;

	(void)state;
	assert_true(model_op_get(a, 0, &(struct model_op){0}));     /* frames resolved in a */
	mc_put_ops(a, &sb);
	ops_counts(a, &c);
	assert_int_equal(atomic_load(&b->str.n), c.strings);      /* the same script: the same ids */
	assert_true(ops_reload(b, &sb, sb.len, &c, &s));
	assert_true(ser_in_done(&s));
	assert_true(b->ot.opv[5].lists_slab);
	assert_false(b->ot.opv[1].lists_slab);
	assert_null(b->ot.opv[1].more);
	assert_table(b);
	strbuf_done(&sb);
	model_close(a);
	model_close(b);
	fake_free(f);
}

/* The lists a persistent index gives are kept once per graph and content
 * as the index pass kept them (issue 27: a warm reopen of 200,000 ops gave
 * each op its own list, 14 MB), and resolve as before. */
static void
test_ops_cache_loaded_lists_shared_per_graph(void **state)
{
	struct fake *f = labels_script();
	struct model *a = fake_model_open(f, NULL), *b = fake_model_open(f, NULL);
	struct strbuf sb = {0};
	struct mc_counts c;
	struct ser_in s;

	(void)state;
	mc_put_ops(a, &sb);
	ops_counts(a, &c);
	assert_true(ops_reload(b, &sb, sb.len, &c, &s));
	assert_true(ser_in_done(&s));
	assert_true(b->ot.opv[model_op_find(b, "a", NULL)].lists_slab);
	assert_labels_shared(b, model_op_find(a, "input.0", "g"));
	strbuf_done(&sb);
	model_close(a);
	model_close(b);
	fake_free(f);
}

/* A section whose lists all differ (each op reads the one before it,
 * more ops than the decode's trial of 64 lists): every op gets its own
 * list back, equal to the one saved, whether read before or after the
 * decode stops looking lists up. */
static void
test_ops_cache_loaded_lists_all_different(void **state)
{
	struct fake *f = fake_new();
	struct model *a, *b;
	struct strbuf sb = {0};
	struct mc_counts c;
	struct ser_in s;
	char name[32], in[32];
	uint32_t i, k;

	(void)state;
	fake_file(f, 0, "f0", "host0");
	fake_graph(f, "g", "main", NULL);
	fake_op(f, "g", "op0", "Const", NULL, NULL);
	for (i = 1; i < 300; i++) {
		const char *const inputs[] = { in, NULL };

		snprintf(name, sizeof name, "op%u", i);
		snprintf(in, sizeof in, "op%u:%u", i - 1, i % 3);
		fake_op(f, "g", name, "Add", inputs, NULL);
	}
	a = fake_model_open(f, NULL);
	b = fake_model_open(f, NULL);
	for (i = 0; i < 300; i++)               /* inputs resolved in a */
		assert_true(model_op_get(a, i, &(struct model_op){0}));
	mc_put_ops(a, &sb);
	ops_counts(a, &c);
	assert_true(ops_reload(b, &sb, sb.len, &c, &s));
	for (i = 1; i < 300; i++) {
		const struct op_entry *x = &a->ot.opv[i], *y = &b->ot.opv[i];

		assert_int_equal(y->ninputs, 1);
		assert_ptr_not_equal(y->inputs, b->ot.opv[i - 1].inputs);
		for (k = 0; k < y->ninputs; k++) {
			assert_string_equal(y->inputs[k].op_name, x->inputs[k].op_name);
			assert_int_equal(y->inputs[k].slot, x->inputs[k].slot);
			assert_int_equal(y->inputs[k].op, x->inputs[k].op);
			assert_int_equal(y->inputs[k].op, i - 1);
		}
	}
	strbuf_done(&sb);
	model_close(a);
	model_close(b);
	fake_free(f);
}

/* A section cut anywhere in the ops is refused, not half taken. */
static void
test_ops_cut_section_refused(void **state)
{
	struct fake *f = script();
	struct model *a = fake_model_open(f, NULL), *b = fake_model_open(f, NULL);
	struct strbuf sb = {0};
	struct mc_counts c;
	struct ser_in s;

	(void)state;
	mc_put_ops(a, &sb);
	ops_counts(a, &c);
	assert_false(ops_reload(b, &sb, sb.len / 2, &c, &s) && ser_in_done(&s));
	strbuf_done(&sb);
	model_close(a);
	model_close(b);
	fake_free(f);
}

/* A small script with every list an op can have, for the byte-wise checks. */
static struct fake *
small_script(void)
{
	struct fake *f = fake_new();
	static const char *const frames[] = { "fr1", "fr2", NULL };
	static const char *const in[] = { "a:0", "missing:2", NULL };
	struct td_summary s;

	memset(&s, 0, sizeof s);
	fake_file(f, 0, "f0", "host0");
	fake_graph(f, "g", "main", NULL);
	fake_frame(f, "fr1", "host0", "a.py", 10, "outer", -1);
	fake_frame(f, "fr2", "host0", "a.py", 20, "inner", -1);
	fake_op(f, "g", "a", "Const", NULL, NULL);
	fake_op(f, "g", "b", "Add", in, frames);
	fake_op_attr(f, "T", "float");
	fake_op_control(f, "a");
	fake_op_alias(f, "b_alias");
	s = fake_full_health(4, 0, 0, 1);               /* 4 elements, 1 NaN: a non-finite row */
	fake_trace(f, 0, "g", "b", 0, 1.0, &s);
	fake_trace(f, 0, "g", "late", 0, 2.0, &s);     /* a placeholder with an alert */
	return f;
}

/* Every cut of the op section, and an unknown flag bit, is refused both by
 * the load's check (model_cache_opcheck.c) and by the decode: the two
 * read one layout. */
static void
test_ops_section_cut_anywhere_refused(void **state)
{
	struct fake *f = small_script();
	struct model *a = fake_model_open(f, NULL), *b = fake_model_open(f, NULL);
	struct strbuf sb = {0};
	struct mc_counts c;
	struct ser_in s;
	size_t len, flag;

	(void)state;
	assert_true(model_op_get(a, 1, &(struct model_op){0}));
	mc_put_ops(a, &sb);
	ops_counts(a, &c);
	for (len = 0; len < sb.len; len++) {
		ser_in_init(&s, sb.buf, len);
		assert_int_not_equal(mc_check_ops(b, &s, &c), MC_OPS_OK);
		assert_false(ops_reload(b, &sb, len, &c, &s) && ser_in_done(&s));
	}
	/* op 0's flag byte (after the op count and five string ids) */
	flag = 8 + 20;
	sb.buf[flag] |= (char)0x80;
	ser_in_init(&s, sb.buf, sb.len);
	assert_int_equal(mc_check_ops(b, &s, &c), MC_OPS_BAD);
	assert_false(ops_reload(b, &sb, sb.len, &c, &s));
	/* the whole section decodes: op b's lists back */
	sb.buf[flag] &= (char)0x7f;
	assert_true(ops_reload(b, &sb, sb.len, &c, &s) && ser_in_done(&s));
	{
		struct model_op op;

		assert_true(model_op_get(b, 1, &op));
		assert_string_equal(op.name, "b");
		assert_int_equal(op.ninputs, 2);
		assert_int_equal(op.inputs[0].op, 0);
		assert_int_equal(op.inputs[1].op, -1);          /* "missing": no such op */
		assert_int_equal(op.inputs[1].slot, 2);
		assert_int_equal(op.nattrs, 1);
		assert_string_equal(op.attrs[0].value, "float");
		assert_int_equal(op.ncontrol_inputs, 1);
		assert_int_equal(op.nstack, 2);
		assert_int_equal(model_op_find(b, "b_alias", NULL), 1);
	}
	{
		/* the placeholder's alert facts came back, and stay when a late
		 * on_op describes it (its loaded block is left for one of its own) */
		struct reader_op late = {.graph_id = "g", .op_name = "late", .op_type = "Late"};
		int64_t id = model_op_find(b, "late", NULL);

		assert_true(id >= 0);
		assert_true(b->ot.opv[id].placeholder);
		assert_true(b->ot.opv[id].lists_slab);
		assert_int_equal(ops_nf_rows(&b->ot.opv[id]), 1);
		assert_int_equal(ops_first_alert(&b->ot.opv[id]), 1);  /* row 0 was alert 0 */
		pthread_mutex_lock(&b->th.lock);
		ops_fill(b, (uint32_t)id, &late);
		pthread_mutex_unlock(&b->th.lock);
		assert_false(b->ot.opv[id].lists_slab);
		assert_int_equal(ops_nf_rows(&b->ot.opv[id]), 1);
		assert_int_equal(ops_first_alert(&b->ot.opv[id]), 1);
	}
	strbuf_done(&sb);
	model_close(a);
	model_close(b);
	fake_free(f);
}

/* A name map whose pair names another op than its name's first (a forged
 * file): refused with "op chains" by the check, and by the decode. */
static void
test_ops_name_map_forged_refused(void **state)
{
	struct fake *f = small_script();
	struct model *a = fake_model_open(f, NULL), *b = fake_model_open(f, NULL);
	struct strbuf sb = {0};
	struct model_cache ic;
	struct mc_counts c;
	struct ser_in s;
	uint32_t sid;

	(void)state;
	memset(&ic, 0, sizeof ic);
	sid = a->ot.opv[1].name_sid;                    /* "b": op 1 is its first */
	assert_int_equal(ops_first_of_name(a, sid), 1);
	a->ot.name_first[sid] = 0;
	mc_put_ops(a, &sb);
	a->ot.name_first[sid] = 1;
	ops_counts(a, &c);
	ser_in_init(&s, sb.buf, sb.len);
	assert_int_equal(mc_check_ops(b, &s, &c), MC_OPS_CHAINS);
	b->icache = &ic;                        /* where the refusal's reason goes */
	assert_false(ops_reload(b, &sb, sb.len, &c, &s));
	b->icache = NULL;
	assert_non_null(strstr(ic.why, "op chains"));
	strbuf_done(&sb);
	model_close(a);
	model_close(b);
	fake_free(f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_op_entry_is_compact),
		cmocka_unit_test(test_exec_row_is_compact),
		cmocka_unit_test(test_ops_lists_present_and_absent),
		cmocka_unit_test(test_ops_input_labels_file_no_consumer),
		cmocka_unit_test(test_ops_input_labels_shared_per_graph),
		cmocka_unit_test(test_ops_input_labels_recent_parse_as_before),
		cmocka_unit_test(test_ops_cache_round_trip),
		cmocka_unit_test(test_ops_cache_loaded_lists_shared_per_graph),
		cmocka_unit_test(test_ops_cache_loaded_lists_all_different),
		cmocka_unit_test(test_ops_cut_section_refused),
		cmocka_unit_test(test_ops_section_cut_anywhere_refused),
		cmocka_unit_test(test_ops_name_map_forged_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
