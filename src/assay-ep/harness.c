/* The timing contract and the oracle passes of assay-ep (docs/ep.md): the
 * untimed run and full oracle before and after timing, trials that rotate
 * points and components, per-call monotonic timing reduced across ranks with
 * MAX and MIN, and chained dispatch->combine pairs reduced with the median. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "assay/json.h"
#include "assay/util.h"
#include "bench.h"

/* Stage the combine input from the received records (outside timing). */
static void stage_y(struct ep_run *run, struct ep_point *pt, const unsigned char *recs)
{
	uint16_t *y = run->be->staged(run, pt);
	float *x = xmalloc((size_t)pt->p.hidden * sizeof(*x));
	int32_t *experts = xmalloc((size_t)pt->p.topk * sizeof(*experts));
	float *weights = xmalloc((size_t)pt->p.topk * sizeof(*weights));
	for (int64_t i = 0; i < pt->nrecv; i++) {
		const unsigned char *rec = recs + (size_t)i * pt->l.stride;
		memcpy(experts, rec + pt->l.experts, (size_t)pt->p.topk * 4);
		memcpy(weights, rec + pt->l.weights, (size_t)pt->p.topk * 4);
		assay_ep_record_values(&pt->p, &pt->l, rec, x);
		assay_ep_transform_row(x, pt->p.hidden,
				       assay_ep_expert_coeffs(&pt->p, experts, weights, run->rank),
				       y + i * pt->p.hidden);
	}
	free(experts);
	free(weights);
	free(x);
	run->be->commit(run, pt);
}

/* The rank a dispatch fault corrupts: the highest rank that received a row
 * (some rank always does), so an injection is never a no-op. */
static int inject_rank(const struct ep_point *pt)
{
	int r = (int)pt->p.ep - 1;
	while (r > 0 && pt->rs.recv_copies[r] < 1)
		r--;
	return r;
}

/* Corrupt one value of the last received row on inject_rank() after the
 * backend ran. */
static int64_t inject_dispatch(struct ep_run *run, struct ep_point *pt, unsigned char *recs)
{
	int64_t n = pt->nrecv;
	if (run->rank != inject_rank(pt) || n < 1)
		return n;
	unsigned char *rec = recs + (size_t)(n - 1) * pt->l.stride;
	switch (run->inject) {
	case EP_INJECT_DISPATCH_DROP: return n - 1;
	case EP_INJECT_PAYLOAD_BITFLIP:
		rec[pt->l.payload + (size_t)(pt->p.hidden - 1) * (pt->p.precision ? 1 : 2)] ^= 0x01;
		break;
	case EP_INJECT_ID_ERASE: memset(rec + pt->l.payload, 0, pt->p.precision ? 1 : 2); break;
	case EP_INJECT_WEIGHT_BITFLIP: rec[pt->l.weights] ^= 0x01; break;
	case EP_INJECT_WRONG_EXPERT: {
		/* Replace a local expert id with another local expert (a received
		 * row has one; parse_args made sure a rank owns two or more). */
		int64_t per = pt->p.experts / pt->p.ep;
		for (int64_t k = 0; k < pt->p.topk; k++) {
			int32_t e;
			memcpy(&e, rec + pt->l.experts + (size_t)k * 4, 4);
			if (assay_ep_expert_rank(&pt->p, e) != run->rank)
				continue;
			int32_t w = (int32_t)(run->rank * per + ((e - run->rank * per) + 1) % per);
			memcpy(rec + pt->l.experts + (size_t)k * 4, &w, 4);
			break;
		}
		break;
	}
	default: break;
	}
	return n;
}

/* Flip the sign of the output element with the largest magnitude over all
 * ranks; when even that cannot fail the gate (|v| too small), stop the run
 * with exit 2 rather than report a fault that was never injected. */
