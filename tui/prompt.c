/*
 * prompt.c - the ':' command prompt and the '/' search prompt.
 *
 * Both read a line with the line editor (prompt_line.c): ':' runs it
 * through the command table and shows what it printed (or writes it to
 * FILE after "> FILE", ">| FILE" replacing a file), '/' hands the regex
 * to the search (tui_search.c).
 */
#include "tui_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model_diff.h"
#include "tui/cmd/cmd.h"
#include "tui/cmd/outfile.h"

static void
show_output(struct tui *t, const char *line, const struct strbuf *out)
{
	const char *nl;
	struct strbuf head = { 0 };

	if (!out->len)
		return;
	strbuf_addf(&head, "# :%s", line);
	if (t->output.n)
		tui_text_append(&t->output, " ");
	t->output.mark = t->output.n;
	tui_text_append(&t->output, head.buf);
	strbuf_done(&head);
	tui_text_append(&t->output, out->buf);
	if (!t->output.title)
		t->output.title = xstrdup("Command output");
	nl = strchr(out->buf, '\n');
	bool one_line = !nl || !nl[1];
	/* a command that moved the panes, or printed one line, leaves the panes
	 * in view: its first line goes to the message line, the rest stays in
	 * the output pane (o) */
	if (t->ui_acted || one_line) {
		if (!t->message[0])
			tui_message(t, false, "%.*s%s", (int)(nl ? nl - out->buf : (long)out->len), out->buf,
				    one_line ? "" : "   (o: full output)");
	} else {
		tui_open_overlay(t, OVERLAY_OUTPUT);
	}
}

/* "COMMAND > FILE": the output goes to FILE instead of the screen. */
static void
write_output(struct tui *t, struct model_diff *diff, const char *file, bool force,
	     const struct strbuf *out)
{
	struct model *dumps[2] = { t->m, diff ? model_diff_b(diff) : NULL };
	char err[4200];

	if (outfile_write(file, dumps, 2, force, out->buf ? out->buf : "", out->len, err,
			  sizeof err) != TD_OK)
		tui_message(t, true, "> %s", err);
	else
		tui_message(t, false, "wrote %zu bytes to %s", out->len, file);
}

void
prompt_command(struct tui *t)
{
	char *line = prompt_read(t, ":", true);

	if (line && *line)
		tui_run_command(t, line);
	free(line);
}

void
tui_run_command(struct tui *t, const char *line)
{
	struct strbuf out = { 0 }, err = { 0 };

	t->message[0] = '\0';
	t->ui_acted = false;
	struct cmd_env env = { .m = t->m, .json = false, .out = &out, .err = &err, .ui = tui_cmd_ui(t),
			       .diff = tui_diff(t) };
	char *cmd = NULL, *file = NULL, why[4200];
	bool force;
	enum td_status st;
	struct model *dumps[2] = { t->m, env.diff ? model_diff_b(env.diff) : NULL };
	if (outfile_split_redirect(line, &cmd, &file, &force, why, sizeof why) && !file)
		tui_message(t, true, "%s", why);
	else if (file && outfile_check(file, dumps, 2, force, why, sizeof why) != TD_OK)
		tui_message(t, true, "> %s", why);     /* checked before the command runs */
	else if ((st = cmd_run(&env, cmd ? cmd : line)) != TD_OK)
		tui_message(t, true, "%s", err.len ? err.buf : td_strerror(st));
	else if (file)
		write_output(t, env.diff, file, force, &out);
	else
		show_output(t, line, &out);
	free(cmd);
	free(file);
	strbuf_done(&out);
	strbuf_done(&err);
}
void
prompt_search(struct tui *t)
{
	char *re = prompt_read(t, "/", false);

	if (!re)
		return;
	if (*re)
		tui_search_start(t, re);
	free(re);
}
