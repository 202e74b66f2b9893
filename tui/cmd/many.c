/*
 * many.c - tdbg --node, --merge and --via (many.h): opening this node's
 * dumps, reading node lines, and running the cluster's launcher.
 *
 * --via starts the launcher with fork/exec (never a shell): its argv is
 * the launcher text split by cmd_split(), then TDBG --node DUMP....  Its
 * standard output and error are read through two pipes with poll(), line
 * by line into the merge, so the answer and the progress line follow the
 * nodes as they answer.  tdbg has no ssh, copy or timeout of its own: the
 * launcher's options do that (pdsh -u, clush -u, srun --time).
 */
#include "tui/cmd/many.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tui/cmd/cmd.h"
#include "tui/cmd/jsonread.h"
#include "tui/cmd/sanitize.h"

#define LINE_BUF (NODE_LINE_MAX + 1024)

int
many_node(char *const *dumps, size_t n, const struct model_options *mo,
	  const struct node_options *no, FILE *out)
{
	size_t i;
	int rc = 0;

	for (i = 0; i < n; i++) {
		struct model *m = NULL;
		char err[1024] = "", werr[256];

		if (model_open(dumps[i], mo, &m, err, sizeof err) != TD_OK) {
			node_error(dumps[i], no, *err ? err : "cannot open the dump", out);
			rc = 2;
			continue;
		}
		model_wait(m);
		cmd_watches_load(m, werr, sizeof werr);
		node_answer(m, dumps[i], no, out);
		model_close(m);
	}
	return rc;
}

/* Line assembly for one stream: bytes in, whole lines to the merge. */
struct lines {
	char *buf;
	size_t len;
	bool cut;                   /* the current line passed LINE_BUF: rest dropped */
};

static void
lines_feed(struct lines *l, struct merge *mg, const char *data, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (data[i] == '\n') {
			merge_line(mg, l->buf, l->len);
			l->len = 0;
			l->cut = false;
			continue;
		}
		if (l->len < LINE_BUF)
			l->buf[l->len++] = data[i];
		else
			l->cut = true;
	}
}

static void
lines_flush(struct lines *l, struct merge *mg)
{
	if (l->len)
		merge_line(mg, l->buf, l->len);
	l->len = 0;
}

bool
many_read(FILE *f, struct merge *mg)
{
	struct lines l = { .buf = xmalloc(LINE_BUF) };
	char chunk[65536];
	size_t got;

	while ((got = fread(chunk, 1, sizeof chunk, f)) > 0)
		lines_feed(&l, mg, chunk, got);
	lines_flush(&l, mg);
	free(l.buf);
	return !ferror(f);
}

static void
print_answer(struct merge *mg, bool json, FILE *out)
{
	struct strbuf sb = {0};

	merge_report(mg, json, &sb);
	if (sb.len)
		fwrite(sb.buf, 1, sb.len, out);
	if (json)
		fputc('\n', out);
	fflush(out);
	strbuf_done(&sb);
}

static void
say(FILE *err, const char *what, const char *detail)
{
	struct strbuf sb = {0};

	sanitize_str(detail, -1, &sb);
	fprintf(err, "tdbg: %s%s\n", what, sb.buf ? sb.buf : "");
	strbuf_done(&sb);
}

int
many_merge(char *const *files, size_t n, const struct merge_options *o, bool json,
	   FILE *out, FILE *err)
{
	char msg[256];
	struct merge *mg = merge_new(o, msg, sizeof msg);
	size_t i;
	int rc = 0;

	if (!mg) {
		say(err, "--nodes: ", msg);
		return 1;
	}
	if (n == 0 && !many_read(stdin, mg))
		rc = 2;
	for (i = 0; i < n; i++) {
		FILE *f = strcmp(files[i], "-") == 0 ? stdin : fopen(files[i], "r");

		if (!f || !many_read(f, mg)) {
			snprintf(msg, sizeof msg, "%s: %s", files[i], strerror(errno));
			say(err, "cannot read ", msg);
			rc = 2;
		}
		if (f && f != stdin)
			fclose(f);
	}
	print_answer(mg, json, out);
	merge_free(mg);
	return rc;
}

/* ---- --via -------------------------------------------------------------------- */

static void
progress(struct merge *mg, FILE *err, bool on, bool last)
{
	size_t seen = merge_nodes_seen(mg), exp = merge_nodes_expected(mg);

	if (!on)
		return;
	if (exp)
		fprintf(err, "\rtdbg: %zu of %zu nodes answered", seen, exp);
	else
		fprintf(err, "\rtdbg: %zu nodes answered", seen);
	fputs(last ? "\n" : "", err);
	fflush(err);
}

/* The child: stdout and stderr to the pipes, then exec; when exec fails,
 * its errno goes to failfd (closed on a successful exec) and exit 127. */
static void
child(char **argv, int outfd, int errfd, int failfd)
{
	int devnull = open("/dev/null", O_RDONLY), e;

	if (devnull >= 0)
		dup2(devnull, STDIN_FILENO);
	dup2(outfd, STDOUT_FILENO);
	dup2(errfd, STDERR_FILENO);
	execvp(argv[0], argv);
	e = errno;
	if (write(failfd, &e, sizeof e) < 0)
		_exit(127);
	_exit(127);
}

