/*
 * fuzz_ydoc.c - libFuzzer target: YAML mapping files (reader/parse/ydoc.c)
 * and msprobe's name maps over what they hold (reader/msprobe/msp_map.c,
 * msp_map_api.c, msp_layer_file.c).
 *
 * The input is a whole YAML text.  It is parsed into a tree; a parsed one
 * is walked (every node's kind, every key a scalar, depth within the
 * limit).  The same bytes, written to a file, are read as a cell-mapping
 * file; a map made is applied to the file's own keys and to a few entry
 * names, whose results must be NUL-terminated within the buffer.  The
 * file is also read as a data-mapping, an API-mapping and a layer-mapping
 * file; what each makes is asked a few names the same way, and a refusal
 * must say why in a NUL-terminated message.
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

/* The file at path as the data, API and layer mapping files. */
static void
other_maps(const char *path)
{
	static const char *const parts[] = { "dense1", "fc", "0" };
	struct reader_map *m = NULL;
	struct msp_api_file *af = NULL;
	struct msp_layer_file *lf = NULL;
	char err[512], buf[256];
	size_t used = 0;
	const char *r;

	if (msp_map_add(&m, READER_MAP_DATA, path, err, sizeof err) == TD_OK) {
		apply(m, "Functional.add.0.forward");
		if (msp_map_leaf(m, "Functional.add.0.forward", "input.0", buf, sizeof buf))
			CHECK(memchr(buf, '\0', sizeof buf) != NULL);
	} else
		CHECK(memchr(err, '\0', sizeof err) != NULL);
	msp_map_free(m);
	if (msp_api_file_read(&af, path, err, sizeof err) == TD_OK) {
		static const char op[] = "Mint.add.0.forward";

		r = msp_api_file_name(af, op, buf, sizeof buf);
		CHECK(r == NULL || r == op || (r == buf && memchr(buf, '\0', sizeof buf) != NULL));
		if (msp_api_file_leaf(af, "Mint.add.0.forward", "input.1", buf, sizeof buf))
			CHECK(memchr(buf, '\0', sizeof buf) != NULL);
	} else
		CHECK(af == NULL && memchr(err, '\0', sizeof err) != NULL);
	msp_api_file_free(af);
	if (msp_layer_file_read(&lf, path, err, sizeof err) == TD_OK) {
		r = msp_layer_file_rename(lf, "TopLayer", parts, 3, &used);
		CHECK(r != NULL && used >= 1 && used <= 3);
		r = msp_layer_file_rename(lf, "ParallelAttention", parts, 1, &used);
		CHECK(r != NULL && used == 1);
	} else
		CHECK(lf == NULL && memchr(err, '\0', sizeof err) != NULL);
	msp_layer_file_free(lf);
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
	if (lseek(fd, 0, SEEK_CUR) == (off_t)size)
		other_maps(path);
	close(fd);
	unlink(path);
	return 0;
}
