/* assay-coll's data types, one row each in nccl-tests' -d order: name,
 * size, kind, MPI datatype and the element arithmetic (a reduction, avg's
 * division, and for floating types the value as a double; half and f8e5m2
 * convert here, bfloat16 and f8e4m3 in libassay, all four reduce in float).
 * A new type is a row here, its line in docs/collectives.md and its e2e
 * rows. */
#include <math.h>
#include <string.h>

#include "assay/ep.h"
#include "coll.h"

/* dst = a OP b elementwise; integers add and multiply in 64 bits and wrap
 * (no signed overflow), floats in their own type. */
#define KERNEL(T, ADD, MUL)                                                                        \
	static void red_##T(enum coll_redop r, void *dst_, const void *a_, const void *b_,         \
			    size_t n)                                                              \
	{                                                                                          \
		T *dst = dst_;                                                                     \
		const T *a = a_, *b = b_;                                                          \
		switch (r) {                                                                       \
		case CR_PROD:                                                                      \
			for (size_t i = 0; i < n; i++)                                             \
				dst[i] = MUL(T, a[i], b[i]);                                       \
			break;                                                                     \
		case CR_MAX:                                                                       \
			for (size_t i = 0; i < n; i++)                                             \
				dst[i] = a[i] > b[i] ? a[i] : b[i];                                \
			break;                                                                     \
		case CR_MIN:                                                                       \
			for (size_t i = 0; i < n; i++)                                             \
				dst[i] = a[i] < b[i] ? a[i] : b[i];                                \
			break;                                                                     \
		case CR_MULSUM:                                                                    \
			for (size_t i = 0; i < n; i++)                                             \
				dst[i] = ADD(T, a[i], MUL(T, b[i], 2));                            \
			break;                                                                     \
		default:                                                                           \
			for (size_t i = 0; i < n; i++)                                             \
				dst[i] = ADD(T, a[i], b[i]);                                       \
			break;                                                                     \
		}                                                                                  \
	}
#define IADD(T, x, y) (T)((uint64_t)(x) + (uint64_t)(y))
#define IMUL(T, x, y) (T)((uint64_t)(x) * (uint64_t)(y))
#define FADD(T, x, y) ((x) + (y))
#define FMUL(T, x, y) ((x) * (y))
KERNEL(int8_t, IADD, IMUL)
KERNEL(uint8_t, IADD, IMUL)
KERNEL(int32_t, IADD, IMUL)
KERNEL(uint32_t, IADD, IMUL)
KERNEL(int64_t, IADD, IMUL)
KERNEL(uint64_t, IADD, IMUL)
KERNEL(float, FADD, FMUL)
KERNEL(double, FADD, FMUL)

/* avg: the sum divided by the rank count, integers in 64 bits. */
#define DIVIDE(T, W)                                                                               \
	static void div_##T(void *buf, size_t n, int nranks)                                       \
	{                                                                                          \
		T *p = buf;                                                                        \
		for (size_t i = 0; i < n; i++)                                                     \
			p[i] = (T)((W)p[i] / (W)nranks);                                           \
	}
DIVIDE(int8_t, int64_t)
DIVIDE(uint8_t, uint64_t)
DIVIDE(int32_t, int64_t)
DIVIDE(uint32_t, uint64_t)
DIVIDE(int64_t, int64_t)
DIVIDE(uint64_t, uint64_t)

static void div_float(void *buf, size_t n, int nranks)
{
	float *p = buf;
	for (size_t i = 0; i < n; i++)
		p[i] /= (float)nranks;
}

static void div_double(void *buf, size_t n, int nranks)
{
	double *p = buf;
	for (size_t i = 0; i < n; i++)
		p[i] /= (double)nranks;
}

static double get_float(const void *p)
{
	float f;
	memcpy(&f, p, 4);
	return f;
}

static void put_float(double v, void *p)
{
	float f = (float)v;
	memcpy(p, &f, 4);
}

static double get_double(const void *p)
{
	double d;
	memcpy(&d, p, 8);
	return d;
}

static void put_double(double v, void *p)
{
	memcpy(p, &v, 8);
}

/* IEEE 754 binary16 (half) from a float, rounded to nearest even: too large
 * for 65504 (from 65520 up) is infinity, below 2^-14 a subnormal in units of
 * 2^-24, and a NaN stays a quiet NaN with its sign and top payload bits. */
