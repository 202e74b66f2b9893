/*
 * shortest.c - shortest_digits (shortest.h): Grisu3 (Florian Loitsch,
 * "Printing Floating-Point Numbers Quickly and Accurately with Integers",
 * PLDI 2010), shortest mode.  v and its two rounding boundaries are
 * scaled by a cached power of ten into a 64-bit window, digits are made
 * from the upper boundary down until they fall inside the interval that
 * rounds to v, and the last digit is weeded toward v; where the 64-bit
 * errors leave the answer in doubt, it says so (0) and the caller takes
 * the exact, slower way.
 */
#include "shortest.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

/* f x 2^e, f of 64 bits */
struct diy {
	uint64_t f;
	int e;
};

/* 10^k as f x 2^e (f normalized, rounded to nearest), k = -348 ... 340 by
 * 8: the powers' digits are facts, made with exact integer arithmetic. */
static const struct {
	uint64_t f;
	int16_t e, k;
} powers[] = {
	{ 0xfa8fd5a0081c0288ull, -1220, -348 },
	{ 0xbaaee17fa23ebf76ull, -1193, -340 },
	{ 0x8b16fb203055ac76ull, -1166, -332 },
	{ 0xcf42894a5dce35eaull, -1140, -324 },
	{ 0x9a6bb0aa55653b2dull, -1113, -316 },
	{ 0xe61acf033d1a45dfull, -1087, -308 },
	{ 0xab70fe17c79ac6caull, -1060, -300 },
	{ 0xff77b1fcbebcdc4full, -1034, -292 },
	{ 0xbe5691ef416bd60cull, -1007, -284 },
	{ 0x8dd01fad907ffc3cull, -980, -276 },
	{ 0xd3515c2831559a83ull, -954, -268 },
	{ 0x9d71ac8fada6c9b5ull, -927, -260 },
	{ 0xea9c227723ee8bcbull, -901, -252 },
	{ 0xaecc49914078536dull, -874, -244 },
	{ 0x823c12795db6ce57ull, -847, -236 },
	{ 0xc21094364dfb5637ull, -821, -228 },
	{ 0x9096ea6f3848984full, -794, -220 },
	{ 0xd77485cb25823ac7ull, -768, -212 },
	{ 0xa086cfcd97bf97f4ull, -741, -204 },
	{ 0xef340a98172aace5ull, -715, -196 },
	{ 0xb23867fb2a35b28eull, -688, -188 },
	{ 0x84c8d4dfd2c63f3bull, -661, -180 },
	{ 0xc5dd44271ad3cdbaull, -635, -172 },
	{ 0x936b9fcebb25c996ull, -608, -164 },
	{ 0xdbac6c247d62a584ull, -582, -156 },
	{ 0xa3ab66580d5fdaf6ull, -555, -148 },
	{ 0xf3e2f893dec3f126ull, -529, -140 },
	{ 0xb5b5ada8aaff80b8ull, -502, -132 },
	{ 0x87625f056c7c4a8bull, -475, -124 },
	{ 0xc9bcff6034c13053ull, -449, -116 },
	{ 0x964e858c91ba2655ull, -422, -108 },
	{ 0xdff9772470297ebdull, -396, -100 },
	{ 0xa6dfbd9fb8e5b88full, -369, -92 },
	{ 0xf8a95fcf88747d94ull, -343, -84 },
	{ 0xb94470938fa89bcfull, -316, -76 },
	{ 0x8a08f0f8bf0f156bull, -289, -68 },
	{ 0xcdb02555653131b6ull, -263, -60 },
	{ 0x993fe2c6d07b7facull, -236, -52 },
	{ 0xe45c10c42a2b3b06ull, -210, -44 },
	{ 0xaa242499697392d3ull, -183, -36 },
	{ 0xfd87b5f28300ca0eull, -157, -28 },
	{ 0xbce5086492111aebull, -130, -20 },
	{ 0x8cbccc096f5088ccull, -103, -12 },
	{ 0xd1b71758e219652cull, -77, -4 },
	{ 0x9c40000000000000ull, -50, 4 },
	{ 0xe8d4a51000000000ull, -24, 12 },
	{ 0xad78ebc5ac620000ull, 3, 20 },
	{ 0x813f3978f8940984ull, 30, 28 },
	{ 0xc097ce7bc90715b3ull, 56, 36 },
	{ 0x8f7e32ce7bea5c70ull, 83, 44 },
	{ 0xd5d238a4abe98068ull, 109, 52 },
	{ 0x9f4f2726179a2245ull, 136, 60 },
	{ 0xed63a231d4c4fb27ull, 162, 68 },
	{ 0xb0de65388cc8ada8ull, 189, 76 },
	{ 0x83c7088e1aab65dbull, 216, 84 },
	{ 0xc45d1df942711d9aull, 242, 92 },
	{ 0x924d692ca61be758ull, 269, 100 },
	{ 0xda01ee641a708deaull, 295, 108 },
	{ 0xa26da3999aef774aull, 322, 116 },
	{ 0xf209787bb47d6b85ull, 348, 124 },
	{ 0xb454e4a179dd1877ull, 375, 132 },
	{ 0x865b86925b9bc5c2ull, 402, 140 },
	{ 0xc83553c5c8965d3dull, 428, 148 },
	{ 0x952ab45cfa97a0b3ull, 455, 156 },
	{ 0xde469fbd99a05fe3ull, 481, 164 },
	{ 0xa59bc234db398c25ull, 508, 172 },
	{ 0xf6c69a72a3989f5cull, 534, 180 },
	{ 0xb7dcbf5354e9beceull, 561, 188 },
	{ 0x88fcf317f22241e2ull, 588, 196 },
	{ 0xcc20ce9bd35c78a5ull, 614, 204 },
	{ 0x98165af37b2153dfull, 641, 212 },
	{ 0xe2a0b5dc971f303aull, 667, 220 },
	{ 0xa8d9d1535ce3b396ull, 694, 228 },
	{ 0xfb9b7cd9a4a7443cull, 720, 236 },
	{ 0xbb764c4ca7a44410ull, 747, 244 },
	{ 0x8bab8eefb6409c1aull, 774, 252 },
	{ 0xd01fef10a657842cull, 800, 260 },
	{ 0x9b10a4e5e9913129ull, 827, 268 },
	{ 0xe7109bfba19c0c9dull, 853, 276 },
	{ 0xac2820d9623bf429ull, 880, 284 },
	{ 0x80444b5e7aa7cf85ull, 907, 292 },
	{ 0xbf21e44003acdd2dull, 933, 300 },
	{ 0x8e679c2f5e44ff8full, 960, 308 },
	{ 0xd433179d9c8cb841ull, 986, 316 },
	{ 0x9e19db92b4e31ba9ull, 1013, 324 },
	{ 0xeb96bf6ebadf77d9ull, 1039, 332 },
	{ 0xaf87023b9bf0ee6bull, 1066, 340 },
};

