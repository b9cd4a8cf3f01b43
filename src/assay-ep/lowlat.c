/* `assay-ep run --mode low-latency`: DeepEP's low-latency dispatch and
 * combine (deepseek-ai/DeepEP dd758ca, Buffer.low_latency_dispatch /
 * low_latency_combine) on the host backends. Every rank sends each token
 * once per selected expert (masked -1 slots skipped) into fixed receive
 * buffers [local experts][ranks][max tokens], the receiver packs them per
 * expert ([local experts][ranks x max tokens][hidden], counts, source info,
 * layout ranges); combine returns each expert's row to its source, which
 * sums the top-k-weighted rows in float32. shm: direct stores into the
 * peers' regions of an MPI-3 shared window; mpi: MPI_Alltoall of the
 * per-expert counts and MPI_Alltoallv of the messages and rows. The oracle
 * and the layout rules are src/lib/ep/lowlat.c and oracle_ll.c. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "assay/ep_ll.h"
#include "assay/json.h"
#include "assay/util.h"
#include "bench.h"
#include "lowlat.h"

static size_t page_round(size_t n)
{
	return (n + 4095) & ~(size_t)4095;
}

#ifdef ASSAY_EP_MUTANT_LL
/* Test mutants (tests/e2e/ep), chosen by ASSAY_EP_MUTANT in this test
 * build only: "no-skip" wraps a -1 id to expert experts - 1 instead of
 * skipping it (dispatch and combine), "bf16-acc" rounds the combine's
 * running sum to BF16 after every row. The oracle must catch both. */
static bool mutant(const char *name)
{
	const char *m = getenv("ASSAY_EP_MUTANT");
	return m && !strcmp(m, name);
}

/* And two lazy calls that only the timed-call checks (verify_ll.c) catch:
 * "ll-idle-after-dispatch": a dispatch does nothing when the call before it
 * was a dispatch too (every timed dispatch of a trial after its first);
 * "ll-idle-combine": a combine does nothing unless an oracle pass restaged
 * the expert output since the last combine (every timed combine). Both
 * passes see correct calls. Every rank makes the same calls in the same
 * order, so the ranks idle together and skip no collective alone.
 * Whether this dispatch (or, with dispatch false, this combine) idles. */
static bool ll_restaged;
static bool ll_mutant_idle(bool dispatch)
{
	static bool after_dispatch;
	bool idle = dispatch ? after_dispatch && mutant("ll-idle-after-dispatch")
			     : !ll_restaged && mutant("ll-idle-combine");
	if (!dispatch)
		ll_restaged = false;
	after_dispatch = dispatch;
	return idle;
}
#define LL_MUTANT_IDLE(dispatch)                                                                   \
	do {                                                                                       \
		if (ll_mutant_idle(dispatch))                                                      \
			return;                                                                    \
	} while (0)
#else
#define LL_MUTANT_IDLE(dispatch) ((void)0)
#endif

/* ---- dispatch ---- */

/* Cast every token once into its message (inside dispatch, as DeepEP's
 * kernel does) and reset the per-expert counters. */
static void ll_cast(struct ep_run *run, struct ll_point *s)
{
	const struct assay_ep_ll *ll = &s->ll;
	for (int64_t t = 0; t < ll->p.tokens; t++)
		assay_ep_ll_message(ll, (int32_t)t, s->x + t * ll->p.hidden,
				    s->msgs + (size_t)t * ll->msg_bytes);
	memset(s->sent, 0, (size_t)ll->p.experts * sizeof(*s->sent));
	(void)run;
}

