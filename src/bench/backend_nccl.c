/* Backend "nccl": grouped ncclSend/ncclRecv variable all-to-all on device
 * buffers, counts exchanged first (MPI_Alltoall). Compiled with CUDA and
 * NCCL when CMake finds them (ASSAY_HAVE_NCCL); otherwise, and on a machine
 * without a GPU, it reports the case unsupported with the reason. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/util.h"
#include "bench.h"

#ifdef ASSAY_HAVE_NCCL
#include <cuda_runtime.h>
#include <nccl.h>

#define CUDA_CHECK(call)                                                                           \
	do {                                                                                       \
		cudaError_t c_ = (call);                                                           \
		if (c_ != cudaSuccess)                                                             \
			ep_die(ASSAY_INFRA, "%s failed: %s", #call, cudaGetErrorString(c_));       \
	} while (0)
#define NCCL_CHECK(call)                                                                           \
	do {                                                                                       \
		ncclResult_t n_ = (call);                                                          \
		if (n_ != ncclSuccess)                                                             \
			ep_die(ASSAY_INFRA, "%s failed: %s", #call, ncclGetErrorString(n_));       \
	} while (0)

struct nccl_state {
	ncclComm_t comm;
	cudaStream_t stream;
};

struct nccl_point {
	unsigned char *d_pack, *d_recv; /* records, packed by destination / received */
	uint16_t *d_y, *d_back;         /* staged rows / rows returned to the source */
	unsigned char *h_recv;
	uint16_t *h_y, *h_back;
	int64_t sent;
	int *sdispl, *rdispl;
	const uint16_t **bases;
};

