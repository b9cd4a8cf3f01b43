/* BF16 and OCP FP8 e4m3 conversions: round to nearest even, e4m3 saturating
 * at +-448 with NaN as 0x7f/0xff, and FP8 rows with one float32 scale per
 * 128-column block (scale = amax / 448, 1 for an all-zero block). */
#include <math.h>
#include <string.h>

#include "assay/ep.h"

uint16_t assay_bf16_from_float(float f)
{
	uint32_t u;
	memcpy(&u, &f, sizeof(u));
	if ((u & 0x7fffffffu) > 0x7f800000u)
		return (uint16_t)((u >> 16) | 0x0040u); /* quiet NaN, sign kept */
	u += 0x7fffu + ((u >> 16) & 1u);
	return (uint16_t)(u >> 16);
}

float assay_bf16_to_float(uint16_t h)
{
	uint32_t u = (uint32_t)h << 16;
	float f;
	memcpy(&f, &u, sizeof(f));
	return f;
}

uint8_t assay_fp8_from_float(float f)
{
	if (isnan(f))
		return 0x7f;
	uint32_t u;
	memcpy(&u, &f, sizeof(u));
	uint8_t sign = (uint8_t)((u >> 24) & 0x80);
	u &= 0x7fffffffu;
	if (u >= 0x43e00000u) /* >= 448: saturate (infinities included) */
		return sign | 0x7e;
	if (u < 0x3c800000u) { /* < 2^-6: subnormal, units of 2^-9 (8 units is code 8) */
		float a;
		memcpy(&a, &u, sizeof(a));
		return sign | (uint8_t)rintf(a * 512.0f);
	}
	/* Normal: keep 3 mantissa bits, round to nearest even; a carry moves
	 * into the exponent as it should. */
	u += 0x7ffffu + ((u >> 20) & 1u);
	int e = (int)(u >> 23) - 127;
	int m = (int)((u >> 20) & 7u);
	if (e > 8 || (e == 8 && m == 7))
		return sign | 0x7e;
	return sign | (uint8_t)(((e + 7) << 3) | m);
}

float assay_fp8_to_float(uint8_t q)
{
	uint32_t e = (q >> 3) & 15u, m = q & 7u, u;
	float v;
	if (e == 15 && m == 7)
		return NAN;
	if (e == 0) {
		v = (float)m * 0x1p-9f;
		memcpy(&u, &v, sizeof(u));
	} else {
		u = ((e + 120u) << 23) | (m << 20); /* exponent e - 7 + 127 */
	}
	u |= (uint32_t)(q & 0x80) << 24;
	memcpy(&v, &u, sizeof(v));
	return v;
}

void assay_fp8_quantize_row(const uint16_t *bf16, int64_t hidden, uint8_t *q, float *scales)
{
	for (int64_t b0 = 0, blk = 0; b0 < hidden; b0 += ASSAY_EP_BLOCK, blk++) {
		int64_t b1 = b0 + ASSAY_EP_BLOCK < hidden ? b0 + ASSAY_EP_BLOCK : hidden;
		float amax = 0;
		for (int64_t c = b0; c < b1; c++) {
			float a = fabsf(assay_bf16_to_float(bf16[c]));
			if (a > amax)
				amax = a;
		}
		float scale = amax > 0 ? amax / ASSAY_EP_FP8_MAX : 1.0f;
		scales[blk] = scale;
		for (int64_t c = b0; c < b1; c++)
			q[c] = assay_fp8_from_float(assay_bf16_to_float(bf16[c]) / scale);
	}
}

void assay_fp8_dequantize_row(const uint8_t *q, const float *scales, int64_t hidden, float *out)
{
	for (int64_t c = 0; c < hidden; c++)
		out[c] = assay_fp8_to_float(q[c]) * scales[c / ASSAY_EP_BLOCK];
}
