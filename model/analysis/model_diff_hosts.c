/*
 * model_diff_hosts.c - the diff's host groups (which host or rank of A is
 * compared with which of B: by name, by sorted position, or the explicit
 * pairs) and each side's window of its rows' host keys and steps, read
 * DIFF_WINDOW rows at a time (model_trace_hosts, one lock a window) for
 * the scans in row order (see model_diff.h, "Host groups").
 */
#include "model/model_diff.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/analysis/model_diff_state.h"

#define NONE32 UINT32_MAX

/* The host names a model's rows carry (model_info's list, "" if none). */
static size_t
host_list(struct model *m, const char ***out)
{
	struct model_info in;
	size_t i;

	model_info(m, &in);
	*out = xcalloc(in.nhosts + 1, sizeof(**out));
	for (i = 0; i < in.nhosts; i++)
		(*out)[i] = in.hosts[i];
	return in.nhosts;
}

static int
find_name(const char *const *v, size_t n, const char *s)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(v[i], s) == 0)
			return (int)i;
	return -1;
}

/* Compares host names as a person sorts them: runs of digits by value
 * ("rank2" before "rank10"). */
static int
natural_cmp(const char *a, const char *b)
{
	while (*a && *b) {
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			const char *x = a, *y = b;
			size_t lx, ly;
			int c;

			while (*x == '0' && isdigit((unsigned char)x[1]))
				x++;
			while (*y == '0' && isdigit((unsigned char)y[1]))
				y++;
			for (a = x; isdigit((unsigned char)*a); a++)
				;
			for (b = y; isdigit((unsigned char)*b); b++)
				;
			lx = (size_t)(a - x), ly = (size_t)(b - y);
			if (lx != ly)
				return lx < ly ? -1 : 1;
			if ((c = strncmp(x, y, lx)) != 0)
				return c;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
		a++, b++;
	}
	return *a ? 1 : *b ? -1 : 0;
}

/* The order of a side's hosts by natural_cmp: idx[k] = host of position k. */
static void
sorted_hosts(const char **h, size_t n, size_t *idx)
{
	size_t i, j;

	for (i = 0; i < n; i++)
		idx[i] = i;
	for (i = 1; i < n; i++)         /* insertion sort: a few hundred ranks at most */
		for (j = i; j > 0 && natural_cmp(h[idx[j - 1]], h[idx[j]]) > 0; j--) {
			size_t tmp = idx[j];

			idx[j] = idx[j - 1];
			idx[j - 1] = tmp;
		}
}

/* The k-th host of A in sorted order with the k-th of B (as many each). */
static void
pair_by_position(struct model_diff *d, size_t n)
{
	size_t *ia = xcalloc(n, sizeof(*ia)), *ib = xcalloc(n, sizeof(*ib)), k;

	sorted_hosts(d->side[0].hosts, n, ia);
	sorted_hosts(d->side[1].hosts, n, ib);
	for (k = 0; k < n; k++)
		d->side[0].group[ia[k]] = d->side[1].group[ib[k]] = (uint32_t)k;
	free(ia);
	free(ib);
}

enum td_status
diff_host_groups(struct model_diff *d, const struct model_diff_options *o, char *err, size_t errlen)
{
	const char **ha, **hb;
	size_t na = host_list(d->a, &ha), nb = host_list(d->b, &hb), i, common = 0;
	enum td_status st = TD_OK;

	d->side[0].nhosts = na, d->side[0].hosts = ha;
	d->side[1].nhosts = nb, d->side[1].hosts = hb;
	d->side[0].group = xcalloc(na + 1, sizeof(uint32_t));
	d->side[1].group = xcalloc(nb + 1, sizeof(uint32_t));
	for (i = 0; i < na + 1; i++)
		d->side[0].group[i] = NONE32;
	for (i = 0; i < nb + 1; i++)
		d->side[1].group[i] = NONE32;
	d->any_host = false;
	d->explicit_pairs = o->npairs > 0;
	if (o->npairs) {
		for (i = 0; i < o->npairs && st == TD_OK; i++) {
			int x = find_name(ha, na, o->pairs[i].a), y = find_name(hb, nb, o->pairs[i].b);

			if (x < 0 || y < 0) {
				snprintf(err, errlen, "no host or rank \"%s\" in %s", x < 0 ? o->pairs[i].a
					 : o->pairs[i].b, x < 0 ? "the first dump" : "the second dump");
				st = TD_ERR_ARGS;
				break;
			}
			d->side[0].group[x] = d->side[1].group[y] = (uint32_t)i;
		}
		return st;
	}
	if (na <= 1 && nb <= 1) {
		d->any_host = true;         /* one host each (or none): hosts do not matter */
		return TD_OK;
	}
	if (na == nb && (model_reader_flags(d->a) & READER_PAIR_HOSTS_BY_POSITION) &&
	    (model_reader_flags(d->b) & READER_PAIR_HOSTS_BY_POSITION)) {
		pair_by_position(d, na);
		return TD_OK;
	}
	for (i = 0; i < na; i++) {
		int y = find_name(hb, nb, ha[i]);

		if (y >= 0) {
			d->side[0].group[i] = d->side[1].group[y] = (uint32_t)i;
			common++;
		}
	}
	if (common == 0 && na == nb)
		for (i = 0; i < na; i++)
			d->side[0].group[i] = d->side[1].group[i] = (uint32_t)i;
	return TD_OK;
}

/* Row i's index in side s's window, refilled around i when i is outside
 * it; -1 past the rows. */
static int
row_window(struct model_diff *d, int s, uint64_t i)
{
	struct diff_side *sd = &d->side[s];

	if (i < sd->win_first || i >= sd->win_first + sd->win_n) {
		sd->win_first = i & ~(uint64_t)(DIFF_WINDOW - 1);
		sd->win_n = model_trace_hosts(s ? d->b : d->a, sd->win_first, DIFF_WINDOW,
					      d->any_host ? NULL : sd->win_host, sd->win_step);
		if (i >= sd->win_first + sd->win_n)
			return -1;
	}
	return (int)(i - sd->win_first);
}

int64_t
diff_side_step(struct model_diff *d, int s, uint64_t i)
{
	int w = row_window(d, s, i);

	return w < 0 ? -1 : d->side[s].win_step[w];
}

/* The host group of row i of a side; NONE32 when its host takes no part. */
uint32_t
diff_row_group(struct model_diff *d, int s, uint64_t i)
{
	struct diff_side *sd = &d->side[s];
	struct model *m = s ? d->b : d->a;
	uint32_t sid;
	const char *host;
	int k, w;

	if (d->any_host)
		return 0;
	w = row_window(d, s, i);
	sid = w < 0 ? 0 : sd->win_host[w];
	if (sid == sd->memo_sid && sd->memo_valid)
		return sd->memo_group;
	host = model_host_name(m, sid);
	k = find_name(sd->hosts, sd->nhosts, host ? host : "");
	sd->memo_sid = sid;
	sd->memo_valid = true;
	sd->memo_group = k < 0 ? NONE32 : sd->group[k];
	return sd->memo_group;
}

const char *
model_diff_host_a(struct model_diff *d, uint64_t k)
{
	struct diff_side *w = &d->hostwin;
	uint64_t i;

	if (k >= d->npairs)
		return NULL;
	i = d->pa[k];
	if (i < w->win_first || i >= w->win_first + w->win_n) {
		w->win_first = i;
		w->win_n = model_trace_hosts(d->a, i, DIFF_WINDOW, w->win_host, NULL);
		if (!w->win_n)
			return "";
	}
	return model_host_name(d->a, w->win_host[i - w->win_first]);
}