static assay_err nccl_setup(struct ep_run *run, char *reason, size_t size)
{
	int n = 0, ok;
	cudaError_t c = cudaGetDeviceCount(&n);
	int mine = c == cudaSuccess && n > 0;
	MPI_CHECK(MPI_Allreduce(&mine, &ok, 1, MPI_INT, MPI_LAND, run->comm));
	if (!ok) {
		if (!mine)
			snprintf(reason, size, "no CUDA device on rank %d (cudaGetDeviceCount: %s)",
				 run->rank, c == cudaSuccess ? "0 devices" : cudaGetErrorString(c));
		else
			snprintf(reason, size, "a rank has no CUDA device");
		return ASSAY_NO_METRICS;
	}
	MPI_Comm node;
	int local = 0;
	MPI_CHECK(MPI_Comm_split_type(run->comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
	MPI_CHECK(MPI_Comm_rank(node, &local));
	MPI_CHECK(MPI_Comm_free(&node));
	CUDA_CHECK(cudaSetDevice(local % n));
	struct nccl_state *st = xcalloc(1, sizeof(*st));
	ncclUniqueId id;
	if (run->rank == 0)
		NCCL_CHECK(ncclGetUniqueId(&id));
	MPI_CHECK(MPI_Bcast(&id, sizeof(id), MPI_BYTE, 0, run->comm));
	NCCL_CHECK(ncclCommInitRank(&st->comm, run->size, id, run->rank));
	CUDA_CHECK(cudaStreamCreate(&st->stream));
	run->be_state = st;
	return ASSAY_OK;
}

static void nccl_point_init(struct ep_run *run, struct ep_point *pt)
{
	struct nccl_point *g = xcalloc(1, sizeof(*g));
	size_t stride = pt->l.stride, row = (size_t)pt->p.hidden * 2;
	g->sdispl = xcalloc((size_t)run->size, sizeof(int));
	g->rdispl = xcalloc((size_t)run->size, sizeof(int));
	g->bases = xcalloc((size_t)run->size, sizeof(*g->bases));
	for (int d = 0; d < run->size; d++)
		g->sent += pt->send_counts[d];
	for (int d = 1; d < run->size; d++)
		g->sdispl[d] = g->sdispl[d - 1] + pt->send_counts[d - 1];
	/* The per-destination order is this point's layout: packed once here on
	 * the host and uploaded (a device gather kernel is not part of assay). */
	unsigned char *pack = xmalloc((size_t)(g->sent ? g->sent : 1) * stride);
	ep_pack(pt, g->sdispl, pack);
	size_t nr = (size_t)(pt->nrecv ? pt->nrecv : 1), ns = (size_t)(g->sent ? g->sent : 1);
	CUDA_CHECK(cudaMalloc((void **)&g->d_pack, ns * stride));
	CUDA_CHECK(cudaMalloc((void **)&g->d_recv, nr * stride));
	CUDA_CHECK(cudaMalloc((void **)&g->d_y, nr * row));
	CUDA_CHECK(cudaMalloc((void **)&g->d_back, ns * row));
	CUDA_CHECK(cudaMemcpy(g->d_pack, pack, ns * stride, cudaMemcpyHostToDevice));
	free(pack);
	g->h_recv = xmalloc(nr * stride);
	g->h_y = xmalloc(nr * row);
	g->h_back = xmalloc(ns * row);
	pt->be = g;
}

static void nccl_dispatch(struct ep_run *run, struct ep_point *pt)
{
	struct nccl_state *st = run->be_state;
	struct nccl_point *g = pt->be;
	size_t stride = pt->l.stride;
	MPI_CHECK(
	    MPI_Alltoall(pt->send_counts, 1, MPI_INT, pt->recv_counts, 1, MPI_INT, run->comm));
	for (int d = 1; d < run->size; d++)
		g->rdispl[d] = g->rdispl[d - 1] + pt->recv_counts[d - 1];
	NCCL_CHECK(ncclGroupStart());
	for (int d = 0; d < run->size; d++) {
		if (pt->send_counts[d])
			NCCL_CHECK(ncclSend(g->d_pack + (size_t)g->sdispl[d] * stride,
					    (size_t)pt->send_counts[d] * stride, ncclUint8, d,
					    st->comm, st->stream));
		if (pt->recv_counts[d])
			NCCL_CHECK(ncclRecv(g->d_recv + (size_t)g->rdispl[d] * stride,
					    (size_t)pt->recv_counts[d] * stride, ncclUint8, d,
					    st->comm, st->stream));
	}
	NCCL_CHECK(ncclGroupEnd());
	CUDA_CHECK(cudaStreamSynchronize(st->stream));
}

static void nccl_combine(struct ep_run *run, struct ep_point *pt)
{
	struct nccl_state *st = run->be_state;
	struct nccl_point *g = pt->be;
	size_t row = (size_t)pt->p.hidden;
	NCCL_CHECK(ncclGroupStart());
	for (int d = 0; d < run->size; d++) {
		if (pt->recv_counts[d])
			NCCL_CHECK(ncclSend(g->d_y + (size_t)g->rdispl[d] * row,
					    (size_t)pt->recv_counts[d] * row, ncclBfloat16, d,
					    st->comm, st->stream));
		if (pt->send_counts[d])
			NCCL_CHECK(ncclRecv(g->d_back + (size_t)g->sdispl[d] * row,
					    (size_t)pt->send_counts[d] * row, ncclBfloat16, d,
					    st->comm, st->stream));
	}
	NCCL_CHECK(ncclGroupEnd());
	/* The reduction runs on the host (no device kernels in assay). */
	CUDA_CHECK(cudaMemcpyAsync(g->h_back, g->d_back, (size_t)(g->sent ? g->sent : 1) * row * 2,
				   cudaMemcpyDeviceToHost, st->stream));
	CUDA_CHECK(cudaStreamSynchronize(st->stream));
	for (int d = 0; d < run->size; d++)
		g->bases[d] = g->h_back + (size_t)g->sdispl[d] * row;
	ep_reduce(pt, g->bases);
}

static unsigned char *nccl_received(struct ep_run *run, struct ep_point *pt)
{
	(void)run;
	struct nccl_point *g = pt->be;
	CUDA_CHECK(cudaMemcpy(g->h_recv, g->d_recv,
			      (size_t)(pt->nrecv ? pt->nrecv : 1) * pt->l.stride,
			      cudaMemcpyDeviceToHost));
	return g->h_recv;
}

static uint16_t *nccl_staged(struct ep_run *run, struct ep_point *pt)
{
	(void)run;
	return ((struct nccl_point *)pt->be)->h_y;
}

static void nccl_commit(struct ep_run *run, struct ep_point *pt)
{
	(void)run;
	struct nccl_point *g = pt->be;
	CUDA_CHECK(cudaMemcpy(g->d_y, g->h_y,
			      (size_t)(pt->nrecv ? pt->nrecv : 1) * (size_t)pt->p.hidden * 2,
			      cudaMemcpyHostToDevice));
}

static void nccl_output(struct ep_run *run, struct ep_point *pt)
{
	(void)run, (void)pt;
}

static void nccl_point_release(struct ep_run *run, struct ep_point *pt)
{
	(void)run;
	struct nccl_point *g = pt->be;
	if (!g)
		return;
	CUDA_CHECK(cudaFree(g->d_pack));
	CUDA_CHECK(cudaFree(g->d_recv));
	CUDA_CHECK(cudaFree(g->d_y));
	CUDA_CHECK(cudaFree(g->d_back));
	free(g->h_recv);
	free(g->h_y);
	free(g->h_back);
	free(g->sdispl);
	free(g->rdispl);
	free(g->bases);
	free(g);
	pt->be = NULL;
}

static void nccl_teardown(struct ep_run *run)
{
	struct nccl_state *st = run->be_state;
	if (!st)
		return;
	NCCL_CHECK(ncclCommDestroy(st->comm));
	CUDA_CHECK(cudaStreamDestroy(st->stream));
	free(st);
	run->be_state = NULL;
}

const struct ep_backend ep_backend_nccl = {
    .name = "nccl",
    .setup = nccl_setup,
    .point_init = nccl_point_init,
    .dispatch = nccl_dispatch,
    .combine = nccl_combine,
    .received = nccl_received,
    .staged = nccl_staged,
    .commit = nccl_commit,
    .output = nccl_output,
    .point_release = nccl_point_release,
    .teardown = nccl_teardown,
};

#else /* !ASSAY_HAVE_NCCL */

static assay_err nccl_unbuilt(struct ep_run *run, char *reason, size_t size)
{
	(void)run;
	snprintf(reason, size,
		 "assay-ep was built without CUDA and NCCL (none found at configure time)");
	return ASSAY_NO_METRICS;
}

const struct ep_backend ep_backend_nccl = {.name = "nccl", .setup = nccl_unbuilt};

#endif
