/*
 * test_model_cache_trust.c - what the persistent index trusts in its own
 * file (issue 23): a cache file made wrong but with a valid checksum is
 * refused with a reason, the links it restores are the ones a fresh index
 * makes, and the mapped file may vanish under a session.  The forged files
 * are written by tdbg's own writer from a model the test changed, so the
 * checksum and every other section are right.  Facts come from
 * tests/fixtures/tfdbg2/README.md.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/model.h"
#include "tests/unit/helpers/cache_tmp.h"
#include "model/model_cache.h"
#include "reader/parse/crc32c.h"
#include "reader/reader.h"
#include "tf_debug_event.pb-c.h"
#include "tests/unit/helpers/tfrecord_bytes.h"

#define FIX "tests/fixtures/tfdbg2"

static void
tmp_init(struct tmp *t, const char *fixture)
{
	tmp_init_tagged(t, fixture, "trust");
}

/* Saves m (opened without a cache, maybe changed by the test) as the
 * dump's cache file, through the writer tdbg uses.  With TDBG_FORGED_OUT
 * set (a directory), the file is also copied there as NAME: that is how
 * the forged seeds of tests/fuzz/corpus/fuzz_cache/ were made. */
static void
save_as_cache(struct model *m, const struct tmp *t, const char *name)
{
	const char *out = getenv("TDBG_FORGED_OUT");

	m->opt.cache = true;
	m->opt.cache_dir = t->cache;
	assert_true(model_cache_init(m));
	model_bump(m);
	model_cache_save(m);
	sh("ls %s/*.tdx >/dev/null%s", t->cache, "");
	if (out) {
		char cmd[512];

		snprintf(cmd, sizeof cmd, "cp %s/*.tdx %s/%s", t->cache, out, name);
		assert_int_equal(system(cmd), 0);
	}
}

