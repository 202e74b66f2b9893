/*
 * fuzz_pt.c - libFuzzer target: torch.save archives (reader/parse/pt.c,
 * pt_pickle.c, zip.c).
 *
 * The first byte picks what the rest is: an even byte, a whole .pt archive
 * (decoded, and a tensor summarised); an odd one, a bare data.pkl pickle
 * for the interpreter.  Nothing may crash, hang or allocate past the
 * limits whatever the archive's records and the pickle's opcodes claim.
 */
#include <stdint.h>

#include "reader/parse/pt.h"
#include "reader/base/tensor.h"

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct td_tensor *t = NULL;
	struct pt_header h;
	struct td_summary s;
	char err[256];

	if (size < 1)
		return 0;
	if (data[0] & 1) {
		if (pt_parse_pickle(data + 1, size - 1, &h, err, sizeof(err)) == TD_OK)
			CHECK(h.rank >= 0 && h.rank <= PT_MAX_DIMS && h.n >= 0);
		return 0;
	}
	if (pt_decode(data + 1, size - 1, &t, err, sizeof(err)) == TD_OK) {
		CHECK(t != NULL);
		td_tensor_summarize(t, &s);
		td_tensor_free(t);
	}
	return 0;
}
