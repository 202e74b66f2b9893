/*
 * batch_progress.c - the progress line of a long first open in batch mode:
 * while the index pass runs, a line on stderr redrawn in place ("tdbg:
 * indexing 45%: 120 MB of 266 MB, 3.2M rows/s, about 2 s left"), cleared
 * when the pass ends.  Only on a terminal, only once the pass has taken
 * longer than a second (TDBG_PROGRESS_AFTER: milliseconds), never with
 * --quiet; a dump opened from the persistent index is ready at once and
 * shows nothing.
 *
 * Not for: the interface's status bar (tui/), the index pass itself
 * (model.c).  No curses: plain carriage returns and the ANSI erase-line
 * sequence every terminal tdbg runs on understands.
 */
#include "batch.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PROGRESS_AFTER_MS 1000      /* quiet for passes shorter than this */
#define PROGRESS_EVERY_MS 200       /* redraws */
#define PROGRESS_POLL_MS 20         /* looks before the first draw */

static void
sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

static long
after_ms(void)
{
	const char *env = getenv("TDBG_PROGRESS_AFTER");
	char *end;
	long v;

	if (!env || !*env)
		return PROGRESS_AFTER_MS;
	v = strtol(env, &end, 10);
	return *end || v < 0 ? PROGRESS_AFTER_MS : v;
}

/* "266 MB", "3.2 GB", "512 KB", "900 bytes". */
static void
add_bytes(struct strbuf *sb, uint64_t n)
{
	if (n >= (uint64_t)1 << 30)
		strbuf_addf(sb, "%.1f GB", (double)n / (double)(1 << 30));
	else if (n >= (uint64_t)1 << 20)
		strbuf_addf(sb, "%llu MB", (unsigned long long)(n >> 20));
	else if (n >= 1024)
		strbuf_addf(sb, "%llu KB", (unsigned long long)(n >> 10));
	else
		strbuf_addf(sb, "%llu bytes", (unsigned long long)n);
}

void
batch_progress_line(struct strbuf *sb, const struct model_progress *p, double seconds)
{
	uint64_t rows = p->traces + p->executions;
	double rate = seconds > 0 ? (double)rows / seconds : 0;

	strbuf_adds(sb, "tdbg: indexing");
	if (p->bytes_total) {
		strbuf_addf(sb, " %d%%: ", (int)(100.0 * (double)p->bytes_done / (double)p->bytes_total));
		add_bytes(sb, p->bytes_done);
		strbuf_adds(sb, " of ");
		add_bytes(sb, p->bytes_total);
	} else {
		strbuf_addf(sb, ": %llu rows", (unsigned long long)rows);
	}
	if (rate >= 1e6)
		strbuf_addf(sb, ", %.1fM rows/s", rate / 1e6);
	else
		strbuf_addf(sb, ", %.0f rows/s", rate);
	if (p->bytes_total && p->bytes_done && p->bytes_done < p->bytes_total && seconds > 0) {
		double left = seconds * (double)(p->bytes_total - p->bytes_done) / (double)p->bytes_done;

		strbuf_addf(sb, ", about %.0f s left", left < 1 ? 1 : left);
	}
}

void
batch_wait(struct model *m, bool show, FILE *err)
{
	struct model_progress p;
	struct strbuf line = { 0 };
	double start = td_now();
	long after = after_ms();
	bool drawn = false;

	if (!show) {
		model_wait(m);
		return;
	}
	for (;;) {
		model_progress(m, &p);
		if (p.done)
			break;
		double spent = td_now() - start;
		/* nothing to say before the pass knows its size or a row */
		if (spent * 1000 >= (double)after && (p.bytes_total || p.traces || p.executions)) {
			strbuf_reset(&line);
			batch_progress_line(&line, &p, spent);
			fprintf(err, "\r%s\033[K", line.buf);
			fflush(err);
			drawn = true;
		}
		sleep_ms(drawn ? PROGRESS_EVERY_MS : PROGRESS_POLL_MS);
	}
	if (drawn) {
		fputs("\r\033[K", err);
		fflush(err);
	}
	strbuf_done(&line);
	model_wait(m);
}
