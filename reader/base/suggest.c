/*
 * suggest.c - the nearest names to a word nobody has (suggest.h).
 */
#include "suggest.h"

#include <ctype.h>
#include <string.h>

#define SCORE_CASE 0u
#define SCORE_COMPONENT 1u
#define SCORE_SUBSTRING 2u
#define SCORE_EDIT 3u               /* + the distance */
#define SCORE_NONE ~0u
#define EDIT_MAX_LEN 64             /* longer names are only matched by the rules above */

void
td_suggest_init(struct td_suggest *s, const char *word)
{
	memset(s, 0, sizeof *s);
	s->word = word;
}

static bool
same_nocase(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
			return false;
	return *a == *b;
}

/* Optimal string alignment distance of a and b (short strings), or
 * SCORE_NONE past limit. */
static unsigned
distance(const char *a, const char *b, unsigned limit)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	unsigned d[EDIT_MAX_LEN + 1][EDIT_MAX_LEN + 1];

	if (la > EDIT_MAX_LEN || lb > EDIT_MAX_LEN || (la > lb ? la - lb : lb - la) > limit)
		return SCORE_NONE;
	for (i = 0; i <= la; i++)
		d[i][0] = (unsigned)i;
	for (j = 0; j <= lb; j++)
		d[0][j] = (unsigned)j;
	for (i = 1; i <= la; i++)
		for (j = 1; j <= lb; j++) {
			unsigned cost = tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]);
			unsigned v = d[i - 1][j - 1] + cost;

			if (d[i - 1][j] + 1 < v)
				v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	return d[la][lb] <= limit ? d[la][lb] : SCORE_NONE;
}

static unsigned
score(const char *word, const char *cand)
{
	size_t lw = strlen(word), lc = strlen(cand);
	unsigned limit = (unsigned)(lw / 3 ? lw / 3 : 1);
	unsigned d;

	if (!lw || !strcmp(word, cand))
		return SCORE_NONE;
	if (same_nocase(word, cand))
		return SCORE_CASE;
	if (lc > lw && strcmp(cand + lc - lw, word) == 0 && strchr("/:._-", cand[lc - lw - 1]))
		return SCORE_COMPONENT;
	if (lw >= 3 && strstr(cand, word))
		return SCORE_SUBSTRING;
	d = distance(word, cand, limit);
	return d == SCORE_NONE ? SCORE_NONE : SCORE_EDIT + d;
}

void
td_suggest_add(struct td_suggest *s, const char *cand)
{
	unsigned sc = score(s->word, cand);
	size_t i, at;

	if (sc == SCORE_NONE)
		return;
	for (i = 0; i < s->n; i++)
		if (!strcmp(s->best[i], cand))
			return;
	if (sc >= TD_SUGGEST_LEVELS)
		sc = TD_SUGGEST_LEVELS - 1;
	s->count[sc]++;
	/* after every kept one at least as good: candidates keep their order */
	for (at = 0; at < s->n && s->score[at] <= sc; at++)
		;
	if (at == TD_SUGGEST_MAX)
		return;
	if (s->n == TD_SUGGEST_MAX)
		s->n--;
	memmove(&s->best[at + 1], &s->best[at], (s->n - at) * sizeof s->best[0]);
	memmove(&s->score[at + 1], &s->score[at], (s->n - at) * sizeof s->score[0]);
	s->best[at] = cand;
	s->score[at] = sc;
	s->n++;
}

size_t
td_suggest_text(const struct td_suggest *s, struct strbuf *sb)
{
	size_t i, near = 0;

	if (!s->n)
		return 0;
	for (i = 0; i <= s->score[s->n - 1]; i++)
		near += s->count[i];
	strbuf_adds(sb, "; did you mean ");
	for (i = 0; i < s->n; i++)
		strbuf_addf(sb, "%s%s", i ? ", " : "", s->best[i]);
	if (near > s->n)
		strbuf_addf(sb, " (or %zu more)", near - s->n);
	strbuf_addc(sb, '?');
	return s->n;
}
