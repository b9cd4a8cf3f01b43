/* assay-coll's operations and reduction operators as nccl-tests has them
 * (src/<op>.cu GetCollByteCount, src/common.cu test_opnames), and the check:
 * seeded inputs whose reductions are exact in every type (types.c), and an
 * expected result computed on its own scalar path. */
#include <string.h>

#include "coll.h"

const char *const coll_op_names[COLL_NOPS + 1] = {
    "all_reduce", "all_gather", "reduce_scatter", "alltoall",  "broadcast", "reduce",
    "sendrecv",   "gather",     "scatter",        "hypercube", "alltoallv", NULL};
const char *const coll_redop_names[CR_NREDOPS + 1] = {"sum", "prod", "max", "min", "avg", NULL};

bool coll_op_has_redop(enum coll_op op)
{
	return op == COLL_ALL_REDUCE || op == COLL_REDUCE_SCATTER || op == COLL_REDUCE ||
	       op == COLL_SENDRECV;
}

bool coll_op_has_root(enum coll_op op)
{
	return op == COLL_BROADCAST || op == COLL_REDUCE || op == COLL_GATHER || op == COLL_SCATTER;
}

/* nccl-tests' HyperCubeRunTest passes "" where the others pass "none". */
const char *coll_op_no_redop(enum coll_op op)
{
	return op == COLL_HYPERCUBE ? "" : "none";
}

/* SendRecv and AlltoAll InitData, AlltoAllv's "We don't support in-place". */
bool coll_op_checks_in_place(enum coll_op op)
{
	return op != COLL_ALLTOALL && op != COLL_SENDRECV && op != COLL_ALLTOALLV;
}

static bool is_float(int t)
{
	return coll_types[t].kind == COLL_FLOAT;
}

static bool is_signed(int t)
{
	return coll_types[t].kind == COLL_SIGNED;
}

void coll_shape_of(enum coll_op op, size_t bytes, size_t elt, int nranks, struct coll_shape *s)
{
	size_t count = bytes / elt, n = (size_t)nranks;
	size_t base = (count / n) & ~(16 / elt - 1);
	memset(s, 0, sizeof(*s));
	switch (op) {
	case COLL_ALL_GATHER:
		s->count = s->send_count = s->send_inplace = base;
		s->recv_count = base * n;
		break;
	case COLL_REDUCE_SCATTER:
		s->count = s->recv_count = s->recv_inplace = base;
		s->send_count = base * n;
		break;
	case COLL_ALLTOALL:
		s->count = base;
		s->send_count = s->recv_count = base * n;
		break;
	case COLL_GATHER:
	case COLL_HYPERCUBE:
		s->count = s->send_count = s->send_inplace = base;
		s->recv_count = base * n;
		break;
	case COLL_SCATTER:
		s->count = s->recv_count = s->recv_inplace = base;
		s->send_count = base * n;
		break;
	case COLL_ALLTOALLV:
		/* Offsets 0: in place the input is the whole receive buffer. */
		s->count = base;
		s->send_count = s->recv_count = coll_v_total(base, elt, nranks);
		break;
	default: s->count = s->send_count = s->recv_count = count; break;
	}
}

/* ---- the check ---- */

static uint64_t mix(uint64_t x)
{
	x += 0x9E3779B97F4A7C15ull;
	x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
	x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
	return x ^ (x >> 31);
}

/* One element in the value domain: integers as 64 bits (sign-extended for
 * signed types), floating types as a double. */
struct val {
	uint64_t u;
	double d;
};

static uint64_t wrap(int t, uint64_t u)
{
	size_t bits = coll_type_size(t) * 8;
	if (bits >= 64)
		return u;
	u &= (1ull << bits) - 1;
	if (is_signed(t) && (u >> (bits - 1)))
		u |= ~0ull << bits;
	return u;
}

