/* Backend "shm": one copy through MPI-3 shared memory, the CPU analogue of
 * NVLink peer writes. Dispatch exchanges the send counts (MPI_Allgather),
 * takes offsets from a prefix sum and copies every record exactly once
 * straight into the destination's receive region of a shared window; combine
 * reads the peers' staged rows in place and reduces. Synchronisation is the
 * count exchange (entry) and MPI_Win_sync + MPI_Barrier (data published). */
#include <stdlib.h>
#include <string.h>

#include "assay/util.h"
#include "bench.h"

struct shm_point {
	MPI_Win win;
	unsigned char **recv; /* [ep] each rank's receive region */
	uint16_t **y;         /* [ep] each rank's staged combine rows */
	int *counts;          /* [ep][ep]: counts[s * ep + d] records s sends d */
	int64_t *offset;      /* [ep]: where this rank's block starts at d */
	const uint16_t **bases;
	/* The same from the routing, once (not from a dispatch's own count
	 * exchange): the block each checked dispatch's poison covers; NULL
	 * when the blocks of all ranks do not tile every receive region. */
	int64_t *at;
};

static size_t page_round(size_t n)
{
	return (n + 4095) & ~(size_t)4095;
}

static assay_err shm_setup(struct ep_run *run, char *reason, size_t size)
{
	return ep_shm_one_node(run->comm, run->rank, run->size, reason, size) ? ASSAY_OK
									      : ASSAY_NO_METRICS;
}

/* Where this rank's block starts in each rank's receive region, by the
 * routing's send counts; NULL unless, on every rank, the blocks sent to it
 * add up to the records it receives (so the ranks' blocks tile every
 * region, and poisoning its own blocks everywhere poisons every region). */
static int64_t *blocks_at(struct ep_run *run, struct ep_point *pt, int *counts)
{
	int P = run->size, me = run->rank;
	MPI_CHECK(MPI_Allgather(pt->send_counts, P, MPI_INT, counts, P, MPI_INT, run->comm));
	int64_t *at = xcalloc((size_t)P, sizeof(*at)), total = 0;
	for (int d = 0; d < P; d++)
		for (int src = 0; src < me; src++)
			at[d] += counts[src * P + d];
	for (int src = 0; src < P; src++)
		total += counts[src * P + me];
	int tiles = total == pt->nrecv, all = 0;
	MPI_CHECK(MPI_Allreduce(&tiles, &all, 1, MPI_INT, MPI_LAND, run->comm));
	if (!all) {
		free(at);
		return NULL;
	}
	return at;
}

static void shm_point_init(struct ep_run *run, struct ep_point *pt)
{
	struct shm_point *s = xcalloc(1, sizeof(*s));
	size_t recv_bytes = page_round((size_t)pt->nrecv * pt->l.stride);
	size_t y_bytes = page_round((size_t)pt->nrecv * (size_t)pt->p.hidden * 2);
	s->recv = xcalloc((size_t)run->size, sizeof(*s->recv));
	s->y = xcalloc((size_t)run->size, sizeof(*s->y));
	unsigned char *base = ep_shm_window(run->comm, recv_bytes + y_bytes, &s->win, s->recv);
	memset(base, 0, recv_bytes + y_bytes);
	for (int r = 0; r < run->size; r++) {
		int64_t nr = pt->rs.recv_copies[r];
		s->y[r] = (uint16_t *)(s->recv[r] + page_round((size_t)nr * pt->l.stride));
	}
	s->counts = xcalloc((size_t)(run->size * run->size), sizeof(int));
	s->offset = xcalloc((size_t)run->size, sizeof(*s->offset));
	s->bases = xcalloc((size_t)run->size, sizeof(*s->bases));
	s->at = blocks_at(run, pt, s->counts);
	MPI_CHECK(MPI_Win_lock_all(MPI_MODE_NOCHECK, s->win));
	pt->be = s;
}

#ifdef ASSAY_EP_MUTANTS
/* Test mutants (tests/e2e/ep), compiled only into the assay_ep_mutant test
 * build (never installed; the production build does not read the variable):
 * ASSAY_EP_MUTANT names one. "copy-once": dispatch copies on a point's first
 * call only. "idle-after-dispatch": dispatch moves nothing when the call
 * before it was a dispatch too. Whether this dispatch (or, with dispatch
 * false, this combine) is to move nothing. */
static bool shm_mutant_idle(const struct ep_point *pt, bool dispatch)
{
	static const struct ep_point *copied;
	static bool after_dispatch;
	const char *m = getenv("ASSAY_EP_MUTANT");
	bool idle = false;
	if (dispatch && m && !strcmp(m, "copy-once"))
		idle = copied == pt;
	if (dispatch && m && !strcmp(m, "idle-after-dispatch"))
		idle = after_dispatch;
	if (dispatch)
		copied = pt;
	after_dispatch = dispatch;
	return idle;
}
#endif

static void shm_dispatch(struct ep_run *run, struct ep_point *pt)
{
	struct shm_point *s = pt->be;
	int P = run->size, me = run->rank;
	MPI_CHECK(MPI_Allgather(pt->send_counts, P, MPI_INT, s->counts, P, MPI_INT, run->comm));
	for (int d = 0; d < P; d++) {
		int64_t off = 0;
		for (int src = 0; src < me; src++)
			off += s->counts[src * P + d];
		s->offset[d] = off;
		pt->recv_counts[d] = s->counts[d * P + me];
	}
	size_t stride = pt->l.stride;
	int64_t K = pt->p.topk;
#ifdef ASSAY_EP_MUTANTS
	if (shm_mutant_idle(pt, true))
		stride = 0;
#endif
	for (int64_t i = 0; i < pt->p.tokens && stride; i++) {
		const unsigned char *rec = pt->send + (size_t)i * stride;
		for (int j = 0; j < pt->ndests[i]; j++) {
			int d = pt->dests[i * K + j];
			ep_copy(s->recv[d] + (size_t)(s->offset[d] + pt->slot[i * K + j]) * stride,
				rec, stride, pt->copy);
		}
	}
	if (pt->copy == EP_COPY_NT)
		ep_copy_fence();
	MPI_CHECK(MPI_Win_sync(s->win));
	MPI_CHECK(MPI_Barrier(run->comm));
	MPI_CHECK(MPI_Win_sync(s->win));
}

