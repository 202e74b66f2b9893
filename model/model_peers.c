/*
 * model_peers.c - values that crossed between trace rows outside the
 * graph's edges, as readers state them (reader.h struct reader_link: a
 * collective or a send/recv between hosts).  The model keeps them in the
 * order sent (model_sink.c) and origins asks which rows fed a row through
 * model_trace_peers() (model_query.h).  Not for: graph edges (the link
 * scans, model_scan.c) or anything a format names.
 */
#include "model_internal.h"

#include <stdlib.h>

size_t
model_trace_peers(struct model *m, uint64_t to, uint64_t **out)
{
	size_t i, n = 0, cap = 0;

	*out = NULL;
	pthread_mutex_lock(&m->th.lock);
	for (i = 0; i < m->rows.npeer_links; i++)
		if (m->rows.peer_links[i].to == to) {
			TD_GROW(*out, cap, n + 1);
			(*out)[n++] = m->rows.peer_links[i].from;
		}
	pthread_mutex_unlock(&m->th.lock);
	return n;
}
