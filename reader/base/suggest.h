/*
 * suggest.h - "did you mean ...?" for a name nobody has: the nearest of a
 * set of candidates, one helper for ops, hosts, graphs, fields, conditions
 * and commands.
 *
 * Nearest means, best first: the same name in another case; a candidate
 * whose last path component is the word (`MatMul` -> `dense/MatMul`); one
 * that contains the word; then a small edit distance (insertions,
 * deletions, substitutions and swaps of neighbours, at most a third of the
 * word's length).  The caller feeds every candidate; the helper keeps the
 * best few.  Not for: fuzzy search (it only answers a miss).
 *
 * Example:
 *
 *	struct td_suggest s;
 *	td_suggest_init(&s, "MatMul");
 *	for (each op name n) td_suggest_add(&s, n);
 *	td_suggest_text(&s, &msg);        // "; did you mean dense/MatMul, dense_1/MatMul?"
 */
#ifndef TD_SUGGEST_H
#define TD_SUGGEST_H

#include <stddef.h>

#include "util.h"

#define TD_SUGGEST_MAX 4
#define TD_SUGGEST_LEVELS 32

struct td_suggest {
	const char *word;
	const char *best[TD_SUGGEST_MAX];  /* borrowed: candidates must outlive the text call */
	unsigned score[TD_SUGGEST_MAX];
	size_t n;                   /* kept, best first */
	size_t count[TD_SUGGEST_LEVELS];   /* candidates seen per score */
};

/* Starts a search for word (borrowed until td_suggest_text). */
void td_suggest_init(struct td_suggest *s, const char *word);
/* Weighs one candidate (borrowed); a text already offered is not offered
 * twice. */
void td_suggest_add(struct td_suggest *s, const char *cand);
/* Appends "; did you mean A, B?" ("(or N more)" counts those as near as
 * the last one offered) when anything is near,
 * else nothing.  Returns the number of names offered. */
size_t td_suggest_text(const struct td_suggest *s, struct strbuf *sb);

#endif