static void shm_combine(struct ep_run *run, struct ep_point *pt)
{
	struct shm_point *s = pt->be;
#ifdef ASSAY_EP_MUTANTS
	shm_mutant_idle(pt, false);
#endif
	/* The peers' staged rows are complete once everyone reached here. */
	MPI_CHECK(MPI_Win_sync(s->win));
	MPI_CHECK(MPI_Barrier(run->comm));
	MPI_CHECK(MPI_Win_sync(s->win));
	for (int d = 0; d < run->size; d++)
		s->bases[d] = s->y[d] + (size_t)s->offset[d] * (size_t)pt->p.hidden;
	ep_reduce(pt, s->bases);
}

static unsigned char *shm_received(struct ep_run *run, struct ep_point *pt)
{
	return ((struct shm_point *)pt->be)->recv[run->rank];
}

static unsigned char *const *shm_recv_regions(struct ep_run *run, struct ep_point *pt)
{
	(void)run;
	return ((struct shm_point *)pt->be)->recv;
}

static uint16_t *shm_staged(struct ep_run *run, struct ep_point *pt)
{
	return ((struct shm_point *)pt->be)->y[run->rank];
}

static void shm_nop(struct ep_run *run, struct ep_point *pt)
{
	(void)run, (void)pt;
}

static void shm_poison(struct ep_run *run, struct ep_point *pt)
{
	struct shm_point *s = pt->be;
	memset(s->recv[run->rank], 0xFF, (size_t)pt->nrecv * pt->l.stride);
	memset(s->y[run->rank], 0xFF, (size_t)pt->nrecv * (size_t)pt->p.hidden * 2);
	MPI_CHECK(MPI_Win_sync(s->win));
}

/* What one dispatch writes: the receive regions. Each rank poisons its own
 * block in every region, the lines it writes, as its copy routine writes
 * them: the checked call then finds them where an unchecked one does (with
 * memcpy dirty in the writer's cache, with nt in memory). Poisoned by the
 * receiver instead (in its cache), a checked call at 128 tokens took
 * longer and moved dispatch's p50 by 5-11% (docs/performance.md). No rank
 * reads the regions between timed calls, and the barrier after the poison
 * orders it before the call. */
static void shm_poison_dispatch(struct ep_run *run, struct ep_point *pt)
{
	struct shm_point *s = pt->be;
	size_t stride = pt->l.stride;
	if (!s->at)
		memset(s->recv[run->rank], 0xFF, (size_t)pt->nrecv * stride);
	for (int d = 0; s->at && d < run->size; d++)
		ep_poison(s->recv[d] + (size_t)s->at[d] * stride,
			  (size_t)pt->send_counts[d] * stride, pt->copy);
	MPI_CHECK(MPI_Win_sync(s->win));
}

/* After the check's hash read them, the received lines are shared between
 * the receiver's cache and the writer's, and a memcpy dispatch had to take
 * them back one store at a time: 4-10x an unchecked dispatch (EP 2, 1-8
 * tokens; docs/performance.md). Each writer writes one byte of each line of
 * its blocks back (the same value), owning them again as an unchecked call
 * leaves them. Not for nt: its stores write past the caches. */
static void shm_reown_dispatch(struct ep_run *run, struct ep_point *pt)
{
	struct shm_point *s = pt->be;
	size_t stride = pt->l.stride;
	if (pt->copy != EP_COPY_MEMCPY || !s->at)
		return;
	for (int d = 0; d < run->size; d++) {
		volatile unsigned char *v = s->recv[d] + (size_t)s->at[d] * stride;
		size_t n = (size_t)pt->send_counts[d] * stride;
		for (size_t i = 0; i < n; i += 64)
			v[i] = v[i];
	}
	MPI_CHECK(MPI_Win_sync(s->win));
}

static void shm_point_release(struct ep_run *run, struct ep_point *pt)
{
	(void)run;
	struct shm_point *s = pt->be;
	if (!s)
		return;
	MPI_CHECK(MPI_Win_unlock_all(s->win));
	MPI_CHECK(MPI_Win_free(&s->win));
	free(s->recv);
	free(s->y);
	free(s->counts);
	free(s->offset);
	free(s->bases);
	free(s->at);
	free(s);
	pt->be = NULL;
}

static void shm_teardown(struct ep_run *run)
{
	(void)run;
}

const struct ep_backend ep_backend_shm = {
    .name = "shm",
    .setup = shm_setup,
    .point_init = shm_point_init,
    .dispatch = shm_dispatch,
    .combine = shm_combine,
    .received = shm_received,
    .staged = shm_staged,
    .commit = shm_nop,
    .output = shm_nop,
    .point_release = shm_point_release,
    .teardown = shm_teardown,
    .poison = shm_poison,
    .poison_dispatch = shm_poison_dispatch,
    .reown_dispatch = shm_reown_dispatch,
    .poison_combine = shm_nop, /* combine writes only pt->out, which the caller poisons */
    .recv_regions = shm_recv_regions,
    .host_copy = true,
    .host_data = true,
};