static void shm_ll_dispatch(struct ep_run *run, struct ep_point *pt)
{
	LL_MUTANT_IDLE(true);
	struct ll_point *s = pt->be;
	const struct assay_ep_ll *ll = &s->ll;
	int64_t K = ll->p.topk, P = ll->p.ep, nle = ll->local_experts, me = run->rank;
	ll_cast(run, s);
	/* The entry fence: no rank writes into a peer's buffers before every
	 * peer has finished reading them (its last unpack and reduce). DeepEP
	 * alternates two buffers instead; one buffer and a barrier keep the
	 * memory of a point at DeepEP's one-buffer size. */
	MPI_CHECK(MPI_Barrier(run->comm));
	for (int64_t t = 0; t < ll->p.tokens; t++)
		for (int64_t k = 0; k < K; k++) {
			int32_t e = s->ids[t * K + k];
			if (e < 0)
				continue;
			int64_t d = e / nle, le = e % nle, slot = s->sent[e]++;
			if (slot >= ll->max_tokens) /* an expert twice in a row: no room */
				continue;
			memcpy(s->raw[d] +
				   (size_t)((le * P + me) * ll->max_tokens + slot) * ll->msg_bytes,
			       s->msgs + (size_t)t * ll->msg_bytes, ll->msg_bytes);
		}
	for (int64_t e = 0; e < ll->p.experts; e++)
		s->rawcnt[e / nle][(e % nle) * P + me] =
		    s->sent[e] < ll->max_tokens ? s->sent[e] : (int32_t)ll->max_tokens;
	MPI_CHECK(MPI_Win_sync(s->win));
	MPI_CHECK(MPI_Barrier(run->comm));
	MPI_CHECK(MPI_Win_sync(s->win));
	for (int64_t i = 0; i < nle * P; i++)
		s->block[i] = s->raw[me] + (size_t)(i * ll->max_tokens) * ll->msg_bytes;
	assay_ep_ll_unpack(ll, s->block, s->rawcnt[me], &s->rv);
}

/* mpi: messages grouped by destination, then local expert, then slot. */
static void mpi_ll_pack(struct ep_run *run, struct ll_point *s)
{
	const struct assay_ep_ll *ll = &s->ll;
	int64_t K = ll->p.topk, nle = ll->local_experts, E = ll->p.experts;
	memset(s->ecnt_send, 0, (size_t)E * sizeof(int));
	for (int64_t i = 0; i < ll->p.tokens * K; i++)
		if (s->ids[i] >= 0)
			s->ecnt_send[s->ids[i]]++;
	for (int64_t e = 0, at = 0; e < E; e++)
		s->eoff[e] = at, at += s->ecnt_send[e];
	for (int d = 0; d < run->size; d++) {
		s->scount[d] = 0;
		for (int64_t le = 0; le < nle; le++)
			s->scount[d] += s->ecnt_send[d * nle + le];
		s->sdispl[d] = (int)s->eoff[d * nle];
	}
	for (int64_t t = 0; t < ll->p.tokens; t++)
		for (int64_t k = 0; k < K; k++) {
			int32_t e = s->ids[t * K + k];
			if (e < 0)
				continue;
			s->pos[t * K + k] = s->eoff[e] + s->sent[e]++;
			memcpy(s->sendbuf + (size_t)s->pos[t * K + k] * ll->msg_bytes,
			       s->msgs + (size_t)t * ll->msg_bytes, ll->msg_bytes);
		}
}

static void mpi_ll_dispatch(struct ep_run *run, struct ep_point *pt)
{
	LL_MUTANT_IDLE(true);
	struct ll_point *s = pt->be;
	const struct assay_ep_ll *ll = &s->ll;
	int64_t P = ll->p.ep, nle = ll->local_experts;
	ll_cast(run, s);
	mpi_ll_pack(run, s);
	MPI_CHECK(MPI_Alltoall(s->ecnt_send, (int)nle, MPI_INT, s->ecnt_recv, (int)nle, MPI_INT,
			       run->comm));
	for (int64_t src = 0, at = 0; src < P; src++) {
		s->rdispl[src] = (int)at;
		s->rcount[src] = 0;
		for (int64_t le = 0; le < nle; le++) {
			int32_t n = s->ecnt_recv[src * nle + le];
			s->block[le * P + src] = s->recvbuf + (size_t)at * ll->msg_bytes;
			s->bcount[le * P + src] = n;
			s->rcount[src] += n, at += n;
		}
	}
	MPI_CHECK(MPI_Alltoallv(s->sendbuf, s->scount, s->sdispl, s->msg_t, s->recvbuf, s->rcount,
				s->rdispl, s->msg_t, run->comm));
	assay_ep_ll_unpack(ll, s->block, s->bcount, &s->rv);
}

