/*
 * model_cache_dir.c - the persistent index's directory (model_cache.h):
 * where it is, how much it may hold (TDBG_CACHE_MAX), and the eviction of
 * the least recently used files.  Not here: what a file holds
 * (model_cache.c and its sections) or how tdbg's own files are opened.
 */
#include "model_cache.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "model_columns.h"
#include "reader/base/safeio.h"

#define MC_DEFAULT_MAX ((uint64_t)1 << 30)
#define STALE_TMP_SECONDS 600       /* a temporary file older than this was abandoned */

uint64_t
mc_key_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;     /* FNV-1a */

	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ULL;
	}
	return h;
}

int
mc_open_dir(struct model *m, bool create)
{
	struct model_cache *c = m->icache;
	char why[sizeof c->why - 40];
	struct stat st;
	int fd;

	if (!create && stat(c->dir, &st) != 0 && errno == ENOENT)
		return -1;              /* nothing saved yet: "new" */
	fd = safeio_own_dir(c->dir, create, m->roots, m->nroots, why, sizeof why);
	if (fd < 0)
		mc_why(c, MODEL_CACHE_UNAVAILABLE, "cache directory not used: %s", why);
	return fd;
}

char *
mc_cache_dir(const struct model_options *opt)
{
	char dir[4096];

	if (opt->cache_dir)
		return xstrdup(opt->cache_dir);
	return td_xdg_dir("XDG_CACHE_HOME", ".cache", dir, sizeof dir) ? xstrdup(dir) : NULL;
}

bool
mc_parse_size(const char *s, uint64_t *out)
{
	uint64_t v = 0;
	unsigned shift = 0;
	const char *p = s;

	if (!s || *s < '0' || *s > '9')
		return false;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (v > (UINT64_MAX - (uint64_t)(*p - '0')) / 10)
			return false;
		v = v * 10 + (uint64_t)(*p - '0');
	}
	switch (*p) {
	case '\0': break;
	case 'k': case 'K': shift = 10; break;
	case 'm': case 'M': shift = 20; break;
	case 'g': case 'G': shift = 30; break;
	case 't': case 'T': shift = 40; break;
	default: return false;
	}
	if (shift && (p[1] != '\0' || v > UINT64_MAX >> shift))
		return false;
	*out = v << shift;
	return true;
}

bool
mc_cache_max(const struct model_options *opt, uint64_t *max, char *why, size_t whylen)
{
	const char *env = getenv("TDBG_CACHE_MAX");

	*max = MC_DEFAULT_MAX;
	if (opt->cache_max) {
		*max = opt->cache_max;
		return true;
	}
	if (!env || !*env || mc_parse_size(env, max))
		return true;
	snprintf(why, whylen,
		 "TDBG_CACHE_MAX=\"%.40s\" is not a size (bytes: an integer with an optional K, M, G or T suffix)",
		 env);
	return false;
}

struct ent {
	char *path;
	uint64_t size;
	int64_t used;               /* modification time, ns */
};

/* A summary column file whose index file is not there (a first pass that
 * never saved), left alone a while: removed. */
static void
orphan_columns(const char *dir, const char *name, size_t len, time_t now)
{
	char *p = xasprintf("%s/%s", dir, name);
	char *idx = xasprintf("%s/%.*s%s", dir, (int)(len - strlen(COLS_SUFFIX)), name, MC_SUFFIX);
	struct stat st, ist;

	if (lstat(p, &st) == 0 && S_ISREG(st.st_mode) && now - st.st_mtime > STALE_TMP_SECONDS &&
	    lstat(idx, &ist) != 0 && errno == ENOENT)
		unlink(p);
	free(idx);
	free(p);
}

/* The cache files of dir (but keep) into *v; removes temporary files
 * abandoned long ago.  Returns the bytes they hold. */
static uint64_t
list_files(const char *dir, const char *keep, struct ent **v, size_t *n)
{
	size_t cap = 0, len;
	uint64_t total = 0;
	DIR *d = opendir(dir);
	struct dirent *e;
	time_t now = time(NULL);

	*v = NULL;
	*n = 0;
	if (!d)
		return 0;
	while ((e = readdir(d))) {
		struct stat st;
		char *p;

		len = strlen(e->d_name);
		if (e->d_name[0] == '.' && strncmp(e->d_name, ".tmp.", 5) != 0)
			continue;
		if (len > strlen(COLS_SUFFIX) && e->d_name[0] != '.' &&
		    strcmp(e->d_name + len - strlen(COLS_SUFFIX), COLS_SUFFIX) == 0) {
			orphan_columns(dir, e->d_name, len, now);
			continue;
		}
		/* cache files end in .tdx; a save's temporary file (safeio.h:
		 * ".tmp.HASH.tdx.tdbg-XXXXXXXX") holds the suffix inside */
		if (e->d_name[0] == '.' ? !strstr(e->d_name, MC_SUFFIX ".tdbg-") &&
					  !strstr(e->d_name, COLS_SUFFIX ".tdbg-")
					: len <= strlen(MC_SUFFIX) ||
					  strcmp(e->d_name + len - strlen(MC_SUFFIX), MC_SUFFIX))
			continue;
		p = xasprintf("%s/%s", dir, e->d_name);
		if (stat(p, &st) != 0 || !S_ISREG(st.st_mode) || (keep && strcmp(p, keep) == 0)) {
			free(p);
		} else if (e->d_name[0] == '.') {
			if (now - st.st_mtime > STALE_TMP_SECONDS)
				unlink(p);
			free(p);
		} else {
			uint64_t size = (uint64_t)st.st_size + colstore_beside(p, false);

			TD_GROW(*v, cap, *n + 1);
			/* nanoseconds: files used within one second keep their order;
			 * the index's summary columns count with it */
			(*v)[(*n)++] = (struct ent){p, size,
						    (int64_t)st.st_mtim.tv_sec * 1000000000LL +
							    st.st_mtim.tv_nsec};
			total += size;
		}
	}
	closedir(d);
	return total;
}

uint64_t
mc_evict(const char *dir, uint64_t max, const char *keep)
{
	struct ent *v;
	size_t n, i, j;
	uint64_t total = list_files(dir, keep, &v, &n), freed = 0;

	while (total > max && n) {
		for (i = 1, j = 0; i < n; i++)
			if (v[i].used < v[j].used)
				j = i;
		colstore_beside(v[j].path, true);
		if (unlink(v[j].path) == 0)
			freed += v[j].size;
		total -= v[j].size;
		free(v[j].path);
		v[j] = v[--n];
	}
	for (i = 0; i < n; i++)
		free(v[i].path);
	free(v);
	return freed;
}
