/* assay-coll backend "mpi": the MPI library's own collectives (MPI_Allreduce,
 * MPI_Allgather, MPI_Reduce_scatter_block, MPI_Alltoall, MPI_Bcast,
 * MPI_Reduce, MPI_Sendrecv, MPI_Gather, MPI_Scatter, MPI_Alltoallv, and
 * nccl-tests' hypercube as MPI_Sendrecv per dimension) on private buffers. A
 * type without an MPI datatype (half, bfloat16, fp8) moves as words of its
 * size and reduces with user operators; avg is a sum divided by the rank
 * count, mulsum a sum of premultiplied inputs. */
#include <stdlib.h>
#include <string.h>

#include "assay/util.h"
#include "coll.h"

/* Types without an MPI datatype (half, bfloat16, fp8; every floating type
 * under a --inject mutant, whose sums must go through coll_reduce) travel as
 * a contiguous datatype of their size, and reduce with one user operator per
 * reduction that finds the type by that datatype. */
struct mpi_state {
	MPI_Op user_ops[CR_NREDOPS];
	MPI_Datatype *words; /* per type: its datatype of words, or MPI_DATATYPE_NULL */
	int ntypes;
	unsigned char *stage; /* in-place alltoallv's input, made on first use */
	size_t recv_bytes;
	int *v;                /* alltoallv's counts and displacements: 4 x ranks */
	unsigned char *premul; /* mulsum's doubled input on odd ranks */
	size_t premul_bytes;
};
static struct mpi_state *user_state; /* the operators have no context argument */

static void user_reduce(enum coll_redop r, void *in, void *inout, int *len, MPI_Datatype *dt)
{
	for (int t = 0; t < user_state->ntypes; t++)
		if (user_state->words[t] != MPI_DATATYPE_NULL && user_state->words[t] == *dt) {
			coll_reduce(t, r, inout, in, inout, (size_t)*len);
			return;
		}
	ep_die(ASSAY_INFRA, "a user reduction on a datatype assay-coll did not make");
}

#define USER_OP(name, r)                                                                           \
	static void name(void *in, void *inout, int *len, MPI_Datatype *dt)                        \
	{                                                                                          \
		user_reduce(r, in, inout, len, dt);                                                \
	}
USER_OP(user_sum, CR_SUM)
USER_OP(user_prod, CR_PROD)
USER_OP(user_max, CR_MAX)
USER_OP(user_min, CR_MIN)

static assay_err mpi_setup(struct coll_run *run, size_t send_bytes, size_t recv_bytes, char *reason,
			   size_t len)
{
	(void)reason, (void)len;
	struct mpi_state *m = xcalloc(1, sizeof(*m));
	MPI_User_function *fns[CR_NREDOPS] = {user_sum, user_prod, user_max,
					      user_min, user_sum,  user_sum};
	for (int r = 0; r < CR_NREDOPS; r++)
		MPI_CHECK(MPI_Op_create(fns[r], 1, &m->user_ops[r]));
	while (coll_types[m->ntypes].name)
		m->ntypes++;
	m->words = xcalloc((size_t)m->ntypes, sizeof(*m->words));
	for (int t = 0; t < m->ntypes; t++) {
		m->words[t] = MPI_DATATYPE_NULL;
		bool mutated = coll_mutant && coll_types[t].kind == COLL_FLOAT;
		if (coll_types[t].size && (coll_types[t].mpi == MPI_DATATYPE_NULL || mutated)) {
			MPI_CHECK(
			    MPI_Type_contiguous((int)coll_types[t].size, MPI_BYTE, &m->words[t]));
			MPI_CHECK(MPI_Type_commit(&m->words[t]));
		}
	}
	user_state = m;
	m->recv_bytes = recv_bytes;
	m->v = xcalloc(4 * (size_t)run->size, sizeof(int));
	run->be_state = m;
	run->sendbuf = xmalloc(send_bytes ? send_bytes : 1);
	run->recvbuf = xmalloc(recv_bytes ? recv_bytes : 1);
	/* Touch the pages once so first-touch faults stay out of timing. */
	memset(run->sendbuf, 0, send_bytes);
	memset(run->recvbuf, 0, recv_bytes);
	return ASSAY_OK;
}

static MPI_Datatype mpi_type(const struct mpi_state *m, int t)
{
	return m->words[t] != MPI_DATATYPE_NULL ? m->words[t] : coll_types[t].mpi;
}

