/* nccl-tests' TimeTest and BenchTime: the warm-ups, the timed calls of one
 * size and placement (nothing else inside the timed loop), the check, and
 * the bandwidths the table prints. */
#include <stdlib.h>
#include <unistd.h>

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
	c->shift = (size_t)t->o->unalign * elt;
	c->send = c->shift + (in_place ? t->run.recvbuf + c->send_stride * (size_t)t->run.rank
				       : t->run.sendbuf);
	c->recv = c->shift + t->run.recvbuf + c->recv_stride * (size_t)t->run.rank;
	size_t rank = (size_t)t->run.rank, in = sh->send_count * elt, out = sh->recv_count * elt;
	size_t in_end = in_place ? c->send_stride * rank + in : 0;
	out += c->recv_stride * rank;
	c->send_span = in_place ? 0 : c->shift + in;
	c->recv_span = c->shift + (in_end > out ? in_end : out);
}

/* A GPU backend's copies of the mirrors (coll.h); nothing on the CPU ones. */
static void to_device(struct coll_table *t, const struct coll_call *c)
{
	if (t->run.be->to_device)
		t->run.be->to_device(&t->run, c);
}

static void to_host(struct coll_table *t, const struct coll_call *c)
{
	if (t->run.be->to_host)
		t->run.be->to_host(&t->run, c);
}

/* One call, watched by -T's watchdog. */
static void run_call(struct coll_table *t, const struct coll_call *c)
{
	coll_watch_enter();
	t->run.be->call(&t->run, c);
	coll_watch_leave();
}

static void inject(struct coll_table *t, const struct coll_call *c)
{
	size_t m = coll_out_count(c, t->run.size);
	if (!t->o->inject || t->run.rank != t->run.size - 1 || m == 0)
		return;
	((unsigned char *)c->recv)[(m - 1) * coll_type_size(c->type)] ^= 0x01;
}

/* The timed loop (nccl-tests' BenchTime): -m calls per iteration, each
 * iteration's time per call into mine; -z 1 a barrier inside the
 * iteration's time, -z 3 one after it, outside. Returns the loop's time
 * per call as -C reports it (for -z 3 without the barriers). */
static double timed_loop(struct coll_table *t, const struct coll_call *c, double *mine)
{
	struct coll_run *run = &t->run;
	const struct coll_opts *o = t->o;
	size_t n = (size_t)o->iters;
	double agg = (double)o->agg, only = 0, start = assay_monotonic();
	for (size_t it = 0; it < n; it++) {
		double t0 = assay_monotonic();
		if (o->inject_hang && run->rank == run->size - 1) {
			coll_watch_enter();
			for (;;)
				pause();
		}
		for (long long a = 0; a < o->agg; a++)
			run_call(t, c);
		if (o->blocking == 1)
			MPI_CHECK(MPI_Barrier(run->comm));
		double t1 = assay_monotonic();
		mine[it] = (t1 - t0) * 1e6 / agg;
		only += t1 - t0;
		if (o->blocking == 3)
			MPI_CHECK(MPI_Barrier(run->comm));
	}
	double loop = o->blocking == 3 ? only : assay_monotonic() - start;
	return loop * 1e6 / ((double)n * agg);
}

/* The timed calls, after one untimed: each rank's time of each call into
 * mine, their MAX across ranks into maxs (rank 0). Sets the time column:
 * the per-rank mean, combined as -a says, and -C's time (rank 0's). */
static void time_calls(struct coll_table *t, const struct coll_call *c, double *mine, double *maxs,
		       struct coll_point *pt)
{
	struct coll_run *run = &t->run;
	struct coll_opts *o = t->o;
	size_t n = (size_t)o->iters;
	if (o->check) {
		coll_fill(c, run->rank, run->size, 99);
		to_device(t, c);
	}
	run_call(t, c);
	MPI_CHECK(MPI_Barrier(run->comm));
	pt->cputime = timed_loop(t, c, mine);
	double sum = 0;
	for (size_t it = 0; it < n; it++)
		sum += mine[it];
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
	pt->time = comb;
}

