/*
 * test_model_cache.c - the persistent index (model/model_cache*.c, issue
 * 18) on the tfdbg v2 fixtures, in private temporary directories: a saved
 * index opens with the answers of a fresh one; a torn file completed since
 * extends it; a changed file, a damaged cache file, an unusable directory
 * are handled; any damaged byte of a cache file is refused or gives a
 * model that answers (the fuzzer does this at scale).  Facts come from
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
#include "model/model_cache.h"
#include "tests/unit/helpers/cache_tmp.h"
#include "reader/reader.h"

#define FIX "tests/fixtures/tfdbg2"
#define TRACES "tfdbg_events.1586979375.tfdbg-host-a.graph_execution_traces"

static void
tmp_init(struct tmp *t, const char *fixture)
{
	tmp_init_tagged(t, fixture, "cache");
}

/* The cache file's bytes (one file in the directory). */
static unsigned char *
cache_bytes(const struct tmp *t, size_t *n)
{
	char path[256], cmd[256];
	unsigned char *buf;
	FILE *f;
	long len;

	snprintf(cmd, sizeof cmd, "ls %s/*.tdx", t->cache);
	f = popen(cmd, "r");
	assert_non_null(f);
	assert_non_null(fgets(path, sizeof path, f));
	pclose(f);
	path[strcspn(path, "\n")] = '\0';
	f = fopen(path, "rb");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)len);
	assert_int_equal(fread(buf, 1, (size_t)len, f), (size_t)len);
	fclose(f);
	*n = (size_t)len;
	return buf;
}

/* Every trace row and the alerts of a and b are the same. */
static void
assert_same(struct model *a, struct model *b)
{
	struct model_info ia, ib;
	struct model_alert fa, fb;
	uint64_t i;

	model_info(a, &ia);
	model_info(b, &ib);
	assert_int_equal(ia.traces, ib.traces);
	assert_int_equal(ia.executions, ib.executions);
	assert_int_equal(ia.ops, ib.ops);
	assert_int_equal(ia.alerts, ib.alerts);
	assert_int_equal(ia.stack_frames, ib.stack_frames);
	assert_int_equal(ia.source_files, ib.source_files);
	assert_int_equal(ia.torn_files, ib.torn_files);
	for (i = 0; i < ia.traces; i++) {
		struct model_trace ta, tb;

		assert_int_equal(model_trace_get(a, i, &ta), TD_OK);
		assert_int_equal(model_trace_get(b, i, &tb), TD_OK);
		assert_string_equal(ta.op_name, tb.op_name);
		assert_int_equal(ta.flags, tb.flags);
		assert_int_equal(ta.op, tb.op);
		assert_int_equal(ta.step, tb.step);
		assert_true(ta.wall_time == tb.wall_time);
	}
	assert_true(model_first_nonfinite(a, &fa));
	assert_true(model_first_nonfinite(b, &fb));
	assert_int_equal(fa.index, fb.index);
}

static void
test_cache_saved_index_answers_as_fresh(void **state)
{
	struct tmp t;
	struct model *fresh, *cached;
	struct model_alert a;

	(void)state;
	tmp_init(&t, FIX "/mnist_nan");
	model_close(open_cached(&t, true, "new"));
	cached = open_cached(&t, true, "used");
	fresh = open_cached(&t, false, "off");
	assert_int_equal(model_trace_count(cached), 680);   /* README */
	assert_true(model_first_nonfinite(cached, &a));
	assert_int_equal(a.index, 88);                       /* README: Log:0 */
	assert_string_equal(a.op_name, "Log");
	assert_same(cached, fresh);
	model_close(cached);
	model_close(fresh);
	tmp_done(&t);
}

