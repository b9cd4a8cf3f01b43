/* assay-coll's data types, one row each in nccl-tests' -d order: name,
 * size, kind, MPI datatype and the element arithmetic (a reduction, avg's
 * division, and for floating types the value as a double; half converts
 * here, bfloat16 in libassay, both reduce in float). A new type is
 * a row here, its line in docs/collectives.md and its e2e rows. */
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

/* 16-bit floating types (half, bfloat16): words of the type, arithmetic in
 * float, each result rounded to nearest even by the type's from_float. */
#define WORD16(tag, to_float, from_float)                                                          \
	static double get_##tag(const void *p)                                                     \
	{                                                                                          \
		uint16_t h;                                                                        \
		memcpy(&h, p, 2);                                                                  \
		return to_float(h);                                                                \
	}                                                                                          \
	static void put_##tag(double v, void *p)                                                   \
	{                                                                                          \
		uint16_t h = from_float((float)v);                                                 \
		memcpy(p, &h, 2);                                                                  \
	}                                                                                          \
	static void red_##tag(enum coll_redop r, void *dst_, const void *a_, const void *b_,       \
			      size_t n)                                                            \
	{                                                                                          \
		uint16_t *dst = dst_;                                                              \
		const uint16_t *a = a_, *b = b_;                                                   \
		for (size_t i = 0; i < n; i++) {                                                   \
			float x = to_float(a[i]), y = to_float(b[i]);                              \
			float v = r == CR_PROD  ? x * y                                            \
				  : r == CR_MAX ? (x > y ? x : y)                                  \
				  : r == CR_MIN ? (x < y ? x : y)                                  \
						: x + y;                                           \
			dst[i] = from_float(v);                                                    \
		}                                                                                  \
	}                                                                                          \
	static void div_##tag(void *buf, size_t n, int nranks)                                     \
	{                                                                                          \
		uint16_t *p = buf;                                                                 \
		for (size_t i = 0; i < n; i++)                                                     \
			p[i] = from_float(to_float(p[i]) / (float)nranks);                         \
	}
WORD16(half, half_to_float, half_from_float)
WORD16(bf16, assay_bf16_to_float, assay_bf16_from_float)

#define INT_ROW(name, T, kind, mpi)                                                                \
	{                                                                                          \
		name, sizeof(T), kind, mpi, red_##T, div_##T, NULL, NULL                           \
	}

const struct coll_type_info coll_types[] = {
    INT_ROW("int8", int8_t, COLL_SIGNED, MPI_INT8_T),
    INT_ROW("uint8", uint8_t, COLL_UNSIGNED, MPI_UINT8_T),
    INT_ROW("int32", int32_t, COLL_SIGNED, MPI_INT32_T),
    INT_ROW("uint32", uint32_t, COLL_UNSIGNED, MPI_UINT32_T),
    INT_ROW("int64", int64_t, COLL_SIGNED, MPI_INT64_T),
    INT_ROW("uint64", uint64_t, COLL_UNSIGNED, MPI_UINT64_T),
    /* No MPI datatype (half, bfloat16): the mpi backend reduces it with
     * its own operators. */
    {"half", 2, COLL_FLOAT, MPI_DATATYPE_NULL, red_half, div_half, get_half, put_half},
    {"float", 4, COLL_FLOAT, MPI_FLOAT, red_float, div_float, get_float, put_float},
    {"double", 8, COLL_FLOAT, MPI_DOUBLE, red_double, div_double, get_double, put_double},
    {"bfloat16", 2, COLL_FLOAT, MPI_DATATYPE_NULL, red_bf16, div_bf16, get_bf16, put_bf16},
    {NULL, 0, COLL_SIGNED, MPI_DATATYPE_NULL, NULL, NULL, NULL, NULL},
};

int coll_type_find(const char *name)
{
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

void coll_reduce(int t, enum coll_redop r, void *dst, const void *a, const void *b, size_t n)
{
	coll_types[t].reduce(r, dst, a, b, n);
}

void coll_finish(int t, enum coll_redop r, void *buf, size_t n, int nranks)
{
	if (r == CR_AVG)
		coll_types[t].divide(buf, n, nranks);
}