/* ---- combine ---- */

static void ll_reduce(struct ll_point *s)
{
#ifdef ASSAY_EP_MUTANT_LL
	if (mutant("bf16-acc")) {
		int64_t H = s->ll.p.hidden, K = s->ll.p.topk;
		for (int64_t t = 0; t < s->ll.p.tokens; t++) {
			memset(s->acc, 0, (size_t)H * sizeof(float));
			for (int64_t k = 0; k < K; k++)
				for (int64_t c = 0; s->ids[t * K + k] >= 0 && c < H; c++)
					s->acc[c] = assay_bf16_to_float(assay_bf16_from_float(
					    s->acc[c] +
					    s->weights[t * K + k] *
						assay_bf16_to_float(s->rows[t * K + k][c])));
			for (int64_t c = 0; c < H; c++)
				s->out[t * H + c] = assay_bf16_from_float(s->acc[c]);
		}
		return;
	}
#endif
	assay_ep_ll_reduce(&s->ll, s->ids, s->weights, s->rows, s->acc, s->out);
}

/* Each packed row (le, i) of source src is token src_info of src. */
static void shm_ll_combine(struct ep_run *run, struct ep_point *pt)
{
	LL_MUTANT_IDLE(false);
	struct ll_point *s = pt->be;
	const struct assay_ep_ll *ll = &s->ll;
	int64_t P = ll->p.ep, nle = ll->local_experts, H = ll->p.hidden, K = ll->p.topk;
	for (int64_t le = 0; le < nle; le++) {
		int64_t e = run->rank * nle + le;
		for (int64_t src = 0; src < P; src++) {
			int64_t lr = s->rv.layout_range[le * P + src];
			int64_t begin = (int64_t)((uint64_t)lr >> 32), n = lr & 0xffffffff;
			for (int64_t i = begin; i < begin + n && begin + n <= ll->slots; i++) {
				int32_t t = s->rv.src_info[le * ll->slots + i];
				if (t < 0 || t >= ll->max_tokens)
					continue; /* a bad handle: the oracle reports it */
				memcpy(s->comb[src] + (size_t)(e * ll->max_tokens + t) * (size_t)H,
				       s->y + (size_t)(le * ll->slots + i) * (size_t)H,
				       (size_t)H * 2);
			}
		}
	}
	MPI_CHECK(MPI_Win_sync(s->win));
	MPI_CHECK(MPI_Barrier(run->comm));
	MPI_CHECK(MPI_Win_sync(s->win));
	for (int64_t t = 0; t < ll->p.tokens; t++)
		for (int64_t k = 0; k < K; k++) {
			int32_t e = s->ids[t * K + k];
			s->rows[t * K + k] =
			    e < 0
				? NULL
				: s->comb[run->rank] + (size_t)(e * ll->max_tokens + t) * (size_t)H;
		}
	ll_reduce(s);
}

