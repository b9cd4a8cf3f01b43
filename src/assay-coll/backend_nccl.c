/* Backends "nccl" and "rccl": nccl-tests' calls (a0b82b2, src/<op>.cu
 * RunColl, worked out in gpu_plan.c) on device buffers, one GPU per rank
 * (the local rank's, as assay-ep's nccl backend picks it). The same source
 * builds against CUDA + NCCL (nccl) or HIP + RCCL (rccl, ASSAY_GPU_HIP);
 * src/mpi/gpu/gpu_api.h maps the runtime names, cmake/gpu.cmake finds them.
 * Each call is issued on the rank's stream and synchronised before it
 * returns (nccl-tests' blocking mode), so the host clock of timing.c times
 * it. The check runs on host mirrors of the buffers, copied outside the
 * timed loop (to_device, to_host). Without the toolkit at configure time,
 * or without a GPU, setup says why and the run exits 4. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/util.h"
#include "coll.h"

#ifdef ASSAY_HAVE_NCCL
#include "gpu/gpu_api.h"
#include "gpu_plan.h"

/* NCCL 2.28's ncclAlltoAll, ncclGather and ncclScatter, which nccl-tests
 * calls from that version on (RCCL: grouped send/recv). */
#if !defined(ASSAY_GPU_HIP) && NCCL_VERSION_CODE >= NCCL_VERSION(2, 28, 0)
#define HAVE_NATIVE 1
#endif

struct gpu_state {
	ncclComm_t comm;
	gpuStream_t stream;
	unsigned char *d_send, *d_recv; /* the device buffers */
	size_t send_bytes, recv_bytes;
	struct cg_step *steps; /* cg_max_steps() */
	bool native;
};

/* nccl-tests' -d names and NCCL's types: bfloat16 from NCCL 2.10, the fp8
 * types from 2.24 (nccl-tests' HAVE_BF16, HAVE_FP8), not on RCCL here. */
static const struct {
	const char *name;
	ncclDataType_t dt;
} nccl_types[] = {
    {"int8", ncclInt8},         {"uint8", ncclUint8},       {"int32", ncclInt32},
    {"uint32", ncclUint32},     {"int64", ncclInt64},       {"uint64", ncclUint64},
    {"half", ncclFloat16},      {"float", ncclFloat32},     {"double", ncclFloat64},
#if NCCL_VERSION_CODE >= NCCL_VERSION(2, 10, 0)
    {"bfloat16", ncclBfloat16},
#endif
#if !defined(ASSAY_GPU_HIP) && NCCL_VERSION_CODE >= NCCL_VERSION(2, 24, 0)
    {"f8e4m3", ncclFloat8e4m3}, {"f8e5m2", ncclFloat8e5m2},
#endif
};

static ncclDataType_t nccl_type(int t)
{
	for (size_t k = 0; k < ARRAY_SIZE(nccl_types); k++)
		if (!strcmp(nccl_types[k].name, coll_types[t].name))
			return nccl_types[k].dt;
	ep_die(ASSAY_INFRA, "-d %s: the %s this assay-coll was built with has no such type",
	       coll_types[t].name, ASSAY_GPU_BACKEND);
}

/* The operator of c: NCCL's own, or for mulsum a PreMulSum made for this
 * call with nccl-tests' scalar (1 on even ranks, 2 on odd, in the call's
 * type), which the caller destroys after the call (as nccl-tests does). */
static ncclRedOp_t nccl_op(struct coll_run *run, const struct coll_call *c, ncclDataType_t dt)
{
	static const ncclRedOp_t ops[] = {ncclSum, ncclProd, ncclMax, ncclMin, ncclAvg};
	if (c->redop != CR_MULSUM)
		return ops[c->redop];
	struct gpu_state *g = run->be_state;
	unsigned char scalar[8] = {0};
	double v = (run->rank & 1) ? 2 : 1;
	if (coll_types[c->type].kind == COLL_FLOAT) {
		coll_types[c->type].put(v, scalar);
	} else {
		uint64_t u = (uint64_t)v; /* little-endian: the low bytes are the value */
		memcpy(scalar, &u, sizeof(u));
	}
	ncclRedOp_t op;
	NCCL_CHECK(ncclRedOpCreatePreMulSum(&op, scalar, dt, ncclScalarHostImmediate, g->comm));
	return op;
}