/* The inputs: integers are any bits of the type (never 0 in products, as
 * nccl-tests); floating sums take integers in [-4, 4] and products +-1, 2 or
 * 1/2, so every order of reduction is exact (up to 64 ranks in bfloat16,
 * products up to 15 ranks in half);
 * min, max and the copies take multiples of 1/8 in [-125, 125]. */
static struct val gen(int t, enum coll_redop r, uint64_t seed, int rank, uint64_t i)
{
	uint64_t h = mix(mix(seed * 0x2545F4914F6CDD1Dull + (uint64_t)rank) ^ i);
	struct val v = {0, 0};
	if (!is_float(t)) {
		v.u = wrap(t, h);
		if (r == CR_PROD && v.u == 0)
			v.u = 1;
		return v;
	}
	static const double prods[4] = {1, -1, 2, 0.5};
	if (r == CR_SUM || r == CR_AVG)
		v.d = (double)((int)(h % 9) - 4);
	else if (r == CR_PROD)
		v.d = prods[h & 3];
	else
		v.d = ((double)(int64_t)(h % 2001) - 1000) / 8;
	/* What the type holds (the row's own conversion, exact for these values). */
	unsigned char held[8];
	coll_types[t].put(v.d, held);
	v.d = coll_types[t].get(held);
	return v;
}

static void store(int t, struct val v, void *p)
{
	if (is_float(t))
		coll_types[t].put(v.d, p);
	else
		memcpy(p, &v.u, coll_type_size(t)); /* little-endian: the low bytes */
}

static struct val fold(int t, enum coll_redop r, struct val a, struct val b)
{
	if (is_float(t)) {
		a.d = r == CR_PROD  ? a.d * b.d
		      : r == CR_MAX ? (a.d > b.d ? a.d : b.d)
		      : r == CR_MIN ? (a.d < b.d ? a.d : b.d)
				    : a.d + b.d;
		return a;
	}
	bool s = is_signed(t);
	bool gt = s ? (int64_t)a.u > (int64_t)b.u : a.u > b.u;
	a.u = r == CR_PROD  ? a.u * b.u
	      : r == CR_MAX ? (gt ? a.u : b.u)
	      : r == CR_MIN ? (gt ? b.u : a.u)
			    : a.u + b.u;
	a.u = wrap(t, a.u);
	return a;
}

/* An integer element's bits (little-endian: the low bytes). */
static uint64_t load_int(int t, const void *p)
{
	uint64_t u = 0;
	memcpy(&u, p, coll_type_size(t));
	return u;
}

/* avg: the type's own division of the element (the sum is exact in it). */
static struct val finish(int t, enum coll_redop r, struct val v, int nranks)
{
	if (r != CR_AVG)
		return v;
	unsigned char e[8];
	store(t, v, e);
	coll_types[t].divide(e, 1, nranks);
	if (is_float(t))
		v.d = coll_types[t].get(e);
	else
		v.u = wrap(t, load_int(t, e));
	return v;
}

/* The operator the inputs are made for: the copies use min/max's. */
static enum coll_redop gen_op(const struct coll_call *c)
{
	return coll_op_has_redop(c->op) ? c->redop : CR_MAX;
}

static size_t in_count(const struct coll_call *c, int nranks)
{
	switch (c->op) {
	case COLL_REDUCE_SCATTER:
	case COLL_SCATTER:
	case COLL_ALLTOALL: return c->count * (size_t)nranks;
	case COLL_ALLTOALLV: return coll_v_total(c->count, coll_type_size(c->type), nranks);
	default: return c->count;
	}
}

size_t coll_out_count(const struct coll_call *c, int nranks)
{
	switch (c->op) {
	case COLL_ALL_GATHER:
	case COLL_GATHER:
	case COLL_HYPERCUBE:
	case COLL_ALLTOALL: return c->count * (size_t)nranks;
	case COLL_ALLTOALLV: return coll_v_total(c->count, coll_type_size(c->type), nranks);
	default: return c->count;
	}
}