static uint16_t half_from_float(float f)
{
	uint32_t u;
	memcpy(&u, &f, sizeof(u));
	uint16_t sign = (uint16_t)((u >> 16) & 0x8000u);
	u &= 0x7fffffffu;
	if (u > 0x7f800000u)
		return sign | 0x7e00u | (uint16_t)((u >> 13) & 0x3ffu);
	if (u >= 0x477ff000u) /* 65520 and up, infinity included */
		return sign | 0x7c00u;
	if (u >= 0x38800000u) { /* normal: rebias 127 -> 15, round at bit 13 */
		u -= 112u << 23;
		u += 0xfffu + ((u >> 13) & 1u);
		return sign | (uint16_t)(u >> 13);
	}
	if (u <= 0x33000000u) /* up to 2^-25 (a tie with 2^-24): zero */
		return sign;
	uint32_t m = (u & 0x7fffffu) | 0x800000u, shift = 126u - (u >> 23); /* 14 to 24 */
	uint32_t q = m >> shift, rest = m & ((1u << shift) - 1), tie = 1u << (shift - 1);
	if (rest > tie || (rest == tie && (q & 1u)))
		q++; /* 0x400 when it rounds up to the smallest normal */
	return sign | (uint16_t)q;
}

static float half_to_float(uint16_t h)
{
	uint32_t sign = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu, u;
	if (e == 0x1f)
		u = sign | 0x7f800000u | (m << 13); /* infinity, or NaN with its payload */
	else if (e)
		u = sign | ((e + 112u) << 23) | (m << 13);
	else {
		float f = (float)m * 0x1p-24f; /* zero or subnormal, exact */
		return sign ? -f : f;
	}
	float f;
	memcpy(&f, &u, sizeof(f));
	return f;
}

/* OCP FP8 e5m2 (nccl-tests' f8e5m2) from a float, rounded to nearest even
 * and saturating at +-57344 (CUDA's __NV_SATFINITE, as __nv_fp8_e5m2(float)
 * converts): below 2^-14 a subnormal in units of 2^-16, NaN 0x7f. */
static uint8_t e5m2_from_float(float f)
{
	if (isnan(f))
		return 0x7f;
	uint32_t u;
	memcpy(&u, &f, sizeof(u));
	uint8_t sign = (uint8_t)((u >> 24) & 0x80);
	u &= 0x7fffffffu;
	if (u >= 0x47700000u) /* >= 61440, half-way past 57344: saturate */
		return sign | 0x7b;
	if (u < 0x38800000u) { /* < 2^-14 */
		float a;
		memcpy(&a, &u, sizeof(a));
		return sign | (uint8_t)rintf(a * 65536.0f); /* 4 units: the smallest normal */
	}
	u += 0xfffffu + ((u >> 21) & 1u); /* keep 2 mantissa bits, to nearest even */
	int e = (int)(u >> 23) - 127, m = (int)((u >> 21) & 3u);
	return sign | (uint8_t)(((e + 15) << 2) | m);
}

static float e5m2_to_float(uint8_t q)
{
	uint32_t e = (q >> 2) & 31u, m = q & 3u, u;
	float v;
	if (e == 31)
		return m ? NAN : (q & 0x80 ? -INFINITY : INFINITY);
	if (e == 0)
		v = (float)m * 0x1p-16f;
	else {
		u = ((e + 112u) << 23) | (m << 21); /* exponent e - 15 + 127 */
		memcpy(&v, &u, sizeof(v));
	}
	return q & 0x80 ? -v : v;
}

/* 8- and 16-bit floating types (half, bfloat16, f8e4m3, f8e5m2): words of
 * the type, arithmetic in float, each result rounded to nearest even by the
 * type's from_float. */
#define WORD16(tag, W, to_float, from_float)                                                       \
	static double get_##tag(const void *p)                                                     \
	{                                                                                          \
		W h;                                                                               \
		memcpy(&h, p, sizeof(W));                                                          \
		return to_float(h);                                                                \
	}                                                                                          \
	static void put_##tag(double v, void *p)                                                   \
	{                                                                                          \
		W h = from_float((float)v);                                                        \
		memcpy(p, &h, sizeof(W));                                                          \
	}                                                                                          \
	static void red_##tag(enum coll_redop r, void *dst_, const void *a_, const void *b_,       \
			      size_t n)                                                            \
	{                                                                                          \
		W *dst = dst_;                                                                     \
		const W *a = a_, *b = b_;                                                          \
		for (size_t i = 0; i < n; i++) {                                                   \
			float x = to_float(a[i]), y = to_float(b[i]);                              \
			float v = r == CR_PROD     ? x * y                                         \
				  : r == CR_MAX    ? (x > y ? x : y)                               \
				  : r == CR_MIN    ? (x < y ? x : y)                               \
				  : r == CR_MULSUM ? x + y * 2                                     \
						   : x + y;                                        \
			dst[i] = from_float(v);                                                    \
		}                                                                                  \
	}                                                                                          \
	static void div_##tag(void *buf, size_t n, int nranks)                                     \
	{                                                                                          \
		W *p = buf;                                                                        \
		for (size_t i = 0; i < n; i++)                                                     \
			p[i] = from_float(to_float(p[i]) / (float)nranks);                         \
	}
