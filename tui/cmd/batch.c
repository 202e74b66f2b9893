/*
 * batch.c - runs -e commands on an open model and prints their output.
 *
 * JSON mode prints exactly one line per command (the command's document,
 * or {"error": ...}), so line i of stdout always belongs to command i.
 * Text mode prints each command's aligned output, a blank line between
 * commands.  Long listings stream (env->flush) so memory stays bounded.
 * Failures go to stderr as "tdbg: CMD: cause"; the other commands still
 * run and the exit code becomes 1.
 *
 * Text for people passes through sanitize() line by line, as the TUI's
 * strings do: an op name or source line holding an escape sequence reaches
 * the terminal as visible text ("^["), never raw (issue 6).  JSON needs no
 * such step: json.c escapes every control character.
 */
#include "batch.h"

#include <string.h>

#include "cmd.h"
#include "emit.h"
#include "sanitize.h"

/* Writes text line by line through sanitize(); tabs are expanded. */
static void
write_sanitized(FILE *f, const char *text, size_t len)
{
	struct strbuf line = {0};
	const char *p = text, *end = text + len, *nl;

	while (p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		strbuf_reset(&line);
		sanitize(p, nl ? (size_t)(nl - p) : (size_t)(end - p), -1, SANITIZE_TABS, &line);
		if (line.len)
			fwrite(line.buf, 1, line.len, f);
		if (!nl)
			break;
		fputc('\n', f);
		p = nl + 1;
	}
	strbuf_done(&line);
}

/* Where one batch run's output goes; also env->flush_ctx. */
struct sink {
	FILE *out;
	bool json;
	bool printed;               /* some command printed something */
	bool started;               /* the current command printed something */
	char last;                  /* last byte written for this command */
};

/* Writes the command's pending output and empties env->out. */
static void
emit(struct cmd_env *env)
{
	struct sink *k = env->flush_ctx;
	struct strbuf *ob = env->out;

	if (!ob->len)
		return;
	if (!k->started && !k->json && k->printed)
		fputc('\n', k->out);       /* a blank line between text results */
	k->started = k->printed = true;
	if (k->json)
		fwrite(ob->buf, 1, ob->len, k->out);
	else
		write_sanitized(k->out, ob->buf, ob->len);
	k->last = ob->buf[ob->len - 1];
	strbuf_reset(ob);
}

static void
report_error(FILE *err, const struct strbuf *eb)
{
	fputs("tdbg: ", err);
	if (eb->len)
		write_sanitized(err, eb->buf, eb->len);
	else
		fputs("command failed", err);
	fputc('\n', err);
}

int
batch_run(struct model *m, const char *const *cmds, size_t n, bool json,
	  FILE *out, FILE *err)
{
	return batch_run_diff(m, NULL, cmds, n, json, out, err);
}

int
batch_run_diff(struct model *m, struct model_diff *d, const char *const *cmds, size_t n,
	       bool json, FILE *out, FILE *err)
{
	struct strbuf ob = {0}, eb = {0};
	struct sink k = { .out = out, .json = json };
	struct cmd_env env = { .m = m, .json = json, .out = &ob, .err = &eb,
			       .flush = emit, .flush_ctx = &k, .diff = d };
	int rc = EXIT_OK_;
	size_t i;

	for (i = 0; i < n; i++) {
		k.started = false;
		k.last = '\n';
		if (cmd_run(&env, cmds[i]) != TD_OK) {
			report_error(err, &eb);
			rc = EXIT_USAGE;
		}
		emit(&env);
		if (json || k.last != '\n')
			fputc('\n', out);
		fflush(out);
	}
	strbuf_done(&ob);
	strbuf_done(&eb);
	return rc;
}

int
batch_strict_check(struct model *m, FILE *err)
{
	struct model_info in;

	model_info(m, &in);
	if (in.corrupt_records == 0 && in.torn_files == 0 && in.missing_files == 0)
		return EXIT_OK_;
	fprintf(err, "tdbg: --strict: %llu corrupt records, %llu torn files, %llu missing files "
		"(see the problems command)\n", (unsigned long long)in.corrupt_records,
		(unsigned long long)in.torn_files, (unsigned long long)in.missing_files);
	return EXIT_STRICT;
}

void
batch_json_error(FILE *out, const char *msg)
{
	struct strbuf sb = {0};
	struct emit e;

	emit_init(&e, &sb, true);
	emit_object_begin(&e, NULL);
	emit_kv_str(&e, "error", msg);
	emit_object_end(&e);
	emit_done(&e);
	fprintf(out, "%s\n", sb.buf ? sb.buf : "{}");
	fflush(out);
	strbuf_done(&sb);
}

int
batch_check(struct model *m, bool json, bool watches, FILE *out, FILE *err)
{
	struct strbuf ob = {0}, eb = {0};
	struct sink k = { .out = out, .json = json };
	struct cmd_env env = { .m = m, .json = json, .out = &ob, .err = &eb,
			       .flush = emit, .flush_ctx = &k };
	bool bad = false, cannot_tell = false;

	k.last = '\n';
	if (cmd_check(&env, watches, &bad, &cannot_tell) != TD_OK)
		report_error(err, &eb);
	emit(&env);
	if (json || k.last != '\n')
		fputc('\n', out);
	fflush(out);
	strbuf_done(&ob);
	strbuf_done(&eb);
	return bad ? EXIT_NONFINITE : cannot_tell ? EXIT_CANNOT_TELL : EXIT_OK_;
}
