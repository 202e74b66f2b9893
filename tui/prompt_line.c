/*
 * prompt_line.c - the line editor of the ':' and '/' prompts, with its
 * history.
 *
 * Design (decided with a spike in tmux): libedit's readline layer draws on
 * the terminal itself, so it can only run after leaving curses mode, and
 * leaving curses mode (endwin) switches xterm/tmux back from the alternate
 * screen: the panes vanish while the user types.  So the line is drawn here,
 * in curses, on the last row, and libedit provides what it is good at:
 * history(3) (kept across runs in $XDG_STATE_HOME/tdbg/history) and
 * tokenizer(3) (which word is being completed, prompt_complete.c).  Editing
 * keys follow readline: ^A ^E ^B ^F ^U ^K ^W, arrows, Home/End, Up/Down for
 * history, Tab completes (commands only).
 */
#include "tui_internal.h"

#include <errno.h>
#include <histedit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <wchar.h>

#include "prompt_line.h"
#include "tui/cmd/sanitize.h"
#include "reader/base/safeio.h"

struct prompt {
	History *cmd_hist, *search_hist;
	Tokenizer *tok;
	char path[1024];            /* history file, "" if it cannot be kept */
	struct tui *t;              /* its dump is never written into */
};

/* The history file's folder, opened as one of tdbg's own (created 0700;
 * not a link, the user's, not group/other-writable, not in the dump); -1
 * when refused: the history is then not kept. */
static int
history_dir(struct tui *t, const char *path)
{
	char dir[sizeof ((struct prompt *)0)->path], err[1200];
	const struct safeio_id *ids = NULL;
	size_t nids = t && t->m ? model_roots(t->m, &ids, NULL) : 0;
	const char *slash = strrchr(path, '/');

	snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) : 0, path);
	return safeio_own_dir(dir, true, ids, nids, err, sizeof err);
}

static void
history_path(struct prompt *p, struct tui *t)
{
	char dir[sizeof p->path - 8];
	int fd;

	p->path[0] = '\0';
	if (td_xdg_dir("XDG_STATE_HOME", ".local/state", dir, sizeof dir))
		snprintf(p->path, sizeof p->path, "%s/history", dir);
	if (p->path[0] && (fd = history_dir(t, p->path)) >= 0)
		close(fd);
	else
		p->path[0] = '\0';
}

/* Loads the history file when it is the user's own regular file (no link,
 * no FIFO: libedit's own open would follow and block), through the
 * descriptor checked. */
static void
history_load(struct prompt *p)
{
	char err[1200], fdpath[64];
	HistEvent ev;
	int fd = safeio_open_own(p->path, NULL, NULL, err, sizeof err);

	if (fd < 0)
		return;
	snprintf(fdpath, sizeof fdpath, "/dev/fd/%d", fd);
	history(p->cmd_hist, &ev, H_LOAD, fdpath);
	close(fd);
}

/* Saves the history: a new file renamed over the old one in the checked
 * folder (libedit's H_SAVE would truncate whatever the name points at). */
static void
history_save(struct prompt *p, struct tui *t, History *h)
{
	struct safeio_tmp tmp;
	char err[1200];
	HistEvent ev;
	FILE *f;
	int dirfd = history_dir(t, p->path), fd;

	if (dirfd < 0)
		return;
	if (safeio_tmp_open(dirfd, "history", 0600, &tmp, err, sizeof err) == TD_OK) {
		fd = dup(tmp.fd);
		f = fd >= 0 ? fdopen(fd, "w") : NULL;
		if (f && history(h, &ev, H_SAVE_FP, f) >= 0 && fclose(f) == 0)
			safeio_tmp_commit(&tmp, "history", true, p->path, err, sizeof err);
		else
			safeio_tmp_abort(&tmp);
		if (!f && fd >= 0)
			close(fd);
	}
	close(dirfd);
}

struct prompt *
prompt_new(struct tui *t)
{
	struct prompt *p = xcalloc(1, sizeof *p);
	HistEvent ev;

	p->t = t;
	p->cmd_hist = history_init();
	p->search_hist = history_init();
	p->tok = tok_init(NULL);
	if (p->cmd_hist) {
		history(p->cmd_hist, &ev, H_SETSIZE, 1000);
		history(p->cmd_hist, &ev, H_SETUNIQUE, 1);
		history_path(p, t);
		if (p->path[0])
			history_load(p);
	}
	if (p->search_hist)
		history(p->search_hist, &ev, H_SETSIZE, 200);
	return p;
}

