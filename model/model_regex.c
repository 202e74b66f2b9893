/*
 * model_regex.c - bounded regex matches (model_regex.h): one PCRE2 match
 * context with the match and depth limits, made once and shared read-only
 * by every thread.  Not here: compiling (each caller reports its own
 * errors with PCRE2's message and offset) and what an undecided match
 * means to a caller (an unknown row, an error).
 */
#include "model_regex.h"

#include <pthread.h>

static pcre2_match_context *limits;
static pthread_once_t limits_once = PTHREAD_ONCE_INIT;

static void
limits_make(void)
{
	limits = pcre2_match_context_create(NULL);
	if (!limits)
		return;         /* out of memory: the library's own limits apply */
	pcre2_set_match_limit(limits, MODEL_REGEX_MATCH_LIMIT);
	pcre2_set_depth_limit(limits, MODEL_REGEX_DEPTH_LIMIT);
}

enum model_regex_result
model_regex_match(const pcre2_code *re, const char *s, size_t len, pcre2_match_data *md)
{
	pcre2_match_data *own = NULL;
	int rc;

	pthread_once(&limits_once, limits_make);
	if (!md && !(md = own = pcre2_match_data_create_from_pattern(re, NULL)))
		return MODEL_REGEX_UNDECIDED;
	rc = pcre2_match(re, (PCRE2_SPTR)s, len, 0, 0, md, limits);
	pcre2_match_data_free(own);
	if (rc >= 0)
		return MODEL_REGEX_MATCH;
	return rc == PCRE2_ERROR_NOMATCH ? MODEL_REGEX_NO : MODEL_REGEX_UNDECIDED;
}
