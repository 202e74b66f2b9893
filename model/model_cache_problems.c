/*
 * model_cache_problems.c - problems and alerts in a cache file
 * (model_cache.h): the problem list and counts, torn tails, alert groups
 * and the alerts readers stated, written as they are and checked when
 * read back (string ids below the string count, kinds in range, counts
 * inside the section).  Moved out of model_cache_ops.c (the op table).
 */
#include "model_cache.h"

#include <stdlib.h>
#include <string.h>

static const char infnan_kind[] = "InfNan";

static void
put_groups(struct strbuf *sb, const struct alert_group *v, size_t n)
{
	size_t i;

	ser_put_u64(sb, n);
	for (i = 0; i < n; i++) {
		ser_put_str(sb, v[i].kind);
		ser_put_u32(sb, v[i].type_sid);
		ser_put_u64(sb, v[i].count);
		ser_put_u64(sb, v[i].first);
	}
}

/* The static name of an alert kind: "InfNan" or a reader's alert name. */
static const char *
group_kind(const char *k)
{
	int i;

	if (k && strcmp(k, infnan_kind) == 0)
		return infnan_kind;
	for (i = 0; k && i < READER_ALERT_COUNT; i++)
		if (strcmp(k, reader_alert_name((enum reader_alert_kind)i)) == 0)
			return reader_alert_name((enum reader_alert_kind)i);
	return NULL;
}

static bool
get_groups(struct ser_in *s, const struct mc_counts *c, struct alert_group **v, size_t *nv,
	   size_t *cap)
{
	uint64_t n = ser_get_count(s, 25), i;

	for (i = 0; i < n && !s->bad; i++) {
		struct alert_group g;

		g.kind = group_kind(ser_get_str(s));
		g.type_sid = mc_get_sid(s, c, false);
		g.count = ser_get_u64(s);
		g.first = ser_get_u64(s);
		if (!g.kind)
			return false;
		TD_GROW(*v, *cap, *nv + 1);
		(*v)[(*nv)++] = g;
	}
	return !s->bad;
}

void
mc_put_problems(struct model *m, struct strbuf *sb)
{
	size_t i;

	ser_put_u64(sb, m->pr.nproblems);
	for (i = 0; i < m->pr.nproblems; i++) {
		const struct problem_entry *p = &m->pr.problems[i];

		ser_put_u32(sb, p->kind);
		mc_put_sp(sb, m, p->path);
		mc_put_sp(sb, m, p->what);
		mc_put_sp(sb, m, p->detail);
		ser_put_u64(sb, p->offset);
		ser_put_u64(sb, (uint64_t)p->record);
	}
	for (i = 0; i < TD_ARRAY_SIZE(m->pr.problems_by_kind); i++)
		ser_put_u64(sb, m->pr.problems_by_kind[i]);
	ser_put_u64(sb, m->pr.problem_total);
	mc_put_map(sb, &m->pr.problem_seen);
	ser_put_u64(sb, m->pr.ntorn);
	for (i = 0; i < m->pr.ntorn; i++) {
		ser_put_u64(sb, m->pr.torn[i].key);
		ser_put_u64(sb, m->pr.torn[i].offset);
	}
	for (i = 0; i < ALERT_SOURCE_COUNT; i++)
		put_groups(sb, m->pr.groups[i].v, m->pr.groups[i].n);
	ser_put_u64(sb, m->pr.nralerts);
	for (i = 0; i < m->pr.nralerts; i++) {
		ser_put_u32(sb, m->pr.ralerts[i].kind);
		mc_put_sp(sb, m, m->pr.ralerts[i].op_name);
		mc_put_sp(sb, m, m->pr.ralerts[i].op_type);
		mc_put_sp(sb, m, m->pr.ralerts[i].detail);
		ser_put_u64(sb, (uint64_t)m->pr.ralerts[i].execution);
	}
}

static bool
get_problem_list(struct model *m, struct ser_in *s, const struct mc_counts *c)
{
	uint64_t n = ser_get_count(s, 32), i;

	if (n > MODEL_MAX_PROBLEMS)
		return false;
	if (n)
		m->pr.problems = xcalloc(MODEL_MAX_PROBLEMS, sizeof(*m->pr.problems));
	for (i = 0; i < n && !s->bad; i++) {
		struct problem_entry *p = &m->pr.problems[m->pr.nproblems++];

		p->kind = (enum reader_problem_kind)ser_get_u32(s);
		mc_get_sp(s, m, c, true, &p->path);
		mc_get_sp(s, m, c, true, &p->what);
		mc_get_sp(s, m, c, true, &p->detail);
		p->offset = ser_get_u64(s);
		p->record = ser_get_i64(s);
		if ((unsigned)p->kind >= PROBLEM_COUNT || !p->path || !p->what || !p->detail)
			return false;
	}
	for (i = 0; i < TD_ARRAY_SIZE(m->pr.problems_by_kind); i++)
		m->pr.problems_by_kind[i] = ser_get_u64(s);
	m->pr.problem_total = ser_get_u64(s);
	return !s->bad;
}

static bool
get_ralerts(struct model *m, struct ser_in *s, const struct mc_counts *c)
{
	uint64_t n = ser_get_count(s, 24), i;

	for (i = 0; i < n && !s->bad; i++) {
		struct reader_alert_entry *a;

		TD_GROW(m->pr.ralerts, m->pr.capralerts, m->pr.nralerts + 1);
		a = &m->pr.ralerts[m->pr.nralerts++];
		a->kind = (enum reader_alert_kind)ser_get_u32(s);
		mc_get_sp(s, m, c, true, &a->op_name);
		mc_get_sp(s, m, c, true, &a->op_type);
		mc_get_sp(s, m, c, true, &a->detail);
		a->execution = ser_get_i64(s);
		if ((unsigned)a->kind >= READER_ALERT_COUNT || !a->op_name || !a->op_type)
			return false;
	}
	return !s->bad;
}

bool
mc_get_problems(struct model *m, struct ser_in *s, const struct mc_counts *c)
{
	uint64_t n, i;

	if (!get_problem_list(m, s, c) || !mc_get_map(s, &m->pr.problem_seen, UINT64_MAX))
		return false;
	n = ser_get_count(s, 16);
	for (i = 0; i < n && !s->bad; i++) {
		TD_GROW(m->pr.torn, m->pr.captorn, m->pr.ntorn + 1);
		m->pr.torn[m->pr.ntorn].key = ser_get_u64(s);
		m->pr.torn[m->pr.ntorn++].offset = ser_get_u64(s);
	}
	for (i = 0; i < ALERT_SOURCE_COUNT && !s->bad; i++)
		if (!get_groups(s, c, &m->pr.groups[i].v, &m->pr.groups[i].n, &m->pr.groups[i].cap))
			return false;
	return !s->bad && get_ralerts(m, s, c);
}