WORD16(half, uint16_t, half_to_float, half_from_float)
WORD16(bf16, uint16_t, assay_bf16_to_float, assay_bf16_from_float)
WORD16(e4m3, uint8_t, assay_fp8_to_float, assay_fp8_from_float)
WORD16(e5m2, uint8_t, e5m2_to_float, e5m2_from_float)

#define INT_ROW(name, T, kind, mpi)                                                                \
	{                                                                                          \
		name, sizeof(T), kind, mpi, red_##T, div_##T, NULL, NULL, 0, 0                     \
	}
/* A floating type: its MPI datatype, or none (the mpi backend's own
 * operators), and its layout (nccl-tests' FloatLayout: exponent and
 * stored mantissa bits). */
#define FLOAT_ROW(name, size, mpi, tag, ebits, mbits)                                              \
	{                                                                                          \
		name, size, COLL_FLOAT, mpi, red_##tag, div_##tag, get_##tag, put_##tag, ebits,    \
		    mbits                                                                          \
	}

const struct coll_type_info coll_types[] = {
    INT_ROW("int8", int8_t, COLL_SIGNED, MPI_INT8_T),
    INT_ROW("uint8", uint8_t, COLL_UNSIGNED, MPI_UINT8_T),
    INT_ROW("int32", int32_t, COLL_SIGNED, MPI_INT32_T),
    INT_ROW("uint32", uint32_t, COLL_UNSIGNED, MPI_UINT32_T),
    INT_ROW("int64", int64_t, COLL_SIGNED, MPI_INT64_T),
    INT_ROW("uint64", uint64_t, COLL_UNSIGNED, MPI_UINT64_T),
    /* No MPI datatype (half, bfloat16, fp8): the mpi backend reduces it
     * with its own operators. */
    FLOAT_ROW("half", 2, MPI_DATATYPE_NULL, half, 5, 10),
    FLOAT_ROW("float", 4, MPI_FLOAT, float, 8, 23),
    FLOAT_ROW("double", 8, MPI_DOUBLE, double, 11, 52),
    FLOAT_ROW("bfloat16", 2, MPI_DATATYPE_NULL, bf16, 8, 7),
    FLOAT_ROW("f8e4m3", 1, MPI_DATATYPE_NULL, e4m3, 4, 3),
    FLOAT_ROW("f8e5m2", 1, MPI_DATATYPE_NULL, e5m2, 5, 2),
    {NULL, 0, COLL_SIGNED, MPI_DATATYPE_NULL, NULL, NULL, NULL, NULL, 0, 0},
};

int coll_type_find(const char *name)
{
	/* rccl-tests' spellings of the fp8 types (ROCm/rccl-tests ae3e635). */
	if (!strcmp(name, "fp8_e4m3"))
		name = "f8e4m3";
	else if (!strcmp(name, "fp8_e5m2"))
		name = "f8e5m2";
	for (int t = 0; coll_types[t].name; t++)
		if (!strcmp(coll_types[t].name, name))
			return t;
	return -1;
}

void coll_type_list(struct sbuf *sb, const char *last)
{
	for (int t = 0, k = 0; coll_types[t].name; t++) {
		if (!coll_types[t].size)
			continue;
		sbuf_addf(sb, "%s%s", k ? ", " : "", coll_types[t].name);
		k++;
	}
	sbuf_addf(sb, " or %s", last);
}

int coll_mutant;

/* v rounded to nearest even at bits significant bits (the mutants). */
static double round_bits(double v, int bits)
{
	int e;
	double f = frexp(v, &e);
	return ldexp(rint(ldexp(f, bits)), e - bits);
}

/* --inject bf16-sum / short-sum: the floating sums' every partial result
 * kept in fewer bits (a wrong accumulator the check must catch). */
static void mutate(int t, enum coll_redop r, void *dst, size_t n)
{
	const struct coll_type_info *ti = &coll_types[t];
	if (ti->kind != COLL_FLOAT || (r != CR_SUM && r != CR_AVG && r != CR_MULSUM))
		return;
	int bits = coll_mutant == COLL_MUTANT_BF16 ? 8 : ti->mant_bits;
	if (bits > ti->mant_bits)
		return; /* bfloat16 and the fp8 types are no wider than bfloat16 */
	unsigned char *p = dst;
	for (size_t i = 0; i < n; i++)
		ti->put(round_bits(ti->get(p + i * ti->size), bits), p + i * ti->size);
}

void coll_reduce(int t, enum coll_redop r, void *dst, const void *a, const void *b, size_t n)
{
	coll_types[t].reduce(r, dst, a, b, n);
	if (coll_mutant)
		mutate(t, r, dst, n);
}

void coll_finish(int t, enum coll_redop r, void *buf, size_t n, int nranks)
{
	if (r == CR_AVG)
		coll_types[t].divide(buf, n, nranks);
}
