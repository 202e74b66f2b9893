/*
 * state.c - the per-dump state file (see state.h): where it lives, how it
 * reads and writes.
 */
#include "state.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "reader/base/safeio.h"
#include "rowsort.h"

#define STATE_VERSION_LINE "# tdbg state 1"
#define STATE_MAX_BYTES (64 * 1024)

void
state_init(struct ui_state *s)
{
	memset(s, 0, sizeof *s);
	s->trace = s->execution = -1;
	s->watches_recommended = -1;
}

/* 64-bit FNV-1a: a file name per real path. */
static uint64_t
fnv1a(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

static bool
state_dir(char *out, size_t size)
{
	return td_xdg_dir("XDG_STATE_HOME", ".local/state", out, size);
}

bool
state_file(const char *dump_real, char *out, size_t size)
{
	char dir[PATH_MAX];

	if (!state_dir(dir, sizeof dir))
		return false;
	return (size_t)snprintf(out, size, "%s/%016llx.state", dir,
				(unsigned long long)fnv1a(dump_real)) < size;
}

bool
state_mark_set(struct ui_state *s, char letter, bool execution, uint64_t row)
{
	size_t i;

	if (!isalpha((unsigned char)letter) || (unsigned char)letter > 127)
		return false;
	for (i = 0; i < s->nmarks && s->marks[i].letter != letter; i++)
		;
	if (i == s->nmarks) {
		if (s->nmarks == STATE_MAX_MARKS)
			return false;
		s->nmarks++;
	}
	s->marks[i] = (struct state_mark){ letter, execution, row };
	return true;
}

const struct state_mark *
state_mark_get(const struct ui_state *s, char letter)
{
	for (size_t i = 0; i < s->nmarks; i++)
		if (s->marks[i].letter == letter)
			return &s->marks[i];
	return NULL;
}

static bool
parse_row(const char *v, int64_t *row)
{
	char *end;
	long long n;

	if (!isdigit((unsigned char)*v))
		return false;
	errno = 0;
	n = strtoll(v, &end, 10);
	if (*end || errno)
		return false;
	*row = n;
	return true;
}

static bool
copy_value(char *dst, size_t size, const char *v)
{
	return (size_t)snprintf(dst, size, "%s", v) < size;
}

/* One "key value" line; false with why set. */
static bool
parse_line(struct ui_state *s, const char *key, const char *v, const char *dump_real,
	   bool *other_dump, const char **why)
{
	int64_t row;

	if (strcmp(key, "dump") == 0) {
		*other_dump = strcmp(v, dump_real) != 0;
		return true;
	}
	if (strcmp(key, "focus") == 0)
		return copy_value(s->focus, sizeof s->focus, v) || (*why = "focus too long", false);
	if (strcmp(key, "filter") == 0)
		return copy_value(s->filter, sizeof s->filter, v) || (*why = "filter too long", false);
	if (strcmp(key, "sort") == 0) {
		enum rowsort_field f;
		bool desc;
		if (!rowsort_parse(v, &f, &desc))
			return *why = "unknown sort field", false;
		return copy_value(s->sort, sizeof s->sort, v);
	}
	if (strcmp(key, "columns") == 0) {
		char buf[128], *save = NULL;
		s->columns = 0;
		s->has_columns = true;
		if (!copy_value(buf, sizeof buf, v))
			return *why = "columns too long", false;
		for (char *w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
			unsigned bit = rowcol_parse(w);
			if (!bit && strcmp(w, "none") != 0)
				return *why = "unknown column", false;
			s->columns |= bit;
		}
		return true;
	}
	if (strcmp(key, "trace") == 0 || strcmp(key, "execution") == 0) {
		if (!parse_row(v, &row))
			return *why = "not a row number", false;
		*(key[0] == 't' ? &s->trace : &s->execution) = row;
		return true;
	}
	if (strcmp(key, "mark") == 0) {
		char letter, kind[16], num[32], extra;
		if (sscanf(v, "%c %15s %31s %c", &letter, kind, num, &extra) != 3 || !parse_row(num, &row) ||
		    (strcmp(kind, "trace") && strcmp(kind, "execution")))
			return *why = "a mark is 'mark LETTER trace|execution ROW'", false;
		return state_mark_set(s, letter, kind[0] == 'e', (uint64_t)row) ||
		       (*why = "a mark's name is a letter", false);
	}
	if (strcmp(key, "watch") == 0) {
		if (s->nwatches == STATE_MAX_WATCHES || !strchr(v, ' '))
			return *why = "a watch is 'watch NAME CONDITION' (32 at most)", false;
		return copy_value(s->watches[s->nwatches++], STATE_WATCH_LEN, v) ||
		       (*why = "watch too long", false);
	}
	if (strcmp(key, "watches-recommended") == 0) {
		if (strcmp(v, "on") && strcmp(v, "off"))
			return *why = "watches-recommended on|off", false;
		s->watches_recommended = strcmp(v, "on") == 0;
		return true;
	}
	*why = "unknown key";
	return false;
}

static enum td_status
parse_text(char *text, const char *dump_real, struct ui_state *s, char *err, size_t errlen)
{
	char *save = NULL;
	int n = 0;
	bool other = true, have_dump = false;

	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		const char *why = NULL;
		char *sp;

		n++;
		if (n == 1) {
			if (strcmp(line, STATE_VERSION_LINE) != 0) {
				snprintf(err, errlen, "line 1: not a tdbg state file (version line)");
				return TD_ERR_CORRUPT;
			}
			continue;
		}
		if (!(sp = strchr(line, ' '))) {
			snprintf(err, errlen, "line %d: no value", n);
			return TD_ERR_CORRUPT;
		}
		*sp = '\0';
		have_dump |= strcmp(line, "dump") == 0;
		if (!parse_line(s, line, sp + 1, dump_real, &other, &why)) {
			snprintf(err, errlen, "line %d: %s", n, why ? why : "bad value");
			return TD_ERR_CORRUPT;
		}
	}
	if (!have_dump) {
		snprintf(err, errlen, "no dump line");
		return TD_ERR_CORRUPT;
	}
	return other ? TD_ERR_NOENT : TD_OK;
}