void coll_fill(const struct coll_call *c, int rank, int nranks, uint64_t seed)
{
	size_t elt = coll_type_size(c->type), n = in_count(c, nranks);
	enum coll_redop r = gen_op(c);
	unsigned char *p = c->send;
	for (size_t i = 0; i < n; i++)
		store(c->type, gen(c->type, r, seed, rank, i), p + i * elt);
}

void coll_poison(const struct coll_call *c, int rank, int nranks)
{
	size_t elt = coll_type_size(c->type);
	size_t n = in_count(c, nranks), m = coll_out_count(c, nranks);
	unsigned char *base = (unsigned char *)c->recv - c->recv_stride * (size_t)rank;
	size_t bytes = (c->recv_stride * (size_t)rank) + m * elt;
	if (c->in_place && c->send_stride * (size_t)rank + n * elt > bytes)
		bytes = c->send_stride * (size_t)rank + n * elt;
	memset(base, 0xFF, bytes);
}

/* alltoallv: element i of rank's output is in the part of the first
 * source whose parts (in rank order) reach past i. */
static struct val expect_v(const struct coll_call *c, int rank, int nranks, uint64_t seed, size_t i)
{
	size_t elt = coll_type_size(c->type);
	int src = 0;
	for (size_t n; src < nranks; src++, i -= n) {
		n = coll_v_bytes(src, rank, nranks, c->count, elt) / elt;
		if (i < n)
			break;
	}
	size_t at = coll_v_offset(src, rank, nranks, c->count, elt) + i;
	return gen(c->type, gen_op(c), seed, src, at);
}

/* Element i of rank's output as the operation defines it. */
static struct val expect(const struct coll_call *c, int rank, int nranks, uint64_t seed, size_t i,
			 bool *untouched)
{
	int t = c->type;
	enum coll_redop r = gen_op(c);
	size_t blk = i / (c->count ? c->count : 1), k = i % (c->count ? c->count : 1);
	*untouched = false;
	switch (c->op) {
	case COLL_ALL_GATHER:
	case COLL_HYPERCUBE: return gen(t, r, seed, (int)blk, k);
	case COLL_GATHER:
		/* Not the root: untouched, but for its own input in place. */
		*untouched = rank != c->root && !(c->in_place && (int)blk == rank);
		return gen(t, r, seed, (int)blk, k);
	case COLL_SCATTER: return gen(t, r, seed, c->root, (uint64_t)rank * c->count + i);
	case COLL_ALLTOALLV: return expect_v(c, rank, nranks, seed, i);
	case COLL_ALLTOALL: return gen(t, r, seed, (int)blk, (uint64_t)rank * c->count + k);
	case COLL_BROADCAST: return gen(t, r, seed, c->root, i);
	case COLL_SENDRECV: return gen(t, r, seed, (rank - 1 + nranks) % nranks, i);
	case COLL_REDUCE:
		if (rank != c->root) {
			/* Not the root: the receive buffer keeps what it held. */
			*untouched = !c->in_place;
			return gen(t, r, seed, rank, i);
		}
		/* fall through */
	default: {
		uint64_t at = c->op == COLL_REDUCE_SCATTER ? (uint64_t)rank * c->count + i : i;
		struct val acc = gen(t, r, seed, 0, at);
		for (int q = 1; q < nranks; q++)
			acc = fold(t, r, acc, gen(t, r, seed, q, at));
		return finish(t, r, acc, nranks);
	}
	}
}

int64_t coll_wrong(const struct coll_call *c, int rank, int nranks, uint64_t seed)
{
	size_t elt = coll_type_size(c->type), m = coll_out_count(c, nranks);
	const unsigned char *out = c->recv;
	unsigned char want[8], poison[8];
	memset(poison, 0xFF, sizeof(poison));
	int64_t wrong = 0;
	for (size_t i = 0; i < m; i++) {
		bool untouched;
		struct val v = expect(c, rank, nranks, seed, i, &untouched);
		if (untouched)
			memcpy(want, poison, elt);
		else
			store(c->type, v, want);
		wrong += memcmp(out + i * elt, want, elt) != 0;
	}
	return wrong;
}
