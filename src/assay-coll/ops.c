/* assay-coll's operations and reduction operators as nccl-tests has them
 * (src/<op>.cu GetCollByteCount, src/common.cu test_opnames), and the check:
 * seeded inputs whose reductions are exact in every type (types.c) but only
 * with the type's full precision (nccl-tests' verifiable inputs,
 * verifiable/verifiable.cu at a0b82b2, by their rule), and an expected
 * result computed on its own scalar path. */
#include <math.h>
#include <string.h>

#include "coll.h"

const char *const coll_op_names[COLL_NOPS + 1] = {
    "all_reduce", "all_gather", "reduce_scatter", "alltoall",  "broadcast", "reduce",
    "sendrecv",   "gather",     "scatter",        "hypercube", "alltoallv", NULL};
const char *const coll_redop_names[CR_NREDOPS + 1] = {"sum", "prod",   "max", "min",
						      "avg", "mulsum", NULL};

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

/* A random value below bound (bound > 0) from the element's hash h and a
 * salt. */
static uint64_t pick(uint64_t h, uint64_t salt, uint64_t bound)
{
	return mix(h ^ (salt * 0xD6E8FEB86659FD93ull)) % bound;
}

/* A floating type's layout: stored mantissa bits m, the smallest and the
 * largest exponent of a normal number whose significand may be all ones
 * (e4m3's all-ones pattern at the top exponent is NaN: one below). */
struct layout {
	int m, emin, emax;
};

static struct layout layout_of(int t)
{
	int eb = coll_types[t].exp_bits, bias = (1 << (eb - 1)) - 1;
	return (struct layout){coll_types[t].mant_bits, 1 - bias, (1 << eb) - 2 - bias};
}

/* The share of target y that member idx of a group of k carries: every
 * member but the element's first (a rotation by h) a small integer, from 0
 * up to 3 and in all less than half of y; the first the rest, so the
 * shares add up to y. */
static uint64_t share(uint64_t h, uint64_t salt, int k, int idx, uint64_t y)
{
	uint64_t q = y / (2 * (uint64_t)k);
	q = q > 3 ? 3 : q;
	int first = (int)pick(h, salt, (uint64_t)k);
	if (idx != first)
		return pick(h, salt + 1 + (uint64_t)idx, q + 1);
	uint64_t rest = y;
	for (int j = 0; j < k; j++)
		if (j != first)
			rest -= pick(h, salt + 1 + (uint64_t)j, q + 1);
	return rest;
}

/* A random full significand, top bit set: an integer in [2^m, 2^(m+1)). */
static uint64_t full_sig(uint64_t h, uint64_t salt, int m)
{
	return ((uint64_t)1 << m) | pick(h, salt, (uint64_t)1 << m);
}

/* Floating sum and avg: element i has one exponent e for every rank, a
 * result y (a full significand: an integer in [2^m, 2^(m+1))) and a sign s;
 * the ranks at odd positions (the ranks rotated by h) add up to -s yB, yB
 * random from 0 to 2^(m+1) - 1 - y, those at even positions to
 * s (y + yB), each group's target split into shares. Every input and
 * partial sum is an integer multiple of 2^(e-m) below 2^(m+1) of them, so
 * exact in the type in any order, and the sum s y 2^(e-m) needs every bit
 * of the type: an accumulator with fewer (bfloat16 for float, or one bit
 * short) loses the large shares' low bits or the result's. */
static double gen_sum(int t, uint64_t h, int rank, int nranks)
{
	struct layout L = layout_of(t);
	int e = L.emin + L.m + (int)pick(h, 1, (uint64_t)(L.emax - L.emin - L.m + 1));
	int pos = (int)(((uint64_t)rank + pick(h, 2, (uint64_t)nranks)) % (uint64_t)nranks);
	int grp = pos & 1, k = grp ? nranks / 2 : (nranks + 1) / 2;
	uint64_t y = full_sig(h, 3, L.m), top = ((uint64_t)2 << L.m) - 1;
	uint64_t yb = pick(h, 4, top - y + 1);
	double sign = (pick(h, 5, 2) ? -1.0 : 1.0) * (grp ? -1.0 : 1.0);
	uint64_t x = share(h, grp ? 200 : 100, k, pos >> 1, grp ? yb : y + yb);
	return sign * ldexp((double)x, e - L.m);
}

