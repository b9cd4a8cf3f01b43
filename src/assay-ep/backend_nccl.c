/* Backends "nccl" and "rccl": device-resident dispatch and combine. The
 * same source builds against CUDA + NCCL (nccl) or HIP + RCCL (rccl,
 * ASSAY_GPU_HIP). Dispatch: counts by MPI_Alltoall, the pack kernel, grouped
 * ncclSend/ncclRecv of records, stream sync. Combine: grouped send/recv of
 * the staged rows, the reduction kernel, stream sync. Data stays on the
 * device; the oracle reads it back outside timing. Without the toolkit at
 * configure time, or without a GPU, a case is reported unsupported. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/util.h"
#include "bench.h"

#ifdef ASSAY_HAVE_NCCL
#include "gpu/ep_gpu.h"
#include "gpu/gpu_api.h"

#define KERNEL_CHECK(call)                                                                         \
	do {                                                                                       \
		int k_ = (call);                                                                   \
		if (k_ != 0)                                                                       \
			ep_die(ASSAY_INFRA, "%s failed: %s", #call, ep_gpu_error(k_));             \
	} while (0)

struct gpu_state {
	ncclComm_t comm;
	gpuStream_t stream;
};

struct gpu_point {
	unsigned char *d_send;          /* [tokens] input records (staged once) */
	unsigned char *d_pack, *d_recv; /* records packed by destination / received */
	uint16_t *d_y, *d_back;         /* staged rows / rows returned to the source */
	float *d_out;                   /* [tokens][hidden] combine output */
	int64_t *d_map;                 /* [sent]: packed slot -> local token */
	int64_t *d_rows;                /* [tokens][topk]: row in d_back per destination */
	int32_t *d_dests, *d_ndests;    /* the token's destination ranks, ascending */
	unsigned char *h_recv;          /* host copy of d_recv for the oracle */
	uint16_t *h_y;                  /* host staging of d_y */
	int64_t sent;
	int *sdispl, *rdispl;
};

static void *dalloc(size_t n)
{
	void *p = NULL;
	GPU_CHECK(gpuMalloc(&p, n ? n : 1));
	return p;
}

static void upload(void *dst, const void *src, size_t n)
{
	if (n)
		GPU_CHECK(gpuMemcpy(dst, src, n, gpuMemcpyHostToDevice));
}

