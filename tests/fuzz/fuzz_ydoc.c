/*
 * fuzz_ydoc.c - libFuzzer target: YAML mapping files (reader/parse/ydoc.c)
 * and msprobe's cell rules over what they hold (reader/msprobe/msp_map.c).
 *
 * The input is a whole YAML text.  It is parsed into a tree; a parsed one
 * is walked (every node's kind, every key a scalar, depth within the
 * limit).  The same bytes, written to a file, are read as a cell-mapping
 * file; a map made is applied to the file's own keys and to a few entry
 * names, whose results must be NUL-terminated within the buffer.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "reader/parse/ydoc.h"
#include "reader/msprobe/msp_internal.h"

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
walk(const struct ydoc_node *n, int depth)
{
	size_t i;

	CHECK(depth <= YDOC_MAX_DEPTH);
	if (n->kind == YDOC_SCALAR) {
		CHECK(n->str != NULL && n->n == 0);
		return;
	}
	CHECK(n->kind == YDOC_SEQ || n->kind == YDOC_MAP);
	if (n->kind == YDOC_MAP)
		for (i = 0; i < n->n; i += 2)
			CHECK(n->kid[i]->kind == YDOC_SCALAR);
	for (i = 0; i < n->n; i++)
		walk(n->kid[i], depth + 1);
}

static void
apply(const struct reader_map *m, const char *name)
{
	char buf[256];
	const char *r = msp_map_name(m, name, buf, sizeof buf);

	if (r == buf)
		CHECK(memchr(buf, '\0', sizeof buf) != NULL);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ydoc *d = NULL;
	struct reader_map *m = NULL;
	char err[512], path[] = "/tmp/fuzz_ydoc_XXXXXX";
	const struct ydoc_node *r;
	int fd;
	size_t i;

	if (ydoc_parse("fuzz.yaml", (const char *)data, size, &d, err, sizeof err) == TD_OK) {
		if ((r = ydoc_root(d)))
			walk(r, 1);
		ydoc_free(d);
	} else
		CHECK(d == NULL && memchr(err, '\0', sizeof err));
	if ((fd = mkstemp(path)) < 0)
		return 0;
	if (write(fd, data, size) == (ssize_t)size &&
	    msp_map_add(&m, READER_MAP_CELL, path, err, sizeof err) == TD_OK) {
		if (ydoc_read(path, &d, err, sizeof err) == TD_OK && (r = ydoc_root(d)))
			for (i = 0; r->kind == YDOC_MAP && i < r->n; i += 2) {
				char name[600];

				snprintf(name, sizeof name, "Cell.%s.forward.0", r->kid[i]->str);
				apply(m, name);
			}
		ydoc_free(d);
		apply(m, "Cell.dense1.Dense.forward.0");
		apply(m, "Cell.x.parameters_grad");
		apply(m, "Functional.add.0.forward");
	}
	msp_map_free(m);
	close(fd);
	unlink(path);
	return 0;
}
