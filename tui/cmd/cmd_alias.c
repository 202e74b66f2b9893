/*
 * cmd_alias.c - the older debugger CLI's flags on its verbs (li, lo, ni,
 * lt, pt): "li -r -d 4 91", "lt -n Log -s" are rewritten into the
 * command's own options ("inputs --depth 4 91", "traces --op Log --sort
 * size") before the command runs, so the handlers know one syntax.
 *
 * One table of {alias, short flag, the CLI's long form, what it becomes}.
 * A flag the command already answers without being asked (ni -a: `op`
 * always prints the attributes) is accepted and dropped.  Not for the
 * command names themselves: `inputs -r` is an error that names --depth
 * (cmd_alias_hint).
 */
#include "cmd_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The depth the CLI's li -r / lo -r used when no -d was given. */
#define ALIAS_DEFAULT_DEPTH "20"

enum alias_how {
	HOW_DROP,       /* accepted, the command does it anyway */
	HOW_FIXED,      /* becomes option `to` with value `fixed` */
	HOW_VALUE,      /* becomes option `to` with the next word */
	HOW_SORT,       /* lt -s [FIELD]: --sort with an optional CLI field name */
	HOW_REVERSE,    /* lt -r: the sort descending */
};

struct alias_flag {
	const char *alias;
	const char *flag;           /* "-r" */
	const char *v1_long;        /* "--recursive" */
	enum alias_how how;
	const char *to;             /* tdbg's option: "--depth" */
	const char *fixed;          /* its value for HOW_FIXED */
};

static const struct alias_flag flags[] = {
	{ "li", "-r", "--recursive", HOW_FIXED, "--depth", ALIAS_DEFAULT_DEPTH },
	{ "li", "-d", "--depth", HOW_VALUE, "--depth", NULL },
	{ "li", "-c", "--control", HOW_DROP, NULL, NULL },
	{ "li", "-t", "--op_type", HOW_DROP, NULL, NULL },
	{ "lo", "-r", "--recursive", HOW_FIXED, "--depth", ALIAS_DEFAULT_DEPTH },
	{ "lo", "-d", "--depth", HOW_VALUE, "--depth", NULL },
	{ "lo", "-c", "--control", HOW_DROP, NULL, NULL },
	{ "lo", "-t", "--op_type", HOW_DROP, NULL, NULL },
	{ "ni", "-a", "--attributes", HOW_DROP, NULL, NULL },
	{ "ni", "-d", "--dumps", HOW_DROP, NULL, NULL },
	{ "ni", "-t", "--traceback", HOW_DROP, NULL, NULL },
	{ "lt", "-n", "--node_name_filter", HOW_VALUE, "--op", NULL },
	{ "lt", "-t", "--op_type_filter", HOW_VALUE, "--type", NULL },
	{ "lt", "-s", "--sort_by", HOW_SORT, "--sort", NULL },
	{ "lt", "-r", "--reverse", HOW_REVERSE, "--sort", NULL },
	{ "pt", "-a", "--all", HOW_DROP, NULL, NULL },
};

/* The CLI's sort keys and tdbg's: lt -s takes either, bare -s is size. */
static const char *const sort_names[][2] = {
	{ "timestamp", "time" }, { "dump_size", "size" }, { "op_type", "type" },
	{ "tensor_name", "op" }, { "row", "row" }, { "op", "op" }, { "type", "type" },
	{ "size", "size" }, { "time", "time" }, { "nonfinite", "nonfinite" },
};

static const char *
sort_field(const char *word)
{
	size_t i;

	for (i = 0; word && i < TD_ARRAY_SIZE(sort_names); i++)
		if (strcmp(sort_names[i][0], word) == 0)
			return sort_names[i][1];
	return NULL;
}

static const struct alias_flag *
find_flag(const char *alias, const char *word)
{
	size_t i;

	for (i = 0; i < TD_ARRAY_SIZE(flags); i++)
		if (strcmp(flags[i].alias, alias) == 0 &&
		    (strcmp(flags[i].flag, word) == 0 || strcmp(flags[i].v1_long, word) == 0))
			return &flags[i];
	return NULL;
}

static bool
is_alias(const char *name)
{
	const struct cmd_alias *a;
	size_t i, n;

	a = cmd_aliases(&n);
	for (i = 0; i < n; i++)
		if (strcmp(a[i].alias, name) == 0)
			return true;
	return false;
}

