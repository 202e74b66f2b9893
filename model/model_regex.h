/*
 * model_regex.h - matching a user's regex over dump strings with bounded
 * work (issue 23 item 17): every match tdbg runs over op names, op types
 * and other dump strings goes through here, with PCRE2's match and depth
 * limits set, so a pattern that backtracks exponentially on a deep scope
 * name costs about a millisecond, not a second, and says it could not
 * decide instead of "no match".
 */
#ifndef TD_MODEL_REGEX_H
#define TD_MODEL_REGEX_H

#include <stddef.h>

#ifndef PCRE2_CODE_UNIT_WIDTH
#define PCRE2_CODE_UNIT_WIDTH 8
#endif
#include <pcre2.h>

/* The limits (PCRE2 match_limit and depth_limit): a pattern needing more
 * on one string cannot decide it. */
#define MODEL_REGEX_MATCH_LIMIT 100000u
#define MODEL_REGEX_DEPTH_LIMIT 5000u

enum model_regex_result {
	MODEL_REGEX_NO = 0,
	MODEL_REGEX_MATCH = 1,
	MODEL_REGEX_UNDECIDED = -1, /* a limit was hit (or another match error) */
};

/* Matches re against the len bytes of s with the limits above, using md
 * (NULL: one made for the call).  Any thread; re and md are the caller's
 * (md not shared between threads). */
enum model_regex_result model_regex_match(const pcre2_code *re, const char *s, size_t len,
					  pcre2_match_data *md);

#endif
