/*
 * tfdbg2.c - the tfdbg v2 reader (DebugEvent TFRecord file sets).
 *
 * Early registration: probe is real; open reports that the reader is still
 * being written.  Replaced by the full reader in the next commits.
 */
#include "reader.h"

#include <dirent.h>
#include <stdio.h>
#include <string.h>

static int
tfdbg2_probe(const char *dir)
{
	static const char prefix[] = "tfdbg_events.", suffix[] = ".metadata";
	DIR *d = opendir(dir);
	struct dirent *e;
	int score = 0;

	if (!d)
		return 0;
	while (!score && (e = readdir(d))) {
		size_t len = strlen(e->d_name);

		if (len > sizeof(prefix) - 1 + sizeof(suffix) - 1 &&
		    strncmp(e->d_name, prefix, sizeof(prefix) - 1) == 0 &&
		    strcmp(e->d_name + len - (sizeof(suffix) - 1), suffix) == 0)
			score = 100;
	}
	closedir(d);
	return score;
}

static enum td_status
tfdbg2_open(const char *dir, const struct reader_options *opt, struct reader **out,
	    char *err, size_t errlen)
{
	(void)opt;
	*out = NULL;
	snprintf(err, errlen, "%s: the tfdbg2 reader is not built yet", dir);
	return TD_ERR_UNSUPPORTED;
}

const struct reader_ops tfdbg2_reader_ops = {
	.name = "tfdbg2",
	.looks_for = "tfdbg_events.*.metadata files (tfdbg v2)",
	.flags = READER_ROWS_TIME_ORDERED,
	.probe = tfdbg2_probe,
	.open = tfdbg2_open,
};
