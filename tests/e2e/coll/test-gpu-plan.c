/* The nccl backend's calls (src/assay-coll/gpu_plan.c) without a GPU.
 * Point-to-point plans (sendrecv, alltoall, gather and scatter before NCCL
 * 2.28, hypercube, alltoallv; nccl-tests a0b82b2 src/<op>.cu RunColl) run
 * on host buffers of every rank in a simulation of grouped ncclSend and
 * ncclRecv (the k-th send from q to r meets the k-th receive on r from q),
 * and the result must pass assay-coll's own check (coll_fill, coll_wrong);
 * collective plans are checked by their arguments: the places that the
 * host pointers of a call become, in place and with -u's shift. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "coll.h"
#include "gpu_plan.h"

struct sim {
	unsigned char *send, *recv;
	size_t sb, rb;
	struct coll_call c;
	struct cg_step *steps;
	long n, pos;
};

/* A call as assay-coll's timing.c sets it up, on buffers as main.c sizes
 * them. */
static void setup_rank(struct sim *s, enum coll_op op, int type, size_t bytes, bool in_place,
		       size_t unalign, int root, int rank, int nranks)
{
	size_t elt = coll_type_size(type);
	struct coll_shape sh;
	coll_shape_of(op, bytes, elt, nranks, &sh);
	size_t shift = unalign * elt;
	s->sb = sh.send_count * elt + shift;
	s->rb = (sh.recv_count > sh.send_count ? sh.recv_count : sh.send_count) * elt + shift;
	s->send = calloc(1, s->sb + 1);
	s->recv = calloc(1, s->rb + 1);
	struct coll_call *c = &s->c;
	*c = (struct coll_call){.op = op, .type = type, .root = root, .count = sh.count};
	c->in_place = in_place;
	c->send_stride = in_place ? sh.send_inplace * elt : 0;
	c->recv_stride = in_place ? sh.recv_inplace * elt : 0;
	c->shift = shift;
	c->send = shift + (in_place ? s->recv + c->send_stride * (size_t)rank : s->send);
	c->recv = shift + s->recv + c->recv_stride * (size_t)rank;
	s->steps = calloc(cg_max_steps(nranks), sizeof(*s->steps));
	struct cg_bufs b = {s->send, s->recv, s->sb, s->rb};
	s->n = cg_plan(c, rank, nranks, &b, false, s->steps);
	s->pos = 0;
	assert_true(s->n >= 0);
	assert_true((size_t)s->n <= cg_max_steps(nranks));
}

static unsigned char *addr(struct sim *s, struct cg_place p, size_t bytes)
{
	size_t size = p.buf == CG_SEND_BUF ? s->sb : s->rb;
	assert_true(p.off + bytes <= size);
	return (p.buf == CG_SEND_BUF ? s->send : s->recv) + p.off;
}

/* The sends of rank q's current group to r, the k-th of them. */
static const struct cg_step *kth_send(struct sim *q, int r, int k)
{
	for (long i = q->pos + 1; i < q->n && q->steps[i].kind != CG_GROUP_END; i++)
		if (q->steps[i].kind == CG_SEND && q->steps[i].peer == r && k-- == 0)
			return &q->steps[i];
	return NULL;
}

/* One group on every rank: each receive takes its matching send's data,
 * read from a snapshot taken before the group (the sends' inputs). */