static MPI_Op mpi_op(const struct mpi_state *m, int t, enum coll_redop r)
{
	if (m->words[t] != MPI_DATATYPE_NULL)
		return m->user_ops[r];
	switch (r) {
	case CR_PROD: return MPI_PROD;
	case CR_MAX: return MPI_MAX;
	case CR_MIN: return MPI_MIN;
	default: return MPI_SUM;
	}
}

/* nccl-tests' HyperCubeRunColl: this rank's block into place, then per
 * dimension the blocks gathered so far swapped with the partner. */
static void hypercube(struct coll_run *run, const struct coll_call *c, MPI_Datatype dt)
{
	int me = run->rank;
	size_t rs = c->count * coll_type_size(c->type);
	unsigned char *rb = c->recv;
	if (rb + (size_t)me * rs != (unsigned char *)c->send)
		memcpy(rb + (size_t)me * rs, c->send, rs);
	for (int mask = 1; mask < run->size; mask <<= 1) {
		int s = me & ~(mask - 1), r = s ^ mask, n = (int)c->count * mask;
		MPI_CHECK(MPI_Sendrecv(rb + (size_t)s * rs, n, dt, me ^ mask, 0,
				       rb + (size_t)r * rs, n, dt, me ^ mask, 0, run->comm,
				       MPI_STATUS_IGNORE));
	}
}

/* MPI_Alltoallv with nccl-tests' generated counts; in place the input is
 * staged first (the counts are not symmetric, as MPI_IN_PLACE needs). */
static void alltoallv(struct coll_run *run, struct mpi_state *m, const struct coll_call *c,
		      MPI_Datatype dt)
{
	int P = run->size, me = run->rank;
	size_t elt = coll_type_size(c->type);
	int *sc = m->v, *sd = sc + P, *rc = sd + P, *rd = rc + P;
	for (int r = 0; r < P; r++) {
		sc[r] = (int)(coll_v_bytes(me, r, P, c->count, elt) / elt);
		rc[r] = (int)(coll_v_bytes(r, me, P, c->count, elt) / elt);
		sd[r] = r ? sd[r - 1] + sc[r - 1] : 0;
		rd[r] = r ? rd[r - 1] + rc[r - 1] : 0;
	}
	const void *in = c->send;
	if (c->in_place) {
		if (!m->stage)
			m->stage = xmalloc(m->recv_bytes ? m->recv_bytes : 1);
		memcpy(m->stage, c->send, (size_t)(sd[P - 1] + sc[P - 1]) * elt);
		in = m->stage;
	}
	MPI_CHECK(MPI_Alltoallv(in, sc, sd, dt, c->recv, rc, rd, dt, run->comm));
}

/* gather, scatter, hypercube, alltoallv. */
static void mpi_call_more(struct coll_run *run, struct mpi_state *m, const struct coll_call *c,
			  MPI_Datatype dt)
{
	int n = (int)c->count;
	bool root = run->rank == c->root;
	switch (c->op) {
	case COLL_GATHER:
		MPI_CHECK(MPI_Gather(c->in_place && root ? MPI_IN_PLACE : c->send, n, dt, c->recv,
				     n, dt, c->root, run->comm));
		break;
	case COLL_SCATTER:
		MPI_CHECK(MPI_Scatter(c->send, n, dt, c->in_place && root ? MPI_IN_PLACE : c->recv,
				      n, dt, c->root, run->comm));
		break;
	case COLL_HYPERCUBE: hypercube(run, c, dt); break;
	case COLL_ALLTOALLV: alltoallv(run, m, c, dt); break;
	default: break;
	}
}

/* The send argument of a reducing call. mulsum is NCCL's PreMulSum with
 * nccl-tests' scalars (1 on even ranks, 2 on odd); MPI has none, so an odd
 * rank doubles its input (x + x, exact) before an MPI sum: in place where
 * the call is in place (the input's buffer is the output's), else into a
 * copy, leaving the send buffer (and a non-root's buffer) as it was. */
