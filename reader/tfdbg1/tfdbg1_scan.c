/*
 * tfdbg1_scan.c - lists one tfdbg v1 dump root without reading any tensor.
 *
 * A dump root (a run directory of a session root, or a plain dump root)
 * holds core metadata files, the fetch and feed info files, and one
 * _tfdbg_device_* directory per device (FORMAT.md §3).
 * Inside a device directory node names with '/' are nested directories; a
 * file whose name starts with _tfdbg_graph_ is a partition graph, anything
 * else a tensor dump named <node>_<slot>_<debug_op>_<us>[-<n>].  Old dumps
 * put the node paths directly in the dump root (no device level): that
 * layout is read as one device with an empty name.  Names that do not parse
 * and directories that cannot be listed are collected for the caller to
 * report; the scan goes on.
 */
#include "tfdbg1_internal.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "reader/base/fileio.h"

/* Nested node-scope directories followed before giving up (link loops). */
#define MAX_DEPTH 64

/* The capacity TD_GROW gave an array that grew one element at a time to
 * n elements (8, then doubling), so the arrays need no capacity field. */
static size_t
grown_cap(size_t n)
{
	size_t cap = 8;

	if (n == 0)
		return 0;
	while (cap < n)
		cap *= 2;
	return cap;
}

static void
add_path(char ***list, size_t *n, const char *path)
{
	size_t cap = grown_cap(*n);

	TD_GROW(*list, cap, *n + 1);
	(*list)[(*n)++] = xstrdup(path);
}

static bool
starts_with(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* The <us> at the end of a graph file name "_tfdbg_graph_hash<H>_<us>". */
static uint64_t
graph_file_ts(const char *name)
{
	const char *u = strrchr(name, '_');

	return u ? strtoull(u + 1, NULL, 10) : 0;
}

static void
note_graph(struct tfdbg1_scan_dev *dev, const char *path, const char *name, uint64_t size)
{
	uint64_t ts = graph_file_ts(name);

	dev->ngraph_files++;
	/* the reference reader keeps the last one walked; keep the newest */
	if (dev->graph_path && ts < dev->graph_ts)
		return;
	free(dev->graph_path);
	dev->graph_path = xstrdup(path);
	dev->graph_ts = ts;
	dev->graph_size = size;
}

static void
note_dump(struct tfdbg1_scan *s, uint32_t dev, const char *path, const char *rel, uint64_t size)
{
	struct tfdbg1_scan_dump d = { 0 };
	size_t cap = grown_cap(s->ndumps);

	if (!tfdbg1_parse_dump_name(rel, &d.name)) {
		add_path(&s->unparsed, &s->nunparsed, path);
		return;
	}
	d.path = xstrdup(path);
	d.dev = dev;
	d.size = size;
	TD_GROW(s->dumps, cap, s->ndumps + 1);
	s->dumps[s->ndumps++] = d;
}

/* Directories walked, by (device, inode): a link back up the tree (a ->
 * .) is seen again instead of being followed forever. */
struct dir_id {
	dev_t dev;
	ino_t ino;
};

struct walk {
	struct tfdbg1_scan *scan;
	uint32_t dev;
	bool skip_tfdbg_top; /* legacy layout: the root's own _tfdbg_ files */
	const char *root;    /* the dump root, resolved (links must stay in it) */
	struct dir_id *seen;
	size_t nseen, capseen;
};

static void
skip_entry(struct tfdbg1_scan *s, const char *path, const char *why)
{
	char *e = xasprintf("%s\t%s", path, why);

	add_path(&s->skipped, &s->nskipped, e);
	free(e);
}

/* Records directory st as walked; false if it was already. */
static bool
first_visit(struct walk *w, const struct stat *st)
{
	size_t i;

	for (i = 0; i < w->nseen; i++)
		if (w->seen[i].dev == st->st_dev && w->seen[i].ino == st->st_ino)
			return false;
	TD_GROW(w->seen, w->capseen, w->nseen + 1);
	w->seen[w->nseen++] = (struct dir_id){ st->st_dev, st->st_ino };
	return true;
}

/* A symbolic link is followed only when its target stays inside the dump. */
static bool
link_inside(const struct walk *w, const char *full)
{
	char *real = realpath(full, NULL);
	size_t n = w->root ? strlen(w->root) : 0;
	bool in = real && w->root && strncmp(real, w->root, n) == 0 &&
		  (real[n] == '/' || real[n] == '\0');

	free(real);
	return in;
}

static void walk_dir(struct walk *w, const char *path, const char *rel, int depth);

/* "a/b" malloc'd (just b when a is empty and !slash): two per entry
 * walked, so no printf (issue 25, per-file cost). */
static char *
join(const char *a, const char *b, bool slash)
{
	size_t na = strlen(a), nb = strlen(b);
	char *s = xmalloc(na + nb + 2);

	if (na || slash) {
		memcpy(s, a, na);
		s[na++] = '/';
	}
	memcpy(s + na, b, nb + 1);
	return s;
}

static void
walk_entry(struct walk *w, const char *path, const char *rel, const char *name,
	   const struct stat *st, int depth)
{
	char *full = join(path, name, true);
	char *sub = join(rel, name, false);

	if (S_ISDIR(st->st_mode)) {
		if (first_visit(w, st))
			walk_dir(w, full, sub, depth + 1);
		else
			skip_entry(w->scan, full, "directory seen before (a link loop): not followed");
	} else if (!S_ISREG(st->st_mode)) {
		char *why = xasprintf("%s, not a regular file: skipped", td_file_kind_name(st->st_mode));

		skip_entry(w->scan, full, why);
		free(why);
	} else {
		w->scan->bytes += (uint64_t)st->st_size;
		if (starts_with(name, TFDBG1_GRAPH_PREFIX))
			note_graph(&w->scan->devs[w->dev], full, name, (uint64_t)st->st_size);
		else
			note_dump(w->scan, w->dev, full, sub, (uint64_t)st->st_size);
	}
	free(full);
	free(sub);
}

/* False when the directory entry's type rules a symbolic link out; a
 * file system that does not fill d_type says DT_UNKNOWN. */
static bool
may_be_link(const struct dirent *de)
{
#ifdef _DIRENT_HAVE_D_TYPE
	return de->d_type == DT_LNK || de->d_type == DT_UNKNOWN;
#else
	(void)de;
	return true;
#endif
}

static void
walk_dir(struct walk *w, const char *path, const char *rel, int depth)
{
	DIR *d;
	struct dirent *de;
	struct stat st;

	if (depth > MAX_DEPTH || !(d = opendir(path))) {
		add_path(&w->scan->unreadable, &w->scan->nunreadable, path);
		return;
	}
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (depth == 0 && w->skip_tfdbg_top &&
		    (starts_with(de->d_name, "_tfdbg_") || starts_with(de->d_name, "run_")))
			continue;
		/* the directory entry's type says when it is no link: one stat
		 * per entry instead of two (issue 18: system calls per file) */
		if (may_be_link(de) &&
		    fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    S_ISLNK(st.st_mode)) {
			char *full = xasprintf("%s/%s", path, de->d_name);
			/* a dangling link falls through to the "broken" report */
			bool out = !link_inside(w, full) && fstatat(dirfd(d), de->d_name, &st, 0) == 0;

			if (out)
				skip_entry(w->scan, full, "symbolic link out of the dump: not followed");
			free(full);
			if (out)
				continue;
		}
		if (fstatat(dirfd(d), de->d_name, &st, 0) != 0) {
			/* e.g. a dangling symbolic link */
			char *full = xasprintf("%s/%s", path, de->d_name);

			add_path(&w->scan->broken, &w->scan->nbroken, full);
			free(full);
			continue;
		}
		walk_entry(w, path, rel, de->d_name, &st, depth);
	}
	closedir(d);
}

