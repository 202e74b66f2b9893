/*
 * main.c - command line: options, opening the dump, then batch mode or the
 * full-screen interface.
 *
 * Batch mode (any -e) never initialises curses.  Without -e, when stdout
 * is not a terminal or TERM is unset or dumb, a short note goes to stderr
 * and the default summary (info, alerts) is printed instead of the TUI.
 * Exit codes are in batch.h (0 ok, 1 usage, 2 cannot open, 3 strict,
 * 4 --check found NaN/Inf, 5 --check cannot tell).
 *
 * Two dumps (DUMP_A DUMP_B), or one with --compare-hosts A,B, are compared:
 * both are indexed fully, aligned (model_diff.h), and the commands and the
 * interface see the alignment (the diff command, the diff layout).
 */
#include <getopt.h>
#include <langinfo.h>
#include <locale.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/model.h"
#include "model/model_diff.h"
#include "model/model_query.h"
#include "tui/cmd/batch.h"
#include "tui/cmd/cmd.h"
#include "tui/cmd/emit.h"
#include "tui/cmd/fmt.h"
#include "tui/cmd/many.h"
#include "tui/cmd/sanitize.h"
#include "tui.h"

struct args {
	const char **cmds;
	size_t ncmds, cap;
	bool json, strict, no_color, no_mouse, follow, man, check, fresh, no_cache;
	bool clear_cache;           /* --clear-cache [DUMP_DIR] */
	bool quiet;                 /* --quiet: no progress line */
	bool fail_on_watches;       /* --fail-on watches */
	const char *format, *source_root, *theme, *dump, *dump_b;
	struct model_diff_hostpair *pairs;  /* --pair, --compare-hosts (a owns "A\0B") */
	size_t npairs, cappairs;
	bool compare_hosts;
	double rtol, atol, cos_min;         /* < 0: per-dtype default */
	bool fuzzy;                         /* --fuzzy: calls pair in order */
	bool api_mapping, cell_mapping;     /* --api-mapping[=FILE], --cell-mapping[=FILE] */
	const char *api_mapping_file;       /* NULL: the built-in rules alone */
	const char *cell_mapping_file;      /* NULL: the built-in rules alone */
	const char *data_mapping_file;      /* --data-mapping=FILE, or NULL */
	const char *layer_mapping_file;     /* --layer-mapping=FILE, or NULL */
	/* many nodes (many.h): --node, --merge, --via and their options */
	bool node, merge;
	const char *via, *via_tdbg, *nodes;
	int64_t ranks, rank_base;           /* -1: not given */
	char **paths;                       /* the operands (borrowed from argv) */
	size_t npaths;
};

/* "tdbg: MSG" on stderr, MSG made safe for the terminal (it may name a
 * dump's hosts or paths, or echo an argument). */
static void
print_error(const char *msg)
{
	struct strbuf safe = {0};

	sanitize_str(msg, -1, &safe);
	fprintf(stderr, "tdbg: %s\n", safe.buf ? safe.buf : "");
	strbuf_done(&safe);
}

static void
usage_error(const char *fmt, const char *arg)
{
	struct strbuf msg = {0};

	strbuf_addf(&msg, fmt, arg);
	print_error(msg.buf);
	strbuf_done(&msg);
	fputs("Try 'tdbg --help'.\n", stderr);
}

/* getopt_long tables from batch_options(), plus the hidden --man. */
static void
build_getopt(struct option *longs, char *shorts)
{
	const struct batch_option *o;
	size_t i, n;
	char *p = shorts;

	o = batch_options(&n);
	for (i = 0; i < n; i++) {
		longs[i] = (struct option){ o[i].name, !o[i].arg ? no_argument : o[i].arg[0] == '['
					    ? optional_argument : required_argument, NULL, o[i].id };
		if (o[i].id >= 256)
			continue;               /* long only */
		*p++ = (char)o[i].id;
		if (o[i].arg)
			*p++ = ':';
	}
	longs[n] = (struct option){ "man", no_argument, NULL, 256 };
	longs[n + 1] = (struct option){ NULL, 0, NULL, 0 };
	*p = '\0';
}

