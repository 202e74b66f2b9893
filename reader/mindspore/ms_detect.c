/*
 * ms_detect.c - whether a directory is a MindSpore dump, and the MindSpore
 * reader's open (FORMAT.md §2: the user may open the dump, one rank, or a
 * net, graph or iteration directory inside a rank; §4.2: the ACL layout of
 * 14-digit time directories).  Both read one listing of the directory
 * (reader_listing.h): the registry's, or one of their own.  Not the walk
 * of the dump: that is ms_sync.c and ms_async.c.
 */
#include "ms_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static bool
is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* A directory that looks like one rank: graphs/, execution_order/ or
 * .dump_metadata/ next to net directories. */
static bool
looks_like_rank(const char *dir)
{
	static const char *const marks[] = { "graphs", "execution_order", ".dump_metadata" };
	size_t i;
	bool hit = false;

	for (i = 0; i < TD_ARRAY_SIZE(marks) && !hit; i++) {
		char *p = xasprintf("%s/%s", dir, marks[i]);

		hit = is_dir(p);
		free(p);
	}
	return hit;
}

/* A net, graph or iteration directory inside a rank (§2: the user may open
 * any level): the rank directory up to three levels up, or NULL. */
static char *
rank_ancestor(const char *dir)
{
	char *path = realpath(dir, NULL), *slash;
	int up;

	for (up = 0; path && up < 3; up++) {
		if (!(slash = strrchr(path, '/')) || slash == path)
			break;
		*slash = '\0';
		if (looks_like_rank(path))
			return path;
	}
	free(path);
	return NULL;
}

/* The parent of rank folder root when it is a rank_N folder of a dump
 * holding rank_* folders (malloc'd real path), else NULL. */
static char *
dump_of_rank(const char *root)
{
	char *path = root ? realpath(root, NULL) : NULL, *slash;

	if (!path || !(slash = strrchr(path, '/')) || slash == path ||
	    strncmp(slash + 1, "rank_", 5) != 0 || !looks_like_rank(path)) {
		free(path);
		return NULL;
	}
	*slash = '\0';
	if (!reader_listing_check(path, ms_sync_has_ranks_listed)) {
		free(path);
		return NULL;
	}
	return path;
}

int
ms_probe_list(const char *dir, const struct reader_listing *ls)
{
	char *anc;

	if (ms_sync_has_ranks_listed(dir, ls))
		return 60;
	if (ms_acl_detect_listed(dir, ls))
		return 50;
	if (looks_like_rank(dir))
		return 40;
	if ((anc = rank_ancestor(dir))) {
		free(anc);
		return 30;
	}
	return 0;
}

int
ms_probe(const char *dir)
{
	return reader_listing_probe(dir, ms_probe_list);
}

/* ms_open() on ls, the listing of dir. */
static enum td_status
open_listed(const char *dir, const struct reader_listing *ls, const struct reader_options *opt,
	    struct reader **out, char *err, size_t errlen)
{
	struct reader *r;
	bool ranks, rank, acl;

	if (!ms_probe_list(dir, ls)) {
		snprintf(err, errlen, "%s: no rank_* or 14-digit time directories (MindSpore dump)", dir);
		return TD_ERR_FORMAT;
	}
	ranks = ms_sync_has_ranks_listed(dir, ls);
	rank = !ranks && looks_like_rank(dir);
	acl = !ranks && !rank && ms_acl_detect_listed(dir, ls);
	r = xcalloc(1, sizeof(*r));
	r->root = xstrdup(dir);
	if (!ranks && !rank && !acl && (r->only = realpath(dir, NULL))) {
		free(r->root);
		r->root = rank_ancestor(dir);   /* probe() found it */
	}
	r->top = dump_of_rank(r->root);
	r->source_root = opt && opt->source_root ? xstrdup(opt->source_root) : NULL;
	r->follow = opt && opt->follow;
	r->may_follow = opt && (opt->follow || opt->may_follow);
	r->acl = acl;
	pthread_mutex_init(&r->lock, NULL);
	pthread_mutex_init(&r->layout_lock, NULL);
	*out = r;
	return TD_OK;
}

/* Lists dir once (or takes the listing detection made) for every check. */
enum td_status
ms_open(const char *dir, const struct reader_options *opt, struct reader **out, char *err,
	size_t errlen)
{
	struct reader_listing own;
	enum td_status st;

	*out = NULL;
	if (!is_dir(dir)) {
		snprintf(err, errlen, "%s: not a directory", dir);
		return TD_ERR_NOENT;
	}
	if (opt && opt->root_listing)
		return open_listed(dir, opt->root_listing, opt, out, err, errlen);
	reader_listing_make(dir, &own);
	st = open_listed(dir, &own, opt, out, err, errlen);
	reader_listing_done(&own);
	return st;
}