static void
test_cache_torn_file_completed_extends(void **state)
{
	struct tmp t;
	struct model *m, *fresh;
	struct model_info info;

	(void)state;
	tmp_init(&t, FIX "/torn");
	m = open_cached(&t, true, "new");
	model_info(m, &info);
	assert_int_equal(info.traces, 679);                  /* README: then a torn one */
	assert_int_equal(info.torn_files, 1);
	model_close(m);
	/* the writer finishes the record: the last 100 bytes arrive */
	sh("tail -c 100 " FIX "/mnist_nan/" TRACES " >> %s/" TRACES "%s", t.dump, "");
	m = open_cached(&t, true, "extended");
	model_info(m, &info);
	assert_int_equal(info.traces, 680);
	assert_int_equal(info.torn_files, 0);
	fresh = open_cached(&t, false, "off");
	assert_same(m, fresh);
	model_close(fresh);
	model_close(m);
	model_close(open_cached(&t, true, "used"));
	tmp_done(&t);
}

static void
test_cache_changed_file_rebuilds(void **state)
{
	struct tmp t;
	struct model *m;
	struct model_info info;

	(void)state;
	tmp_init(&t, FIX "/mnist_nan");
	model_close(open_cached(&t, true, "new"));
	/* same size, other bytes: the torn copy's file padded back to size */
	sh("cp " FIX "/torn/" TRACES " %s/" TRACES "%s", t.dump, "");
	sh("head -c 100 /dev/zero >> %s/" TRACES "%s", t.dump, "");
	m = open_cached(&t, true, "rebuilt");
	model_info(m, &info);
	assert_non_null(strstr(info.index_cache_why, "changed"));
	assert_int_equal(info.traces, 679);
	model_close(m);
	tmp_done(&t);
}

/* The reopen's file checks split between two threads (forced here; a
 * dump of 1,024 files or more) answer as one thread does: unchanged, a
 * torn file completed (grown, noted: "extended"), and two files changed
 * (the first of the section's order is the one named).  edit: a command
 * with two %s, each the dump's folder. */
static void
split_check(const char *fixture, const char *edit, const char *state, char *why, size_t len)
{
	struct tmp t;
	struct model *m;
	struct model_info info;
	const char *w;

	tmp_init(&t, fixture);
	model_close(open_cached(&t, true, "new"));
	if (edit)
		sh(edit, t.dump, t.dump);
	m = open_cached(&t, true, state);
	model_info(m, &info);
	/* from the file's name on: the temporary folder differs between runs */
	w = info.index_cache_why ? info.index_cache_why : "";
	snprintf(why, len, "%s", strrchr(w, '/') ? strrchr(w, '/') : w);
	model_close(m);
	tmp_done(&t);
}

static void
test_cache_split_check_answers_as_one_thread(void **state)
{
	static const struct {
		const char *fixture, *edit, *state;
	} cases[] = {
		{ FIX "/mnist_nan", NULL, "used" },
		{ FIX "/torn", "tail -c 100 " FIX "/mnist_nan/" TRACES " >> %s/" TRACES " && test -d %s",
		  "extended" },
		{ FIX "/mnist_nan",
		  "touch -d 2001-01-01 %s/tfdbg_events.1586979375.tfdbg-host-a.metadata && "
		  "cp " FIX "/torn/" TRACES " %s/" TRACES, "rebuilt" },
	};
	/* each file of the dump changed alone: those of both halves */
	static const char *const kinds[] = { "execution", "graph_execution_traces", "graphs",
					     "metadata", "source_files", "stack_frames" };
	char one[512], two[512], edit[512];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0] + TD_ARRAY_SIZE(kinds); i++) {
		const char *fixture = FIX "/mnist_nan", *ed = edit, *st = "rebuilt";

		if (i < sizeof cases / sizeof cases[0])
			fixture = cases[i].fixture, ed = cases[i].edit, st = cases[i].state;
		else
			snprintf(edit, sizeof edit, "touch -d 2001-01-01 "
				 "%%s/tfdbg_events.1586979375.tfdbg-host-a.%s && test -d %%s",
				 kinds[i - sizeof cases / sizeof cases[0]]);
		model_cache_split_min = SIZE_MAX;
		split_check(fixture, ed, st, one, sizeof one);
		model_cache_split_min = 1;
		split_check(fixture, ed, st, two, sizeof two);
		model_cache_split_min = 1024;
		assert_string_equal(one, two);
		if (i >= 2)
			assert_non_null(strstr(two, "tfdbg-host-a."));
	}
}