static void run_group(struct sim *R, int P, size_t elt)
{
	unsigned char **snap = calloc((size_t)P * 2, sizeof(*snap));
	for (int r = 0; r < P; r++) {
		snap[2 * r] = malloc(R[r].sb + 1);
		snap[2 * r + 1] = malloc(R[r].rb + 1);
		memcpy(snap[2 * r], R[r].send, R[r].sb);
		memcpy(snap[2 * r + 1], R[r].recv, R[r].rb);
	}
	for (int r = 0; r < P; r++) {
		int *seen = calloc((size_t)P, sizeof(int));
		long i = R[r].pos + 1;
		for (; i < R[r].n && R[r].steps[i].kind != CG_GROUP_END; i++) {
			const struct cg_step *st = &R[r].steps[i];
			if (st->kind != CG_RECV)
				continue;
			const struct cg_step *in = kth_send(&R[st->peer], r, seen[st->peer]++);
			assert_non_null(in);
			assert_int_equal(in->count, st->count);
			struct sim *q = &R[st->peer];
			addr(q, in->src, in->count * elt); /* in bounds */
			unsigned char *from = snap[2 * st->peer + (in->src.buf == CG_RECV_BUF)];
			memcpy(addr(&R[r], st->dst, st->count * elt), from + in->src.off,
			       st->count * elt);
		}
		assert_true(i < R[r].n);
		free(seen);
	}
	for (int r = 0; r < P; r++) {
		while (R[r].steps[R[r].pos].kind != CG_GROUP_END)
			R[r].pos++;
		R[r].pos++;
		free(snap[2 * r]);
		free(snap[2 * r + 1]);
	}
	free(snap);
}

/* Every rank's plan: copies at once, groups together. */
static void simulate(struct sim *R, int P, size_t elt)
{
	for (;;) {
		int at_end = 0;
		for (int r = 0; r < P; r++) {
			struct sim *s = &R[r];
			while (s->pos < s->n && s->steps[s->pos].kind == CG_COPY) {
				const struct cg_step *st = &s->steps[s->pos++];
				memmove(addr(s, st->dst, st->count * elt),
					addr(s, st->src, st->count * elt), st->count * elt);
			}
			if (s->pos == s->n)
				at_end++;
			else
				assert_int_equal(s->steps[s->pos].kind, CG_GROUP_START);
		}
		if (at_end == P)
			return;
		assert_int_equal(at_end, 0);
		run_group(R, P, elt);
	}
}

/* op on P ranks, checked as assay-coll checks it: #wrong 0 on every rank. */
static void check_p2p(enum coll_op op, const char *type, size_t bytes, int P, bool in_place,
		      size_t unalign, int root)
{
	int t = coll_type_find(type);
	assert_true(t >= 0);
	struct sim *R = calloc((size_t)P, sizeof(*R));
	for (int r = 0; r < P; r++) {
		setup_rank(&R[r], op, t, bytes, in_place, unalign, root, r, P);
		coll_poison(&R[r].c, r, P);
		coll_fill(&R[r].c, r, P, 7);
	}
	simulate(R, P, coll_type_size(t));
	for (int r = 0; r < P; r++) {
		assert_int_equal(coll_wrong(&R[r].c, r, P, 7), 0);
		free(R[r].send);
		free(R[r].recv);
		free(R[r].steps);
	}
	free(R);
}

static void test_p2p_out_of_place(void **state)
{
	(void)state;
	for (int P = 1; P <= 5; P++) {
		check_p2p(COLL_SENDRECV, "float", 4096, P, false, 0, 0);
		check_p2p(COLL_ALLTOALL, "int8", 3000, P, false, 1, 0);
		check_p2p(COLL_ALLTOALLV, "float", 8192, P, false, 0, 0);
		for (int root = 0; root < P; root++) {
			check_p2p(COLL_GATHER, "double", 4096, P, false, 0, root);
			check_p2p(COLL_SCATTER, "half", 4096, P, false, 3, root);
		}
	}
	for (int P = 1; P <= 8; P *= 2)
		check_p2p(COLL_HYPERCUBE, "int32", 8192, P, false, 2, 0);
}

/* In place where assay-coll checks it (not alltoall, sendrecv, alltoallv). */
static void test_p2p_in_place(void **state)
{
	(void)state;
	for (int P = 1; P <= 4; P++)
		for (int root = 0; root < P; root++) {
			check_p2p(COLL_GATHER, "float", 4096, P, true, 1, root);
			check_p2p(COLL_SCATTER, "uint8", 1000, P, true, 0, root);
		}
	for (int P = 1; P <= 8; P *= 2)
		check_p2p(COLL_HYPERCUBE, "float", 8192, P, true, 0, 0);
}

/* One-step plans: the NCCL collective, its count and root, and where its
 * pointers are. */