/* "A=B" or "A,B" split at sep into a new host pair (copies kept in a). */
static int
add_pair(struct args *a, const char *text, char sep, const char *opt)
{
	const char *mid = strchr(text, sep);
	char *copy;

	if (!mid || mid == text || !mid[1] || strchr(mid + 1, sep)) {
		char fmt[64];

		snprintf(fmt, sizeof fmt, "%s wants A%cB, not \"%%s\"", opt, sep);
		usage_error(fmt, text);
		return EXIT_USAGE;
	}
	copy = xstrdup(text);
	copy[mid - text] = '\0';
	TD_GROW(a->pairs, a->cappairs, a->npairs + 1);
	a->pairs[a->npairs].a = copy;
	a->pairs[a->npairs].b = copy + (mid - text) + 1;
	a->npairs++;
	return -1;
}

static int
parse_tol(double *out, const char *opt)
{
	char *end;
	double v = strtod(optarg, &end);

	if (end == optarg || *end || !(v >= 0)) {
		char fmt[64];

		snprintf(fmt, sizeof fmt, "%s wants a number >= 0, not \"%%s\"", opt);
		usage_error(fmt, optarg);
		return EXIT_USAGE;
	}
	*out = v;
	return -1;
}

/* --ranks N, --rank N: a number >= 0 (--ranks: >= 1). */
static int
parse_count(int64_t *out, const char *opt, long long min)
{
	char *end;
	long long v = strtoll(optarg, &end, 10);

	if (end == optarg || *end || v < min || v > 100000000) {
		char fmt[64];

		snprintf(fmt, sizeof fmt, "%s wants a number >= %lld, not \"%%s\"", opt, min);
		usage_error(fmt, optarg);
		return EXIT_USAGE;
	}
	*out = v;
	return -1;
}

/* --cos-min: a cosine similarity, so within [0, 1] (a higher one could
 * never agree). */
static int
parse_cos_min(double *out)
{
	char *end;
	double v = strtod(optarg, &end);

	if (end == optarg || *end || !(v >= 0 && v <= 1)) {
		usage_error("--cos-min wants a number from 0 to 1, not \"%s\"", optarg);
		return EXIT_USAGE;
	}
	*out = v;
	return -1;
}