static void mpi_ll_combine(struct ep_run *run, struct ep_point *pt)
{
	LL_MUTANT_IDLE(false);
	struct ll_point *s = pt->be;
	const struct assay_ep_ll *ll = &s->ll;
	int64_t P = ll->p.ep, nle = ll->local_experts, H = ll->p.hidden, K = ll->p.topk;
	/* Rows go back in the order they came: source, expert, slot. */
	for (int64_t src = 0, at = 0; src < P; src++)
		for (int64_t le = 0; le < nle; le++) {
			int64_t lr = s->rv.layout_range[le * P + src];
			int64_t begin = (int64_t)((uint64_t)lr >> 32), n = lr & 0xffffffff;
			if (begin + n > ll->slots || at + n > s->recv_cap)
				continue; /* a bad handle: the oracle reports it */
			memcpy(s->yback + (size_t)at * (size_t)H,
			       s->y + (size_t)(le * ll->slots + begin) * (size_t)H,
			       (size_t)(n * H) * 2);
			at += n;
		}
	MPI_CHECK(MPI_Alltoallv(s->yback, s->rcount, s->rdispl, s->row_t, s->back, s->scount,
				s->sdispl, s->row_t, run->comm));
	for (int64_t i = 0; i < ll->p.tokens * K; i++)
		s->rows[i] = s->ids[i] < 0 ? NULL : s->back + (size_t)s->pos[i] * (size_t)H;
	ll_reduce(s);
}

/* ---- staging (untimed) ---- */

/* Valid selections per token and rows per receiving rank. */
static void ll_route_stats(struct ep_point *pt, const struct assay_ep_ll *ll)
{
	struct assay_ep_route_stats *rs = &pt->rs;
	int64_t K = ll->p.topk, ntok = pt->r.ntok;
	rs->recv_copies = xcalloc((size_t)ll->p.ep, sizeof(*rs->recv_copies));
	rs->routed_copies = 0, rs->fanout_min = K, rs->fanout_max = 0;
	for (int64_t t = 0; t < ntok; t++) {
		int64_t n = 0;
		for (int64_t k = 0; k < K; k++) {
			int32_t e = pt->r.experts[t * K + k];
			if (e < 0)
				continue;
			n++;
			rs->recv_copies[e / ll->local_experts]++;
		}
		rs->routed_copies += n;
		rs->fanout_min = n < rs->fanout_min ? n : rs->fanout_min;
		rs->fanout_max = n > rs->fanout_max ? n : rs->fanout_max;
	}
	rs->fanout_mean = ntok ? (double)rs->routed_copies / (double)ntok : 0;
	assay_ep_route_imbalance(&ll->p, &pt->r, rs);
}

static void shm_ll_init(struct ep_run *run, struct ll_point *s)
{
	const struct assay_ep_ll *ll = &s->ll;
	size_t nle = (size_t)ll->local_experts, P = (size_t)ll->p.ep;
	size_t raw = page_round(nle * P * (size_t)ll->max_tokens * ll->msg_bytes);
	size_t cnt = page_round(nle * P * sizeof(int32_t));
	size_t comb = page_round((size_t)(ll->p.experts * ll->max_tokens * ll->p.hidden) * 2);
	s->raw = xcalloc(P, sizeof(*s->raw));
	s->rawcnt = xcalloc(P, sizeof(*s->rawcnt));
	s->comb = xcalloc(P, sizeof(*s->comb));
	unsigned char *base = ep_shm_window(run->comm, raw + cnt + comb, &s->win, s->raw);
	memset(base, 0, raw + cnt + comb);
	for (size_t r = 0; r < P; r++) {
		s->rawcnt[r] = (int32_t *)(s->raw[r] + raw);
		s->comb[r] = (uint16_t *)(s->raw[r] + raw + cnt);
	}
	MPI_CHECK(MPI_Win_lock_all(MPI_MODE_NOCHECK, s->win));
}

