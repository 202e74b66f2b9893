/*
 * pbwire.c - bounds-checked protobuf wire scanning; see pbwire.h.
 */
#include "pbwire.h"

#include <string.h>

double
pbwire_double(const struct pbwire_field *f)
{
	double d;

	memcpy(&d, &f->v, sizeof(d));
	return d;
}

long
pbwire_packed_doubles(const struct pbwire_field *f, double *out, size_t max)
{
	size_t n;

	if (f->type == PBWIRE_FIXED64) {
		if (max)
			out[0] = pbwire_double(f);
		return 1;
	}
	if (f->type != PBWIRE_LEN || f->len % 8)
		return -1;
	n = f->len / 8;
	memcpy(out, f->data, (n < max ? n : max) * sizeof(double));
	return (long)n;
}

long
pbwire_packed_varints(const struct pbwire_field *f, uint64_t *out, size_t max)
{
	const uint8_t *p = f->data, *end = f->data + f->len;
	size_t n = 0;
	uint64_t v;

	if (f->type == PBWIRE_VARINT) {
		if (max)
			out[0] = f->v;
		return 1;
	}
	if (f->type != PBWIRE_LEN)
		return -1;
	while (p < end) {
		if (!pbwire_varint(&p, end, &v))
			return -1;
		if (n < max)
			out[n] = v;
		n++;
	}
	return (long)n;
}

bool
pbwire_depth_within(const void *buf, size_t len, int max)
{
	struct pbwire stack[PBWIRE_DEPTH_MAX + 1];
	struct pbwire_field f;
	int top = 0;

	if (max > PBWIRE_DEPTH_MAX)
		max = PBWIRE_DEPTH_MAX;
	pbwire_init(&stack[0], buf, len);
	while (top >= 0) {
		/* a field that does not scan is bytes, not a message: its
		 * level simply ends (no error: the decoder judges it) */
		if (!pbwire_next(&stack[top], &f)) {
			top--;
			continue;
		}
		if (f.type != PBWIRE_LEN || f.len < 2)
			continue;
		if (top == max)
			return false;
		pbwire_init_field(&stack[++top], &f);
	}
	return true;
}