enum td_status
state_load(const char *file, const char *dump_real, struct ui_state *s, char *err, size_t errlen)
{
	char *text = NULL;
	size_t len;
	enum td_status st;

	state_init(s);
	/* one of tdbg's own files: no link, no FIFO, the user's, not
	 * group/other-writable (reader/base/safeio.h) */
	st = safeio_read_own(file, STATE_MAX_BYTES, &text, &len, err, errlen);
	if (st == TD_ERR_NOENT)
		return st;
	if (st != TD_OK)
		return TD_ERR_CORRUPT;
	if (memchr(text, '\0', len)) {
		snprintf(err, errlen, "a NUL byte: not a text file");
		st = TD_ERR_CORRUPT;
	} else {
		st = parse_text(text, dump_real, s, err, errlen);
	}
	if (st != TD_OK) {
		struct ui_state empty;
		state_init(&empty);
		*s = empty;
	}
	free(text);
	return st;
}

/* The text of s; one line per value, newlines in values dropped. */
static void
state_text(struct strbuf *sb, const char *dump_real, const struct ui_state *s)
{
	strbuf_addf(sb, "%s\ndump %s\n", STATE_VERSION_LINE, dump_real);
	if (*s->focus)
		strbuf_addf(sb, "focus %s\n", s->focus);
	if (*s->filter && !strchr(s->filter, '\n'))
		strbuf_addf(sb, "filter %s\n", s->filter);
	if (*s->sort)
		strbuf_addf(sb, "sort %s\n", s->sort);
	if (s->has_columns) {
		strbuf_adds(sb, "columns ");
		rowcol_describe(s->columns, sb);
		strbuf_addc(sb, '\n');
	}
	if (s->trace >= 0)
		strbuf_addf(sb, "trace %lld\n", (long long)s->trace);
	if (s->execution >= 0)
		strbuf_addf(sb, "execution %lld\n", (long long)s->execution);
	for (size_t i = 0; i < s->nmarks; i++)
		strbuf_addf(sb, "mark %c %s %llu\n", s->marks[i].letter,
			    s->marks[i].execution ? "execution" : "trace", (unsigned long long)s->marks[i].row);
	if (s->watches_recommended >= 0)
		strbuf_addf(sb, "watches-recommended %s\n", s->watches_recommended ? "on" : "off");
	for (size_t i = 0; i < s->nwatches; i++)
		if (!strchr(s->watches[i], '\n'))
			strbuf_addf(sb, "watch %s\n", s->watches[i]);
}

enum td_status
state_save(const char *file, const char *dump_real, const struct safeio_id *dump_ids,
	   size_t ndump_ids, const struct ui_state *s, char *err, size_t errlen)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(file, '/');
	struct strbuf sb = { 0 };
	enum td_status st;
	int dirfd;

	if (!slash || (size_t)(slash - file) >= sizeof dir) {
		snprintf(err, errlen, "%s: not a path", file);
		return TD_ERR_ARGS;
	}
	snprintf(dir, sizeof dir, "%.*s", (int)(slash - file), file);
	/* checked against the dump by identity before anything is created;
	 * a new file renamed over the old one in the checked folder */
	if ((dirfd = safeio_own_dir(dir, true, dump_ids, ndump_ids, err, errlen)) < 0)
		return TD_ERR_ARGS;
	state_text(&sb, dump_real, s);
	st = safeio_write_at(dirfd, slash + 1, sb.buf ? sb.buf : "", sb.len, 0600, true, file, err,
			     errlen);
	close(dirfd);
	strbuf_done(&sb);
	return st;
}