/* Walks a device directory (or a legacy root) as the top of a tree. */
static void
walk_root(struct walk *w, const char *path, const struct stat *st)
{
	char *root = realpath(path, NULL);

	w->root = root;
	first_visit(w, st);
	walk_dir(w, path, "", 0);
	free(root);
	free(w->seen);
	w->seen = NULL;
	w->nseen = w->capseen = 0;
}

static uint32_t
add_dev(struct tfdbg1_scan *s, const char *name)
{
	size_t cap = grown_cap(s->ndevs);

	TD_GROW(s->devs, cap, s->ndevs + 1);
	memset(&s->devs[s->ndevs], 0, sizeof(s->devs[0]));
	s->devs[s->ndevs].name = xstrdup(name);
	return (uint32_t)s->ndevs++;
}

/* Top-level entries of the dump root: metadata files and device dirs. */
static void
scan_top(struct tfdbg1_scan *s, DIR *d, const char *path)
{
	struct dirent *de;
	struct stat st;

	while ((de = readdir(d))) {
		char *full;

		if (!starts_with(de->d_name, "_tfdbg_") ||
		    fstatat(dirfd(d), de->d_name, &st, 0) != 0)
			continue;
		full = xasprintf("%s/%s", path, de->d_name);
		if (S_ISDIR(st.st_mode) && starts_with(de->d_name, TFDBG1_DEVICE_PREFIX)) {
			char *dev = tfdbg1_device_decode(de->d_name);
			struct walk w = { s, add_dev(s, dev), false, NULL, NULL, 0, 0 };

			walk_root(&w, full, &st);
			free(dev);
		} else if (S_ISREG(st.st_mode)) {
			s->bytes += (uint64_t)st.st_size;
			if (starts_with(de->d_name, TFDBG1_CORE_PREFIX))
				add_path(&s->core_paths, &s->ncore, full);
			else if (starts_with(de->d_name, TFDBG1_FETCHES_FILE) && !s->fetches_path)
				s->fetches_path = xstrdup(full);
			else if (starts_with(de->d_name, TFDBG1_FEEDS_FILE) && !s->feeds_path)
				s->feeds_path = xstrdup(full);
		}
		free(full);
	}
}