/* The whole of a file, malloc'd. */
static unsigned char *
slurp(const char *path, size_t *len)
{
	unsigned char *buf;
	long n;
	FILE *f = fopen(path, "rb");

	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	assert_true(n >= 0);
	fseek(f, 0, SEEK_SET);
	buf = malloc(n > 0 ? (size_t)n : 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

/* The bytes of the one cache file in t's cache folder (its path in path). */
static unsigned char *
read_the_tdx(const struct tmp *t, char *path, size_t size, size_t *len)
{
	char cmd[256];
	FILE *f;

	snprintf(cmd, sizeof cmd, "ls %s/*.tdx", t->cache);
	f = popen(cmd, "r");
	assert_non_null(f);
	assert_non_null(fgets(path, (int)size, f));
	pclose(f);
	path[strcspn(path, "\n")] = '\0';
	return slurp(path, len);
}

/* An op that is the first of its name, not op 0, and a described op. */
static uint32_t
some_head(struct model *m)
{
	uint32_t i;

	ops_ready(m);           /* a cached open decodes its ops on first use */
	for (i = 1; i < m->ot.nops; i++) {
		if (!m->ot.opv[i].placeholder && ops_first_of_name(m, m->ot.opv[i].name_sid) == i)
			return i;
	}
	fail_msg("no op to forge");
	return 0;
}

static void
test_cache_self_chain_refused(void **state)
{
	struct tmp t;
	struct model *m;
	struct model_info info;
	uint32_t k;
	char name[256];

	(void)state;
	tmp_init(&t, FIX "/mnist_nan");
	m = open_cached(&t, false, "off");
	k = some_head(m);
	snprintf(name, sizeof name, "%s", ops_name(m, &m->ot.opv[k]));
	/* the forged op: its name's chain points to itself, and a lookup
	 * passes over it (a placeholder) to the next one, forever */
	m->ot.opv[k].next_same_name = k;
	m->ot.opv[k].placeholder = true;
	save_as_cache(m, &t, "forged-op-chain-self");
	model_close(m);
	m = open_cached(&t, true, "rebuilt");
	model_info(m, &info);
	assert_string_equal(info.index_cache_why, "corrupt cache file (op chains)");
	assert_int_equal(model_op_find(m, name, NULL), k);  /* answered, fresh */
	model_close(m);
	model_close(open_cached(&t, true, "used"));         /* and replaced */
	tmp_done(&t);
}

static void
test_cache_chain_backwards_refused(void **state)
{
	struct tmp t;
	struct model *m;
	struct model_info info;
	uint32_t k;

	(void)state;
	tmp_init(&t, FIX "/mnist_nan");
	m = open_cached(&t, false, "off");
	k = some_head(m);
	m->ot.opv[k].next_same_name = 0;      /* to an op of another name, lower */
	save_as_cache(m, &t, "forged-op-chain-backwards");
	model_close(m);
	m = open_cached(&t, true, "rebuilt");
	model_info(m, &info);
	assert_string_equal(info.index_cache_why, "corrupt cache file (op chains)");
	model_close(m);
	tmp_done(&t);
}

/* A row naming an op past the op table is refused, wherever the row is
 * in its chunk (the load checks the rows' ops several at a time, then
 * the rest one by one: first, middle and last rows of mnist_nan's 680,
 * and an op number with its top bit set). */
static void
test_cache_row_op_out_of_range_refused(void **state)
{
	static const struct { uint64_t row; uint32_t past; } cases[] = {
		{ 0, 0 }, { 5, 1 }, { 333, 0x80000000u }, { 679, 0 },
	};
	struct tmp t;
	struct model *m;
	struct model_info info;

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		uint32_t keep;

		tmp_init(&t, FIX "/mnist_nan");
		m = open_cached(&t, false, "off");
		assert_int_equal(model_trace_count(m), 680);
		ops_ready(m);
		keep = m->rows.tchunks[0]->op[cases[i].row];
		m->rows.tchunks[0]->op[cases[i].row] = (uint32_t)m->ot.nops + cases[i].past;
		save_as_cache(m, &t, "forged-row-op");
		m->rows.tchunks[0]->op[cases[i].row] = keep;
		model_close(m);
		m = open_cached(&t, true, "rebuilt");
		model_info(m, &info);
		assert_string_equal(info.index_cache_why, "corrupt cache file (tables)");
		model_close(m);
		tmp_done(&t);
	}
}

/* An op whose first row is after its last one (a count that is not
 * consistent) is refused too. */
static void
test_cache_op_rows_backwards_refused(void **state)
{
	struct tmp t;
	struct model *m;
	struct model_info info;
	uint32_t k;

	(void)state;
	tmp_init(&t, FIX "/mnist_nan");
	m = open_cached(&t, false, "off");
	for (k = 0; k < m->ot.nops && !(m->ot.opv[k].first_row1 && m->ot.opv[k].last_row + 2 < 680); k++)
		;
	assert_true(k < m->ot.nops);
	m->ot.opv[k].first_row1 = m->ot.opv[k].last_row + 2;     /* first row = last + 1 */
	save_as_cache(m, &t, "forged-op-rows-backwards");
	model_close(m);
	m = open_cached(&t, true, "rebuilt");
	model_info(m, &info);
	assert_string_equal(info.index_cache_why, "corrupt cache file (tables)");
	model_close(m);
	tmp_done(&t);
}

/* The same forged op sections are refused, with the same reasons, by a
 * load that decodes the ops as it reads them (ops_at_open: the op section
 * streamed a piece at a time, model_cache_ops.c mc_get_ops_streamed). */
static void
test_cache_forged_ops_refused_when_decoded_at_open(void **state)
{
	static const char *const why[] = {"corrupt cache file (op chains)",
					  "corrupt cache file (tables)"};
	struct tmp t;
	struct model_options opt = {.no_thread = true, .cache = true, .ops_at_open = true};
	struct model *m;
	struct model_info info;
	char err[512];
	uint32_t k;
	int f;

	(void)state;
	for (f = 0; f < 2; f++) {
		tmp_init(&t, FIX "/mnist_nan");
		opt.cache_dir = t.cache;
		m = open_cached(&t, false, "off");
		if (f == 0) {
			k = some_head(m);
			m->ot.opv[k].next_same_name = 0;        /* a chain backwards */
		} else {
			for (k = 0; k < m->ot.nops && !(m->ot.opv[k].first_row1 &&
							   m->ot.opv[k].last_row + 2 < 680); k++)
				;
			assert_true(k < m->ot.nops);
			m->ot.opv[k].first_row1 = m->ot.opv[k].last_row + 2;   /* rows backwards */
		}
		save_as_cache(m, &t, f == 0 ? "forged-op-chain-at-open" : "forged-op-rows-at-open");
		model_close(m);
		assert_int_equal(model_open(t.dump, &opt, &m, err, sizeof err), TD_OK);
		model_info(m, &info);
		assert_string_equal(info.index_cache, "rebuilt");
		assert_string_equal(info.index_cache_why, why[f]);
		model_close(m);
		tmp_done(&t);
	}
}

static void
test_cache_op_added_after_load_joins_its_name(void **state)
{
	struct tmp t;
	struct model *m;
	struct reader_op op = {0};
	uint32_t k, id, next0;
	char name[256];

	(void)state;
	tmp_init(&t, FIX "/mnist_nan");
	model_close(open_cached(&t, true, "new"));
	m = open_cached(&t, true, "used");
	k = some_head(m);
	snprintf(name, sizeof name, "%s", ops_name(m, &m->ot.opv[k]));
	next0 = m->ot.opv[0].next_same_name;
	/* what an extension's index pass does for an op of a known name */
	op.graph_id = "extension-graph";
	op.op_name = name;
	pthread_mutex_lock(&m->th.lock);
	while (m->ot.opv[k].next_same_name != NO_ID)
		k = m->ot.opv[k].next_same_name;
	id = ops_add(m, &op, true);
	pthread_mutex_unlock(&m->th.lock);
	assert_int_equal(m->ot.opv[k].next_same_name, id);
	assert_int_equal(m->ot.opv[0].next_same_name, next0);
	assert_int_equal(model_op_find(m, name, NULL), some_head(m));
	model_close(m);
	tmp_done(&t);
}

static void
test_cache_max_sizes(void **state)
{
	static const char *const bad[] = {
		"1.5G", "1e9", "0x10000000", "10X", "17179869184G", "18446744073709551616", "",
		" 1", "+1", "-1", "1KB", "1 K", "K", "16777216T",
	};
	uint64_t v = 42;
	size_t i;

	(void)state;
	assert_true(mc_parse_size("0", &v));
	assert_int_equal(v, 0);
	assert_true(mc_parse_size("123456", &v));
	assert_int_equal(v, 123456);
	assert_true(mc_parse_size("10k", &v));
	assert_int_equal(v, 10240);
	assert_true(mc_parse_size("3M", &v));
	assert_int_equal(v, 3u << 20);
	assert_true(mc_parse_size("1G", &v));
	assert_int_equal(v, 1u << 30);
	assert_true(mc_parse_size("2t", &v));
	assert_int_equal(v, (uint64_t)2 << 40);
	assert_true(mc_parse_size("17179869183G", &v));     /* 2^64 - 2^30 */
	assert_int_equal(v, UINT64_MAX - ((1u << 30) - 1));
	assert_true(mc_parse_size("18446744073709551615", &v));
	assert_int_equal(v, UINT64_MAX);
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		v = 42;
		if (mc_parse_size(bad[i], &v))
			fail_msg("\"%s\" accepted as %llu", bad[i], (unsigned long long)v);
		assert_int_equal(v, 42);
	}
}