static void check_one(enum coll_op op, bool in_place, bool native, int rank, int P,
		      enum cg_kind kind, struct cg_place src, struct cg_place dst, size_t count,
		      int peer)
{
	struct sim s;
	int t = coll_type_find("float");
	/* 4096 floats in all: 1024 per rank for the blocked operations. */
	setup_rank(&s, op, t, 16384, in_place, 2, 1, rank, P);
	struct cg_bufs b = {s.send, s.recv, s.sb, s.rb};
	s.n = cg_plan(&s.c, rank, P, &b, native, s.steps);
	assert_int_equal(s.n, 1);
	assert_int_equal(s.steps[0].kind, kind);
	assert_int_equal(s.steps[0].src.buf, src.buf);
	assert_int_equal(s.steps[0].src.off, src.off);
	assert_int_equal(s.steps[0].dst.buf, dst.buf);
	assert_int_equal(s.steps[0].dst.off, dst.off);
	assert_int_equal(s.steps[0].count, count);
	assert_int_equal(s.steps[0].peer, peer);
	free(s.send);
	free(s.recv);
	free(s.steps);
}

static void test_collectives(void **state)
{
	(void)state;
	const struct cg_place S = {CG_SEND_BUF, 8}, R = {CG_RECV_BUF, 8}; /* -u 2 floats */
	check_one(COLL_ALL_REDUCE, false, false, 2, 4, CG_ALL_REDUCE, S, R, 4096, -1);
	check_one(COLL_ALL_REDUCE, true, false, 2, 4, CG_ALL_REDUCE, R, R, 4096, -1);
	check_one(COLL_BROADCAST, false, false, 0, 4, CG_BROADCAST, S, R, 4096, 1);
	check_one(COLL_REDUCE, true, false, 3, 4, CG_REDUCE, R, R, 4096, 1);
	check_one(COLL_ALL_GATHER, false, false, 2, 4, CG_ALL_GATHER, S, R, 1024, -1);
	/* In place, NCCL's rule: rank r's input is block r of the output ... */
	check_one(COLL_ALL_GATHER, true, false, 2, 4, CG_ALL_GATHER,
		  (struct cg_place){CG_RECV_BUF, 8 + 2 * 4096}, R, 1024, -1);
	/* ... and its reduce-scatter output block r of the input. */
	check_one(COLL_REDUCE_SCATTER, true, false, 3, 4, CG_REDUCE_SCATTER, R,
		  (struct cg_place){CG_RECV_BUF, 8 + 3 * 4096}, 1024, -1);
	/* NCCL 2.28's own alltoall, gather and scatter (nccl-tests calls them). */
	check_one(COLL_ALLTOALL, false, true, 1, 4, CG_ALLTOALL, S, R, 1024, -1);
	check_one(COLL_GATHER, false, true, 1, 4, CG_GATHER, S, R, 1024, 1);
	check_one(COLL_SCATTER, false, true, 0, 4, CG_SCATTER, S, R, 1024, 1);
}

/* A pointer outside both buffers is refused; gather of nothing is nothing
 * (nccl-tests returns before any call). */
static void test_edges(void **state)
{
	(void)state;
	struct sim s;
	setup_rank(&s, COLL_GATHER, coll_type_find("float"), 0, false, 0, 0, 0, 2);
	assert_int_equal(s.n, 0);
	struct cg_bufs b = {s.send, s.recv, s.sb, s.rb};
	unsigned char other[4];
	s.c.recv = other;
	assert_int_equal(cg_plan(&s.c, 0, 2, &b, false, s.steps), -1);
	struct cg_place p;
	assert_true(cg_place_of(&b, s.recv + s.rb, &p)); /* the end is a place */
	assert_int_equal(p.buf, CG_RECV_BUF);
	assert_int_equal(p.off, s.rb);
	free(s.send);
	free(s.recv);
	free(s.steps);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_p2p_out_of_place),
	    cmocka_unit_test(test_p2p_in_place),
	    cmocka_unit_test(test_collectives),
	    cmocka_unit_test(test_edges),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
