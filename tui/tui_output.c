/*
 * tui_output.c - the command output pane's links: Enter on a line of a
 * command's output goes to what the line names.
 *
 * The output pane holds text (the commands print for people and scripts
 * alike), so the links are read back from the lines, by the command that
 * printed them (the block's "# :COMMAND ..." heading):
 *   traces, compare   the leading number is a trace row
 *   executions        the leading number is an execution
 *   stack             "#N  FILE:LINE in FUNCTION" is a source line
 *   anything else     "trace N" / "execution N" in the line (alerts,
 *                     first-nonfinite, trees, origins ...); for inputs and
 *                     consumers (li, lo) the number ending the line (their
 *                     "trace" column), else the op named first
 * Not for: the help and tensor overlays (no links there).
 */
#include "tui_internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The command of the block holding line (the first word after "# :"),
 * copied into name; false when there is no heading above it. */
static bool
block_command(const struct tui_text *x, size_t line, char *name, size_t size)
{
	for (size_t i = line + 1; i-- > 0;) {
		const char *s = x->lines[i];
		if (strncmp(s, "# :", 3) != 0)
			continue;
		s += 3;
		size_t n = strcspn(s, " \t");
		snprintf(name, size, "%.*s", (int)n, s);
		return true;
	}
	return false;
}

/* The number at the start of s (after blanks), followed by a blank. */
static bool
leading_number(const char *s, uint64_t *n)
{
	char *end;

	while (*s == ' ')
		s++;
	if (!isdigit((unsigned char)*s))
		return false;
	*n = strtoull(s, &end, 10);
	if (*end != ' ' && *end != '\0')
		return false;
	while (*end == ' ')
		end++;
	return strncmp(end, "of ", 3) != 0;     /* not the count line "6 of 680 rows shown" */
}

/* The number that ends s after a blank: the "trace" column that ends an
 * inputs or consumers row ("probs  Placeholder  0  85"). */
static bool
trailing_number(const char *s, uint64_t *n)
{
	size_t len = strlen(s), i;

	while (len && s[len - 1] == ' ')
		len--;
	for (i = len; i && isdigit((unsigned char)s[i - 1]); i--)
		;
	if (i == len || i == 0 || s[i - 1] != ' ')
		return false;
	*n = strtoull(s + i, NULL, 10);
	return true;
}

/* The number after the word `word` ("trace 88", "trace    88"). */
static bool
word_number(const char *s, const char *word, uint64_t *n)
{
	size_t len = strlen(word);

	for (const char *p = strstr(s, word); p; p = strstr(p + 1, word)) {
		if (p > s && (isalnum((unsigned char)p[-1]) || p[-1] == '_'))
			continue;
		const char *q = p + len;
		if (*q != ' ')
			continue;
		while (*q == ' ')
			q++;
		if (isdigit((unsigned char)*q)) {
			*n = strtoull(q, NULL, 10);
			return true;
		}
	}
	return false;
}

static void
go_trace(struct tui *t, uint64_t row)
{
	tui_close_overlay(t);
	if (tui_jump_trace(t, row, true))
		tui_focus(t, PANE_TRACES);
}

static void
go_execution(struct tui *t, uint64_t row)
{
	tui_close_overlay(t);
	if (tui_jump_execution(t, row, true))
		tui_focus(t, PANE_TIMELINE);
}

/* "  #10  /path/file.py:216 in loss": the file and line in the Source pane. */
static bool
go_frame(struct tui *t, const char *s)
{
	char path[512];
	const char *p = s, *in, *colon;

	while (*p == ' ')
		p++;
	if (*p != '#')
		return false;
	p += strcspn(p, " ");
	while (*p == ' ')
		p++;
	in = strstr(p, " in ");
	if (!in)
		in = p + strlen(p);
	for (colon = in; colon > p && *colon != ':'; colon--)
		;
	if (colon == p || !isdigit((unsigned char)colon[1]))
		return false;
	snprintf(path, sizeof path, "%.*s", (int)(colon - p), p);
	tui_close_overlay(t);
	tui_history_push(t);
	tui_show_source(t, model_source_find(t->m, path, NULL), (uint32_t)strtoul(colon + 1, NULL, 10), path);
	tui_focus(t, PANE_SOURCE);
	return true;
}

/* inputs / consumers: the op named first on the line. */
static bool
go_op(struct tui *t, const char *s)
{
	char name[512];
	int64_t op;

	while (*s == ' ')
		s++;
	snprintf(name, sizeof name, "%.*s", (int)strcspn(s, " "), s);
	if (!name[0] || (op = model_op_find(t->m, name, NULL)) < 0)
		return false;
	tui_close_overlay(t);
	tui_history_push(t);
	tui_select_op(t, (uint32_t)op);
	tui_focus(t, PANE_GRAPH);
	return true;
}

bool
tui_output_follow(struct tui *t, size_t line)
{
	const struct tui_text *x = &t->output;
	char cmd[64];
	uint64_t n;

	if (line >= x->n || !block_command(x, line, cmd, sizeof cmd))
		return false;
	const char *s = x->lines[line];
	if (!strncmp(s, "# ", 2))
		return false;
	if ((!strcmp(cmd, "traces") || !strcmp(cmd, "compare")) && leading_number(s, &n)) {
		go_trace(t, n);
		return true;
	}
	if (!strcmp(cmd, "executions") && leading_number(s, &n)) {
		go_execution(t, n);
		return true;
	}
	if (!strcmp(cmd, "stack"))
		return go_frame(t, s);
	if (word_number(s, "trace", &n)) {
		go_trace(t, n);
		return true;
	}
	if (word_number(s, "execution", &n)) {
		go_execution(t, n);
		return true;
	}
	/* (li and lo are the older CLI's names of inputs and consumers) */
	if (!strcmp(cmd, "inputs") || !strcmp(cmd, "consumers") || !strcmp(cmd, "li") ||
	    !strcmp(cmd, "lo")) {
		if (trailing_number(s, &n)) {   /* the row's "trace" column */
			go_trace(t, n);
			return true;
		}
		return go_op(t, s);
	}
	return false;
}