static void
test_cache_max_refused_says_why(void **state)
{
	struct tmp t;
	struct model *m;
	struct model_info info;

	(void)state;
	tmp_init(&t, FIX "/mnist_nan");
	model_close(open_cached(&t, true, "new"));
	setenv("TDBG_CACHE_MAX", "1.5G", 1);
	m = open_cached(&t, true, "unavailable");
	model_info(m, &info);
	assert_non_null(strstr(info.index_cache_why, "TDBG_CACHE_MAX=\"1.5G\" is not a size"));
	model_close(m);
	unsetenv("TDBG_CACHE_MAX");
	model_close(open_cached(&t, true, "used"));          /* nothing was evicted */
	tmp_done(&t);
}

/* The cache file is cut to nothing while a model uses it: every row still
 * reads, as before the cut (70,000 traces: one full chunk of rows, which
 * the load could use in place in the file's bytes). */
static void
test_cache_truncated_under_session(void **state)
{
	struct tmp t;
	struct model *m, *fresh;
	uint64_t i, n;

	(void)state;
	snprintf(t.dir, sizeof t.dir, "/tmp/tdbg-unit-trust.XXXXXX");
	assert_non_null(mkdtemp(t.dir));
	snprintf(t.dump, sizeof t.dump, "%s/dump", t.dir);
	snprintf(t.cache, sizeof t.cache, "%s/cache", t.dir);
	sh("\"$(tests/gen/build.sh)\" -q -n 70000 %s%s", t.dump, "");
	model_close(open_cached(&t, true, "new"));
	m = open_cached(&t, true, "used");
	sh("for f in %s/*.tdx; do : > \"$f\"; done%s", t.cache, "");
	fresh = open_cached(&t, false, "off");
	n = model_trace_count(fresh);
	assert_int_equal(model_trace_count(m), n);
	assert_true(n >= 70000);
	for (i = 0; i < n; i++) {
		struct model_trace a, b;

		assert_int_equal(model_trace_get(m, i, &a), TD_OK);
		assert_int_equal(model_trace_get(fresh, i, &b), TD_OK);
		assert_int_equal(a.op, b.op);
		assert_int_equal(a.flags, b.flags);
	}
	model_close(fresh);
	model_close(m);
	tmp_done(&t);
}