bool
cmd_alias_flags(struct strbuf *sb, const char *alias)
{
	const char *sep = "";
	size_t i;

	for (i = 0; i < TD_ARRAY_SIZE(flags); i++) {
		if (strcmp(flags[i].alias, alias) != 0)
			continue;
		strbuf_addf(sb, "%s%s%s (%s)", sep, flags[i].flag,
			    flags[i].how != HOW_VALUE ? "" : strcmp(flags[i].to, "--depth") == 0 ? " N" : " REGEX", flags[i].v1_long);
		sep = ", ";
	}
	return *sep != '\0';
}

static bool
looks_like_flag(const char *w)
{
	return w[0] == '-' && ((w[1] >= 'a' && w[1] <= 'z') || (w[1] >= 'A' && w[1] <= 'Z'));
}

static void
push(char ***v, size_t *n, size_t *cap, const char *s)
{
	TD_GROW(*v, *cap, *n + 2);
	(*v)[(*n)++] = xstrdup(s);
	(*v)[*n] = NULL;
}

/* Where -s and -r land: one --sort FIELD, "-FIELD" when reversed. */
struct sort_state {
	const char *field;
	bool reverse, seen;
};

int
cmd_alias_args(struct cmd_env *env, int argc, char **argv, char ***out)
{
	const char *alias = argv[0];
	struct sort_state sort = { 0 };
	bool alias_v = is_alias(alias), has_depth = false;
	char **v = NULL;
	size_t n = 0, cap = 0;
	int i;

	for (i = 1; alias_v && i < argc; i++) {
		const struct alias_flag *f = find_flag(alias, argv[i]);

		if (f && f->how == HOW_VALUE && strcmp(f->to, "--depth") == 0)
			has_depth = true;
	}
	push(&v, &n, &cap, alias);
	for (i = 1; i < argc; i++) {
		const struct alias_flag *f = alias_v ? find_flag(alias, argv[i]) : NULL;

		if (strcmp(argv[i], "--") == 0) {
			for (; i < argc; i++)
				push(&v, &n, &cap, argv[i]);
			break;
		}
		if (!f) {
			if (alias_v && looks_like_flag(argv[i]) && strncmp(argv[i], "--", 2) != 0) {
				struct strbuf sb = { 0 };

				if (!cmd_alias_flags(&sb, alias))
					strbuf_adds(&sb, "no flags");
				cmd_fail(env, TD_ERR_ARGS, "unknown flag %s (%s takes %s)", argv[i], alias,
					 sb.buf);
				strbuf_done(&sb);
				cmd_split_free(v, (int)n);
				return -1;
			}
			push(&v, &n, &cap, argv[i]);
			continue;
		}
		switch (f->how) {
		case HOW_DROP:
			break;
		case HOW_FIXED:
			if (!has_depth) {
				push(&v, &n, &cap, f->to);
				push(&v, &n, &cap, f->fixed);
			}
			break;
		case HOW_VALUE:
			if (i + 1 >= argc) {
				cmd_fail(env, TD_ERR_ARGS, "%s needs a value (it is %s)", argv[i], f->to);
				cmd_split_free(v, (int)n);
				return -1;
			}
			push(&v, &n, &cap, f->to);
			push(&v, &n, &cap, argv[++i]);
			break;
		case HOW_SORT:
			sort.seen = true;
			sort.field = sort_field(i + 1 < argc ? argv[i + 1] : NULL);
			if (sort.field)
				i++;
			else
				sort.field = "size";
			break;
		case HOW_REVERSE:
			sort.seen = sort.reverse = true;
			break;
		}
	}
	if (sort.seen) {
		char buf[32];

		snprintf(buf, sizeof buf, "%s%s", sort.reverse ? "-" : "",
			 sort.field ? sort.field : "row");
		push(&v, &n, &cap, "--sort");
		push(&v, &n, &cap, buf);
	}
	*out = v;
	return (int)n;
}

void
cmd_alias_hint(struct strbuf *sb, const char *command, const char *flag)
{
	const struct cmd_alias *a;
	size_t i, n;

	a = cmd_aliases(&n);
	for (i = 0; i < n; i++) {
		const struct alias_flag *f;

		if (strcmp(a[i].command, command) != 0 || !(f = find_flag(a[i].alias, flag)))
			continue;
		if (f->how == HOW_DROP)
			strbuf_addf(sb, "; %s %s needs no option here", a[i].alias, f->flag);
		else if (f->how == HOW_FIXED)
			strbuf_addf(sb, "; %s %s is %s %s", a[i].alias, f->flag, f->to, f->fixed);
		else
			strbuf_addf(sb, "; %s %s is %s", a[i].alias, f->flag, f->to);
		return;
	}
}
