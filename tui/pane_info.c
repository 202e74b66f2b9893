/*
 * pane_info.c - the pane table (pane_info.h) as an array.
 */
#include "pane_info.h"

const struct pane_info pane_info[PANE_COUNT] = {
#define TD_PANE_ROW(id, name, key, title, page) [PANE_##id] = { #name, title, key, page },
	PANE_INFO(TD_PANE_ROW)
#undef TD_PANE_ROW
};

#define TD_PANE_CHECK(id, name, key, title, page) \
	_Static_assert((page) >= 0 && (page) < PANE_PAGES, "pane " #name ": page out of range");
PANE_INFO(TD_PANE_CHECK)
#undef TD_PANE_CHECK
