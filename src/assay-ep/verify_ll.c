/* The timed-call checks of --mode low-latency (docs/ep.md "Low-latency
 * mode"): verify.c's machinery (the seed, which calls, the counts, the
 * artifact) on this mode's buffers and oracle. Before a checked call every
 * rank fills with 0xFF what the call writes on it: for a dispatch, the FP8
 * cast messages, what the peers' sends land in (shm: this rank's receive
 * blocks and counts in the window; mpi: the send and receive buffers) and
 * the packed outputs (every count and layout range, and per local expert
 * the rows, FP8 scales and src_info the pass before timing received); for a
 * combine, the rows coming back (shm: this rank's return rows in the
 * window; mpi: the return buffer) and the output. After the call each rank
 * hashes what it wrote (the same regions) and compares with the hash of
 * what the pass before timing accepted; on any difference the full
 * low-latency oracle judges it (so another legitimate layout is not a
 * failure). A call that did nothing leaves the poison and fails. Barriers
 * as verify.c documents them: one after the poison (ep_ll_verify_before)
 * and one after the check (ep_verify_count), neither timed. No barrier is
 * needed before the poison: a rank's window regions are written by its
 * peers only between the barriers inside the next dispatch or combine. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "assay/ep_ll.h"
#include "assay/util.h"
#include "bench.h"
#include "lowlat.h"

/* Rows the pass before timing packed for local expert le (within the
 * buffer). */
static int64_t accepted_rows(const struct ll_point *s, int64_t le)
{
	int64_t n = s->vcount[le];
	return n < 0 ? 0 : n > s->ll.slots ? s->ll.slots : n;
}

static uint64_t fold(uint64_t h, uint64_t v)
{
	h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
	return h * 0xBF58476D1CE4E5B9ull;
}

/* One region: poisoned (0xFF), or its hash folded into h. */
static uint64_t region(void *p, size_t n, bool poison, uint64_t h)
{
	if (poison)
		memset(p, 0xFF, n);
	return poison ? h : fold(h, ep_verify_hash(p, n));
}

/* The regions of the packed dispatch outputs the checks compare, poisoned
 * or hashed: the counts, the layout ranges, and per local expert the rows
 * the pass before timing received, their src_info and (FP8) their scales
 * (column-major: one run of slots per block). */
static uint64_t recv_regions(struct ll_point *s, bool poison)
{
	const struct assay_ep_ll *ll = &s->ll;
	struct assay_ep_ll_recv *rv = &s->rv;
	int64_t nle = ll->local_experts, P = ll->p.ep;
	uint64_t h = region(rv->count, (size_t)nle * sizeof(*rv->count), poison, 0);
	h = region(rv->layout_range, (size_t)(nle * P) * sizeof(*rv->layout_range), poison, h);
	for (int64_t le = 0; le < nle; le++) {
		size_t n = (size_t)accepted_rows(s, le), row = (size_t)(le * ll->slots);
		h = region(rv->x + row * ll->row_bytes, n * ll->row_bytes, poison, h);
		h = region(rv->src_info + row, n * sizeof(*rv->src_info), poison, h);
		for (int64_t b = 0; rv->scales && b < ll->blocks; b++)
			h = region(rv->scales + (size_t)((le * ll->blocks + b) * ll->slots),
				   n * sizeof(*rv->scales), poison, h);
	}
	return h;
}

static size_t out_bytes(const struct ll_point *s)
{
	return (size_t)(s->ll.p.tokens * s->ll.p.hidden) * sizeof(*s->out);
}

void ep_ll_verify_capture(struct ep_run *run, struct ep_point *pt)
{
	if (run->verify == EP_VERIFY_OFF || pt->verify)
		return;
	struct ll_point *s = pt->be;
	const struct assay_ep_ll *ll = &s->ll;
	int64_t nle = ll->local_experts, P = ll->p.ep;
	s->vcount = xmalloc((size_t)nle * sizeof(*s->vcount));
	s->vlayout = xmalloc((size_t)(nle * P) * sizeof(*s->vlayout));
	memcpy(s->vcount, s->rv.count, (size_t)nle * sizeof(*s->vcount));
	memcpy(s->vlayout, s->rv.layout_range, (size_t)(nle * P) * sizeof(*s->vlayout));
	s->vsent = s->vrecv = 0;
	for (int64_t i = 0; i < ll->p.tokens * ll->p.topk; i++)
		s->vsent += s->ids[i] >= 0;
	for (int64_t le = 0; le < nle; le++)
		s->vrecv += s->vcount[le];
	s->vhash[0] = recv_regions(s, false);
	s->vhash[1] = ep_verify_hash(s->out, out_bytes(s));
	pt->timed.ll = true;
	/* A call identical to what the oracle accepted has its calc_diff. */
	ep_verify_open(run, pt, pt->ll_verdict[0].diff);
}