/* Returns -1 to go on, else the exit code. */
static int
parse_option(struct args *a, int c)
{
	switch (c) {
	case BATCH_OPT_NODE: a->node = true; return -1;
	case BATCH_OPT_MERGE: a->merge = true; return -1;
	case BATCH_OPT_VIA: a->via = optarg; return -1;
	case BATCH_OPT_VIA_TDBG: a->via_tdbg = optarg; return -1;
	case BATCH_OPT_NODES: a->nodes = optarg; return -1;
	case BATCH_OPT_RANKS: return parse_count(&a->ranks, "--ranks", 1);
	case BATCH_OPT_RANK: return parse_count(&a->rank_base, "--rank", 0);
	case BATCH_OPT_PAIR: return add_pair(a, optarg, '=', "--pair");
	case BATCH_OPT_COMPARE_HOSTS:
		a->compare_hosts = true;
		return add_pair(a, optarg, ',', "--compare-hosts");
	case BATCH_OPT_RTOL: return parse_tol(&a->rtol, "--rtol");
	case BATCH_OPT_ATOL: return parse_tol(&a->atol, "--atol");
	case BATCH_OPT_COS_MIN: return parse_cos_min(&a->cos_min);
	case BATCH_OPT_FUZZY: a->fuzzy = true; return -1;
	case BATCH_OPT_API_MAPPING:
		a->api_mapping = true;
		a->api_mapping_file = optarg;
		return -1;
	case BATCH_OPT_DATA_MAPPING: a->data_mapping_file = optarg; return -1;
	case BATCH_OPT_LAYER_MAPPING: a->layer_mapping_file = optarg; return -1;
	case BATCH_OPT_CELL_MAPPING:
		a->cell_mapping = true;
		a->cell_mapping_file = optarg;
		return -1;
	case BATCH_OPT_FAIL_ON:
		for (char *w = optarg, *end; *w; w = *end ? end + 1 : end) {
			end = w + strcspn(w, ",");
			size_t len = (size_t)(end - w);
			if (len == 7 && !strncmp(w, "watches", 7))
				a->fail_on_watches = true;
			else if (!(len == 9 && !strncmp(w, "nonfinite", 9))) {
				usage_error("--fail-on takes nonfinite and watches, not \"%s\"", optarg);
				return EXIT_USAGE;
			}
		}
		a->check = true;
		return -1;
	case BATCH_OPT_FRESH: a->fresh = true; return -1;
	case BATCH_OPT_NO_CACHE: a->no_cache = true; return -1;
	case BATCH_OPT_CLEAR_CACHE: a->clear_cache = true; return -1;
	case 'e':
		TD_GROW(a->cmds, a->cap, a->ncmds + 1);
		a->cmds[a->ncmds++] = optarg;
		return -1;
	case 'j': a->json = true; return -1;
	case 's': a->strict = true; return -1;
	case 'f': a->format = optarg; return -1;
	case 'r': a->source_root = optarg; return -1;
	case 't': a->theme = optarg; return -1;
	case 'C': a->no_color = true; return -1;
	case 'm': a->no_mouse = false; return -1;
	case 'M': a->no_mouse = true; return -1;
	case 'F': a->follow = true; return -1;
	case 'c': a->check = true; return -1;
	case 'q': a->quiet = true; return -1;
	case 'p': {
		char *end;
		long n = strtol(optarg, &end, 10);
		if (end == optarg || *end || n < 1 || n > 17) {
			fprintf(stderr, "tdbg: --precision wants a number of digits 1..17, not \"%s\"\n"
				"Try 'tdbg --help'.\n", optarg);
			return EXIT_USAGE;
		}
		fmt_set_precision((int)n);
		return -1;
	}
	case 256: batch_print_man(stdout); return EXIT_OK_;
	case 'h': batch_print_help(stdout); return EXIT_OK_;
	case 'V': printf("tdbg %s\n", TDBG_VERSION); return EXIT_OK_;
	default:  fputs("Try 'tdbg --help'.\n", stderr); return EXIT_USAGE;
	}
}

static int
parse_args(int argc, char **argv, struct args *a)
{
	struct option longs[48];
	char shorts[64];
	int c, rc;

	build_getopt(longs, shorts);
	while ((c = getopt_long(argc, argv, shorts, longs, NULL)) != -1)
		if ((rc = parse_option(a, c)) >= 0)
			return rc;
	a->paths = argv + optind;
	a->npaths = (size_t)(argc - optind);
	if (a->node + a->merge + (a->via != NULL) > 1) {
		usage_error("%s", "--node, --merge and --via are different modes: one at a time");
		return EXIT_USAGE;
	}
	if ((a->node || a->via) && optind >= argc) {
		usage_error("%s", a->node ? "--node wants DUMP..." : "--via wants DUMP...");
		return EXIT_USAGE;
	}
	if (a->node || a->merge || a->via)
		return -1;
	if (a->clear_cache && optind + 1 < argc) {
		usage_error("--clear-cache takes one DUMP_DIR or none (extra: %s)", argv[optind + 1]);
		return EXIT_USAGE;
	}
	if (a->clear_cache) {
		a->dump = optind < argc ? argv[optind] : NULL;
		return -1;
	}
	if (optind >= argc) {
		usage_error("%s", "missing DUMP_DIR");
		return EXIT_USAGE;
	}
	if (optind + 2 < argc && a->cell_mapping && !a->cell_mapping_file) {
		/* "--cell-mapping FILE": getopt gives an optional argument only after '=' */
		usage_error("--cell-mapping takes its file after '=': --cell-mapping=%s", argv[optind]);
		return EXIT_USAGE;
	}
	if (optind + 2 < argc && a->api_mapping && !a->api_mapping_file) {
		usage_error("--api-mapping takes its file after '=': --api-mapping=%s", argv[optind]);
		return EXIT_USAGE;
	}
	if (optind + 2 < argc) {
		usage_error("one DUMP_DIR, or two to compare (extra: %s)", argv[optind + 2]);
		return EXIT_USAGE;
	}
	a->dump = argv[optind];
	a->dump_b = optind + 1 < argc ? argv[optind + 1] : NULL;
	if (a->compare_hosts && (a->dump_b || a->npairs != 1)) {
		usage_error("%s", "--compare-hosts A,B compares two hosts of one dump (once, without --pair)");
		return EXIT_USAGE;
	}
	if (a->npairs && !a->dump_b && !a->compare_hosts) {
		usage_error("%s", "--pair needs two dumps: tdbg --pair A=B DUMP_A DUMP_B");
		return EXIT_USAGE;
	}
	return -1;
}