static void *dev(struct gpu_state *g, struct cg_place p)
{
	return (p.buf == CG_SEND_BUF ? g->d_send : g->d_recv) + p.off;
}

static void run_collective(struct gpu_state *g, const struct cg_step *s, ncclDataType_t dt,
			   ncclRedOp_t op)
{
	void *src = dev(g, s->src), *dst = dev(g, s->dst);
	switch (s->kind) {
	case CG_ALL_REDUCE:
		NCCL_CHECK(ncclAllReduce(src, dst, s->count, dt, op, g->comm, g->stream));
		break;
	case CG_ALL_GATHER:
		NCCL_CHECK(ncclAllGather(src, dst, s->count, dt, g->comm, g->stream));
		break;
	case CG_REDUCE_SCATTER:
		NCCL_CHECK(ncclReduceScatter(src, dst, s->count, dt, op, g->comm, g->stream));
		break;
	case CG_BROADCAST:
		NCCL_CHECK(ncclBroadcast(src, dst, s->count, dt, s->peer, g->comm, g->stream));
		break;
	case CG_REDUCE:
		NCCL_CHECK(ncclReduce(src, dst, s->count, dt, op, s->peer, g->comm, g->stream));
		break;
#ifdef HAVE_NATIVE
	case CG_ALLTOALL:
		NCCL_CHECK(ncclAlltoAll(src, dst, s->count, dt, g->comm, g->stream));
		break;
	case CG_GATHER:
		NCCL_CHECK(ncclGather(src, dst, s->count, dt, s->peer, g->comm, g->stream));
		break;
	case CG_SCATTER:
		NCCL_CHECK(ncclScatter(src, dst, s->count, dt, s->peer, g->comm, g->stream));
		break;
#endif
	default: ep_die(ASSAY_INFRA, "a %s call assay-coll cannot make", ASSAY_GPU_BACKEND);
	}
}

static void run_step(struct gpu_state *g, const struct cg_step *s, ncclDataType_t dt,
		     ncclRedOp_t op, size_t elt)
{
	switch (s->kind) {
	case CG_SEND:
		NCCL_CHECK(ncclSend(dev(g, s->src), s->count, dt, s->peer, g->comm, g->stream));
		break;
	case CG_RECV:
		NCCL_CHECK(ncclRecv(dev(g, s->dst), s->count, dt, s->peer, g->comm, g->stream));
		break;
	case CG_GROUP_START: NCCL_CHECK(ncclGroupStart()); break;
	case CG_GROUP_END: NCCL_CHECK(ncclGroupEnd()); break;
	case CG_COPY:
		GPU_CHECK(gpuMemcpyAsync(dev(g, s->dst), dev(g, s->src), s->count * elt,
					 gpuMemcpyDeviceToDevice, g->stream));
		break;
	default: run_collective(g, s, dt, op); break;
	}
}

static void gpu_call(struct coll_run *run, const struct coll_call *c)
{
	struct gpu_state *g = run->be_state;
	struct cg_bufs b = {run->sendbuf, run->recvbuf, g->send_bytes, g->recv_bytes};
	long n = cg_plan(c, run->rank, run->size, &b, g->native, g->steps);
	if (n < 0)
		ep_die(ASSAY_INFRA, "a call's buffers are not the %s backend's", ASSAY_GPU_BACKEND);
	ncclDataType_t dt = nccl_type(c->type);
	bool reduces = coll_op_has_redop(c->op) && c->op != COLL_SENDRECV;
	ncclRedOp_t op = reduces ? nccl_op(run, c, dt) : ncclSum;
	for (long i = 0; i < n; i++)
		run_step(g, &g->steps[i], dt, op, coll_type_size(c->type));
	if (reduces && c->redop == CR_MULSUM)
		NCCL_CHECK(ncclRedOpDestroy(op, g->comm));
	GPU_CHECK(gpuStreamSynchronize(g->stream));
}