/* Dispatch: the cast messages, what peers write into, the packed outputs. */
static void poison_dispatch(struct ep_run *run, struct ll_point *s)
{
	const struct assay_ep_ll *ll = &s->ll;
	int64_t nle = ll->local_experts, P = ll->p.ep;
	memset(s->msgs, 0xFF, (size_t)ll->p.tokens * ll->msg_bytes);
	recv_regions(s, true);
	if (!s->shm) {
		memset(s->sendbuf, 0xFF, (size_t)s->vsent * ll->msg_bytes);
		memset(s->recvbuf, 0xFF, (size_t)s->vrecv * ll->msg_bytes);
		return;
	}
	memset(s->rawcnt[run->rank], 0xFF, (size_t)(nle * P) * sizeof(int32_t));
	for (int64_t i = 0; i < nle * P; i++) {
		int64_t n = s->vlayout[i] & 0xffffffff;
		n = n > ll->max_tokens ? ll->max_tokens : n;
		memset(s->raw[run->rank] + (size_t)(i * ll->max_tokens) * ll->msg_bytes, 0xFF,
		       (size_t)n * ll->msg_bytes);
	}
	MPI_CHECK(MPI_Win_sync(s->win));
}

/* Combine: the rows coming back to this rank, and the output. */
static void poison_combine(struct ep_run *run, struct ll_point *s)
{
	const struct assay_ep_ll *ll = &s->ll;
	int64_t H = ll->p.hidden, K = ll->p.topk;
	memset(s->out, 0xFF, out_bytes(s));
	if (!s->shm) {
		memset(s->back, 0xFF, (size_t)(s->vsent * H) * sizeof(*s->back));
		return;
	}
	for (int64_t t = 0; t < ll->p.tokens; t++)
		for (int64_t k = 0; k < K; k++) {
			int32_t e = s->ids[t * K + k];
			if (e >= 0)
				memset(s->comb[run->rank] + (size_t)((e * ll->max_tokens + t) * H),
				       0xFF, (size_t)H * sizeof(**s->comb));
		}
	MPI_CHECK(MPI_Win_sync(s->win));
}

void ep_ll_verify_before(struct ep_run *run, struct ep_point *pt, int comp)
{
	struct ll_point *s = pt->be;
	if (comp != EP_COMBINE)
		poison_dispatch(run, s);
	if (comp != EP_DISPATCH)
		poison_combine(run, s);
	MPI_CHECK(MPI_Barrier(run->comm));
}

void ep_ll_verify_after(struct ep_run *run, struct ep_point *pt, int comp)
{
	struct ll_point *s = pt->be;
	struct assay_ep_ll_verdict v;
	memset(&v, 0, sizeof(v));
	v.diff = pt->ll_verdict[0].diff;
	if (comp != EP_COMBINE && recv_regions(s, false) != s->vhash[0])
		assay_ep_ll_check_dispatch(&s->ll, &pt->r, run->rank, &s->rv, &v);
	if (comp != EP_DISPATCH && ep_verify_hash(s->out, out_bytes(s)) != s->vhash[1])
		assay_ep_ll_check_combine(&s->ll, &pt->r, run->rank, s->out, &v);
	struct assay_ep_verdict call;
	memset(&call, 0, sizeof(call));
	_Static_assert((int)ASSAY_EP_LL_CHECKS <= (int)ASSAY_EP_CHECK_COUNT,
		       "ll checks fit the verdict");
	memcpy(call.failures, v.failures, sizeof(v.failures));
	call.max_relative_error = v.diff;
	ep_verify_count(run, pt, comp, &call);
}