/* NULL when the full-screen interface can run, else why not. */
static const char *
no_terminal_reason(void)
{
	const char *term = getenv("TERM");

	if (!isatty(STDOUT_FILENO) || !isatty(STDIN_FILENO))
		return "not a terminal";
	if (!term || !*term)
		return "TERM is not set";
	if (strcmp(term, "dumb") == 0)
		return "TERM is dumb";
	return NULL;
}

static int
run_tui(struct model *m, struct model_diff *d, const struct args *a)
{
	const char *nc = getenv("NO_COLOR");
	struct tui_options to = {
		.dump_path = a->dump,
		.theme = a->theme,
		.no_color = a->no_color || (nc && *nc),
		.follow = a->follow,
		.mouse = !a->no_mouse,
		.diff = d,
		.dump_b_path = a->dump_b,
		.fresh = a->fresh,
	};

	return tui_run(m, &to);
}

/* The batch progress line: on a terminal, unless --quiet. */
static bool
show_progress(const struct args *a)
{
	return !a->quiet && isatty(STDERR_FILENO);
}

/* --check: the -e commands if any, then the headline origin; exit 4 when
 * the dump has NaN/Inf, 5 when its mode cannot show any (3 when --strict
 * fails). */
static int
run_check(struct model *m, const struct args *a)
{
	int rc = EXIT_OK_, crc;

	setlocale(LC_CTYPE, "");
	sanitize_set_utf8(strcmp(nl_langinfo(CODESET), "UTF-8") == 0);
	batch_wait(m, show_progress(a), stderr);
	if (a->ncmds)
		rc = batch_run(m, a->cmds, a->ncmds, a->json, stdout, stderr);
	crc = batch_check(m, a->json, a->fail_on_watches, stdout, stderr);
	if (rc == EXIT_OK_)
		rc = crc;
	if (a->strict && batch_strict_check(m, stderr) == EXIT_STRICT)
		rc = EXIT_STRICT;
	return rc;
}

static int
run(struct model *m, struct model_diff *d, struct args *a)
{
	static const char *const summary[] = { "info", "first-nonfinite", "alerts --limit 20" };
	static const char *const diff_summary[] = { "diff --first" };
	const char *why = no_terminal_reason();
	int rc;

	if (a->check)
		return run_check(m, a);
	if (a->ncmds == 0 && !a->json && !why) {
		rc = run_tui(m, d, a);
		if (rc == EXIT_OK_ && a->strict)
			rc = batch_strict_check(m, stderr);
		return rc;
	}
	/* Text output is sanitized for the terminal's character set. */
	setlocale(LC_CTYPE, "");
	sanitize_set_utf8(strcmp(nl_langinfo(CODESET), "UTF-8") == 0);
	batch_wait(m, show_progress(a), stderr);
	if (a->ncmds == 0) {
		fprintf(stderr, "tdbg: %s; printing a summary (use -e CMD for more, see tdbg --help)\n",
			why ? why : "--json");
		if (d)
			rc = batch_run_diff(m, d, diff_summary, TD_ARRAY_SIZE(diff_summary), a->json,
					    stdout, stderr);
		else
			rc = batch_run(m, summary, TD_ARRAY_SIZE(summary), a->json, stdout, stderr);
	} else {
		rc = batch_run_diff(m, d, a->cmds, a->ncmds, a->json, stdout, stderr);
	}
	if (a->strict && batch_strict_check(m, stderr) == EXIT_STRICT)
		rc = EXIT_STRICT;
	return rc;
}