static int
cmp_dev_name(const void *a, const void *b)
{
	return strcmp(((const struct tfdbg1_scan_dev *)a)->name,
		      ((const struct tfdbg1_scan_dev *)b)->name);
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Execution order within a run (FORMAT.md §9 step 4): numerically by
 * (timestamp, collision), then by device and path for a stable order. */
static int
cmp_dump(const void *a, const void *b)
{
	const struct tfdbg1_scan_dump *x = a, *y = b;

	if (x->name.timestamp != y->name.timestamp)
		return x->name.timestamp < y->name.timestamp ? -1 : 1;
	if (x->name.collision != y->name.collision)
		return x->name.collision < y->name.collision ? -1 : 1;
	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	return strcmp(x->path, y->path);
}

/* Devices sorted by name, dumps re-pointed at the sorted order. */
static void
sort_scan(struct tfdbg1_scan *s)
{
	uint32_t *where;
	size_t i, j;

	if (s->ndevs > 1) {
		char **before = xmalloc(s->ndevs * sizeof(*before));

		for (i = 0; i < s->ndevs; i++)
			before[i] = s->devs[i].name;
		td_sort(s->devs, s->ndevs, sizeof(*s->devs), cmp_dev_name);
		where = xmalloc(s->ndevs * sizeof(*where));
		for (i = 0; i < s->ndevs; i++)
			for (j = 0; j < s->ndevs; j++)
				if (s->devs[j].name == before[i])
					where[i] = (uint32_t)j;
		for (i = 0; i < s->ndumps; i++)
			s->dumps[i].dev = where[s->dumps[i].dev];
		free(where);
		free(before);
	}
	/* qsort's base must not be NULL, even for no elements */
	if (s->ndumps > 1)
		td_sort(s->dumps, s->ndumps, sizeof(*s->dumps), cmp_dump);
	if (s->ncore > 1)
		td_sort(s->core_paths, s->ncore, sizeof(char *), cmp_str);
	if (s->nunparsed > 1)
		td_sort(s->unparsed, s->nunparsed, sizeof(char *), cmp_str);
}

void
tfdbg1_scan_root(const char *path, const char *dir, struct tfdbg1_scan *out)
{
	const char *token;
	DIR *d;

	memset(out, 0, sizeof(*out));
	out->path = xstrdup(path);
	out->dir = xstrdup(dir);
	out->counter = -1;
	out->is_run = tfdbg1_parse_run_dir(dir, &out->us, &token, &out->counter);
	if (out->is_run)
		out->token = xstrdup(token);
	d = opendir(path);
	if (!d) {
		add_path(&out->unreadable, &out->nunreadable, path);
		return;
	}
	scan_top(out, d, path);
	closedir(d);
	if (out->ndevs == 0) {
		/* legacy layout: node paths directly in the dump root */
		struct walk w = { out, add_dev(out, ""), true, NULL, NULL, 0, 0 };
		struct stat st;

		if (stat(path, &st) == 0)
			walk_root(&w, path, &st);
		if (out->ndumps == 0 && !out->devs[0].graph_path) {
			free(out->devs[0].name);
			out->ndevs = 0;
		}
	}
	sort_scan(out);
}

static void
free_list(char **list, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(list[i]);
	free(list);
}

void
tfdbg1_scan_done(struct tfdbg1_scan *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->ndevs; i++) {
		free(s->devs[i].name);
		free(s->devs[i].graph_path);
	}
	for (i = 0; i < s->ndumps; i++) {
		free(s->dumps[i].path);
		tfdbg1_dump_name_done(&s->dumps[i].name);
	}
	free(s->devs);
	free(s->dumps);
	free_list(s->core_paths, s->ncore);
	free_list(s->unparsed, s->nunparsed);
	free_list(s->unreadable, s->nunreadable);
	free_list(s->broken, s->nbroken);
	free_list(s->skipped, s->nskipped);
	free(s->dir);
	free(s->path);
	free(s->fetches_path);
	free(s->feeds_path);
	free(s->token);
	memset(s, 0, sizeof(*s));
}