static void inject_combine(struct ep_run *run, struct ep_point *pt)
{
	if (run->inject != EP_INJECT_COMBINE_BITFLIP)
		return;
	int64_t n = pt->p.tokens * pt->p.hidden, best = 0;
	for (int64_t i = 1; i < n; i++)
		if (fabsf(pt->out[i]) > fabsf(pt->out[best]))
			best = i;
	struct {
		double v;
		int rank;
	} mine = {fabsf(pt->out[best]), run->rank}, top;
	if (!(mine.v == mine.v))
		mine.v = 0;
	MPI_CHECK(MPI_Allreduce(&mine, &top, 1, MPI_DOUBLE_INT, MPI_MAXLOC, run->comm));
	/* Flipping v errs by 2|v| / max(|v|, floor): it fails when that reaches the gate. */
	if (2 * top.v / fmax(top.v, ASSAY_EP_FLOOR) < ASSAY_EP_GATE) {
		run->stop = true;
		snprintf(
		    run->inject_error, sizeof(run->inject_error),
		    "--inject combine-bitflip: at tokens %lld no output element is large enough "
		    "(largest |v| %.3g) for a flipped sign to fail the gate",
		    (long long)pt->p.tokens, top.v);
		return;
	}
	if (run->rank == top.rank) {
		uint32_t u;
		memcpy(&u, &pt->out[best], 4);
		u ^= 0x80000000u;
		memcpy(&pt->out[best], &u, 4);
	}
}

static int64_t routing_mismatch(struct ep_run *run, struct ep_point *pt)
{
	size_t n = (size_t)(pt->r.ntok * pt->r.topk);
	unsigned char *buf = xmalloc(n * 8);
	memcpy(buf, pt->r.experts, n * 4);
	memcpy(buf + n * 4, pt->r.weights, n * 4);
	/* The last rank (parse_args made sure it is not rank 0). */
	if (run->inject == EP_INJECT_ROUTING_SKEW && run->rank == run->size - 1)
		buf[0] ^= 1;
	char mine[65], root[65];
	assay_sha256_hex(buf, n * 8, mine);
	free(buf);
	memcpy(root, mine, sizeof(root));
	MPI_CHECK(MPI_Bcast(root, 65, MPI_CHAR, 0, run->comm));
	return strcmp(root, mine) != 0;
}

void ep_oracle(struct ep_run *run, struct ep_point *pt, int pass)
{
	struct assay_ep_verdict v;
	memset(&v, 0, sizeof(v));
	v.failures[ASSAY_EP_CHECK_ROUTING] = routing_mismatch(run, pt);

	/* Poison every buffer the pass reads, on every rank, then meet: peers
	 * write into each other's receive regions, so no rank may dispatch
	 * before every peer finished poisoning. What the checks then read was
	 * written by this pass's dispatch and combine, not by an earlier one. */
	run->be->poison(run, pt);
	memset(pt->out, 0xFF, (size_t)(pt->p.tokens * pt->p.hidden) * sizeof(*pt->out));
	MPI_CHECK(MPI_Barrier(run->comm));

	run->be->dispatch(run, pt);
	unsigned char *recs = run->be->received(run, pt);
	int64_t n = pass == 0 ? inject_dispatch(run, pt, recs) : pt->nrecv;
	assay_ep_check_dispatch(&pt->p, &pt->l, &pt->r, run->rank, recs, n, &v);
	stage_y(run, pt, recs);
	run->be->combine(run, pt);
	run->be->output(run, pt);
	if (pass == 0)
		inject_combine(run, pt);
	assay_ep_check_combine(&pt->p, &pt->r, run->rank, pt->out, &v);

	/* Reduce: failures summed, the error maxed (NaN travels as a flag). */
	struct assay_ep_verdict *out = &pt->verdict[pass];
	ep_verdict_reduce(run, &v, out);
	pt->checked[pass] = true;
	for (int c = 0; c < ASSAY_EP_CHECK_COUNT; c++)
		if (out->failures[c])
			pt->valid = false;
	/* What this pass accepted is what each checked timed call must write. */
	if (pass == 0 && pt->valid)
		ep_verify_capture(run, pt, recs);
}

static void roundtrip(struct ep_run *run, struct ep_point *pt)
{
	run->be->dispatch(run, pt);
	run->be->combine(run, pt);
}

/* The routine is for dispatch, so it is chosen on dispatch: ranked on the
 * bare copy pattern (ceiling.c) instead, nt came first at 1-128 tokens (shm,
 * EP 2) in most runs while memcpy's dispatch p50 was 0.45-0.75x nt's, and
 * paired runs of one case used different routines (docs/performance.md). */
