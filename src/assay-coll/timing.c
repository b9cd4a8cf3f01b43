/* nccl-tests' TimeTest and BenchTime: the warm-ups, the timed calls of one
 * size and placement (nothing else inside the timed loop), the check, and
 * the bandwidths the table prints. */
#include <stdlib.h>

#include "assay/collective.h"
#include "assay/util.h"
#include "coll.h"

static void set_call(struct coll_table *t, struct coll_call *c, const struct coll_shape *sh,
		     bool in_place)
{
	size_t elt = coll_type_size(c->type);
	c->count = sh->count;
	c->in_place = in_place;
	c->send_stride = in_place ? sh->send_inplace * elt : 0;
	c->recv_stride = in_place ? sh->recv_inplace * elt : 0;
	c->send = in_place ? t->run.recvbuf + c->send_stride * (size_t)t->run.rank : t->run.sendbuf;
	c->recv = t->run.recvbuf + c->recv_stride * (size_t)t->run.rank;
}

static void inject(struct coll_table *t, const struct coll_call *c)
{
	size_t m = coll_out_count(c, t->run.size);
	if (!t->o->inject || t->run.rank != t->run.size - 1 || m == 0)
		return;
	((unsigned char *)c->recv)[(m - 1) * coll_type_size(c->type)] ^= 0x01;
}

/* The timed calls, after one untimed: each rank's time of each call into
 * mine, their MAX across ranks into maxs (rank 0). Returns the time column:
 * the per-rank mean, combined as -a says. */
static double time_calls(struct coll_table *t, const struct coll_call *c, double *mine,
			 double *maxs)
{
	struct coll_run *run = &t->run;
	struct coll_opts *o = t->o;
	const struct coll_backend *be = run->be;
	size_t n = (size_t)o->iters;
	if (o->check)
		coll_fill(c, run->rank, run->size, 99);
	be->call(run, c);
	MPI_CHECK(MPI_Barrier(run->comm));
	double sum = 0;
	for (size_t it = 0; it < n; it++) {
		double t0 = assay_monotonic();
		be->call(run, c);
		mine[it] = (assay_monotonic() - t0) * 1e6;
		sum += mine[it];
		if (o->blocking)
			MPI_CHECK(MPI_Barrier(run->comm));
	}
	/* The time column: the per-rank mean, combined as -a says; the samples:
	 * MAX across ranks per iteration (the EP timing contract). */
	double usec = sum / (double)n, comb = usec;
	if (o->average == 0)
		MPI_CHECK(MPI_Bcast(&comb, 1, MPI_DOUBLE, 0, run->comm));
	else
		MPI_CHECK(MPI_Allreduce(&usec, &comb, 1, MPI_DOUBLE,
					o->average == 1   ? MPI_SUM
					: o->average == 2 ? MPI_MIN
							  : MPI_MAX,
					run->comm));
	if (o->average == 1)
		comb /= run->size;
	MPI_CHECK(MPI_Reduce(mine, maxs, (int)n, MPI_DOUBLE, MPI_MAX, 0, run->comm));
	return comb;
}

/* algbw counts the bytes nccl-tests' <Op>GetBw does: count * elt, times
 * the rank count for all_gather, reduce_scatter and alltoall. */
static void bandwidths(const struct coll_run *run, const struct coll_call *c, struct coll_point *pt)
{
	size_t elt = coll_type_size(c->type);
	double factor = 1;
	assay_coll_busbw_factor(coll_op_names[c->op], run->size, &factor);
	bool blocks =
	    c->op == COLL_ALL_GATHER || c->op == COLL_REDUCE_SCATTER || c->op == COLL_ALLTOALL;
	double bytes = (double)(c->count * elt) * (blocks ? run->size : 1);
	pt->algbw = bytes / 1e9 / (pt->time / 1e6);
	pt->busbw = pt->algbw * factor;
}