static void
test_cache_no_directory_still_opens(void **state)
{
	struct tmp t;
	struct model *m;
	struct model_options opt = {.no_thread = true, .cache = true, .cache_dir = "/dev/null/tdbg"};
	struct model_info info;
	char err[512];

	(void)state;
	tmp_init(&t, FIX "/mnist_nan");
	assert_int_equal(model_open(t.dump, &opt, &m, err, sizeof err), TD_OK);
	model_info(m, &info);
	assert_string_equal(info.index_cache, "unavailable");
	assert_int_equal(info.traces, 680);
	model_close(m);
	tmp_done(&t);
}

static void
test_cache_off_unless_asked(void **state)
{
	struct tmp t;

	(void)state;
	tmp_init(&t, FIX "/mnist_nan");
	model_close(open_cached(&t, false, "off"));
	assert_int_not_equal(access(t.cache, F_OK), 0);     /* nothing written */
	tmp_done(&t);
}

static void
test_cache_bad_header_refused(void **state)
{
	struct tmp t;
	struct model *m;
	unsigned char *buf;
	size_t n;
	char err[256];

	(void)state;
	tmp_init(&t, FIX "/mnist_nan");
	model_close(open_cached(&t, true, "new"));
	buf = cache_bytes(&t, &n);
	assert_int_equal(model_open_cache_bytes(&tfdbg2_reader_ops, t.dump, buf, n, &m, err,
						sizeof err), TD_OK);
	model_close(m);
	assert_int_equal(model_open_cache_bytes(&tfdbg2_reader_ops, t.dump, buf, 63, &m, err,
						sizeof err), TD_ERR_CORRUPT);
	buf[0] ^= 1;                                         /* the magic */
	assert_int_equal(model_open_cache_bytes(&tfdbg2_reader_ops, t.dump, buf, n, &m, err,
						sizeof err), TD_ERR_CORRUPT);
	free(buf);
	tmp_done(&t);
}

/* Each damaged byte (every 97th, and all of the first 512) gives a refused
 * file or a model that answers. */
static void
test_cache_damaged_bytes_never_crash(void **state)
{
	struct tmp t;
	struct model *m;
	struct model_alert a;
	unsigned char *buf;
	size_t n, i, opened = 0, refused = 0;
	char err[256];

	(void)state;
	tmp_init(&t, FIX "/mnist_nan");
	model_close(open_cached(&t, true, "new"));
	buf = cache_bytes(&t, &n);
	for (i = 64; i < n; i += i < 512 ? 1 : 97) {
		buf[i] ^= 0x5a;
		if (model_open_cache_bytes(&tfdbg2_reader_ops, t.dump, buf, n, &m, err, sizeof err) ==
		    TD_OK) {
			struct model_trace tr;

			model_first_nonfinite(m, &a);
			if (model_trace_count(m))
				model_trace_get(m, model_trace_count(m) - 1, &tr);
			model_close(m);
			opened++;
		} else {
			refused++;
		}
		buf[i] ^= 0x5a;
	}
	assert_true(refused > 0);
	assert_true(opened + refused > 500);
	free(buf);
	tmp_done(&t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cache_saved_index_answers_as_fresh),
		cmocka_unit_test(test_cache_torn_file_completed_extends),
		cmocka_unit_test(test_cache_changed_file_rebuilds),
		cmocka_unit_test(test_cache_split_check_answers_as_one_thread),
		cmocka_unit_test(test_cache_no_directory_still_opens),
		cmocka_unit_test(test_cache_off_unless_asked),
		cmocka_unit_test(test_cache_bad_header_refused),
		cmocka_unit_test(test_cache_damaged_bytes_never_crash),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
