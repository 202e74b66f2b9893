/*
 * batch.c - runs -e commands on an open model and prints their output.
 *
 * JSON mode prints exactly one line per command (the command's document,
 * or {"error": ...}), so line i of stdout always belongs to command i.
 * Text mode prints each command's aligned output, a blank line between
 * commands.  Failures go to stderr as "tdbg: CMD: cause"; the other
 * commands still run and the exit code becomes 1.
 */
#include "batch.h"

#include <string.h>

#include "cmd.h"

int
batch_run(struct model *m, const char *const *cmds, size_t n, bool json,
	  FILE *out, FILE *err)
{
	struct strbuf ob = {0}, eb = {0};
	struct cmd_env env = { .m = m, .json = json, .out = &ob, .err = &eb };
	int rc = EXIT_OK_;
	size_t i;

	for (i = 0; i < n; i++) {
		if (cmd_run(&env, cmds[i]) != TD_OK) {
			fprintf(err, "tdbg: %s\n", eb.buf ? eb.buf : "command failed");
			rc = EXIT_USAGE;
		}
		if (!json && i > 0 && ob.len)
			fputc('\n', out);
		if (ob.len)
			fwrite(ob.buf, 1, ob.len, out);
		if (json || (ob.len && ob.buf[ob.len - 1] != '\n'))
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