/* The checked calls: the elements wrong across ranks, 0 when not checked. */
static int64_t check_calls(struct coll_table *t, const struct coll_call *c, bool report)
{
	struct coll_run *run = &t->run;
	const struct coll_backend *be = run->be;
	int64_t wrong = 0;
	t->rep++;
	for (long long k = 0; k < t->o->check && report; k++) {
		coll_poison(c, run->rank, run->size);
		coll_fill(c, run->rank, run->size, (uint64_t)t->rep);
		be->call(run, c);
		inject(t, c);
		long long w = coll_wrong(c, run->rank, run->size, (uint64_t)t->rep), all = 0;
		MPI_CHECK(MPI_Allreduce(&w, &all, 1, MPI_LONG_LONG, MPI_SUM, run->comm));
		wrong = all;
		if (wrong)
			break;
	}
	return wrong;
}

/* nccl-tests' BenchTime for one size and placement: timing, then the
 * checked calls; prints the placement's columns (rank 0). */
static void bench_time(struct coll_table *t, struct coll_call *c, json_t *row)
{
	struct coll_run *run = &t->run;
	size_t n = (size_t)t->o->iters;
	double *mine = xmalloc(n * sizeof(double));
	double *maxs = run->rank == 0 ? xmalloc(n * sizeof(double)) : NULL;
	struct coll_point pt = {.samples = maxs, .n = n};
	pt.time = time_calls(t, c, mine, maxs);
	bandwidths(run, c, &pt);
	/* The check: alltoall and sendrecv in place are not checked (nccl-tests). */
	pt.report =
	    t->o->check && !(c->in_place && (c->op == COLL_ALLTOALL || c->op == COLL_SENDRECV));
	pt.wrong = check_calls(t, c, pt.report);
	if (pt.report && pt.wrong)
		t->errors++;
	t->bw_sum += pt.busbw;
	t->bw_count++;
	if (run->rank == 0)
		coll_row_point(c, &pt, row);
	free(mine);
	free(maxs);
}

static size_t next_size(const struct coll_opts *o, size_t s)
{
	return o->stepf > 1 ? s * o->stepf : s + o->stepb;
}

/* The warm-ups: every size from minbytes, doubling, up to maxbytes. */
static void warm_up(struct coll_table *t, struct coll_call *c)
{
	struct coll_run *run = &t->run;
	size_t elt = coll_type_size(c->type);
	struct coll_shape sh;
	for (size_t s = t->o->minb; s <= t->o->maxb; s = s * 2) {
		coll_shape_of(c->op, s, elt, run->size, &sh);
		set_call(t, c, &sh, false);
		for (long long w = 0; w < t->o->warmup; w++)
			run->be->call(run, c);
		if (s == 0)
			break;
	}
}

void coll_time_test(struct coll_table *t, int type, enum coll_redop redop, int root)
{
	struct coll_opts *o = t->o;
	struct coll_run *run = &t->run;
	size_t elt = coll_type_size(type);
	struct coll_call c = {
	    .op = (enum coll_op)o->op, .type = type, .redop = redop, .root = root};
	struct coll_shape sh;
	warm_up(t, &c);
	for (size_t s = o->minb; s <= o->maxb; s = next_size(o, s)) {
		coll_shape_of(c.op, s, elt, run->size, &sh);
		size_t bytes =
		    (sh.send_count > sh.recv_count ? sh.send_count : sh.recv_count) * elt;
		const char *redop_name = coll_op_has_redop(c.op) ? coll_redop_names[redop] : "none";
		json_t *row = NULL;
		if (run->rank == 0)
			row = coll_row_start(t, bytes, sh.count, type, redop_name,
					     coll_op_has_root(c.op) ? root : -1);
		for (int ip = 0; ip < 2; ip++) {
			set_call(t, &c, &sh, ip == 1);
			bench_time(t, &c, row);
		}
		if (run->rank == 0)
			coll_row_end(t, row);
		if (next_size(o, s) <= s)
			break;
	}
}