#define ALPHA (-60)
#define GAMMA (-32)

/* x * y rounded to 64 bits (half up): an error of at most half a unit. */
static struct diy
mul(struct diy x, struct diy y)
{
	unsigned __int128 p = (unsigned __int128)x.f * y.f;
	uint64_t hi = (uint64_t)(p >> 64), lo = (uint64_t)p;

	return (struct diy){ hi + (lo >> 63), x.e + y.e + 64 };
}

static struct diy
normalize(struct diy x)
{
	int s = __builtin_clzll(x.f);

	return (struct diy){ x.f << s, x.e - s };
}

/* The largest power of ten <= n and its exponent + 1 (0 and 0 for n 0). */
static void
biggest_power(uint32_t n, uint32_t *power, int *exp1)
{
	*power = 0;
	*exp1 = 0;
	if (n == 0)
		return;
	*power = 1;
	*exp1 = 1;
	while (*power <= n / 10) {
		*power *= 10;
		(*exp1)++;
	}
}

/* The last digit moved toward w while that stays inside the safe
 * interval and gets nearer; false when the result is not proven the
 * nearest shortest (the 64-bit errors, one unit each way). */
static bool
round_weed(char *buf, int len, uint64_t dist_high_w, uint64_t unsafe, uint64_t rest,
	   uint64_t ten_kappa, uint64_t unit)
{
	uint64_t small = dist_high_w - unit, big = dist_high_w + unit;

	while (rest < small && unsafe - rest >= ten_kappa &&
	       (rest + ten_kappa < small || small - rest >= rest + ten_kappa - small)) {
		buf[len - 1]--;
		rest += ten_kappa;
	}
	if (rest < big && unsafe - rest >= ten_kappa &&
	    (rest + ten_kappa < big || big - rest > rest + ten_kappa - big))
		return false;
	return 2 * unit <= rest && rest <= unsafe - 4 * unit;
}

/* Digits of the scaled v (w, its boundaries low and high: one exponent)
 * into buf; *kappa the power of ten of the last one. */
