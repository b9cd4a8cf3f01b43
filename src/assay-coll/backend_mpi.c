/* assay-coll backend "mpi": the MPI library's own collectives (MPI_Allreduce,
 * MPI_Allgather, MPI_Reduce_scatter_block, MPI_Alltoall, MPI_Bcast,
 * MPI_Reduce, MPI_Sendrecv) on private buffers. bfloat16 reduces with user
 * operators over 16-bit words; avg is a sum divided by the rank count. */
#include <stdlib.h>
#include <string.h>

#include "assay/util.h"
#include "coll.h"

struct mpi_state {
	MPI_Op bf16_ops[CR_NREDOPS];
};

#define BF16_OP(name, r)                                                                           \
	static void name(void *in, void *inout, int *len, MPI_Datatype *dt)                        \
	{                                                                                          \
		(void)dt;                                                                          \
		coll_reduce(CT_BF16, r, inout, in, inout, (size_t)*len);                           \
	}
BF16_OP(bf16_sum, CR_SUM)
BF16_OP(bf16_prod, CR_PROD)
BF16_OP(bf16_max, CR_MAX)
BF16_OP(bf16_min, CR_MIN)

static assay_err mpi_setup(struct coll_run *run, size_t send_bytes, size_t recv_bytes, char *reason,
			   size_t len)
{
	(void)reason, (void)len;
	struct mpi_state *m = xcalloc(1, sizeof(*m));
	MPI_User_function *fns[CR_NREDOPS] = {bf16_sum, bf16_prod, bf16_max, bf16_min, bf16_sum};
	for (int r = 0; r < CR_NREDOPS; r++)
		MPI_CHECK(MPI_Op_create(fns[r], 1, &m->bf16_ops[r]));
	run->be_state = m;
	run->sendbuf = xmalloc(send_bytes ? send_bytes : 1);
	run->recvbuf = xmalloc(recv_bytes ? recv_bytes : 1);
	/* Touch the pages once so first-touch faults stay out of timing. */
	memset(run->sendbuf, 0, send_bytes);
	memset(run->recvbuf, 0, recv_bytes);
	return ASSAY_OK;
}

static MPI_Datatype mpi_type(enum coll_type t)
{
	switch (t) {
	case CT_INT8: return MPI_INT8_T;
	case CT_UINT8: return MPI_UINT8_T;
	case CT_INT32: return MPI_INT32_T;
	case CT_UINT32: return MPI_UINT32_T;
	case CT_INT64: return MPI_INT64_T;
	case CT_UINT64: return MPI_UINT64_T;
	case CT_FLOAT: return MPI_FLOAT;
	case CT_DOUBLE: return MPI_DOUBLE;
	default: return MPI_UINT16_T; /* bfloat16 */
	}
}

static MPI_Op mpi_op(const struct mpi_state *m, enum coll_type t, enum coll_redop r)
{
	if (t == CT_BF16)
		return m->bf16_ops[r];
	switch (r) {
	case CR_PROD: return MPI_PROD;
	case CR_MAX: return MPI_MAX;
	case CR_MIN: return MPI_MIN;
	default: return MPI_SUM;
	}
}

static void mpi_call(struct coll_run *run, const struct coll_call *c)
{
	struct mpi_state *m = run->be_state;
	MPI_Datatype dt = mpi_type(c->type);
	MPI_Op op = mpi_op(m, c->type, c->redop);
	int n = (int)c->count, P = run->size, me = run->rank;
	void *in = c->in_place ? MPI_IN_PLACE : c->send;
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
			MPI_CHECK(MPI_Reduce(c->send, NULL, n, dt, op, c->root, run->comm));
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
	default: break;
	}
}

static void mpi_teardown(struct coll_run *run)
{
	struct mpi_state *m = run->be_state;
	if (m)
		for (int r = 0; r < CR_NREDOPS; r++)
			MPI_CHECK(MPI_Op_free(&m->bf16_ops[r]));
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