/* The golden file (tests/fixtures/cache/README.md): a cache file an
 * earlier build wrote for the mnist_nan fixture.  A later build loads it
 * and answers as a fresh index does, or refuses it for one of the reasons
 * a change of format is stated with, never as corrupt and never with
 * other answers. */
static void
test_cache_golden_file_loads_or_is_refused_for_a_reason(void **state)
{
	struct model_options opt = {.no_thread = true};
	struct model *m = NULL, *fresh = NULL;
	struct model_info a, b;
	struct model_alert fa, fb;
	unsigned char *buf;
	char err[512];
	size_t len;

	(void)state;
	buf = slurp("tests/fixtures/cache/tfdbg2_mnist_nan.tdx", &len);
	if (model_open_cache_bytes(&tfdbg2_reader_ops, FIX "/mnist_nan", buf, len, &m, err,
				   sizeof err) != TD_OK) {
		if (!strstr(err, "cache file of another tdbg version") &&
		    !strstr(err, "cache file of another layout") &&
		    !strstr(err, "the reader could not resume"))
			fail_msg("golden cache file refused without a stated reason: %s", err);
		free(buf);
		return;
	}
	assert_int_equal(model_open(FIX "/mnist_nan", &opt, &fresh, err, sizeof err), TD_OK);
	model_info(m, &a);
	model_info(fresh, &b);
	assert_int_equal(a.traces, 680);                     /* README */
	assert_int_equal(a.traces, b.traces);
	assert_int_equal(a.executions, b.executions);
	assert_int_equal(a.ops, b.ops);
	assert_int_equal(a.alerts, b.alerts);
	assert_true(model_first_nonfinite(m, &fa));
	assert_true(model_first_nonfinite(fresh, &fb));
	assert_int_equal(fa.index, 88);                      /* README: Log:0 */
	assert_int_equal(fa.index, fb.index);
	for (uint64_t i = 0; i < a.traces; i++) {
		struct model_trace ta, tb;

		assert_int_equal(model_trace_get(m, i, &ta), TD_OK);
		assert_int_equal(model_trace_get(fresh, i, &tb), TD_OK);
		assert_string_equal(ta.op_name, tb.op_name);
		assert_int_equal(ta.flags, tb.flags);
	}
	model_close(fresh);
	model_close(m);
	free(buf);
}

/* A file this build writes loads through the same path (so the golden
 * test's "loads" branch is the one taken until the format changes). */
static void
test_cache_file_of_this_build_applies(void **state)
{
	struct tmp t;
	struct model *m = NULL;
	unsigned char *buf;
	char err[512], path[256];
	size_t len;

	(void)state;
	tmp_init(&t, FIX "/mnist_nan");
	model_close(open_cached(&t, true, "new"));
	buf = read_the_tdx(&t, path, sizeof path, &len);
	assert_int_equal(model_open_cache_bytes(&tfdbg2_reader_ops, t.dump, buf, len, &m, err,
						sizeof err), TD_OK);
	assert_int_equal(model_trace_count(m), 680);
	model_close(m);
	free(buf);
	tmp_done(&t);
}

/* The fuzz harness's header stamp (mc_header_restamp): a file whose
 * header says another format and version is refused as such, and the
 * same bytes with this build's identity stamped on apply (so fuzz seeds
 * of an earlier format reach the parsers); the stamp keeps the magic, so
 * a file marked stale stays refused. */