static void mpi_ll_init(struct ll_point *s)
{
	const struct assay_ep_ll *ll = &s->ll;
	int64_t P = ll->p.ep, T = ll->p.tokens, K = ll->p.topk, H = ll->p.hidden;
	s->send_cap = T * K;
	s->recv_cap = P * T * K;
	size_t sc = (size_t)(s->send_cap ? s->send_cap : 1), rc = (size_t)s->recv_cap;
	s->sendbuf = ep_alloc_lines(sc * s->ll.msg_bytes);
	s->recvbuf = ep_alloc_lines(rc * s->ll.msg_bytes);
	s->back = ep_alloc_lines(sc * (size_t)H * 2);
	s->yback = ep_alloc_lines(rc * (size_t)H * 2);
	s->pos = xcalloc((size_t)(T * K), sizeof(*s->pos));
	s->eoff = xcalloc((size_t)ll->p.experts, sizeof(*s->eoff));
	s->ecnt_send = xcalloc((size_t)ll->p.experts, sizeof(int));
	s->ecnt_recv = xcalloc((size_t)ll->p.experts, sizeof(int));
	int **v[] = {&s->scount, &s->sdispl, &s->rcount, &s->rdispl};
	for (size_t i = 0; i < ARRAY_SIZE(v); i++)
		*v[i] = xcalloc((size_t)P, sizeof(int));
	MPI_CHECK(MPI_Type_contiguous((int)ll->msg_bytes, MPI_BYTE, &s->msg_t));
	MPI_CHECK(MPI_Type_commit(&s->msg_t));
	MPI_CHECK(MPI_Type_contiguous((int)(H * 2), MPI_BYTE, &s->row_t));
	MPI_CHECK(MPI_Type_commit(&s->row_t));
}

/* The point's routing (masked), this rank's tokens and every buffer. */
static void ll_stage(struct ep_run *run, struct ep_point *pt, int64_t tokens)
{
	struct ll_point *s = xcalloc(1, sizeof(*s));
	pt->p = run->base;
	pt->p.tokens = tokens;
	assay_ep_ll_init(&pt->p, run->ll_max_tokens, run->ll_round_scale, &s->ll);
	const struct assay_ep_ll *ll = &s->ll;
	int64_t T = tokens, K = pt->p.topk, H = pt->p.hidden, nle = ll->local_experts;
	assay_ep_routing_build(&pt->p, &pt->r);
	assay_ep_ll_mask(&pt->p, run->ll_masked, &pt->r);
	ll_route_stats(pt, ll);
	s->ids = xmalloc((size_t)(T * K) * sizeof(*s->ids));
	memcpy(s->ids, pt->r.experts + run->rank * T * K, (size_t)(T * K) * sizeof(*s->ids));
#ifdef ASSAY_EP_MUTANT_LL
	for (int64_t i = 0; mutant("no-skip") && i < T * K; i++)
		s->ids[i] = (int32_t)((uint32_t)s->ids[i] % (uint32_t)pt->p.experts);
#endif
	s->weights = pt->r.weights + run->rank * T * K;
	s->x = xmalloc((size_t)(T * H) * sizeof(*s->x));
	for (int64_t t = 0; t < T; t++)
		assay_ep_activation_row(&pt->p, (uint64_t)(run->rank * T + t), s->x + t * H);
	s->msgs = ep_alloc_lines((size_t)T * ll->msg_bytes);
	s->sent = xcalloc((size_t)pt->p.experts, sizeof(*s->sent));
	assay_ep_ll_recv_alloc(ll, &s->rv);
	s->block = xcalloc((size_t)(nle * pt->p.ep), sizeof(*s->block));
	s->bcount = xcalloc((size_t)(nle * pt->p.ep), sizeof(*s->bcount));
	s->y = ep_alloc_lines((size_t)(nle * ll->slots * H) * 2);
	s->out = ep_alloc_lines((size_t)(T * H) * 2);
	s->acc = xmalloc((size_t)H * sizeof(*s->acc));
	s->rows = xcalloc((size_t)(T * K), sizeof(*s->rows));
	s->shm = !strcmp(run->be->name, "shm");
	if (s->shm)
		shm_ll_init(run, s);
	else
		mpi_ll_init(s);
	pt->be = s;
	pt->valid = true;
}