/* The first rank where ok is false, or -1 when it is true on every rank. */
static int first_failing(struct coll_run *run, bool ok)
{
	int mine = ok ? run->size : run->rank, first = 0;
	MPI_CHECK(MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, run->comm));
	return first == run->size ? -1 : first;
}

/* Whether every rank got past a step; else one reason, rank 0's (main.c
 * prints each rank's): its own, or the first failing rank's named. */
static bool agreed(struct coll_run *run, bool ok, const char *what, char *reason, size_t len)
{
	int bad = first_failing(run, ok);
	if (bad < 0)
		return true;
	if (run->rank != 0)
		reason[0] = '\0';
	else if (bad != 0)
		snprintf(reason, len, "%s on rank %d", what, bad);
	return false;
}

/* The local rank's device, when every rank has one and room on it for the
 * two buffers; else why not. Collective: no rank goes on to NCCL's setup
 * alone. */
static bool pick_device(struct coll_run *run, size_t bytes, char *reason, size_t len)
{
	int n = 0, local = 0;
	gpuError_t c = gpuGetDeviceCount(&n);
	bool mine = c == gpuSuccess && n > 0;
	char what[64];
	snprintf(what, sizeof(what), "no %s device", ASSAY_GPU_RUNTIME);
	if (!mine)
		snprintf(reason, len, "%s on rank %d (GetDeviceCount: %s)", what, run->rank,
			 c == gpuSuccess ? "0 devices" : gpuGetErrorString(c));
	if (!agreed(run, mine, what, reason, len))
		return false;
	MPI_Comm node;
	MPI_CHECK(MPI_Comm_split_type(run->comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
	MPI_CHECK(MPI_Comm_rank(node, &local));
	MPI_CHECK(MPI_Comm_free(&node));
	GPU_CHECK(gpuSetDevice(local % n));
	size_t avail = 0, total = 0;
	GPU_CHECK(gpuMemGetInfo(&avail, &total));
	mine = bytes < avail;
	if (!mine)
		snprintf(
		    reason, len,
		    "the buffers need %zu bytes on rank %d's %s device %d, which has %zu free; "
		    "give a smaller -e",
		    bytes, run->rank, ASSAY_GPU_RUNTIME, local % n, avail);
	return agreed(run, mine, "no room for the buffers on the device", reason, len);
}

static assay_err gpu_setup(struct coll_run *run, size_t sb, size_t rb, char *reason, size_t len)
{
	if (!pick_device(run, sb + rb, reason, len))
		return ASSAY_NO_METRICS;
	struct gpu_state *g = xcalloc(1, sizeof(*g));
	ncclUniqueId id;
	if (run->rank == 0)
		NCCL_CHECK(ncclGetUniqueId(&id));
	MPI_CHECK(MPI_Bcast(&id, sizeof(id), MPI_BYTE, 0, run->comm));
	NCCL_CHECK(ncclCommInitRank(&g->comm, run->size, id, run->rank));
	GPU_CHECK(gpuStreamCreate(&g->stream));
#ifdef HAVE_NATIVE
	int version = 0;
	NCCL_CHECK(ncclGetVersion(&version));
	g->native = version >= NCCL_VERSION(2, 28, 0);
#endif
	g->send_bytes = sb;
	g->recv_bytes = rb;
	GPU_CHECK(gpuMalloc((void **)&g->d_send, sb ? sb : 1));
	GPU_CHECK(gpuMalloc((void **)&g->d_recv, rb ? rb : 1));
	g->steps = xcalloc(cg_max_steps(run->size), sizeof(*g->steps));
	run->sendbuf = xmalloc(sb ? sb : 1);
	run->recvbuf = xmalloc(rb ? rb : 1);
	run->be_state = g;
	return ASSAY_OK;
}

static void gpu_to_device(struct coll_run *run, const struct coll_call *c)
{
	struct gpu_state *g = run->be_state;
	if (c->send_span)
		GPU_CHECK(gpuMemcpy(g->d_send, run->sendbuf, c->send_span, gpuMemcpyHostToDevice));
	if (c->recv_span)
		GPU_CHECK(gpuMemcpy(g->d_recv, run->recvbuf, c->recv_span, gpuMemcpyHostToDevice));
}

static void gpu_to_host(struct coll_run *run, const struct coll_call *c)
{
	struct gpu_state *g = run->be_state;
	if (c->recv_span)
		GPU_CHECK(gpuMemcpy(run->recvbuf, g->d_recv, c->recv_span, gpuMemcpyDeviceToHost));
}

static void gpu_teardown(struct coll_run *run)
{
	struct gpu_state *g = run->be_state;
	if (!g)
		return;
	NCCL_CHECK(ncclCommDestroy(g->comm));
	GPU_CHECK(gpuStreamDestroy(g->stream));
	GPU_CHECK(gpuFree(g->d_send));
	GPU_CHECK(gpuFree(g->d_recv));
	free(g->steps);
	free(g);
	free(run->sendbuf);
	free(run->recvbuf);
	run->sendbuf = run->recvbuf = NULL;
	run->be_state = NULL;
}

/* One initializer for whichever of nccl and rccl this build provides. */
#define GPU_BACKEND                                                                                \
	{                                                                                          \
		.name = ASSAY_GPU_BACKEND, .setup = gpu_setup, .call = gpu_call,                   \
		.teardown = gpu_teardown, .to_device = gpu_to_device, .to_host = gpu_to_host       \
	}
#endif /* ASSAY_HAVE_NCCL */

/* A backend this build does not have: setup says so (exit 4). The hooks
 * are set so that the program treats it as the GPU backend it names. */
static assay_err unbuilt(struct coll_run *run, const char *what, char *reason, size_t len)
{
	if (run->rank == 0) /* one line, not one per rank */
		snprintf(reason, len,
			 "assay-coll was built without %s (none found at configure time)", what);
	return ASSAY_NO_METRICS;
}

#if !defined(ASSAY_HAVE_NCCL) || defined(ASSAY_GPU_HIP)
static assay_err unbuilt_nccl(struct coll_run *run, size_t sb, size_t rb, char *reason, size_t len)
{
	(void)sb, (void)rb;
	return unbuilt(run, "CUDA and NCCL", reason, len);
}
#endif
#if !defined(ASSAY_HAVE_NCCL) || !defined(ASSAY_GPU_HIP)
static assay_err unbuilt_rccl(struct coll_run *run, size_t sb, size_t rb, char *reason, size_t len)
{
	(void)sb, (void)rb;
	return unbuilt(run, "ROCm and RCCL", reason, len);
}
#endif
static void unbuilt_call(struct coll_run *run, const struct coll_call *c)
{
	(void)run, (void)c;
}

#if defined(ASSAY_HAVE_NCCL) && !defined(ASSAY_GPU_HIP)
const struct coll_backend coll_backend_nccl = GPU_BACKEND;
#else
const struct coll_backend coll_backend_nccl = {.name = "nccl",
					       .setup = unbuilt_nccl,
					       .call = unbuilt_call,
					       .to_device = unbuilt_call,
					       .to_host = unbuilt_call};
#endif
#if defined(ASSAY_HAVE_NCCL) && defined(ASSAY_GPU_HIP)
const struct coll_backend coll_backend_rccl = GPU_BACKEND;
#else
const struct coll_backend coll_backend_rccl = {.name = "rccl",
					       .setup = unbuilt_rccl,
					       .call = unbuilt_call,
					       .to_device = unbuilt_call,
					       .to_host = unbuilt_call};
#endif