static void
test_cache_restamped_header_applies(void **state)
{
	struct tmp t;
	struct model *m = NULL;
	unsigned char *buf;
	char err[512], path[256];
	uint32_t old = 6;
	size_t len;

	(void)state;
	tmp_init(&t, FIX "/mnist_nan");
	model_close(open_cached(&t, true, "new"));
	buf = read_the_tdx(&t, path, sizeof path, &len);
	memcpy(buf + 8, &old, sizeof old);              /* the format word */
	memcpy(buf + 40, "0.0-older", 10);              /* the version */
	assert_int_not_equal(model_open_cache_bytes(&tfdbg2_reader_ops, t.dump, buf, len, &m, err,
						    sizeof err), TD_OK);
	assert_non_null(strstr(err, "cache file of another tdbg version"));
	mc_header_restamp(buf);
	assert_int_equal(model_open_cache_bytes(&tfdbg2_reader_ops, t.dump, buf, len, &m, err,
						sizeof err), TD_OK);
	assert_int_equal(model_trace_count(m), 680);
	model_close(m);
	memcpy(buf, "TDBGSTL", 8);
	mc_header_restamp(buf);
	assert_int_not_equal(model_open_cache_bytes(&tfdbg2_reader_ops, t.dump, buf, len, &m, err,
						    sizeof err), TD_OK);
	assert_non_null(strstr(err, "stale"));
	free(buf);
	tmp_done(&t);
}

/* The traces file's bytes, and a whole trace record (framed, both CRCs)
 * whose tensor holds records first..first+n-1 of the file, whole. */
static unsigned char *
carrier_record(const char *path, size_t first, size_t n, size_t *len)
{
	Tensorflow__DebugEvent ev = TENSORFLOW__DEBUG_EVENT__INIT;
	Tensorflow__GraphExecutionTrace tr = TENSORFLOW__GRAPH_EXECUTION_TRACE__INIT;
	Tensorflow__TensorProto tp = TENSORFLOW__TENSOR_PROTO__INIT;
	unsigned char *buf, *rec;
	size_t flen, a, b;
	uint64_t plen;
	uint32_t crc;
	FILE *f = fopen(path, "rb");

	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	flen = (size_t)ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc(flen);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, flen, f), flen);
	fclose(f);
	a = tfrecord_offset(buf, first);
	b = tfrecord_offset(buf, first + n);
	tp.tensor_content.data = buf + a;
	tp.tensor_content.len = b - a;
	tr.op_name = "carrier";
	tr.tensor_proto = &tp;
	ev.what_case = TENSORFLOW__DEBUG_EVENT__WHAT_GRAPH_EXECUTION_TRACE;
	ev.graph_execution_trace = &tr;
	ev.wall_time = 1e9;
	rec = malloc(b - a + 256);
	assert_non_null(rec);
	plen = tensorflow__debug_event__pack(&ev, rec + 12);
	memcpy(rec, &plen, 8);
	crc = crc32c_mask(crc32c(rec, 8));
	memcpy(rec + 8, &crc, 4);
	crc = crc32c_mask(crc32c(rec + 12, plen));
	memcpy(rec + 12 + plen, &crc, 4);
	*len = plen + 16;
	free(buf);
	return rec;
}

static void
append_bytes(const char *path, const unsigned char *p, size_t n)
{
	FILE *f = fopen(path, "ab");

	assert_non_null(f);
	assert_int_equal(fwrite(p, 1, n, f), n);
	fclose(f);
}

/* A traces file read while its last record was half written, the part
 * written holding 20 whole records (a tensor of TFRecord frames): once the
 * record is whole, the cached index gives the rows a fresh index gives
 * (681: the carrier is one row), not the 20 inner records the torn pass
 * took for the file's own. */
static void
test_cache_torn_record_holding_frames_completed(void **state)
{
	struct tmp t;
	struct model *m, *fresh;
	struct model_info info;
	unsigned char *rec;
	char path[256];
	size_t len;

	(void)state;
	tmp_init(&t, FIX "/mnist_nan");
	snprintf(path, sizeof path, "%s/tfdbg_events.1586979375.tfdbg-host-a.graph_execution_traces",
		 t.dump);
	rec = carrier_record(path, 5, 20, &len);
	append_bytes(path, rec, len - 30);      /* every inner record whole, the carrier not */
	model_close(open_cached(&t, true, "new"));
	append_bytes(path, rec + len - 30, 30);
	m = open_cached(&t, true, "rebuilt");
	fresh = open_cached(&t, false, "off");
	model_info(m, &info);
	assert_int_equal(info.traces, 681);                 /* README's 680 + the carrier */
	assert_int_equal(model_trace_count(fresh), 681);
	for (uint64_t i = 0; i < 681; i++) {
		struct model_trace a, b;

		assert_int_equal(model_trace_get(m, i, &a), TD_OK);
		assert_int_equal(model_trace_get(fresh, i, &b), TD_OK);
		assert_string_equal(a.op_name, b.op_name);
		assert_int_equal(a.flags, b.flags);
	}
	model_close(fresh);
	model_close(m);
	model_close(open_cached(&t, true, "used"));
	free(rec);
	tmp_done(&t);
}

