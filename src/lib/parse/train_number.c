/* Numbers in training logs: [+-]digits[.digits][e[+-]digits], nan and inf,
 * read on a fast exact path (up to 7 digits at once where the byte order
 * allows, one rounding when both operands are exact) and by strtod
 * otherwise. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "train_scan_int.h"

static const double pow10_exact[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
				       1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
				       1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* nan, inf, infinity in any case, not followed by a letter. */
static const char *special(const char *p, const char *end, bool neg, double *out)
{
	if (end - p < 3)
		return NULL;
	char a = (char)(p[0] | 0x20), b = (char)(p[1] | 0x20), c = (char)(p[2] | 0x20);
	const char *q;
	double v;
	if (a == 'n' && b == 'a' && c == 'n') {
		q = p + 3;
		v = NAN;
	} else if (a == 'i' && b == 'n' && c == 'f') {
		q = p + 3;
		if (end - q >= 5 && !strncasecmp(q, "inity", 5))
			q += 5;
		v = neg ? -INFINITY : INFINITY;
	} else {
		return NULL;
	}
	if (q < end && is_alpha(*q))
		return NULL;
	*out = v;
	return q;
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define SWAR_DIGITS 1
/* How many of the 8 bytes of w (the first in its low byte) lead with ASCII
 * digits: a byte is one when its high nibble is 3 both as it is and plus 6.
 * A carry out of a byte >= 0xFA only reaches later bytes, past the count. */
static inline unsigned swar_count(uint64_t w)
{
	const uint64_t hi = 0xF0F0F0F0F0F0F0F0ULL, threes = 0x3030303030303030ULL;
	uint64_t f = ((w & hi) ^ threes) | (((w + 0x0606060606060606ULL) & hi) ^ threes);
	return f ? (unsigned)__builtin_ctzll(f) / 8 : 8;
}

/* The value of the first k (1 to 8) digits of w: pairs, then fours, then
 * eight, each step a multiply and a shift over every lane at once (the
 * bytes past the digits are shifted out first; their borrows only go up). */
static inline uint64_t swar_value(uint64_t w, unsigned k)
{
	uint64_t v = (w - 0x3030303030303030ULL) << (8 * (8 - k));
	v = (v * 10 + (v >> 8)) & 0x00FF00FF00FF00FFULL;
	v = (v * 100 + (v >> 16)) & 0x0000FFFF0000FFFFULL;
	return (v * 10000 + (v >> 32)) & 0xFFFFFFFFULL;
}

static const uint64_t pow10_int[8] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000};
#endif

/* The digits of a number as read: the leading ones in m, up to 1e17 (then
 * m * 10 + 9 still fits), the power of ten that scales it in exp10; exact
 * false when a digit past them was not 0. any: there was a digit. */
struct digits {
	uint64_t m;
	long exp10;
	bool any, exact;
};

#define DIGITS_LIMIT 100000000000000000ULL /* 1e17 */

/* The integer part's digits at p; returns their end. */
static inline __attribute__((always_inline)) const char *int_digits(const char *p, const char *end,
								    struct digits *d)
{
#ifdef SWAR_DIGITS
	/* Up to 7 digits at once, without a branch per digit (the loops below
	 * then stop at once; 8 or more digits take the loops from the start). */
	uint64_t w;
	unsigned k;
	if (end - p >= 8 && (memcpy(&w, p, 8), k = swar_count(w)) < 8 && k > 0) {
		d->m = swar_value(w, k);
		d->any = true;
		p += k;
	}
#endif
	while (p < end && is_digit(*p)) {
		d->any = true;
		if (d->m < DIGITS_LIMIT)
			d->m = d->m * 10 + (uint64_t)(*p - '0');
		else {
			d->exp10++;
			d->exact = false;
		}
		p++;
	}
	return p;
}

/* The fraction at p ("." and digits); returns its end, p when there is no
 * "." or no digit on either side of it. */
static inline __attribute__((always_inline)) const char *frac_digits(const char *p, const char *end,
								     struct digits *d)
{
	if (p >= end || *p != '.')
		return p;
	const char *q = p + 1;
#ifdef SWAR_DIGITS
	uint64_t w;
	unsigned k;
	if (d->m < 10000000000ULL && end - q >= 8 && (memcpy(&w, q, 8), k = swar_count(w)) < 8 &&
	    k > 0) {
		d->m = d->m * pow10_int[k] + swar_value(w, k);
		d->exp10 -= (long)k;
		d->any = true;
		q += k;
	}
#endif
	while (q < end && is_digit(*q)) {
		d->any = true;
		if (d->m < DIGITS_LIMIT) {
			d->m = d->m * 10 + (uint64_t)(*q - '0');
			d->exp10--;
		} else if (*q != '0') {
			d->exact = false;
		}
		q++;
	}
	return d->any ? q : p;
}

/* The exponent at p ("e", a sign, digits) added to *exp10; returns its end,
 * p when there is none. */
static inline __attribute__((always_inline)) const char *exponent(const char *p, const char *end,
								  long *exp10)
{
	if (p >= end || (*p != 'e' && *p != 'E'))
		return p;
	const char *q = p + 1;
	bool eneg = false;
	if (q < end && (*q == '+' || *q == '-')) {
		eneg = *q == '-';
		q++;
	}
	if (q >= end || !is_digit(*q))
		return p;
	long e = 0;
	while (q < end && is_digit(*q)) {
		if (e < 100000)
			e = e * 10 + (*q - '0');
		q++;
	}
	*exp10 += eneg ? -e : e;
	return q;
}

/* The value of the digits read from [start, p) (the text with its sign),
 * times 10^shift. */
static inline __attribute__((always_inline)) double
digits_value(const struct digits *d, bool neg, const char *start, const char *p, int shift)
{
	double v;
	if (d->exact && d->m <= (1ULL << 53) && d->exp10 >= -22 && d->exp10 <= 22) {
		/* Both operands exact, so one rounding: the correctly rounded value. */
		v = d->exp10 < 0 ? (double)d->m / pow10_exact[-d->exp10]
				 : (double)d->m * pow10_exact[d->exp10];
	} else {
		char buf[80];
		size_t n = (size_t)(p - start);
		if (n < sizeof(buf)) {
			memcpy(buf, start, n);
			buf[n] = '\0';
			return strtod(buf, NULL) * pow(10.0, shift);
		}
		v = (double)d->m * pow(10.0, (double)d->exp10);
	}
	return neg ? -v : v;
}

/* The number at p times 10^shift, correctly rounded on the fast path. */
static inline __attribute__((always_inline)) const char *decimal(const char *p, const char *end,
								 int shift, double *out)
{
	const char *start = p;
	bool neg = false;
	if (p < end && (*p == '-' || *p == '+')) {
		neg = *p == '-';
		p++;
	}
	if (p < end && !is_digit(*p) && *p != '.')
		return special(p, end, neg, out);
	struct digits d = {0, shift, false, true};
	p = frac_digits(int_digits(p, end, &d), end, &d);
	if (!d.any)
		return NULL;
	p = exponent(p, end, &d.exp10);
	*out = digits_value(&d, neg, start, p, shift);
	return p;
}

const char *train_number(const char *p, const char *end, double *out)
{
	return decimal(p, end, 0, out);
}

const char *train_decimal(const char *p, const char *end, int shift, double *out)
{
	return decimal(p, end, shift, out);
}