static char **
via_argv(char **words, int nwords, const char *tdbg, char *const *dumps, size_t n)
{
	char **argv = xcalloc((size_t)nwords + n + 3, sizeof *argv);
	size_t k = 0, i;

	for (i = 0; i < (size_t)nwords; i++)
		argv[k++] = words[i];
	argv[k++] = (char *)tdbg;
	argv[k++] = "--node";
	for (i = 0; i < n; i++)
		argv[k++] = dumps[i];
	argv[k] = NULL;
	return argv;
}

/* Reads both pipes until both are closed. */
static void
pump(int fds[2], struct merge *mg, FILE *err, bool show)
{
	struct lines l[2] = { { .buf = xmalloc(LINE_BUF) }, { .buf = xmalloc(LINE_BUF) } };
	struct pollfd p[2] = { { .fd = fds[0], .events = POLLIN }, { .fd = fds[1], .events = POLLIN } };
	char chunk[65536];
	int open_fds = 2, i;

	while (open_fds > 0) {
		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (i = 0; i < 2; i++) {
			ssize_t got;

			if (p[i].fd < 0 || !(p[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			got = read(p[i].fd, chunk, sizeof chunk);
			if (got < 0 && errno == EINTR)
				continue;
			if (got <= 0) {
				lines_flush(&l[i], mg);
				close(p[i].fd);
				p[i].fd = -1;
				open_fds--;
				continue;
			}
			lines_feed(&l[i], mg, chunk, (size_t)got);
			progress(mg, err, show, false);
		}
	}
	free(l[0].buf);
	free(l[1].buf);
}

static const char *
self_path(char *buf, size_t size)
{
	ssize_t n = readlink("/proc/self/exe", buf, size - 1);

	if (n <= 0)
		return "tdbg";
	buf[n] = '\0';
	return buf;
}

int
many_via(const char *launcher, const char *tdbg, char *const *dumps, size_t n,
	 const struct merge_options *o, bool json, FILE *out, FILE *err)
{
	char msg[256], self[PATH_MAX], **words = NULL, **argv;
	int nwords, outp[2], errp[2], failp[2], fds[2], status, e = 0;
	struct merge *mg;
	pid_t pid;
	bool show = isatty(fileno(err));

	if ((nwords = cmd_split(launcher, &words, msg, sizeof msg)) <= 0) {
		say(err, "--via: ", nwords == 0 ? "no launcher command" : msg);
		cmd_split_free(words, nwords < 0 ? 0 : nwords);
		return 1;
	}
	if (!(mg = merge_new(o, msg, sizeof msg))) {
		say(err, "--nodes: ", msg);
		cmd_split_free(words, nwords);
		return 1;
	}
	argv = via_argv(words, nwords, tdbg ? tdbg : self_path(self, sizeof self), dumps, n);
	if (pipe(outp) < 0 || pipe(errp) < 0 || pipe2(failp, O_CLOEXEC) < 0 || (pid = fork()) < 0) {
		say(err, "--via: cannot start the launcher: ", strerror(errno));
		free(argv);
		cmd_split_free(words, nwords);
		merge_free(mg);
		return 1;
	}
	if (pid == 0) {
		close(outp[0]);
		close(errp[0]);
		close(failp[0]);
		child(argv, outp[1], errp[1], failp[1]);
	}
	close(outp[1]);
	close(errp[1]);
	close(failp[1]);
	if (read(failp[0], &e, sizeof e) == (ssize_t)sizeof e) {
		snprintf(msg, sizeof msg, "%s: %s", argv[0], strerror(e));
		say(err, "--via: cannot run the launcher ", msg);
		close(failp[0]), close(outp[0]), close(errp[0]);
		waitpid(pid, &status, 0);
		free(argv);
		cmd_split_free(words, nwords);
		merge_free(mg);
		return 1;
	}
	close(failp[0]);
	fds[0] = outp[0];
	fds[1] = errp[0];
	pump(fds, mg, err, show);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	progress(mg, err, show, true);
	if (WIFEXITED(status) && WEXITSTATUS(status) != 0) {
		snprintf(msg, sizeof msg, "%s exited with status %d", argv[0], WEXITSTATUS(status));
		merge_fail(mg, NULL, msg);
	} else if (WIFSIGNALED(status)) {
		snprintf(msg, sizeof msg, "%s was killed by signal %d", argv[0], WTERMSIG(status));
		merge_fail(mg, NULL, msg);
	}
	print_answer(mg, json, out);
	free(argv);
	cmd_split_free(words, nwords);
	merge_free(mg);
	return 0;
}

bool
many_is_lines_file(const char *path)
{
	struct jsonread_value *v;
	struct stat st;
	char *line = NULL, err[64];
	size_t cap = 0;
	ssize_t n;
	bool yes = false;
	FILE *f;

	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || !(f = fopen(path, "r")))
		return false;
	/* the first line: a node line ("tdbg_node") or a merged answer ("ranks") */
	n = getline(&line, &cap, f);
	if (n > 0 && n <= NODE_LINE_MAX * 64 && line[0] == '{' &&
	    jsonread_parse(line, (size_t)n, &v, err, sizeof err) == 0) {
		yes = jsonread_get(v, "tdbg_node") || jsonread_get(v, "ranks");
		jsonread_free(v);
	}
	free(line);
	fclose(f);
	return yes;
}