void
prompt_free(struct prompt *p)
{
	if (!p)
		return;
	if (p->cmd_hist)
		history_end(p->cmd_hist);
	if (p->search_hist)
		history_end(p->search_hist);
	if (p->tok)
		tok_end(p->tok);
	free(p);
}

static void
remember(struct prompt *p, History *h, const char *line)
{
	HistEvent ev;

	if (!h || !*line)
		return;
	history(h, &ev, H_ENTER, line);
	if (h == p->cmd_hist && p->path[0])
		history_save(p, p->t, h);
}

bool
prompt_words(struct prompt *p, const char *head, int *argc, const char ***argv)
{
	tok_reset(p->tok);
	return tok_str(p->tok, head, argc, argv) == 0;
}

/* ---- editing ------------------------------------------------------ */

static size_t
char_before(const struct line *l, size_t pos)
{
	while (pos > 0 && ((unsigned char)l->buf[--pos] & 0xc0) == 0x80)
		;
	return pos;
}

static size_t
char_after(const struct line *l, size_t pos)
{
	if (pos < l->len)
		pos++;
	while (pos < l->len && ((unsigned char)l->buf[pos] & 0xc0) == 0x80)
		pos++;
	return pos;
}

void
line_insert(struct line *l, const char *s, size_t n)
{
	if (l->len + n >= sizeof l->buf)
		return;
	memmove(l->buf + l->pos + n, l->buf + l->pos, l->len - l->pos);
	memcpy(l->buf + l->pos, s, n);
	l->len += n;
	l->pos += n;
	l->buf[l->len] = '\0';
}

void
line_erase(struct line *l, size_t from, size_t to)
{
	memmove(l->buf + from, l->buf + to, l->len - to);
	l->len -= to - from;
	l->buf[l->len] = '\0';
	l->pos = from;
}

static void
set_text(struct line *l, const char *s)
{
	snprintf(l->buf, sizeof l->buf, "%s", s);
	l->len = l->pos = strlen(l->buf);
}

static int
width_of(const char *s, size_t n)
{
	struct strbuf sb = { 0 };
	int w = sanitize(s, n, -1, 0, &sb);
	strbuf_done(&sb);
	return w;
}

static void
draw_line(struct tui *t, const char *prefix, const struct line *l)
{
	WINDOW *w = t->prompt_win;
	int cols = getmaxx(w), pw = sanitize_width(prefix);
	size_t start = 0;
	struct strbuf sb = { 0 };

	/* scroll horizontally so the cursor stays visible */
	while (start < l->pos && pw + width_of(l->buf + start, l->pos - start) >= cols - 1)
		start = char_after(l, start);
	werase(w);
	wattrset(w, theme_style(STYLE_PROMPT));
	mvwaddstr(w, 0, 0, prefix);
	sanitize(l->buf + start, l->len - start, cols - pw - 1, 0, &sb);
	waddstr(w, sb.buf ? sb.buf : "");
	wmove(w, 0, pw + width_of(l->buf + start, l->pos - start));
	strbuf_done(&sb);
	wrefresh(w);
}

/* Up/Down through h; *depth 0 is the line being typed (kept in draft). */
static void
history_step(History *h, struct line *l, int *depth, char *draft, int dir)
{
	HistEvent ev;
	int rc;

	if (!h)
		return;
	if (dir > 0) {                  /* older */
		if (*depth == 0) {
			snprintf(draft, PROMPT_MAX, "%s", l->buf);
			rc = history(h, &ev, H_FIRST);
		} else {
			rc = history(h, &ev, H_NEXT);
		}
		if (rc != -1) {
			(*depth)++;
			set_text(l, ev.str);
			l->len = l->pos = strcspn(l->buf, "\n");
			l->buf[l->len] = '\0';
		}
	} else if (*depth > 0) {        /* newer */
		(*depth)--;
		if (*depth == 0) {
			set_text(l, draft);
		} else if (history(h, &ev, H_PREV) != -1) {
			set_text(l, ev.str);
			l->len = l->pos = strcspn(l->buf, "\n");
			l->buf[l->len] = '\0';
		}
	}
}

/* ---- reading a line ------------------------------------------------ */