/* A cache file whose row flag disagrees with the dump (the dump changed
 * where the fingerprint does not look; forged here by flipping the flag
 * before the save): decoding the row says the index is stale, marks the
 * file, and the next open indexes afresh saying why.  Both directions:
 * row 0 (finite, README) saved non-finite, row 88 (Log, NaN) saved
 * finite. */
/* Saves t's dump's cache file with row's non-finite flag forged. */
static void
forge_flag(struct tmp *t, uint64_t row, bool indexed_nf)
{
	struct model *m;

	tmp_init(t, FIX "/mnist_nan");
	m = open_cached(t, false, "off");
	if (indexed_nf)
		m->rows.tchunks[0]->flags[row] |= TF_NONFINITE;
	else
		m->rows.tchunks[0]->flags[row] &= (uint8_t)~TF_NONFINITE;
	save_as_cache(m, t, indexed_nf ? "forged-flag-nonfinite" : "forged-flag-finite");
	model_close(m);
}

static void
check_stale(uint64_t row, bool indexed_nf)
{
	struct tmp t;
	struct model *m;
	struct model_info info;
	struct model_trace tr;
	char want[64];

	forge_flag(&t, row, indexed_nf);
	m = open_cached(&t, true, "used");
	assert_int_equal(model_trace_get(m, row + 1, &tr), TD_OK);  /* a true row: no word */
	model_info(m, &info);
	assert_string_equal(info.index_cache, "used");
	assert_int_equal(model_trace_get(m, row, &tr), TD_OK);
	model_info(m, &info);
	assert_string_equal(info.index_cache, "stale");
	snprintf(want, sizeof want, "trace %llu decodes %s", (unsigned long long)row,
		 indexed_nf ? "finite" : "non-finite");
	assert_non_null(strstr(info.index_cache_why, want));
	model_close(m);
	m = open_cached(&t, true, "rebuilt");
	model_info(m, &info);
	assert_non_null(strstr(info.index_cache_why, "stale"));
	model_close(m);
	model_close(open_cached(&t, true, "used"));
	tmp_done(&t);
}

/* The same forged file applied from bytes, as the fuzzer applies it: the
 * index has no file behind it, so there is nothing to mark, and the row
 * still says the index is stale (CI's fuzz run found mark_stale opening a
 * null path here: a UBSan report under make asan). */
static void
check_stale_bytes(uint64_t row, bool indexed_nf)
{
	struct tmp t;
	struct model *m;
	struct model_info info;
	struct model_trace tr;
	char err[512], path[512];
	unsigned char *buf;
	size_t len;

	forge_flag(&t, row, indexed_nf);
	buf = read_the_tdx(&t, path, sizeof path, &len);
	assert_int_equal(model_open_cache_bytes(&tfdbg2_reader_ops, t.dump, buf, len, &m, err, sizeof err),
			 TD_OK);
	assert_int_equal(model_trace_get(m, row, &tr), TD_OK);
	model_info(m, &info);
	assert_string_equal(info.index_cache, "stale");
	model_close(m);
	free(buf);
	buf = read_the_tdx(&t, path, sizeof path, &len);
	assert_memory_equal(buf, "TDBGIDX", 7);            /* the file is as saved: not marked */
	free(buf);
	tmp_done(&t);
}

static void
test_cache_decode_contradicting_index_is_stale(void **state)
{
	(void)state;
	check_stale(0, true);
	check_stale(88, false);
	check_stale_bytes(0, true);
	check_stale_bytes(88, false);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cache_self_chain_refused),
		cmocka_unit_test(test_cache_row_op_out_of_range_refused),
		cmocka_unit_test(test_cache_chain_backwards_refused),
		cmocka_unit_test(test_cache_op_rows_backwards_refused),
		cmocka_unit_test(test_cache_forged_ops_refused_when_decoded_at_open),
		cmocka_unit_test(test_cache_op_added_after_load_joins_its_name),
		cmocka_unit_test(test_cache_max_sizes),
		cmocka_unit_test(test_cache_max_refused_says_why),
		cmocka_unit_test(test_cache_truncated_under_session),
		cmocka_unit_test(test_cache_golden_file_loads_or_is_refused_for_a_reason),
		cmocka_unit_test(test_cache_file_of_this_build_applies),
		cmocka_unit_test(test_cache_restamped_header_applies),
		cmocka_unit_test(test_cache_torn_record_holding_frames_completed),
		cmocka_unit_test(test_cache_decode_contradicting_index_is_stale),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