/* Floating mulsum (nccl-tests' PreMulSum: even ranks' inputs times 1, odd
 * ranks' times 2, then summed): one sign and exponent, targets yA (even
 * ranks) below 2^m and yB (odd ranks) below 2^(m-1), so yA + 2 yB and every
 * partial sum stays below 2^(m+1) units of 2^(e-m). */
static double gen_mulsum(int t, uint64_t h, int rank, int nranks)
{
	struct layout L = layout_of(t);
	int e = L.emin + L.m + (int)pick(h, 1, (uint64_t)(L.emax - L.emin - L.m + 1));
	int grp = rank & 1, k = grp ? nranks / 2 : (nranks + 1) / 2;
	uint64_t y = grp ? full_sig(h, 4, L.m - 2) : full_sig(h, 3, L.m - 1);
	uint64_t x = share(h, grp ? 200 : 100, k, rank >> 1, y);
	return (pick(h, 5, 2) ? -1.0 : 1.0) * ldexp((double)x, e - L.m);
}

/* Floating prod: the rank at the element's position 0 gives a random
 * significand, every rank a power of two 2^j (j from 0, the j of all ranks
 * adding up to at most the largest exponent) and a random sign: the product
 * is that significand, exact in any order, and a narrower one loses bits. */
static double gen_prod(int t, uint64_t h, int rank, int nranks)
{
	struct layout L = layout_of(t);
	uint64_t cap = (uint64_t)L.emax / (uint64_t)nranks;
	int pos = (int)(((uint64_t)rank + pick(h, 2, (uint64_t)nranks)) % (uint64_t)nranks);
	double v = pos ? 1.0 : (double)full_sig(h, 3, L.m) / (double)((uint64_t)1 << L.m);
	v = ldexp(v, (int)pick(h, 10 + (uint64_t)rank, cap + 1));
	return pick(h, 1000 + (uint64_t)rank, 2) ? -v : v;
}

/* min, max and the copies: a random sign, normal exponent and mantissa per
 * rank (never infinity or NaN). */
static double gen_bits(int t, uint64_t h, int rank)
{
	struct layout L = layout_of(t);
	uint64_t g = mix(h ^ ((uint64_t)rank + 1) * 0x9E3779B97F4A7C15ull);
	double v = (double)full_sig(g, 1, L.m) / (double)((uint64_t)1 << L.m);
	v = ldexp(v, L.emin + (int)pick(g, 2, (uint64_t)(L.emax - L.emin + 1)));
	return pick(g, 3, 2) ? -v : v;
}

/* The exact floating sum or mulsum of element h over nranks > 1 ranks,
 * built from its targets alone (gen_sum, gen_mulsum), never by adding the
 * shares. */
static double sum_of(int t, enum coll_redop r, uint64_t h)
{
	struct layout L = layout_of(t);
	int e = L.emin + L.m + (int)pick(h, 1, (uint64_t)(L.emax - L.emin - L.m + 1));
	double sign = pick(h, 5, 2) ? -1.0 : 1.0;
	uint64_t y = r == CR_MULSUM ? full_sig(h, 3, L.m - 1) + 2 * full_sig(h, 4, L.m - 2)
				    : full_sig(h, 3, L.m);
	return sign * ldexp((double)y, e - L.m);
}

/* The hash of element i of a call: the same on every rank. */
static uint64_t elem_hash(uint64_t seed, uint64_t i)
{
	return mix(mix(seed * 0x2545F4914F6CDD1Dull) ^ i);
}