static void ll_release(struct ep_run *run, struct ep_point *pt)
{
	(void)run;
	struct ll_point *s = pt->be;
	if (s->shm) {
		MPI_CHECK(MPI_Win_unlock_all(s->win));
		MPI_CHECK(MPI_Win_free(&s->win));
	} else {
		MPI_CHECK(MPI_Type_free(&s->msg_t));
		MPI_CHECK(MPI_Type_free(&s->row_t));
	}
	void *bufs[] = {s->ids,    s->x,         s->msgs,      s->sent,   s->block,  s->bcount,
			s->y,      s->out,       s->acc,       s->rows,   s->raw,    s->rawcnt,
			s->comb,   s->sendbuf,   s->recvbuf,   s->yback,  s->back,   s->pos,
			s->eoff,   s->ecnt_send, s->ecnt_recv, s->scount, s->sdispl, s->rcount,
			s->rdispl, s->vcount,    s->vlayout};
	for (size_t i = 0; i < ARRAY_SIZE(bufs); i++)
		free(bufs[i]);
	assay_ep_ll_recv_release(&s->rv);
	free(s);
	pt->be = NULL;
	assay_ep_routing_release(&pt->r);
}

/* ---- the oracle pass ---- */

/* Every buffer dispatch and combine write or the checks read: 0xFF bytes
 * (NaN in BF16, FP8 and float32, -1 as an id or count). */
static void ll_poison(struct ep_run *run, struct ll_point *s)
{
	const struct assay_ep_ll *ll = &s->ll;
	int64_t H = ll->p.hidden;
	assay_ep_ll_recv_poison(ll, &s->rv);
	memset(s->y, 0xFF, (size_t)(ll->local_experts * ll->slots * H) * 2);
	memset(s->out, 0xFF, (size_t)(ll->p.tokens * H) * 2);
	if (s->shm) {
		size_t nle = (size_t)ll->local_experts, P = (size_t)ll->p.ep;
		memset(s->raw[run->rank], 0xFF, nle * P * (size_t)ll->max_tokens * ll->msg_bytes);
		memset(s->rawcnt[run->rank], 0xFF, nle * P * sizeof(int32_t));
		memset(s->comb[run->rank], 0xFF, (size_t)(ll->p.experts * ll->max_tokens * H) * 2);
		MPI_CHECK(MPI_Win_sync(s->win));
		return;
	}
	size_t sc = (size_t)(s->send_cap ? s->send_cap : 1), rc = (size_t)s->recv_cap;
	memset(s->sendbuf, 0xFF, sc * ll->msg_bytes);
	memset(s->recvbuf, 0xFF, rc * ll->msg_bytes);
	memset(s->back, 0xFF, sc * (size_t)H * 2);
	memset(s->yback, 0xFF, rc * (size_t)H * 2);
}

/* Poison, meet, a fresh dispatch (checked), the identity expert staged
 * outside timing, a fresh combine (checked); failures summed over the
 * ranks, the largest calc_diff kept (NaN travels as a flag). */
static void ll_oracle(struct ep_run *run, struct ep_point *pt, int pass)
{
	struct ll_point *s = pt->be;
	struct assay_ep_ll_verdict v;
	memset(&v, 0, sizeof(v));
	ll_poison(run, s);
	MPI_CHECK(MPI_Barrier(run->comm));
	run->be->dispatch(run, pt);
	assay_ep_ll_check_dispatch(&s->ll, &pt->r, run->rank, &s->rv, &v);
	assay_ep_ll_expert(&s->ll, &s->rv, s->y);
#ifdef ASSAY_EP_MUTANT_LL
	ll_restaged = true;
#endif
	run->be->combine(run, pt);
	assay_ep_ll_check_combine(&s->ll, &pt->r, run->rank, s->out, &v);
	struct assay_ep_ll_verdict *out = &pt->ll_verdict[pass];
	MPI_CHECK(MPI_Allreduce(v.failures, out->failures, ASSAY_EP_LL_CHECKS, MPI_INT64_T, MPI_SUM,
				run->comm));
	int nan = isnan(v.diff), any_nan = 0;
	double d = nan ? 0 : v.diff;
	MPI_CHECK(MPI_Allreduce(&nan, &any_nan, 1, MPI_INT, MPI_LOR, run->comm));
	MPI_CHECK(MPI_Allreduce(&d, &out->diff, 1, MPI_DOUBLE, MPI_MAX, run->comm));
	if (any_nan)
		out->diff = NAN;
	pt->checked[pass] = true;
	for (int c = 0; c < ASSAY_EP_LL_CHECKS; c++)
		if (out->failures[c])
			pt->valid = false;
}

