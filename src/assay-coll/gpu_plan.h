/* The NCCL calls of one assay-coll call, as nccl-tests a0b82b2 makes them
 * (src/<op>.cu, <Op>RunColl), worked out without the NCCL headers so that
 * a build without a GPU tests them (tests/e2e/coll/test-gpu-plan.c); the
 * nccl backend (backend_nccl.c) turns each step into its NCCL call. A
 * place is a buffer and a byte offset: the host mirrors' pointers of a
 * coll_call become places by their offsets, and a place becomes a device
 * pointer by the same offset into the device buffer. */
#ifndef ASSAY_COLL_GPU_PLAN_H
#define ASSAY_COLL_GPU_PLAN_H

#include <stdbool.h>
#include <stddef.h>

#include "coll.h"

enum cg_kind {
	CG_ALL_REDUCE,     /* ncclAllReduce(src, dst, count) */
	CG_ALL_GATHER,     /* ncclAllGather(src, dst, count per rank) */
	CG_REDUCE_SCATTER, /* ncclReduceScatter(src, dst, count per rank) */
	CG_BROADCAST,      /* ncclBroadcast(src, dst, count, root) */
	CG_REDUCE,         /* ncclReduce(src, dst, count, root) */
	CG_ALLTOALL,       /* NCCL 2.28's ncclAlltoAll(src, dst, count per peer) */
	CG_GATHER,         /* NCCL 2.28's ncclGather(src, dst, count, root) */
	CG_SCATTER,        /* NCCL 2.28's ncclScatter(src, dst, count, root) */
	CG_SEND,           /* ncclSend(src, count, peer) */
	CG_RECV,           /* ncclRecv(dst, count, peer) */
	CG_COPY,           /* an asynchronous device copy of count elements, src to dst */
	CG_GROUP_START,    /* ncclGroupStart() */
	CG_GROUP_END       /* ncclGroupEnd() */
};

enum cg_buf { CG_SEND_BUF, CG_RECV_BUF };
struct cg_place {
	enum cg_buf buf;
	size_t off; /* bytes */
};

struct cg_step {
	enum cg_kind kind;
	struct cg_place src, dst;
	size_t count; /* elements */
	int peer;     /* send, recv: the other rank; rooted collectives: the root */
};

/* The host buffers a call's pointers point into. */
struct cg_bufs {
	const unsigned char *send, *recv;
	size_t send_bytes, recv_bytes;
};

/* Where p is: false when it is in neither buffer. */
bool cg_place_of(const struct cg_bufs *b, const void *p, struct cg_place *out);
/* The most steps cg_plan makes for nranks ranks. */
size_t cg_max_steps(int nranks);
/* The steps of c on rank of nranks into steps (cg_max_steps(nranks) of
 * them), returning their number, or 0 with nothing to do (nccl-tests'
 * gather and scatter of 0 elements); -1 when a pointer of c is in neither
 * buffer. native: NCCL has ncclAlltoAll, ncclGather and ncclScatter (2.28
 * and later), which nccl-tests then calls; else grouped ncclSend/ncclRecv
 * as it does before 2.28. */
long cg_plan(const struct coll_call *c, int rank, int nranks, const struct cg_bufs *b, bool native,
	     struct cg_step *steps);

#endif