static void
args_done(struct args *a)
{
	size_t i;

	for (i = 0; i < a->npairs; i++)
		free((char *)a->pairs[i].a);
	free(a->pairs);
	free(a->cmds);
}

/* Says why path did not open (st, err from model_open) on stderr, and in
 * JSON on stdout when json. */
static void
open_failed(const char *path, enum td_status st, const char *err, bool json)
{
	char msg[2048];

	/* the model's message usually starts with the path already */
	if (*err && strncmp(err, path, strlen(path)) == 0)
		snprintf(msg, sizeof msg, "cannot open %s", err);
	else
		snprintf(msg, sizeof msg, "cannot open %s: %s", path, *err ? err : td_strerror(st));
	print_error(msg);                 /* names from the disk */
	if (json)
		batch_json_error(stdout, msg);
}

static struct model *
open_dump(const char *path, const struct model_options *mo, bool json)
{
	struct model *m = NULL;
	char err[1024] = "";
	enum td_status st = model_open(path, mo, &m, err, sizeof err);

	if (st == TD_OK)
		return m;
	open_failed(path, st, err, json);
	return NULL;
}

/* The second dump of a diff, opened on a thread of its own while the
 * first opens on the main one (the machine's second core: each open reads
 * and checks its persistent index, then decodes its op table, which the
 * diff reads whole).  Nothing is printed there: the main thread reports. */
struct open_job {
	const char *path;
	struct model_options mo;
	struct model *m;
	enum td_status st;
	char err[1024];
};

static void *
open_job_run(void *arg)
{
	struct open_job *j = arg;

	j->st = model_open(j->path, &j->mo, &j->m, j->err, sizeof j->err);
	return NULL;
}

/* Opens a->dump into *m and, when given, a->dump_b into *mb, the two at
 * once; false (both closed, the first failure reported as open_dump
 * would, the second dump's only when the first opened) when one fails. */
static bool
open_dumps(const struct args *a, const struct model_options *mo, struct model **m,
	   struct model **mb)
{
	struct open_job job = { .path = a->dump_b, .mo = *mo };
	struct model_options moa = *mo;
	pthread_t th;

	*m = *mb = NULL;
	if (!a->dump_b)
		return (*m = open_dump(a->dump, mo, a->json)) != NULL;
	job.mo.ops_at_open = moa.ops_at_open = true;
	if (pthread_create(&th, NULL, open_job_run, &job) != 0) {
		if (!(*m = open_dump(a->dump, &moa, a->json)))
			return false;
		open_job_run(&job);
	} else {
		*m = open_dump(a->dump, &moa, a->json);
		pthread_join(th, NULL);
	}
	if (*m && job.st != TD_OK)
		open_failed(a->dump_b, job.st, job.err, a->json);
	if (*m && job.st == TD_OK) {
		*mb = job.m;
		return true;
	}
	model_close(*m);
	model_close(job.m);
	*m = NULL;
	return false;
}

/* The user's watches file; a bad line is said once on stderr (the file is
 * the user's, not the dump's, but its text is sanitized all the same). */
static void
load_watches(struct model *m)
{
	char err[1024];
	struct strbuf safe = {0};

	if (!cmd_watches_load(m, err, sizeof err))
		return;
	sanitize_str(err, -1, &safe);
	fprintf(stderr, "tdbg: %s\n", safe.buf ? safe.buf : "");
	strbuf_done(&safe);
}

