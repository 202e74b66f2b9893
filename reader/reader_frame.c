/*
 * reader_frame.c - the rule readers use to mark a stack frame as the
 * framework's own code (reader_frame.framework) rather than the user's,
 * and the op key of a trace (reader_trace.op_key).
 */
#include "reader.h"

#include <string.h>

#include "reader/parse/crc32c.h"

/* Packages whose frames are the framework's, below an installed-package
 * directory. */
static const char *const frameworks[] = { "tensorflow", "keras", "tf_keras", "mindspore", "torch",
					  "torch_npu", "msprobe" };

bool
reader_path_is_framework(const char *path)
{
	static const char *const pkgs[] = { "site-packages/", "dist-packages/" };
	size_t i, k;

	if (!path || strstr(path, "/examples/"))
		return false;   /* a framework's examples are the user's kind of code */
	for (i = 0; i < TD_ARRAY_SIZE(pkgs); i++) {
		const char *p = strstr(path, pkgs[i]);

		if (!p)
			continue;
		p += strlen(pkgs[i]);
		for (k = 0; k < TD_ARRAY_SIZE(frameworks); k++)
			if (strncmp(p, frameworks[k], strlen(frameworks[k])) == 0)
				return true;
	}
	return false;
}

uint64_t
reader_op_key(const char *graph_id, size_t glen, const char *op_name, size_t nlen)
{
	/* the CRC instruction hashes these short strings in a few cycles;
	 * a multiplicative hash's dependency chain cost more than the
	 * string compares it replaces */
	uint64_t k = ((uint64_t)crc32c(graph_id, glen) << 32 | crc32c(op_name, nlen)) ^
		     ((uint64_t)glen << 48 ^ (uint64_t)nlen << 16);

	return k ? k : 1;
}
