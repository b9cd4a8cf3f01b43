/* The copy ceiling of one ladder point: the point's own dispatch copy
 * pattern (the same records, destinations, offsets and self-copies) moved
 * with memcpy and with non-temporal stores, with no protocol (no count
 * exchange, no barrier inside the timed region), into the backend's own
 * receive regions where it has them in shared memory (shm: the same bytes
 * to the same addresses as its dispatch, so the two differ only by the
 * protocol), else into an MPI-3 shared window of its own. It picks the copy
 * routine and bounds what any host dispatch can reach. */
#include <stdlib.h>
#include <string.h>

#include "assay/util.h"
#include "bench.h"

static size_t page_round(size_t n)
{
	return (n + 4095) & ~(size_t)4095;
}

struct ep_pattern {
	MPI_Comm comm;
	MPI_Win win;
	const struct ep_point *pt;
	unsigned char **recv; /* [ep] each rank's receive region */
	int64_t *offset;      /* [ep] where this rank's block starts at d */
};

struct ep_pattern *ep_pattern_open(MPI_Comm comm, int rank, int size, const struct ep_point *pt,
				   unsigned char *const *regions)
{
	MPI_Comm node;
	int n = 0, one, all = 0;
	MPI_CHECK(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
	MPI_CHECK(MPI_Comm_size(node, &n));
	MPI_CHECK(MPI_Comm_free(&node));
	one = n == size;
	MPI_CHECK(MPI_Allreduce(&one, &all, 1, MPI_INT, MPI_LAND, comm));
	if (!all)
		return NULL;
	struct ep_pattern *pa = xcalloc(1, sizeof(*pa));
	pa->comm = comm, pa->pt = pt;
	/* Offsets as dispatch computes them: rank s's block at d follows the
	 * blocks of ranks below s. */
	int *counts = xmalloc((size_t)size * (size_t)size * sizeof(int));
	MPI_CHECK(MPI_Allgather(pt->send_counts, size, MPI_INT, counts, size, MPI_INT, comm));
	pa->offset = xcalloc((size_t)size, sizeof(*pa->offset));
	for (int d = 0; d < size; d++)
		for (int s = 0; s < rank; s++)
			pa->offset[d] += counts[s * size + d];
	free(counts);
	pa->win = MPI_WIN_NULL;
	pa->recv = xcalloc((size_t)size, sizeof(*pa->recv));
	if (regions) {
		memcpy(pa->recv, regions, (size_t)size * sizeof(*pa->recv));
		return pa;
	}
	size_t bytes = page_round((size_t)pt->nrecv * pt->l.stride);
	unsigned char *base = ep_shm_window(comm, bytes, &pa->win, pa->recv);
	memset(base, 0, bytes); /* first touch outside the timed copies */
	MPI_CHECK(MPI_Win_lock_all(MPI_MODE_NOCHECK, pa->win));
	return pa;
}

double ep_pattern_round(struct ep_pattern *pa, enum ep_copy_kind kind)
{
	const struct ep_point *pt = pa->pt;
	size_t stride = pt->l.stride;
	int64_t K = pt->p.topk;
	MPI_CHECK(MPI_Barrier(pa->comm));
	double t0 = assay_monotonic();
	for (int64_t i = 0; i < pt->p.tokens; i++) {
		const unsigned char *rec = pt->send + (size_t)i * stride;
		for (int j = 0; j < pt->ndests[i]; j++) {
			int d = pt->dests[i * K + j];
			ep_copy(pa->recv[d] +
				    (size_t)(pa->offset[d] + pt->slot[i * K + j]) * stride,
				rec, stride, kind);
		}
	}
	ep_copy_fence();
	return (assay_monotonic() - t0) * 1e6;
}

void ep_pattern_close(struct ep_pattern *pa)
{
	if (!pa)
		return;
	if (pa->win != MPI_WIN_NULL) {
		MPI_CHECK(MPI_Win_unlock_all(pa->win));
		MPI_CHECK(MPI_Win_free(&pa->win));
	}
	free(pa->recv);
	free(pa->offset);
	free(pa);
}

void ep_pattern_choose(struct ep_pattern *pa, struct ep_point *pt, int reps)
{
	/* Two untimed rounds each, then reps rounds with the routines
	 * alternating (and which goes first alternating), so neither always
	 * runs on a warmer cache. Each round: MAX across ranks. */
	for (int w = 0; w < 2; w++)
		for (int k = 0; k < 2; k++)
			ep_pattern_round(pa, (enum ep_copy_kind)k);
	double *t = xmalloc((size_t)reps * 2 * sizeof(*t));
	double *worst = xmalloc((size_t)reps * 2 * sizeof(*t));
	for (int r = 0; r < reps; r++)
		for (int j = 0; j < 2; j++) {
			int k = (r & 1) ? 1 - j : j;
			t[k * reps + r] = ep_pattern_round(pa, (enum ep_copy_kind)k);
		}
	MPI_CHECK(MPI_Allreduce(t, worst, reps * 2, MPI_DOUBLE, MPI_MAX, pa->comm));
	for (int k = 0; k < 2; k++) {
		double *v = worst + k * reps;
		assay_ep_sort(v, (size_t)reps);
		pt->copy_us[k] = v[assay_ep_rank_index((size_t)reps, 50)];
	}
	pt->pattern_copy =
	    pt->copy_us[EP_COPY_NT] < pt->copy_us[EP_COPY_MEMCPY] ? EP_COPY_NT : EP_COPY_MEMCPY;
	free(t);
	free(worst);
}