/* algbw counts the bytes nccl-tests' <Op>GetBw does: count * elt, times
 * the rank count for all_gather, reduce_scatter and alltoall. */
static void bandwidths(const struct coll_run *run, const struct coll_call *c, struct coll_point *pt)
{
	size_t elt = coll_type_size(c->type);
	double factor = 1;
	assay_coll_busbw_factor(coll_op_names[c->op], run->size, &factor);
	bool blocks = c->op == COLL_ALL_GATHER || c->op == COLL_REDUCE_SCATTER ||
		      c->op == COLL_ALLTOALL || c->op == COLL_GATHER || c->op == COLL_SCATTER;
	double bytes = (double)(c->count * elt) * (blocks ? run->size : 1);
	if (c->op == COLL_HYPERCUBE) /* HyperCubeGetBw: the n - 1 blocks received */
		bytes = (double)(c->count * elt) * (run->size - 1);
	else if (c->op == COLL_ALLTOALLV) /* AlltoAllvGetBw: the larger of sent and received */
		bytes = (double)(coll_v_total(c->count, elt, run->size) * elt);
	pt->algbw = bytes / 1e9 / (pt->time / 1e6);
	pt->busbw = pt->algbw * factor;
}

/* The checked calls: the elements wrong across ranks, 0 when not checked. */
static int64_t check_calls(struct coll_table *t, const struct coll_call *c, bool report)
{
	struct coll_run *run = &t->run;
	int64_t wrong = 0;
	t->rep++;
	for (long long k = 0; k < t->o->check && report; k++) {
		coll_poison(c, run->rank, run->size);
		coll_fill(c, run->rank, run->size, (uint64_t)t->rep);
		to_device(t, c);
		run_call(t, c);
		to_host(t, c);
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
	struct coll_point pt = {
	    .samples = maxs, .n = n, .skip = (size_t)t->o->skip, .per_iter = t->o->per_iter};
	time_calls(t, c, mine, maxs, &pt);
	bandwidths(run, c, &pt);
	/* -C: rank 0's loop time in the time column; the bandwidths stay those
	 * of the time (nccl-tests' BenchTime). */
	if (t->o->cputime) {
		pt.time = pt.cputime;
		pt.is_cputime = true;
	}
	/* The check: alltoall, sendrecv and alltoallv in place are not checked
	 * (nccl-tests). */
	pt.report = t->o->check && !(c->in_place && !coll_op_checks_in_place(c->op));
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
			run_call(t, c);
		if (s == 0)
			break;
	}
}

/* One row: the size's two placements. */
static void time_size(struct coll_table *t, struct coll_call *c, size_t s)
{
	struct coll_run *run = &t->run;
	size_t elt = coll_type_size(c->type);
	struct coll_shape sh;
	coll_shape_of(c->op, s, elt, run->size, &sh);
	size_t bytes = (sh.send_count > sh.recv_count ? sh.send_count : sh.recv_count) * elt;
	const char *redop_name =
	    coll_op_has_redop(c->op) ? coll_redop_names[c->redop] : coll_op_no_redop(c->op);
	json_t *row = NULL;
	if (run->rank == 0)
		row = coll_row_start(t, bytes, sh.count, c->type, redop_name,
				     coll_op_has_root(c->op) ? c->root : -1);
	for (int ip = 0; ip < 2; ip++) {
		set_call(t, c, &sh, ip == 1);
		bench_time(t, c, row);
	}
	if (run->rank == 0)
		coll_row_end(t, row);
}

void coll_time_test(struct coll_table *t, int type, enum coll_redop redop, int root)
{
	struct coll_opts *o = t->o;
	struct coll_call c = {
	    .op = (enum coll_op)o->op, .type = type, .redop = redop, .root = root};
	MPI_CHECK(MPI_Barrier(t->run.comm));
	warm_up(t, &c);
	/* -N: the sweep N times, for ever with 0 (nccl-tests' run_cycles). */
	long long repeat = o->cycles;
	do {
		for (size_t s = o->minb; s <= o->maxb; s = next_size(o, s)) {
			time_size(t, &c, s);
			if (next_size(o, s) <= s)
				break;
		}
	} while (--repeat);
}