void ep_ll_run_point(struct ep_run *run, struct ep_point *pt, int64_t tokens)
{
	ll_stage(run, pt, tokens);
	ll_oracle(run, pt, 0);
	if (pt->valid)
		ep_ll_verify_capture(run, pt);
	if (pt->valid)
		ep_time_point(run, pt, NULL);
	if (pt->valid)
		ll_oracle(run, pt, 1);
	ep_verify_finish(run, pt);
	ll_release(run, pt);
}

double ep_ll_point_memory(const struct ep_run *run, int64_t tokens)
{
	struct assay_ep_problem p = run->base;
	p.tokens = tokens;
	struct assay_ep_ll ll;
	assay_ep_ll_init(&p, run->ll_max_tokens, run->ll_round_scale, &ll);
	double T = (double)tokens, K = (double)p.topk, H = (double)p.hidden, P = (double)p.ep;
	double msg = (double)ll.msg_bytes, rows = (double)ll.local_experts * (double)ll.slots;
	double need = T * P * K * 8 + T * (H * 2 * 2 + msg + K * 24) /* routing, x, out */
		      + rows * ((double)ll.row_bytes + (double)ll.blocks * 4 + 4 + H * 2) +
		      rows * msg + (double)p.experts * (double)ll.max_tokens * H * 2 /* shm */
		      + T * K * (msg + H * 2) * 2;                                   /* mpi */
	const struct assay_timing *tm = &run->timing;
	double nsamp = (double)tm->trials * (double)tm->iters_per_trial;
	double nchain = (double)tm->chain_trials * (double)(tm->chain_pairs - tm->chain_drop);
	need += (double)ll.local_experts * (P * 8 + 4); /* timed-call checks (verify_ll.c) */
	need += nsamp * 3 + (double)tm->chain_trials * (double)tm->chain_pairs;
	return need + nsamp * 8 * 4 * 3 + nchain * 8 * (3 + P) + (1 << 20);
}

/* ---- the outputs ---- */

void ep_ll_failure_reasons(const struct ep_run *run, struct strlist *reasons)
{
	for (size_t i = 0; i < run->npoints; i++) {
		const struct ep_point *pt = &run->points[i];
		for (int pass = 0; pass < 2; pass++)
			for (int c = 0; c < ASSAY_EP_LL_CHECKS && pt->checked[pass]; c++)
				if (pt->ll_verdict[pass].failures[c]) {
					char *m = xasprintf(
					    "tokens %lld: %s timing: %s failed (%lld)",
					    (long long)pt->p.tokens, pass ? "after" : "before",
					    assay_ep_ll_check_name((enum assay_ep_ll_check)c),
					    (long long)pt->ll_verdict[pass].failures[c]);
					strlist_push(reasons, m);
					free(m);
				}
		ep_verify_reasons(pt, true, reasons);
	}
}