static assay_err gpu_setup(struct ep_run *run, char *reason, size_t size)
{
	int n = 0, ok;
	gpuError_t c = gpuGetDeviceCount(&n);
	int mine = c == gpuSuccess && n > 0;
	MPI_CHECK(MPI_Allreduce(&mine, &ok, 1, MPI_INT, MPI_LAND, run->comm));
	if (!ok) {
		if (!mine)
			snprintf(reason, size, "no %s device on rank %d (GetDeviceCount: %s)",
				 ASSAY_GPU_RUNTIME, run->rank,
				 c == gpuSuccess ? "0 devices" : gpuGetErrorString(c));
		else
			snprintf(reason, size, "a rank has no %s device", ASSAY_GPU_RUNTIME);
		return ASSAY_NO_METRICS;
	}
	MPI_Comm node;
	int local = 0;
	MPI_CHECK(MPI_Comm_split_type(run->comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
	MPI_CHECK(MPI_Comm_rank(node, &local));
	MPI_CHECK(MPI_Comm_free(&node));
	GPU_CHECK(gpuSetDevice(local % n));
	struct gpu_state *st = xcalloc(1, sizeof(*st));
	ncclUniqueId id;
	if (run->rank == 0)
		NCCL_CHECK(ncclGetUniqueId(&id));
	MPI_CHECK(MPI_Bcast(&id, sizeof(id), MPI_BYTE, 0, run->comm));
	NCCL_CHECK(ncclCommInitRank(&st->comm, run->size, id, run->rank));
	GPU_CHECK(gpuStreamCreate(&st->stream));
	run->be_state = st;
	return ASSAY_OK;
}

static void gpu_point_init(struct ep_run *run, struct ep_point *pt)
{
	struct gpu_point *g = xcalloc(1, sizeof(*g));
	size_t stride = pt->l.stride, row = (size_t)pt->p.hidden * 2;
	int64_t T = pt->p.tokens, K = pt->p.topk;
	g->sdispl = xcalloc((size_t)run->size, sizeof(int));
	g->rdispl = xcalloc((size_t)run->size, sizeof(int));
	for (int d = 0; d < run->size; d++)
		g->sent += pt->send_counts[d];
	for (int d = 1; d < run->size; d++)
		g->sdispl[d] = g->sdispl[d - 1] + pt->send_counts[d - 1];
	/* The layout (where each token's copies go, where its rows come back)
	 * is built once per point, like the routing; the copies themselves are
	 * the pack kernel's, inside every timed dispatch. */
	int64_t *map = xmalloc((size_t)(g->sent ? g->sent : 1) * sizeof(*map));
	int64_t *rows = xcalloc((size_t)(T * K), sizeof(*rows));
	for (int64_t i = 0; i < T; i++)
		for (int j = 0; j < pt->ndests[i]; j++) {
			int64_t at = g->sdispl[pt->dests[i * K + j]] + pt->slot[i * K + j];
			map[at] = i;
			rows[i * K + j] = at;
		}
	size_t nr = (size_t)pt->nrecv, ns = (size_t)g->sent;
	g->d_send = dalloc((size_t)T * stride);
	g->d_pack = dalloc(ns * stride);
	g->d_recv = dalloc(nr * stride);
	g->d_y = dalloc(nr * row);
	g->d_back = dalloc(ns * row);
	g->d_out = dalloc((size_t)T * row * 2);
	g->d_map = dalloc(ns * sizeof(*map));
	g->d_rows = dalloc((size_t)(T * K) * sizeof(*rows));
	g->d_dests = dalloc((size_t)(T * K) * sizeof(*pt->dests));
	g->d_ndests = dalloc((size_t)T * sizeof(*pt->ndests));
	upload(g->d_send, pt->send, (size_t)T * stride);
	upload(g->d_map, map, ns * sizeof(*map));
	upload(g->d_rows, rows, (size_t)(T * K) * sizeof(*rows));
	upload(g->d_dests, pt->dests, (size_t)(T * K) * sizeof(*pt->dests));
	upload(g->d_ndests, pt->ndests, (size_t)T * sizeof(*pt->ndests));
	free(map);
	free(rows);
	g->h_recv = xmalloc(nr ? nr * stride : 1);
	g->h_y = xmalloc(nr ? nr * row : 1);
	pt->be = g;
}

static void gpu_dispatch(struct ep_run *run, struct ep_point *pt)
{
	struct gpu_state *st = run->be_state;
	struct gpu_point *g = pt->be;
	size_t stride = pt->l.stride;
	MPI_CHECK(
	    MPI_Alltoall(pt->send_counts, 1, MPI_INT, pt->recv_counts, 1, MPI_INT, run->comm));
	for (int d = 1; d < run->size; d++)
		g->rdispl[d] = g->rdispl[d - 1] + pt->recv_counts[d - 1];
	KERNEL_CHECK(ep_gpu_pack(g->d_send, stride, g->d_map, g->sent, g->d_pack, st->stream));
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
	GPU_CHECK(gpuStreamSynchronize(st->stream));
}

static void gpu_combine(struct ep_run *run, struct ep_point *pt)
{
	struct gpu_state *st = run->be_state;
	struct gpu_point *g = pt->be;
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
	KERNEL_CHECK(ep_gpu_reduce(g->d_back, g->d_rows, g->d_dests, g->d_ndests, pt->p.tokens,
				   pt->p.topk, pt->p.hidden, pt->p.scale_up_domain,
				   assay_ep_domains(&pt->p) > 1, g->d_out, st->stream));
	GPU_CHECK(gpuStreamSynchronize(st->stream));
}

static unsigned char *gpu_received(struct ep_run *run, struct ep_point *pt)
{
	(void)run;
	struct gpu_point *g = pt->be;
	if (pt->nrecv)
		GPU_CHECK(gpuMemcpy(g->h_recv, g->d_recv, (size_t)pt->nrecv * pt->l.stride,
				    gpuMemcpyDeviceToHost));
	return g->h_recv;
}

static uint16_t *gpu_staged(struct ep_run *run, struct ep_point *pt)
{
	(void)run;
	return ((struct gpu_point *)pt->be)->h_y;
}

static void gpu_commit(struct ep_run *run, struct ep_point *pt)
{
	(void)run;
	struct gpu_point *g = pt->be;
	upload(g->d_y, g->h_y, (size_t)pt->nrecv * (size_t)pt->p.hidden * 2);
}

static void gpu_output(struct ep_run *run, struct ep_point *pt)
{
	(void)run;
	struct gpu_point *g = pt->be;
	GPU_CHECK(gpuMemcpy(pt->out, g->d_out, (size_t)(pt->p.tokens * pt->p.hidden) * 4,
			    gpuMemcpyDeviceToHost));
}

static void gpu_poison(struct ep_run *run, struct ep_point *pt)
{
	(void)run;
	struct gpu_point *g = pt->be;
	size_t nr = (size_t)pt->nrecv, ns = (size_t)g->sent, row = (size_t)pt->p.hidden * 2;
	GPU_CHECK(gpuMemset(g->d_pack, 0xFF, ns * pt->l.stride));
	GPU_CHECK(gpuMemset(g->d_recv, 0xFF, nr * pt->l.stride));
	GPU_CHECK(gpuMemset(g->d_y, 0xFF, nr * row));
	GPU_CHECK(gpuMemset(g->d_back, 0xFF, ns * row));
	GPU_CHECK(gpuMemset(g->d_out, 0xFF, (size_t)pt->p.tokens * row * 2));
	memset(g->h_recv, 0xFF, nr * pt->l.stride);
	memset(g->h_y, 0xFF, nr * row);
	GPU_CHECK(gpuDeviceSynchronize());
}

/* What one dispatch writes on the device (packed and received records) and
 * what one combine writes (rows coming back, the output; the caller poisons
 * the host copy pt->out), finished before the next call is issued. */
static void gpu_poison_dispatch(struct ep_run *run, struct ep_point *pt)
{
	(void)run;
	struct gpu_point *g = pt->be;
	GPU_CHECK(gpuMemset(g->d_pack, 0xFF, (size_t)g->sent * pt->l.stride));
	GPU_CHECK(gpuMemset(g->d_recv, 0xFF, (size_t)pt->nrecv * pt->l.stride));
	GPU_CHECK(gpuDeviceSynchronize());
}

static void gpu_poison_combine(struct ep_run *run, struct ep_point *pt)
{
	(void)run;
	struct gpu_point *g = pt->be;
	size_t row = (size_t)pt->p.hidden * 2;
	GPU_CHECK(gpuMemset(g->d_back, 0xFF, (size_t)g->sent * row));
	GPU_CHECK(gpuMemset(g->d_out, 0xFF, (size_t)pt->p.tokens * row * 2));
	GPU_CHECK(gpuDeviceSynchronize());
}

static void gpu_point_release(struct ep_run *run, struct ep_point *pt)
{
	(void)run;
	struct gpu_point *g = pt->be;
	if (!g)
		return;
	void *dev[] = {g->d_send, g->d_pack, g->d_recv, g->d_y,     g->d_back,
		       g->d_out,  g->d_map,  g->d_rows, g->d_dests, g->d_ndests};
	for (size_t i = 0; i < ARRAY_SIZE(dev); i++)
		GPU_CHECK(gpuFree(dev[i]));
	free(g->h_recv);
	free(g->h_y);
	free(g->sdispl);
	free(g->rdispl);
	free(g);
	pt->be = NULL;
}

static void gpu_teardown(struct ep_run *run)
{
	struct gpu_state *st = run->be_state;
	if (!st)
		return;
	NCCL_CHECK(ncclCommDestroy(st->comm));
	GPU_CHECK(gpuStreamDestroy(st->stream));
	free(st);
	run->be_state = NULL;
}

/* One initializer for whichever of nccl and rccl this build provides. */
#define GPU_BACKEND                                                                                \
	{                                                                                          \
		.name = ASSAY_GPU_BACKEND, .setup = gpu_setup, .point_init = gpu_point_init,       \
		.dispatch = gpu_dispatch, .combine = gpu_combine, .received = gpu_received,        \
		.staged = gpu_staged, .commit = gpu_commit, .output = gpu_output,                  \
		.point_release = gpu_point_release, .teardown = gpu_teardown,                      \
		.poison = gpu_poison, .poison_dispatch = gpu_poison_dispatch,                      \
		.poison_combine = gpu_poison_combine                                               \
	}
#endif /* ASSAY_HAVE_NCCL */

#if !defined(ASSAY_HAVE_NCCL) || defined(ASSAY_GPU_HIP)
static assay_err unbuilt_nccl(struct ep_run *run, char *reason, size_t size)
{
	(void)run;
	snprintf(reason, size,
		 "assay-ep was built without CUDA and NCCL (none found at configure time)");
	return ASSAY_NO_METRICS;
}
#endif
#if !defined(ASSAY_HAVE_NCCL) || !defined(ASSAY_GPU_HIP)
static assay_err unbuilt_rccl(struct ep_run *run, char *reason, size_t size)
{
	(void)run;
	snprintf(reason, size,
		 "assay-ep was built without ROCm and RCCL (none found at configure time)");
	return ASSAY_NO_METRICS;
}
#endif

#if defined(ASSAY_HAVE_NCCL) && !defined(ASSAY_GPU_HIP)
const struct ep_backend ep_backend_nccl = GPU_BACKEND;
#else
const struct ep_backend ep_backend_nccl = {.name = "nccl", .setup = unbuilt_nccl};
#endif
#if defined(ASSAY_HAVE_NCCL) && defined(ASSAY_GPU_HIP)
const struct ep_backend ep_backend_rccl = GPU_BACKEND;
#else
const struct ep_backend ep_backend_rccl = {.name = "rccl", .setup = unbuilt_rccl};
#endif