/* One key of editing; returns 1 when the line is done, -1 when cancelled. */
static int
edit_key(struct tui *t, struct line *l, wint_t ch, bool is_key, History *h, int *depth,
	 char *draft, bool commands)
{
	if (is_key) {
		switch (ch) {
		case KEY_LEFT: l->pos = char_before(l, l->pos); return 0;
		case KEY_RIGHT: l->pos = char_after(l, l->pos); return 0;
		case KEY_HOME: l->pos = 0; return 0;
		case KEY_END: l->pos = l->len; return 0;
		case KEY_BACKSPACE:
			if (l->pos == 0 && l->len == 0)
				return -1;
			line_erase(l, char_before(l, l->pos), l->pos);
			return 0;
		case KEY_DC: line_erase(l, l->pos, char_after(l, l->pos)); return 0;
		case KEY_UP: history_step(h, l, depth, draft, 1); return 0;
		case KEY_DOWN: history_step(h, l, depth, draft, -1); return 0;
		case KEY_ENTER: return 1;
		case KEY_RESIZE:
			t->need_relayout = true;
			screen_draw(t);
			return 0;
		default: return 0;
		}
	}
	switch (ch) {
	case '\n': case '\r': return 1;
	case 27: case 3: case 7: return -1;             /* Esc, ^C, ^G */
	case 1: l->pos = 0; return 0;                   /* ^A */
	case 5: l->pos = l->len; return 0;              /* ^E */
	case 2: l->pos = char_before(l, l->pos); return 0;
	case 6: l->pos = char_after(l, l->pos); return 0;
	case 4: line_erase(l, l->pos, char_after(l, l->pos)); return 0;
	case 11: line_erase(l, l->pos, l->len); return 0;    /* ^K */
	case 21: line_erase(l, 0, l->pos); return 0;         /* ^U */
	case 16: history_step(h, l, depth, draft, 1); return 0;
	case 14: history_step(h, l, depth, draft, -1); return 0;
	case 8: case 127:
		if (l->pos == 0 && l->len == 0)
			return -1;
		line_erase(l, char_before(l, l->pos), l->pos);
		return 0;
	case 23: {                                      /* ^W */
		size_t s = l->pos;
		while (s > 0 && l->buf[s - 1] == ' ')
			s--;
		while (s > 0 && l->buf[s - 1] != ' ')
			s--;
		line_erase(l, s, l->pos);
		return 0;
	}
	case '\t':
		if (commands)
			prompt_complete(t, l);
		return 0;
	default:
		if (ch >= ' ') {
			char mb[MB_LEN_MAX];
			mbstate_t st;
			memset(&st, 0, sizeof st);
			size_t n = wcrtomb(mb, (wchar_t)ch, &st);
			if (n != (size_t)-1)
				line_insert(l, mb, n);
		}
		return 0;
	}
}

/* A completion list or error while editing: on the status row, above the
 * line being edited, until the next key. */
static void
show_above(struct tui *t)
{
	struct strbuf sb = { 0 };
	WINDOW *w = t->status_win;

	if (!w)
		return;
	sanitize_str(t->message, getmaxx(w), &sb);
	werase(w);
	wbkgdset(w, ' ' | theme_style(t->message_error ? STYLE_STATUS_ERROR : STYLE_STATUS));
	wattrset(w, theme_style(t->message_error ? STYLE_STATUS_ERROR : STYLE_STATUS));
	mvwhline(w, 0, 0, ' ', getmaxx(w));
	mvwaddstr(w, 0, 0, sb.buf ? sb.buf : "");
	wrefresh(w);
	strbuf_done(&sb);
	t->message[0] = '\0';
}

char *
prompt_read(struct tui *t, const char *prefix, bool commands)
{
	struct prompt *p = t->prompt;
	History *h = commands ? p->cmd_hist : p->search_hist;
	struct line l = { .len = 0 };
	char draft[PROMPT_MAX] = "";
	int depth = 0, rc = 0;

	l.buf[0] = '\0';
	curs_set(1);
	raw();                      /* ^C cancels the line instead of ending tdbg */
	wtimeout(t->prompt_win, -1);
	while (rc == 0) {
		wint_t ch;
		draw_line(t, prefix, &l);
		int kind = wget_wch(t->prompt_win, &ch);
		if (kind == ERR)
			continue;
		screen_draw_status(t);      /* drops a completion list shown before */
		doupdate();
		rc = edit_key(t, &l, ch, kind == KEY_CODE_YES, h, &depth, draft, commands);
		if (t->message[0] && rc == 0)
			show_above(t);
	}
	noraw();
	cbreak();
	curs_set(0);
	werase(t->prompt_win);
	wrefresh(t->prompt_win);
	if (rc < 0)
		return NULL;
	while (l.len > 0 && l.buf[l.len - 1] == ' ')
		l.buf[--l.len] = '\0';
	remember(p, h, l.buf);
	return xstrdup(l.buf);
}
