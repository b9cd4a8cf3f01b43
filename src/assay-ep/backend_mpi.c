/* Backend "mpi": the collective-library baseline. Dispatch packs each
 * token's record once per destination, exchanges counts with MPI_Alltoall and
 * records with MPI_Alltoallv; combine sends the staged rows back with the
 * reverse MPI_Alltoallv and reduces them on the source rank. */
#include <stdlib.h>
#include <string.h>

#include "assay/util.h"
#include "bench.h"

struct mpi_point {
	MPI_Datatype rec, row;
	unsigned char *pack, *recv;
	uint16_t *y, *back;
	int *sdispl, *rdispl;
	const uint16_t **bases;
	int64_t sent;
};

static assay_err mpi_setup(struct ep_run *run, char *reason, size_t size)
{
	(void)run, (void)reason, (void)size;
	return ASSAY_OK;
}

static void mpi_point_init(struct ep_run *run, struct ep_point *pt)
{
	struct mpi_point *m = xcalloc(1, sizeof(*m));
	int64_t sent = 0;
	for (int d = 0; d < run->size; d++)
		sent += pt->send_counts[d];
	m->sent = sent;
	MPI_CHECK(MPI_Type_contiguous((int)pt->l.stride, MPI_BYTE, &m->rec));
	MPI_CHECK(MPI_Type_commit(&m->rec));
	MPI_CHECK(MPI_Type_contiguous((int)(pt->p.hidden * 2), MPI_BYTE, &m->row));
	MPI_CHECK(MPI_Type_commit(&m->row));
	/* On line boundaries, as shm's window segments are. */
	m->pack = ep_alloc_lines((size_t)(sent ? sent : 1) * pt->l.stride);
	m->recv = ep_alloc_lines((size_t)(pt->nrecv ? pt->nrecv : 1) * pt->l.stride);
	m->y = ep_alloc_lines((size_t)(pt->nrecv ? pt->nrecv : 1) * (size_t)pt->p.hidden * 2);
	m->back = ep_alloc_lines((size_t)(sent ? sent : 1) * (size_t)pt->p.hidden * 2);
	m->sdispl = xcalloc((size_t)run->size, sizeof(int));
	m->rdispl = xcalloc((size_t)run->size, sizeof(int));
	m->bases = xcalloc((size_t)run->size, sizeof(*m->bases));
	/* Touch the buffers once so first-touch faults stay out of timing. */
	memset(m->pack, 0, (size_t)(sent ? sent : 1) * pt->l.stride);
	memset(m->recv, 0, (size_t)(pt->nrecv ? pt->nrecv : 1) * pt->l.stride);
	memset(m->back, 0, (size_t)(sent ? sent : 1) * (size_t)pt->p.hidden * 2);
	pt->be = m;
}

static void mpi_dispatch(struct ep_run *run, struct ep_point *pt)
{
	struct mpi_point *m = pt->be;
	MPI_CHECK(
	    MPI_Alltoall(pt->send_counts, 1, MPI_INT, pt->recv_counts, 1, MPI_INT, run->comm));
	for (int d = 1; d < run->size; d++) {
		m->sdispl[d] = m->sdispl[d - 1] + pt->send_counts[d - 1];
		m->rdispl[d] = m->rdispl[d - 1] + pt->recv_counts[d - 1];
	}
	ep_pack(pt, m->sdispl, m->pack);
	MPI_CHECK(MPI_Alltoallv(m->pack, pt->send_counts, m->sdispl, m->rec, m->recv,
				pt->recv_counts, m->rdispl, m->rec, run->comm));
}

static void mpi_combine(struct ep_run *run, struct ep_point *pt)
{
	struct mpi_point *m = pt->be;
	MPI_CHECK(MPI_Alltoallv(m->y, pt->recv_counts, m->rdispl, m->row, m->back, pt->send_counts,
				m->sdispl, m->row, run->comm));
	for (int d = 0; d < run->size; d++)
		m->bases[d] = m->back + (size_t)m->sdispl[d] * (size_t)pt->p.hidden;
	ep_reduce(pt, m->bases);
}

static unsigned char *mpi_received(struct ep_run *run, struct ep_point *pt)
{
	(void)run;
	return ((struct mpi_point *)pt->be)->recv;
}

static uint16_t *mpi_staged(struct ep_run *run, struct ep_point *pt)
{
	(void)run;
	return ((struct mpi_point *)pt->be)->y;
}

static void mpi_nop(struct ep_run *run, struct ep_point *pt)
{
	(void)run, (void)pt;
}

static void mpi_poison(struct ep_run *run, struct ep_point *pt)
{
	(void)run;
	struct mpi_point *m = pt->be;
	size_t ns = (size_t)(m->sent ? m->sent : 1), nr = (size_t)(pt->nrecv ? pt->nrecv : 1);
	memset(m->pack, 0xFF, ns * pt->l.stride);
	memset(m->recv, 0xFF, nr * pt->l.stride);
	memset(m->y, 0xFF, nr * (size_t)pt->p.hidden * 2);
	memset(m->back, 0xFF, ns * (size_t)pt->p.hidden * 2);
}

/* What one dispatch writes (the packed and the received records) and what
 * one combine writes (the rows coming back; the caller poisons pt->out). */
static void mpi_poison_dispatch(struct ep_run *run, struct ep_point *pt)
{
	(void)run;
	struct mpi_point *m = pt->be;
	size_t ns = (size_t)(m->sent ? m->sent : 1), nr = (size_t)(pt->nrecv ? pt->nrecv : 1);
	memset(m->pack, 0xFF, ns * pt->l.stride);
	memset(m->recv, 0xFF, nr * pt->l.stride);
}

static void mpi_poison_combine(struct ep_run *run, struct ep_point *pt)
{
	(void)run;
	struct mpi_point *m = pt->be;
	memset(m->back, 0xFF, (size_t)(m->sent ? m->sent : 1) * (size_t)pt->p.hidden * 2);
}

static void mpi_point_release(struct ep_run *run, struct ep_point *pt)
{
	(void)run;
	struct mpi_point *m = pt->be;
	if (!m)
		return;
	MPI_CHECK(MPI_Type_free(&m->rec));
	MPI_CHECK(MPI_Type_free(&m->row));
	free(m->pack);
	free(m->recv);
	free(m->y);
	free(m->back);
	free(m->sdispl);
	free(m->rdispl);
	free(m->bases);
	free(m);
	pt->be = NULL;
}

static void mpi_teardown(struct ep_run *run)
{
	(void)run;
}

const struct ep_backend ep_backend_mpi = {
    .name = "mpi",
    .setup = mpi_setup,
    .point_init = mpi_point_init,
    .dispatch = mpi_dispatch,
    .combine = mpi_combine,
    .received = mpi_received,
    .staged = mpi_staged,
    .commit = mpi_nop,
    .output = mpi_nop,
    .point_release = mpi_point_release,
    .teardown = mpi_teardown,
    .poison = mpi_poison,
    .poison_dispatch = mpi_poison_dispatch,
    .poison_combine = mpi_poison_combine,
    .host_data = true,
};
