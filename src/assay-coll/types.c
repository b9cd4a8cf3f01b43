/* assay-coll's data types, one row each in nccl-tests' -d order: name,
 * size, kind, MPI datatype and the element arithmetic (a reduction, avg's
 * division, and for floating types the value as a double). A new type is
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

/* bfloat16: 16-bit words, arithmetic in float, rounded to nearest even. */
static double get_bf16(const void *p)
{
	uint16_t h;
	memcpy(&h, p, 2);
	return assay_bf16_to_float(h);
}

static void put_bf16(double v, void *p)
{
	uint16_t h = assay_bf16_from_float((float)v);
	memcpy(p, &h, 2);
}

static void red_bf16(enum coll_redop r, void *dst_, const void *a_, const void *b_, size_t n)
{
	uint16_t *dst = dst_;
	const uint16_t *a = a_, *b = b_;
	for (size_t i = 0; i < n; i++) {
		float x = assay_bf16_to_float(a[i]), y = assay_bf16_to_float(b[i]);
		float v = r == CR_PROD  ? x * y
			  : r == CR_MAX ? (x > y ? x : y)
			  : r == CR_MIN ? (x < y ? x : y)
					: x + y;
		dst[i] = assay_bf16_from_float(v);
	}
}

static void div_bf16(void *buf, size_t n, int nranks)
{
	uint16_t *p = buf;
	for (size_t i = 0; i < n; i++)
		p[i] = assay_bf16_from_float(assay_bf16_to_float(p[i]) / (float)nranks);
}

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
    /* nccl-tests names half; not built here (size 0: -d half says so). */
    {"half", 0, COLL_FLOAT, MPI_DATATYPE_NULL, NULL, NULL, NULL, NULL},
    {"float", 4, COLL_FLOAT, MPI_FLOAT, red_float, div_float, get_float, put_float},
    {"double", 8, COLL_FLOAT, MPI_DOUBLE, red_double, div_double, get_double, put_double},
    /* No MPI datatype: the mpi backend reduces it with its own operators. */
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
