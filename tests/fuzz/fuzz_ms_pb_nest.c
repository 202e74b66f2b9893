/*
 * fuzz_ms_pb_nest.c - libFuzzer target: MindSpore graph .pb files nested
 * deep (issue 13: a TypeProto 5,000 deep overflowed protobuf-c's recursion).
 *
 * Input: two bytes of depth (0..8191), one byte k, k field numbers, then a
 * payload.  The payload is wrapped depth times in length-delimited fields
 * (see level_tag), so the mutator explores chains
 * of real GraphProto / NodeProto / TypeProto fields at any depth.  The
 * result goes through the wire scanner's depth check and ms_graph_decode
 * (ModelProto, else bare GraphProto); the raw input is decoded too.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "reader/mindspore/ms_internal.h"
#include "reader/parse/pbwire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static size_t
varint_len(uint64_t v)
{
	size_t n = 1;

	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

static uint8_t *
put_varint(uint8_t *p, uint64_t v)
{
	while (v >= 0x80) {
		*p++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*p++ = (uint8_t)v;
	return p;
}

/* The field number of level i (outermost 0): the k given fields once, then
 * the last two in turn (a TypeProto's sequence_type / elem_types chain
 * under a ModelProto's graph / node / output_type is fields 4 1 6 3 1). */
static uint64_t
level_tag(const uint8_t *fields, size_t k, size_t i)
{
	size_t f = i < k ? i : k < 2 ? 0 : k - 2 + (i - k) % 2;

	return ((uint64_t)(fields[f] % 32 + 1) << 3) | 2;
}

/* payload wrapped depth times in the fields level_tag() gives. */
static uint8_t *
nest(const uint8_t *payload, size_t plen, size_t depth, const uint8_t *fields, size_t k,
     size_t *outlen)
{
	size_t *inner = malloc((depth + 1) * sizeof(*inner)), i;
	uint8_t *buf, *p;

	if (!inner)
		return NULL;
	/* inner[i]: bytes of level i's content (level depth is the payload) */
	inner[depth] = plen;
	for (i = depth; i-- > 0;) {
		uint64_t tag = level_tag(fields, k, i);

		inner[i] = varint_len(tag) + varint_len(inner[i + 1]) + inner[i + 1];
	}
	*outlen = inner[0];
	if (!(buf = malloc(*outlen ? *outlen : 1))) {
		free(inner);
		return NULL;
	}
	p = buf;
	for (i = 0; i < depth; i++) {
		uint64_t tag = level_tag(fields, k, i);

		p = put_varint(p, tag);
		p = put_varint(p, inner[i + 1]);
	}
	memcpy(p, payload, plen);
	free(inner);
	return buf;
}

static void
decode(const uint8_t *buf, size_t len)
{
	struct ms_graph g;
	char err[256];

	memset(&g, 0, sizeof g);
	(void)pbwire_depth_within(buf, len, PBWIRE_DEPTH_MAX);
	if (ms_graph_decode(buf, len, &g, err, sizeof err) == TD_OK)
		ms_graph_done(&g);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t depth, k, len;
	uint8_t *buf;

	decode(data, size);
	if (size < 3)
		return 0;
	depth = ((size_t)data[0] | (size_t)data[1] << 8) % 8192;
	k = data[2] % 8 + 1;
	if (size < 3 + k)
		return 0;
	buf = nest(data + 3 + k, size - 3 - k, depth, data + 3, k, &len);
	if (buf) {
		decode(buf, len);
		free(buf);
	}
	return 0;
}