static json_t *real_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *ll_verdict_json(const struct ep_point *pt, int pass)
{
	if (!pt->checked[pass])
		return json_null();
	const struct assay_ep_ll_verdict *v = &pt->ll_verdict[pass];
	json_t *checks = json_object();
	for (int c = 0; c < ASSAY_EP_LL_CHECKS; c++)
		json_object_set_new(checks, assay_ep_ll_check_name((enum assay_ep_ll_check)c),
				    json_pack("{s:b, s:I}", "pass", v->failures[c] == 0, "failures",
					      (json_int_t)v->failures[c]));
	return json_pack("{s:o, s:o}", "diff", real_or_null(v->diff), "checks", checks);
}

/* The largest calc_diff of the passes run and the checked timed calls (NaN
 * when one was not finite). */
static double ll_point_diff(const struct ep_point *pt)
{
	double worst = 0;
	if (pt->timed.checked && isnan(pt->timed.verdict.max_relative_error))
		return NAN;
	if (pt->timed.checked)
		worst = pt->timed.verdict.max_relative_error;
	for (int pass = 0; pass < 2; pass++) {
		if (!pt->checked[pass])
			continue;
		if (isnan(pt->ll_verdict[pass].diff))
			return NAN;
		worst = fmax(worst, pt->ll_verdict[pass].diff);
	}
	return worst;
}

void ep_ll_point_json(const struct ep_run *run, const struct ep_point *pt, json_t *doc)
{
	json_t *reasons = json_array();
	for (int pass = 0; pass < 2; pass++)
		for (int c = 0; c < ASSAY_EP_LL_CHECKS && pt->checked[pass]; c++)
			if (pt->ll_verdict[pass].failures[c])
				json_array_append_new(
				    reasons,
				    json_sprintf("%s timing: %s failed (%lld)",
						 pass ? "after" : "before",
						 assay_ep_ll_check_name((enum assay_ep_ll_check)c),
						 (long long)pt->ll_verdict[pass].failures[c]));
	struct strlist timed_why = STRLIST_INIT;
	ep_verify_reasons(pt, false, &timed_why);
	for (size_t i = 0; i < timed_why.n; i++)
		json_array_append_new(reasons, json_string(timed_why.v[i]));
	strlist_clear(&timed_why);
	json_object_set_new(doc, "reasons", reasons);
	json_object_set_new(doc, "correctness",
			    json_pack("{s:s, s:f, s:o, s:o, s:o, s:o, s:o}", "measure", "calc_diff",
				      "gate", assay_ep_ll_tolerance(run->base.precision),
				      "max_diff", real_or_null(ll_point_diff(pt)),
				      "max_relative_error", json_null(), "before",
				      ll_verdict_json(pt, 0), "after", ll_verdict_json(pt, 1),
				      "timed", ep_verify_json(pt)));
}

void ep_ll_case_json(const struct ep_run *run, json_t *c)
{
	json_object_set_new(c, "low_latency",
			    json_pack("{s:I, s:b, s:I}", "max_dispatch_tokens",
				      (json_int_t)run->ll_max_tokens, "round_scale",
				      run->ll_round_scale, "masked_slots",
				      (json_int_t)run->ll_masked));
}

void ep_ll_print_point(const struct ep_run *run, const struct ep_point *pt)
{
	double d = ll_point_diff(pt);
	printf("%7s  calc_diff %s%.3g (gate %g)\n", "", isnan(d) ? "not finite " : "",
	       isnan(d) ? 0.0 : d, assay_ep_ll_tolerance(run->base.precision));
}

/* ---- the backends ---- */

static const struct ep_backend ll_shm = {
    .name = "shm", .dispatch = shm_ll_dispatch, .combine = shm_ll_combine};
static const struct ep_backend ll_mpi = {
    .name = "mpi", .dispatch = mpi_ll_dispatch, .combine = mpi_ll_combine};

const struct ep_backend *ep_ll_backend(const struct ep_backend *be)
{
	if (be == &ep_backend_shm)
		return &ll_shm;
	if (be == &ep_backend_mpi)
		return &ll_mpi;
	return NULL;
}