/* The inputs: integers are any bits of the type (never 0 in products, as
 * nccl-tests); floating types as gen_sum, gen_mulsum, gen_prod and gen_bits
 * say, so a reduction is exact in any order only with the type's own
 * precision. */
static struct val gen(int t, enum coll_redop r, uint64_t seed, int rank, int nranks, uint64_t i)
{
	struct val v = {0, 0};
	if (!is_float(t)) {
		v.u = wrap(t, mix(mix(seed * 0x2545F4914F6CDD1Dull + (uint64_t)rank) ^ i));
		if (r == CR_PROD && v.u == 0)
			v.u = 1;
		return v;
	}
	uint64_t h = elem_hash(seed, i);
	if (nranks > 1 && (r == CR_SUM || r == CR_AVG))
		v.d = gen_sum(t, h, rank, nranks);
	else if (nranks > 1 && r == CR_MULSUM)
		v.d = gen_mulsum(t, h, rank, nranks);
	else if (r == CR_PROD)
		v.d = gen_prod(t, h, rank, nranks);
	else
		v.d = gen_bits(t, h, rank);
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

/* a OP b in the value domain (exact for the inputs above: doubles hold
 * every partial result); mulsum's b is rank q's input, times 2 when q is
 * odd. */
static struct val fold(int t, enum coll_redop r, struct val a, struct val b, int q)
{
	if (r == CR_MULSUM && (q & 1)) {
		b.d *= 2;
		b.u *= 2;
	}
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
		store(c->type, gen(c->type, r, seed, rank, nranks, i), p + i * elt);
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
	return gen(c->type, gen_op(c), seed, src, nranks, at);
}

/* Element i of rank's output as the operation defines it. */
static struct val expect(const struct coll_call *c, int rank, int nranks, uint64_t seed, size_t i,
			 bool *untouched)
{
	int t = c->type;
	enum coll_redop r = gen_op(c);
	size_t blk = i / (c->count ? c->count : 1), k = i % (c->count ? c->count : 1);
	*untouched = false;
	int n = nranks;
	switch (c->op) {
	case COLL_ALL_GATHER:
	case COLL_HYPERCUBE: return gen(t, r, seed, (int)blk, n, k);
	case COLL_GATHER:
		/* Not the root: untouched, but for its own input in place. */
		*untouched = rank != c->root && !(c->in_place && (int)blk == rank);
		return gen(t, r, seed, (int)blk, n, k);
	case COLL_SCATTER: return gen(t, r, seed, c->root, n, (uint64_t)rank * c->count + i);
	case COLL_ALLTOALLV: return expect_v(c, rank, nranks, seed, i);
	case COLL_ALLTOALL: return gen(t, r, seed, (int)blk, n, (uint64_t)rank * c->count + k);
	case COLL_BROADCAST: return gen(t, r, seed, c->root, n, i);
	case COLL_SENDRECV: return gen(t, r, seed, (rank - 1 + n) % n, n, i);
	case COLL_REDUCE:
		if (rank != c->root) {
			/* Not the root: the receive buffer keeps what it held. */
			*untouched = !c->in_place;
			return gen(t, r, seed, rank, n, i);
		}
		/* fall through */
	default: {
		uint64_t at = c->op == COLL_REDUCE_SCATTER ? (uint64_t)rank * c->count + i : i;
		if (is_float(t) && n > 1 && (r == CR_SUM || r == CR_AVG || r == CR_MULSUM)) {
			struct val v = {0, sum_of(t, r, elem_hash(seed, at))};
			return finish(t, r, v, n); /* the type holds it exactly */
		}
		struct val acc = gen(t, r, seed, 0, n, at);
		for (int q = 1; q < n; q++)
			acc = fold(t, r, acc, gen(t, r, seed, q, n, at), q);
		return finish(t, r, acc, n);
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
