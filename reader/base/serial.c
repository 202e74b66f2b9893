/*
 * serial.c - the binary encoding of serial.h: fixed-width values in the
 * machine's byte order, strings with a length and a NUL, reads that stop at
 * the end of the input.
 */
#include "serial.h"

#include <string.h>

void
ser_put_bytes(struct strbuf *o, const void *p, size_t n)
{
	if (n)
		strbuf_add(o, p, n);
}

void
ser_put_u8(struct strbuf *o, uint8_t v)
{
	ser_put_bytes(o, &v, 1);
}

void
ser_put_u32(struct strbuf *o, uint32_t v)
{
	ser_put_bytes(o, &v, sizeof v);
}

void
ser_put_u64(struct strbuf *o, uint64_t v)
{
	ser_put_bytes(o, &v, sizeof v);
}

void
ser_put_varint(struct strbuf *o, uint64_t v)
{
	uint8_t b[10];
	size_t n = 0;

	while (v >= 0x80) {
		b[n++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	b[n++] = (uint8_t)v;
	ser_put_bytes(o, b, n);
}

void
ser_put_delta(struct strbuf *o, uint64_t prev, uint64_t v)
{
	uint64_t d = v - prev;

	ser_put_varint(o, (d << 1) ^ (uint64_t)-(int64_t)(d >> 63));
}

void
ser_put_f64(struct strbuf *o, double v)
{
	ser_put_bytes(o, &v, sizeof v);
}

void
ser_put_str(struct strbuf *o, const char *s)
{
	size_t len;

	if (!s) {
		ser_put_u32(o, SER_NULL_STR);
		return;
	}
	len = strlen(s);
	if (len >= SER_NULL_STR)
		len = SER_NULL_STR - 1;
	ser_put_u32(o, (uint32_t)len);
	ser_put_bytes(o, s, len);
	ser_put_u8(o, 0);
}

void
ser_in_init(struct ser_in *in, const void *p, size_t n)
{
	in->p = p;
	in->n = p ? n : 0;
	in->off = 0;
	in->bad = false;
}

const void *
ser_get_bytes(struct ser_in *in, size_t n)
{
	const void *p;

	if (in->bad || n > in->n - in->off) {
		in->bad = true;
		return NULL;
	}
	p = in->p + in->off;
	in->off += n;
	return p;
}

/* Copies n bytes into out, zeros when short. */
static void
get_into(struct ser_in *in, void *out, size_t n)
{
	const void *p = ser_get_bytes(in, n);

	if (p)
		memcpy(out, p, n);
	else
		memset(out, 0, n);
}

uint8_t
ser_get_u8(struct ser_in *in)
{
	uint8_t v;

	get_into(in, &v, sizeof v);
	return v;
}

uint32_t
ser_get_u32(struct ser_in *in)
{
	uint32_t v;

	get_into(in, &v, sizeof v);
	return v;
}

uint64_t
ser_get_u64(struct ser_in *in)
{
	uint64_t v;

	get_into(in, &v, sizeof v);
	return v;
}

uint64_t
ser_get_varint(struct ser_in *in)
{
	uint64_t v = 0;
	int shift;

	for (shift = 0; shift < 64 && !in->bad; shift += 7) {
		uint8_t b = ser_get_u8(in);

		v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			return v;
	}
	in->bad = true;
	return 0;
}

uint64_t
ser_get_delta(struct ser_in *in, uint64_t prev)
{
	uint64_t z = ser_get_varint(in);

	return prev + ((z >> 1) ^ (uint64_t)-(int64_t)(z & 1));
}

int64_t
ser_get_i64(struct ser_in *in)
{
	return (int64_t)ser_get_u64(in);
}

double
ser_get_f64(struct ser_in *in)
{
	double v;

	get_into(in, &v, sizeof v);
	return v;
}

const char *
ser_get_str(struct ser_in *in)
{
	uint32_t len = ser_get_u32(in);
	const char *s;

	if (in->bad || len == SER_NULL_STR)
		return NULL;
	s = ser_get_bytes(in, (size_t)len + 1);
	if (!s)
		return NULL;
	if (s[len] != '\0') {
		in->bad = true;
		return NULL;
	}
	return s;
}

uint64_t
ser_get_count(struct ser_in *in, size_t min_item)
{
	uint64_t n = ser_get_u64(in);

	if (in->bad)
		return 0;
	if (min_item && n > (in->n - in->off) / min_item) {
		in->bad = true;
		return 0;
	}
	return n;
}

bool
ser_in_done(const struct ser_in *in)
{
	return !in->bad && in->off == in->n;
}
