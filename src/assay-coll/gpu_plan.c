/* The NCCL calls of one assay-coll call (gpu_plan.h), one function per
 * shape of nccl-tests a0b82b2's <Op>RunColl: one collective, or a group of
 * point-to-point calls. No NCCL header is needed here. */
#include <stdint.h>

#include "gpu_plan.h"

bool cg_place_of(const struct cg_bufs *b, const void *p, struct cg_place *out)
{
	/* As integers: the buffers are separate allocations. The end of a
	 * buffer is a place too (a call of 0 elements there). */
	uintptr_t u = (uintptr_t)p, s = (uintptr_t)b->send, r = (uintptr_t)b->recv;
	if (b->send && u >= s && u - s <= b->send_bytes) {
		*out = (struct cg_place){CG_SEND_BUF, u - s};
		return true;
	}
	if (b->recv && u >= r && u - r <= b->recv_bytes) {
		*out = (struct cg_place){CG_RECV_BUF, u - r};
		return true;
	}
	return false;
}

size_t cg_max_steps(int nranks)
{
	/* alltoall: a group of a send and a receive per rank; hypercube: a
	 * copy and a group of four per bit of the rank count. */
	return 2 * (size_t)nranks + 3 + 4 * 32;
}

static struct cg_place at(struct cg_place p, size_t bytes)
{
	p.off += bytes;
	return p;
}

static struct cg_step *put(struct cg_step *s, enum cg_kind kind, struct cg_place src,
			   struct cg_place dst, size_t count, int peer)
{
	*s = (struct cg_step){.kind = kind, .src = src, .dst = dst, .count = count, .peer = peer};
	return s + 1;
}

static struct cg_step *send(struct cg_step *s, struct cg_place src, size_t count, int peer)
{
	return put(s, CG_SEND, src, src, count, peer);
}

static struct cg_step *recv(struct cg_step *s, struct cg_place dst, size_t count, int peer)
{
	return put(s, CG_RECV, dst, dst, count, peer);
}

static struct cg_step *group(struct cg_step *s, bool start)
{
	struct cg_place none = {CG_SEND_BUF, 0};
	return put(s, start ? CG_GROUP_START : CG_GROUP_END, none, none, 0, -1);
}

/* nccl-tests' AlltoAllRunColl, GatherRunColl and ScatterRunColl before
 * NCCL 2.28: rank r's block is r * count elements in. */
static struct cg_step *blocks(struct cg_step *p, const struct coll_call *c, struct cg_place s,
			      struct cg_place r, int rank, int nranks)
{
	size_t n = c->count, block = n * coll_type_size(c->type);
	p = group(p, true);
	if (c->op == COLL_GATHER)
		p = send(p, s, n, c->root);
	for (int q = 0; q < nranks; q++) {
		if (c->op == COLL_ALLTOALL) {
			p = send(p, at(s, q * block), n, q);
			p = recv(p, at(r, q * block), n, q);
		} else if (c->op == COLL_GATHER && rank == c->root) {
			p = recv(p, at(r, q * block), n, q);
		} else if (c->op == COLL_SCATTER && rank == c->root) {
			p = send(p, at(s, q * block), n, q);
		}
	}
	if (c->op == COLL_SCATTER)
		p = recv(p, r, n, c->root);
	return group(p, false);
}

/* nccl-tests' HyperCubeRunColl: the rank's own block into place (unless it
 * is there), then one exchange per bit of the rank, doubling. */
static struct cg_step *hypercube(struct cg_step *p, const struct coll_call *c, struct cg_place s,
				 struct cg_place r, int rank, int nranks)
{
	size_t n = c->count, block = n * coll_type_size(c->type);
	struct cg_place mine = at(r, (size_t)rank * block);
	if (mine.buf != s.buf || mine.off != s.off)
		p = put(p, CG_COPY, s, mine, n, -1);
	for (int mask = 1; mask < nranks; mask <<= 1) {
		int from = rank & ~(mask - 1), to = from ^ mask;
		p = group(p, true);
		p = send(p, at(r, (size_t)from * block), n * (size_t)mask, rank ^ mask);
		p = recv(p, at(r, (size_t)to * block), n * (size_t)mask, rank ^ mask);
		p = group(p, false);
	}
	return p;
}

/* nccl-tests' AlltoAllvRunColl with the generated pattern: the parts to
 * and from each peer one after another, those of 0 elements left out. */
static struct cg_step *alltoallv(struct cg_step *p, const struct coll_call *c, struct cg_place s,
				 struct cg_place r, int rank, int nranks)
{
	size_t elt = coll_type_size(c->type);
	p = group(p, true);
	for (int q = 0; q < nranks; q++) {
		size_t out = coll_v_bytes(rank, q, nranks, c->count, elt) / elt;
		size_t in = coll_v_bytes(q, rank, nranks, c->count, elt) / elt;
		if (out) {
			p = send(p, s, out, q);
			s = at(s, out * elt);
		}
		if (in) {
			p = recv(p, r, in, q);
			r = at(r, in * elt);
		}
	}
	return group(p, false);
}

long cg_plan(const struct coll_call *c, int rank, int nranks, const struct cg_bufs *b, bool native,
	     struct cg_step *steps)
{
	struct cg_place s, r;
	if (!cg_place_of(b, c->send, &s) || !cg_place_of(b, c->recv, &r))
		return -1;
	struct cg_step *p = steps;
	size_t n = c->count;
	switch (c->op) {
	case COLL_ALL_REDUCE: p = put(p, CG_ALL_REDUCE, s, r, n, -1); break;
	case COLL_ALL_GATHER: p = put(p, CG_ALL_GATHER, s, r, n, -1); break;
	case COLL_REDUCE_SCATTER: p = put(p, CG_REDUCE_SCATTER, s, r, n, -1); break;
	case COLL_BROADCAST: p = put(p, CG_BROADCAST, s, r, n, c->root); break;
	case COLL_REDUCE: p = put(p, CG_REDUCE, s, r, n, c->root); break;
	case COLL_SENDRECV: /* to the next rank, from the previous one */
		p = group(p, true);
		p = send(p, s, n, (rank + 1) % nranks);
		p = recv(p, r, n, (rank - 1 + nranks) % nranks);
		p = group(p, false);
		break;
	case COLL_ALLTOALL:
		p = native ? put(p, CG_ALLTOALL, s, r, n, -1) : blocks(p, c, s, r, rank, nranks);
		break;
	case COLL_GATHER:
	case COLL_SCATTER:
		if (n == 0) /* nccl-tests returns at once */
			break;
		if (native)
			p = put(p, c->op == COLL_GATHER ? CG_GATHER : CG_SCATTER, s, r, n, c->root);
		else
			p = blocks(p, c, s, r, rank, nranks);
		break;
	case COLL_HYPERCUBE: p = hypercube(p, c, s, r, rank, nranks); break;
	case COLL_ALLTOALLV: p = alltoallv(p, c, s, r, rank, nranks); break;
	default: break;
	}
	return (long)(p - steps);
}