/* Two dumps, or two hosts of one: waits for both indexes and aligns them.
 * Returns -1 to go on (*d set, NULL when not comparing), else the exit code. */
/* The name maps --api-mapping, --cell-mapping and --data-mapping ask for
 * (--layer-mapping's once both dumps are indexed, open_diff),
 * made by the target's (b's) reader into *map; false after printing the
 * error. */
static bool
open_maps(struct model *b, const struct args *o, struct reader_map **map)
{
	char err[1024] = "";
	enum td_status st = TD_OK;

	if (o->api_mapping)
		st = model_map_add(b, map, READER_MAP_API, o->api_mapping_file, err, sizeof err);
	if (st == TD_OK && o->cell_mapping)
		st = model_map_add(b, map, READER_MAP_CELL, o->cell_mapping_file, err, sizeof err);
	if (st == TD_OK && o->data_mapping_file)
		st = model_map_add(b, map, READER_MAP_DATA, o->data_mapping_file, err, sizeof err);
	if (st != TD_OK)
		print_error(err);
	return st == TD_OK;
}

static int
open_diff(struct model *a, struct model *b, const struct args *o, struct reader_map **map,
	  struct model_diff **d)
{
	struct model_diff_options opt;
	char err[512] = "";

	*d = NULL;
	if (!b && !o->compare_hosts) {
		if (o->api_mapping || o->cell_mapping) {
			print_error("--api-mapping and --cell-mapping map the names of a diff: "
				    "give two dumps (or --compare-hosts)");
			return EXIT_USAGE;
		}
		if (o->data_mapping_file) {
			print_error("--data-mapping maps the leaf names of a diff: give two dumps "
				    "(or --compare-hosts)");
			return EXIT_USAGE;
		}
		if (o->layer_mapping_file) {
			print_error("--layer-mapping maps the layers of a diff: give two dumps");
			return EXIT_USAGE;
		}
		return -1;
	}
	if (o->layer_mapping_file && (!b || o->data_mapping_file)) {
		print_error(!b ? "--layer-mapping maps the layers of two dumps, not of two hosts "
			    "of one (--compare-hosts)" : "--layer-mapping makes the data map: give "
			    "it or --data-mapping, not both");
		return EXIT_USAGE;
	}
	if ((o->api_mapping || o->cell_mapping || o->data_mapping_file) &&
	    !open_maps(b ? b : a, o, map))
		return EXIT_USAGE;
	model_diff_options_init(&opt);
	opt.rtol = o->rtol, opt.atol = o->atol, opt.cos_min = o->cos_min;
	opt.fuzzy = o->fuzzy;
	opt.pairs = o->pairs;
	opt.npairs = o->npairs;
	batch_wait(a, show_progress(o), stderr);
	if (b)
		batch_wait(b, show_progress(o), stderr);
	/* the layer map reads both indexed dumps */
	if (o->layer_mapping_file &&
	    model_map_layers(b, a, map, o->layer_mapping_file, err, sizeof err) != TD_OK) {
		print_error(err);
		return EXIT_USAGE;
	}
	opt.map = *map;
	if (model_diff_new(a, b ? b : a, &opt, d, err, sizeof err) != TD_OK) {
		print_error(err);
		return EXIT_USAGE;
	}
	return -1;
}

/* --node, --merge, --via, or a file of node lines (the ranks view): the
 * exit code, or -1 when none of them applies. */
static int
run_many(struct args *a, const struct model_options *mo)
{
	struct node_options no = { .rank_base = a->rank_base };
	struct merge_options mg = { .ranks = a->ranks, .nodes = a->nodes };
	const char *nc = getenv("NO_COLOR");

	if (a->node)
		return many_node(a->paths, a->npaths, mo, &no, stdout);
	if (a->merge)
		return many_merge(a->paths, a->npaths, &mg, a->json, stdout, stderr);
	if (a->via)
		return many_via(a->via, a->via_tdbg, a->paths, a->npaths, &mg, a->json, stdout, stderr);
	if (a->npaths == 1 && !a->ncmds && many_is_lines_file(a->paths[0])) {
		if (!a->json && !no_terminal_reason())
			return tui_ranks_run(a->paths[0], &(struct tui_options){
				.theme = a->theme, .no_color = a->no_color || (nc && *nc) });
		return many_merge(a->paths, 1, &mg, a->json, stdout, stderr);
	}
	return -1;
}