void ep_choose_routine(struct ep_run *run, struct ep_point *pt, int reps)
{
	if (!run->be->host_copy || pt->copy_forced)
		return;
	double *t = xmalloc((size_t)reps * 2 * sizeof(*t));
	double *worst = xmalloc((size_t)reps * 2 * sizeof(*t));
	/* Blocks of one routine (ABBA), each after two untimed calls: one
	 * routine's calls leave the lines where the next call of the same kind
	 * finds them (memcpy: in the writer's cache; nt: in memory), as in the
	 * timed trials, where alternating calls measured both cold. */
	int half = (reps + 1) / 2;
	for (int b = 0; b < 4; b++) {
		int k = (b == 1 || b == 2) ? 1 : 0, first = b < 2 ? 0 : half;
		int n = b < 2 ? half : reps - half;
		pt->copy = (enum ep_copy_kind)k;
		for (int i = -2; i < n; i++) {
			double t0 = assay_monotonic();
			run->be->dispatch(run, pt);
			if (i >= 0)
				t[k * reps + first + i] = (assay_monotonic() - t0) * 1e6;
		}
	}
	/* Ended as a roundtrip: the oracle's pass then starts as every trial
	 * does (and a dispatch that idles after a dispatch, the mutant
	 * idle-after-dispatch, still meets the untimed pass's call idle-free). */
	run->be->combine(run, pt);
	MPI_CHECK(MPI_Allreduce(t, worst, reps * 2, MPI_DOUBLE, MPI_MAX, run->comm));
	for (int k = 0; k < 2; k++) {
		double *v = worst + k * reps;
		assay_ep_sort(v, (size_t)reps);
		pt->dispatch_us[k] = v[assay_ep_rank_index((size_t)reps, 50)];
	}
	pt->copy = pt->dispatch_us[EP_COPY_NT] < pt->dispatch_us[EP_COPY_MEMCPY] ? EP_COPY_NT
										 : EP_COPY_MEMCPY;
	free(t);
	free(worst);
}

/* Chained pairs: back-to-back dispatch->combine, each pair timed; per pair
 * the median across ranks and the MIN. A checked pair (verify.c) is timed
 * from after its poison to its end, and the next from after the check. */
static void time_pairs(struct ep_run *run, struct ep_point *pt)
{
	const struct assay_timing *tm = &run->timing;
	size_t keep = (size_t)(tm->chain_pairs - tm->chain_drop);
	size_t nchain = (size_t)tm->chain_trials * keep;
	double *mine = xmalloc((nchain ? nchain : 1) * sizeof(double));
	double *all = run->rank == 0
			  ? xmalloc((nchain ? nchain : 1) * (size_t)run->size * sizeof(double))
			  : NULL;
	double *ranks = xmalloc((size_t)run->size * sizeof(double));
	size_t k = 0;
	for (long long ct = 0; ct < tm->chain_trials; ct++) {
		double prev = assay_monotonic();
		for (long long pair = 0; pair < tm->chain_pairs; pair++) {
			bool check = ep_verify_pick(run, pt, EP_PAIR, ct, pair);
			if (check) {
				ep_verify_before(run, pt, EP_PAIR);
				prev = assay_monotonic();
			}
			roundtrip(run, pt);
			double now = assay_monotonic();
			if (pair >= tm->chain_drop)
				mine[k++] = (now - prev) * 1e6;
			if (check) {
				ep_verify_after(run, pt, EP_PAIR);
				now = assay_monotonic();
			}
			prev = now;
		}
	}
	MPI_CHECK(
	    MPI_Gather(mine, (int)nchain, MPI_DOUBLE, all, (int)nchain, MPI_DOUBLE, 0, run->comm));
	if (run->rank == 0) {
		/* Median across ranks, per pair: the lower median at an even rank
		 * count (nearest rank, index ceil(n/2) - 1), the convention of
		 * CollectiveX's harness (torch.median); MIN alongside. */
		for (int m = 0; m < 2; m++)
			pt->samples[EP_PAIR][m] = xmalloc((nchain ? nchain : 1) * sizeof(double));
		for (size_t s = 0; s < nchain; s++) {
			for (int r = 0; r < run->size; r++)
				ranks[r] = all[(size_t)r * nchain + s];
			assay_ep_sort(ranks, (size_t)run->size);
			pt->samples[EP_PAIR][0][s] =
			    ranks[assay_ep_rank_index((size_t)run->size, 50)];
			pt->samples[EP_PAIR][1][s] = ranks[0];
		}
	}
	pt->nsamples[EP_PAIR] = nchain;
	free(mine);
	free(all);
	free(ranks);
}