static bool
digit_gen(struct diy low, struct diy w, struct diy high, char *buf, int *len, int *kappa)
{
	uint64_t unit = 1;
	struct diy too_low = { low.f - unit, low.e }, too_high = { high.f + unit, high.e };
	uint64_t unsafe = too_high.f - too_low.f;
	int shift = -w.e;
	uint64_t one = (uint64_t)1 << shift;
	uint32_t integrals = (uint32_t)(too_high.f >> shift), divisor;
	uint64_t fractionals = too_high.f & (one - 1);

	biggest_power(integrals, &divisor, kappa);
	*len = 0;
	while (*kappa > 0) {
		uint64_t rest;

		buf[(*len)++] = (char)('0' + integrals / divisor);
		integrals %= divisor;
		(*kappa)--;
		rest = ((uint64_t)integrals << shift) + fractionals;
		if (rest < unsafe)
			return round_weed(buf, *len, too_high.f - w.f, unsafe, rest,
					  (uint64_t)divisor << shift, unit);
		divisor /= 10;
	}
	for (;;) {
		fractionals *= 10;
		unit *= 10;
		unsafe *= 10;
		buf[(*len)++] = (char)('0' + (fractionals >> shift));
		fractionals &= one - 1;
		(*kappa)--;
		if (*len > 17)
			return false;
		if (fractionals < unsafe)
			return round_weed(buf, *len, (too_high.f - w.f) * unit, unsafe, fractionals, one,
					  unit);
	}
}

/* The shortest digits of v = f x 2^e (f > 0, at most 53 bits); lower:
 * the lower boundary is half as far as the upper (a power of two but the
 * smallest normal of its type). */
static int
shortest_core(uint64_t f, int e, bool lower, char digits[18], int *exp10)
{
	int k, i, len, kappa, min_e;
	struct diy w = { f, e }, plus, minus, c;
	char buf[24];

	/* the boundaries: halfway to the neighbours */
	plus = normalize((struct diy){ (w.f << 1) + 1, w.e - 1 });
	if (lower)
		minus = (struct diy){ (w.f << 2) - 1, w.e - 2 };
	else
		minus = (struct diy){ (w.f << 1) - 1, w.e - 1 };
	minus.f <<= minus.e - plus.e;
	minus.e = plus.e;
	w = normalize(w);
	/* the cached power that brings w's exponent into [ALPHA, GAMMA] */
	min_e = ALPHA - (w.e + 64);
	k = (int)ceil((min_e + 63) * 0.30102999566398114);
	i = (348 + k - 1) / 8 + 1;      /* a guess, then the first that fits */
	if (i < 0)
		i = 0;
	while (i < (int)(sizeof powers / sizeof powers[0]) && powers[i].e < min_e)
		i++;
	while (i > 0 && powers[i - 1].e >= min_e)
		i--;
	if (i >= (int)(sizeof powers / sizeof powers[0]) || powers[i].e > GAMMA - (w.e + 64))
		return 0;
	c = (struct diy){ powers[i].f, powers[i].e };
	if (!digit_gen(mul(minus, c), mul(w, c), mul(plus, c), buf, &len, &kappa))
		return 0;
	*exp10 = kappa - powers[i].k;
	while (len > 1 && buf[len - 1] == '0') {
		len--;
		(*exp10)++;
	}
	if (len > 17 || buf[0] < '1' || buf[0] > '9')
		return 0;
	memcpy(digits, buf, (size_t)len);
	digits[len] = '\0';
	return len;
}

int
shortest_digits(double v, char digits[18], int *exp10)
{
	uint64_t bits, frac;
	int bexp;

	memcpy(&bits, &v, sizeof bits);
	frac = bits & (((uint64_t)1 << 52) - 1);
	bexp = (int)(bits >> 52 & 0x7ff);
	if (bexp == 0x7ff || (bits >> 63) || (bexp == 0 && frac == 0))
		return 0;           /* not finite, negative or zero: not here */
	return bexp ? shortest_core(frac | (uint64_t)1 << 52, bexp - 1075, frac == 0 && bexp > 1,
				    digits, exp10)
		    : shortest_core(frac, -1074, false, digits, exp10);
}

int
shortest_digits_float(float v, char digits[10], int *exp10)
{
	char d[18];
	uint32_t bits, frac;
	int bexp, n;

	memcpy(&bits, &v, sizeof bits);
	frac = bits & ((1u << 23) - 1);
	bexp = (int)(bits >> 23 & 0xff);
	if (bexp == 0xff || (bits >> 31) || (bexp == 0 && frac == 0))
		return 0;
	n = bexp ? shortest_core(frac | 1u << 23, bexp - 150, frac == 0 && bexp > 1, d, exp10)
		 : shortest_core(frac, -149, false, d, exp10);
	if (n > 9)
		return 0;
	memcpy(digits, d, (size_t)n + 1);
	return n;
}

int
shortest_g_precision(double v)
{
	uint64_t bits;
	char d[18];
	int x;

	memcpy(&bits, &v, sizeof bits);
	if (!isfinite(v) || v == 0 || (bits & (((uint64_t)1 << 52) - 1)) == 0)
		return 0;
	return shortest_digits(fabs(v), d, &x);
}

int
shortest_g_precision_float(float v)
{
	uint32_t bits;
	char d[10];
	int x;

	memcpy(&bits, &v, sizeof bits);
	if (!isfinite(v) || v == 0 || (bits & ((1u << 23) - 1)) == 0)
		return 0;
	return shortest_digits_float(fabsf(v), d, &x);
}