/* --clear-cache [DUMP_DIR]: one line (JSON: {"removed_files",
 * "removed_bytes", "cache_dir"}); 0, EXIT_OPEN when the dump cannot be
 * opened, EXIT_USAGE when a file could not be removed. */
static int
clear_cache(const struct args *a, const struct model_options *mo)
{
	uint64_t files, bytes;
	char err[1024] = "", *dir = NULL;
	enum td_status st = model_cache_clear(a->dump, mo, &files, &bytes, &dir, err, sizeof err);
	struct strbuf msg = {0}, safe = {0};
	struct emit e;

	if (st != TD_OK) {
		strbuf_addf(&msg, "--clear-cache: %s", *err ? err : td_strerror(st));
		print_error(msg.buf);
		if (a->json)
			batch_json_error(stdout, msg.buf);
		strbuf_done(&msg);
		free(dir);
		return a->dump && st != TD_ERR_IO ? EXIT_OPEN : EXIT_USAGE;
	}
	emit_init(&e, &msg, a->json);
	emit_object_begin(&e, emit_json_only);
	emit_kv_uint(&e, "removed_files", files);
	emit_kv_uint(&e, "removed_bytes", bytes);
	emit_kv_str(&e, "cache_dir", dir);
	if (dir)
		sanitize_str(dir, -1, &safe);
	emit_textf(&e, "removed %llu index file%s (%llu bytes)%s%s%s", (unsigned long long)files,
		   files == 1 ? "" : "s", (unsigned long long)bytes, dir ? " from " : "",
		   safe.buf ? safe.buf : "", a->dump && !files ? " (that dump had none)" : "");
	emit_object_end(&e);
	emit_done(&e);
	strbuf_addc(&msg, '\n');
	strbuf_done(&safe);
	fputs(msg.buf, stdout);
	strbuf_done(&msg);
	free(dir);
	return EXIT_OK_;
}

int
main(int argc, char **argv)
{
	struct args a = { .rtol = -1, .atol = -1, .cos_min = -1, .ranks = -1, .rank_base = -1 };
	struct model_options mo = {0};
	struct model *m = NULL, *mb = NULL;
	struct model_diff *d = NULL;
	struct reader_map *map = NULL;
	int rc;

	if ((rc = parse_args(argc, argv, &a)) >= 0) {
		args_done(&a);
		return rc;
	}
	mo.source_root = a.source_root;
	mo.format = a.format;
	/* the screen will follow: the reader may hold back what is being written */
	mo.follow = a.follow && a.ncmds == 0 && !a.json && !a.check && !no_terminal_reason();
	/* the screen can switch follow mode on later: the reader keeps what it compares */
	mo.may_follow = a.ncmds == 0 && !a.json && !a.check && !no_terminal_reason();
	mo.cache = !a.no_cache;     /* the persistent index (model_cache.c) */
	if ((rc = run_many(&a, &mo)) >= 0) {
		args_done(&a);
		return rc;
	}
	if (a.clear_cache) {
		rc = clear_cache(&a, &mo);
		args_done(&a);
		return rc;
	}
	if (!open_dumps(&a, &mo, &m, &mb)) {
		args_done(&a);
		return EXIT_OPEN;
	}
	load_watches(m);
	if ((rc = open_diff(m, mb, &a, &map, &d)) < 0)
		rc = run(m, d, &a);
	model_diff_free(d);
	model_map_free(mb ? mb : m, map);
	model_close(mb);
	model_close(m);
	args_done(&a);
	return rc;
}
