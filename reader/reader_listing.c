/*
 * reader_listing.c - one listing of a directory for the readers' probes
 * (reader_listing.h).  Names are copied into one growing block, the
 * entries point into it once the listing is complete.
 */
#include "reader_listing.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "reader/base/util.h"

bool
reader_listing_make(const char *dir, struct reader_listing *ls)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	size_t cap = 0, ncap = 0, nlen = 0, off, i;

	memset(ls, 0, sizeof(*ls));
	if (!d)
		return false;
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name) + 1;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		TD_GROW(ls->names, ncap, nlen + len);
		memcpy(ls->names + nlen, de->d_name, len);
		nlen += len;
		TD_GROW(ls->v, cap, ls->n + 1);
		ls->v[ls->n++].type = de->d_type;
	}
	closedir(d);
	/* the name block may have moved while it grew: point into it now */
	for (i = 0, off = 0; i < ls->n; i++) {
		ls->v[i].name = ls->names + off;
		off += strlen(ls->names + off) + 1;
	}
	return true;
}

void
reader_listing_done(struct reader_listing *ls)
{
	if (!ls)
		return;
	free(ls->v);
	free(ls->names);
	memset(ls, 0, sizeof(*ls));
}

int
reader_listing_probe(const char *dir,
		     int (*probe_list)(const char *dir, const struct reader_listing *ls))
{
	struct reader_listing ls;
	int score;

	reader_listing_make(dir, &ls);  /* empty when dir cannot be listed */
	score = probe_list(dir, &ls);
	reader_listing_done(&ls);
	return score;
}

bool
reader_listing_check(const char *dir,
		     bool (*check_list)(const char *dir, const struct reader_listing *ls))
{
	struct reader_listing ls;
	bool hit;

	reader_listing_make(dir, &ls);  /* empty when dir cannot be listed */
	hit = check_list(dir, &ls);
	reader_listing_done(&ls);
	return hit;
}