/* One component in one trial: the warmup roundtrips, then the timed calls
 * into dst, the ones ep_verify_pick names checked around their timing. */
static void time_calls(struct ep_run *run, struct ep_point *pt, int comp, long long trial,
		       double *dst)
{
	const struct assay_timing *tm = &run->timing;
	for (long long w = 0; w < tm->warmups_per_trial; w++)
		roundtrip(run, pt);
	for (long long it = 0; it < tm->iters_per_trial; it++) {
		if (comp == EP_COMBINE)
			run->be->dispatch(run, pt);
		bool check = ep_verify_pick(run, pt, comp, trial, it);
		if (check)
			ep_verify_before(run, pt, comp);
		double t0 = assay_monotonic();
		if (comp == EP_DISPATCH)
			run->be->dispatch(run, pt);
		else if (comp == EP_COMBINE)
			run->be->combine(run, pt);
		else
			roundtrip(run, pt);
		dst[it] = (assay_monotonic() - t0) * 1e6;
		if (check)
			ep_verify_after(run, pt, comp);
	}
}

void ep_time_point(struct ep_run *run, struct ep_point *pt, struct ep_pattern *pa)
{
	const struct assay_timing *tm = &run->timing;
	size_t nsamp = (size_t)(tm->trials * tm->iters_per_trial);
	double *local[4];
	for (int c = 0; c < 4; c++)
		local[c] = xmalloc(nsamp * sizeof(double));
	/* Pattern rounds per trial: a quarter of the timed calls (2 in both
	 * profiles), enough for a p50 without lengthening the case much. */
	long long prounds = (tm->iters_per_trial + 3) / 4;
	size_t npat = 0, corder[3];
	for (long long trial = 0; trial < tm->trials; trial++) {
		assay_ep_rotation(3, trial, corder);
		for (int ci = 0; ci < 3; ci++) {
			int comp = (int)corder[ci];
			time_calls(run, pt, comp, trial, local[comp] + trial * tm->iters_per_trial);
			/* The ceiling under the same conditions: the bare copy
			 * pattern, every trial, right after the dispatch calls,
			 * while the caches hold what dispatch left in them. */
			for (long long it = 0; pa && comp == EP_DISPATCH && it < prounds; it++)
				local[3][npat++] = ep_pattern_round(pa, pt->pattern_copy);
			/* The pattern ends with no barrier and may copy into shm's
			 * receive regions: no rank poisons its own for a checked
			 * call (verify.c) while a peer still copies. */
			if (pa && comp == EP_DISPATCH && prounds && pt->verify)
				MPI_CHECK(MPI_Barrier(run->comm));
		}
	}

	/* Reduce each sample across ranks: MAX is the latency, MIN cross_rank_min. */
	for (int c = 0; c < 3; c++) {
		for (int m = 0; m < 2; m++) {
			pt->samples[c][m] = run->rank == 0 ? xmalloc(nsamp * sizeof(double)) : NULL;
			MPI_CHECK(MPI_Reduce(local[c], pt->samples[c][m], (int)nsamp, MPI_DOUBLE,
					     m == 0 ? MPI_MAX : MPI_MIN, 0, run->comm));
		}
		pt->nsamples[c] = nsamp;
		free(local[c]);
	}
	if (pa) {
		pt->pattern = run->rank == 0 ? xmalloc(nsamp * sizeof(double)) : NULL;
		MPI_CHECK(MPI_Reduce(local[3], pt->pattern, (int)npat, MPI_DOUBLE, MPI_MAX, 0,
				     run->comm));
		pt->npattern = npat;
	}
	free(local[3]);

	time_pairs(run, pt);
}