static void *reduce_input(struct coll_run *run, const struct coll_call *c)
{
	struct mpi_state *m = run->be_state;
	bool ip = c->in_place && (c->op != COLL_REDUCE || run->rank == c->root);
	size_t n = c->count * (c->op == COLL_REDUCE_SCATTER ? (size_t)run->size : 1);
	const struct coll_type_info *ti = &coll_types[c->type];
	if (c->redop != CR_MULSUM || !(run->rank & 1))
		return ip ? MPI_IN_PLACE : c->send;
	if (ip) {
		ti->reduce(CR_SUM, c->send, c->send, c->send, n);
		return MPI_IN_PLACE;
	}
	if (m->premul_bytes < n * ti->size) { /* on a warm-up or the untimed call */
		m->premul_bytes = n * ti->size;
		m->premul = xrealloc(m->premul, m->premul_bytes);
	}
	ti->reduce(CR_SUM, m->premul, c->send, c->send, n);
	return m->premul;
}

static void mpi_call(struct coll_run *run, const struct coll_call *c)
{
	struct mpi_state *m = run->be_state;
	MPI_Datatype dt = mpi_type(m, c->type);
	MPI_Op op = mpi_op(m, c->type, c->redop);
	int n = (int)c->count, P = run->size, me = run->rank;
	void *in = c->in_place ? MPI_IN_PLACE : c->send;
	if (coll_op_has_redop(c->op) && c->op != COLL_SENDRECV)
		in = reduce_input(run, c);
	size_t elt = coll_type_size(c->type);
	switch (c->op) {
	case COLL_ALL_REDUCE:
		MPI_CHECK(MPI_Allreduce(in, c->recv, n, dt, op, run->comm));
		coll_finish(c->type, c->redop, c->recv, c->count, P);
		break;
	case COLL_ALL_GATHER: MPI_CHECK(MPI_Allgather(in, n, dt, c->recv, n, dt, run->comm)); break;
	case COLL_REDUCE_SCATTER:
		/* In place MPI leaves the block at the start of the buffer (the
		 * send region); nccl-tests' in-place result is at rank * count. */
		MPI_CHECK(MPI_Reduce_scatter_block(in, c->in_place ? c->send : c->recv, n, dt, op,
						   run->comm));
		if (c->in_place && c->recv != c->send)
			memmove(c->recv, c->send, c->count * elt);
		coll_finish(c->type, c->redop, c->recv, c->count, P);
		break;
	case COLL_ALLTOALL: MPI_CHECK(MPI_Alltoall(in, n, dt, c->recv, n, dt, run->comm)); break;
	case COLL_BROADCAST:
		if (me == c->root && !c->in_place)
			memcpy(c->recv, c->send, c->count * elt);
		MPI_CHECK(MPI_Bcast(c->recv, n, dt, c->root, run->comm));
		break;
	case COLL_REDUCE:
		if (me == c->root) {
			MPI_CHECK(MPI_Reduce(in, c->recv, n, dt, op, c->root, run->comm));
			coll_finish(c->type, c->redop, c->recv, c->count, P);
		} else {
			MPI_CHECK(MPI_Reduce(in, NULL, n, dt, op, c->root, run->comm));
		}
		break;
	case COLL_SENDRECV:
		if (c->in_place)
			MPI_CHECK(MPI_Sendrecv_replace(c->recv, n, dt, (me + 1) % P, 0,
						       (me - 1 + P) % P, 0, run->comm,
						       MPI_STATUS_IGNORE));
		else
			MPI_CHECK(MPI_Sendrecv(c->send, n, dt, (me + 1) % P, 0, c->recv, n, dt,
					       (me - 1 + P) % P, 0, run->comm, MPI_STATUS_IGNORE));
		break;
	default: mpi_call_more(run, m, c, dt); break;
	}
}

static void mpi_teardown(struct coll_run *run)
{
	struct mpi_state *m = run->be_state;
	if (m) {
		for (int r = 0; r < CR_NREDOPS; r++)
			MPI_CHECK(MPI_Op_free(&m->user_ops[r]));
		for (int t = 0; t < m->ntypes; t++)
			if (m->words[t] != MPI_DATATYPE_NULL)
				MPI_CHECK(MPI_Type_free(&m->words[t]));
		free(m->words);
		free(m->stage);
		free(m->v);
		free(m->premul);
	}
	user_state = NULL;
	free(m);
	free(run->sendbuf);
	free(run->recvbuf);
	run->be_state = NULL;
	run->sendbuf = run->recvbuf = NULL;
}

const struct coll_backend coll_backend_mpi = {
    .name = "mpi",
    .setup = mpi_setup,
    .call = mpi_call,
    .teardown = mpi_teardown,
};
