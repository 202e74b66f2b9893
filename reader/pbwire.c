/*
 * pbwire.c - bounds-checked protobuf wire scanning; see pbwire.h.
 */
#include "pbwire.h"

#include <string.h>

void
pbwire_init(struct pbwire *r, const void *buf, size_t len)
{
	r->p = buf;
	r->end = r->p + len;
	r->error = false;
}

void
pbwire_init_field(struct pbwire *r, const struct pbwire_field *f)
{
	pbwire_init(r, f->data, f->len);
}

bool
pbwire_varint(const uint8_t **pp, const uint8_t *end, uint64_t *v)
{
	const uint8_t *p = *pp;
	uint64_t x = 0;
	int shift;

	for (shift = 0; shift < 70 && p < end; shift += 7) {
		uint8_t b = *p++;

		if (shift == 63 && b > 1)
			return false;   /* more than 64 bits */
		x |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80)) {
			*v = x;
			*pp = p;
			return true;
		}
	}
	return false;
}

static uint64_t
get_le(const uint8_t *p, int n)
{
	uint64_t v = 0;
	int i;

	for (i = n - 1; i >= 0; i--)
		v = (v << 8) | p[i];
	return v;
}

bool
pbwire_next(struct pbwire *r, struct pbwire_field *f)
{
	uint64_t key, len;

	if (r->error || r->p >= r->end)
		return false;
	if (!pbwire_varint(&r->p, r->end, &key) || (key >> 3) == 0 || (key >> 3) > UINT32_MAX)
		goto bad;
	f->num = (uint32_t)(key >> 3);
	f->type = (enum pbwire_type)(key & 7);
	f->data = NULL;
	f->len = 0;
	f->v = 0;
	switch (key & 7) {
	case PBWIRE_VARINT:
		if (!pbwire_varint(&r->p, r->end, &f->v))
			goto bad;
		return true;
	case PBWIRE_FIXED64:
		if (r->end - r->p < 8)
			goto bad;
		f->v = get_le(r->p, 8);
		r->p += 8;
		return true;
	case PBWIRE_FIXED32:
		if (r->end - r->p < 4)
			goto bad;
		f->v = get_le(r->p, 4);
		r->p += 4;
		return true;
	case PBWIRE_LEN:
		if (!pbwire_varint(&r->p, r->end, &len) || len > (uint64_t)(r->end - r->p))
			goto bad;
		f->data = r->p;
		f->len = (size_t)len;
		r->p += len;
		return true;
	default:
		goto bad;
	}
bad:
	r->error = true;
	return false;
}

double
pbwire_double(const struct pbwire_field *f)
{
	double d;

	memcpy(&d, &f->v, sizeof(d));
	return d;
}

float
pbwire_float(const struct pbwire_field *f)
{
	uint32_t u = (uint32_t)f->v;
	float x;

	memcpy(&x, &u, sizeof(x));
	return x;
}

long
pbwire_packed_doubles(const struct pbwire_field *f, double *out, size_t max)
{
	size_t n, i;

	if (f->type == PBWIRE_FIXED64) {
		if (max)
			out[0] = pbwire_double(f);
		return 1;
	}
	if (f->type != PBWIRE_LEN || f->len % 8)
		return -1;
	n = f->len / 8;
	for (i = 0; i < n && i < max; i++) {
		uint64_t u = get_le(f->data + 8 * i, 8);

		memcpy(&out[i], &u, sizeof(double));
	}
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
