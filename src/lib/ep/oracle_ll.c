/* The low-latency oracle (include/assay/ep_ll.h, docs/ep.md): what a rank
 * received, checked against the masked routing (counts, layout ranges,
 * source info, bit-exact rows), and the combine against DeepEP's measure
 * (calc_diff of x * sum of the unmasked weights, tolerance 9e-4 FP8, 1e-5
 * BF16) and, element by element, against the float32 weighted sum. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "assay/ep_ll.h"
#include "assay/util.h"

static const char *const check_names[ASSAY_EP_LL_CHECKS] = {
    "recv_count", "layout_range", "src_info", "payload", "combine_diff", "combine_sum",
};

const char *assay_ep_ll_check_name(enum assay_ep_ll_check c)
{
	return c < ASSAY_EP_LL_CHECKS ? check_names[c] : "?";
}

double assay_ep_ll_tolerance(enum assay_ep_precision p)
{
	return p == ASSAY_EP_FP8 ? ASSAY_EP_LL_TOL_FP8 : ASSAY_EP_LL_TOL_BF16;
}

/* Whether global token g selects expert e. */
static bool selects(const struct assay_ep_ll *ll, const struct assay_ep_routing *r, int64_t g,
		    int64_t e)
{
	for (int64_t k = 0; k < ll->p.topk; k++)
		if (r->experts[g * ll->p.topk + k] == e)
			return true;
	return false;
}

/* Payload of packed row i of local expert le against the message of g. */
static bool row_exact(const struct assay_ep_ll *ll, const struct assay_ep_ll_recv *rv, int64_t le,
		      int64_t i, int64_t g, uint16_t *x, unsigned char *msg)
{
	assay_ep_activation_row(&ll->p, (uint64_t)g, x);
	assay_ep_ll_message(ll, 0, x, msg);
	size_t row = (size_t)(le * ll->slots + i);
	if (memcmp(rv->x + row * ll->row_bytes, msg + ASSAY_EP_LL_HEADER, ll->row_bytes))
		return false;
	const unsigned char *s = msg + ASSAY_EP_LL_HEADER + ll->row_bytes;
	for (int64_t b = 0; rv->scales && b < ll->blocks; b++)
		if (memcmp(&rv->scales[(size_t)((le * ll->blocks + b) * ll->slots + i)], s + b * 4,
			   4))
			return false;
	return true;
}

/* The rows of one (expert, source) range: each a token of src that selects
 * e, none twice (seen: tokens per rank), payload exact. */
static void check_range(const struct assay_ep_ll *ll, const struct assay_ep_routing *r,
			const struct assay_ep_ll_recv *rv, int64_t le, int64_t e, int64_t src,
			int64_t begin, int64_t n, bool *seen, struct assay_ep_ll_verdict *v)
{
	int64_t T = ll->p.tokens;
	uint16_t *x = xmalloc((size_t)ll->p.hidden * sizeof(*x));
	unsigned char *msg = xmalloc(ll->msg_bytes);
	memset(seen, 0, (size_t)T);
	for (int64_t i = begin; i < begin + n; i++) {
		int32_t si = rv->src_info[le * ll->slots + i];
		if (si < 0 || si >= T || seen[si] || !selects(ll, r, src * T + si, e)) {
			v->failures[ASSAY_EP_LL_SRC_INFO]++;
			continue;
		}
		seen[si] = true;
		if (!row_exact(ll, rv, le, i, src * T + si, x, msg))
			v->failures[ASSAY_EP_LL_PAYLOAD]++;
	}
	free(x);
	free(msg);
}

void assay_ep_ll_check_dispatch(const struct assay_ep_ll *ll, const struct assay_ep_routing *r,
				int64_t rank, const struct assay_ep_ll_recv *rv,
				struct assay_ep_ll_verdict *v)
{
	int64_t P = ll->p.ep, S = ll->slots;
	bool *covered = xmalloc((size_t)S), *seen = xmalloc((size_t)ll->p.tokens);
	for (int64_t le = 0; le < ll->local_experts; le++) {
		int64_t e = rank * ll->local_experts + le, want = 0;
		int64_t count = rv->count[le];
		for (int64_t src = 0; src < P; src++)
			want += assay_ep_ll_selections(ll, r, src, e);
		if (count != want)
			v->failures[ASSAY_EP_LL_RECV_COUNT]++;
		if (count < 0 || count > S)
			count = 0;
		memset(covered, 0, (size_t)S);
		for (int64_t src = 0; src < P; src++) {
			int64_t lr = rv->layout_range[le * P + src];
			int64_t begin = (int64_t)((uint64_t)lr >> 32), n = lr & 0xffffffff;
			bool ok = n == assay_ep_ll_selections(ll, r, src, e) && begin + n <= count;
			for (int64_t i = begin; ok && i < begin + n; i++)
				ok = !covered[i], covered[i] = true;
			if (!ok) {
				v->failures[ASSAY_EP_LL_LAYOUT]++;
				continue;
			}
			check_range(ll, r, rv, le, e, src, begin, n, seen, v);
		}
	}
	free(covered);
	free(seen);
}

/* Steps between two BF16 values on the number line (NaN: far). */
static int64_t bf16_steps(uint16_t a, uint16_t b)
{
	if ((a & 0x7fff) > 0x7f80 || (b & 0x7fff) > 0x7f80)
		return INT64_MAX;
	int64_t x = a & 0x8000 ? -(int64_t)(a & 0x7fff) : a;
	int64_t y = b & 0x8000 ? -(int64_t)(b & 0x7fff) : b;
	return x > y ? x - y : y - x;
}

/* Whether out is the BF16 rounding of the float32 sum acc, allowing for
 * another float32 summation order: the neighbour is accepted only when acc
 * lies within 2^-16 of |acc| of the midpoint between the two (a reordered
 * sum of K <= 256 same-signed terms moves by less). A sum accumulated in
 * BF16 lands a step off away from midpoints, and fails. */
static bool sum_close(uint16_t out, float acc)
{
	uint16_t want = assay_bf16_from_float(acc);
	int64_t steps = bf16_steps(out, want);
	if (steps == 0)
		return true;
	if (steps > 1)
		return false;
	float mid = (assay_bf16_to_float(out) + assay_bf16_to_float(want)) / 2;
	return fabsf(acc - mid) <= fabsf(acc) * 0x1p-16f;
}

/* What the identity expert returns for token g: the row as received, as
 * BF16 (FP8 cast back). */
static void expert_row(const struct assay_ep_ll *ll, int64_t g, uint16_t *x, uint16_t *y)
{
	assay_ep_activation_row(&ll->p, (uint64_t)g, x);
	if (ll->p.precision != ASSAY_EP_FP8) {
		memcpy(y, x, (size_t)ll->p.hidden * sizeof(*y));
		return;
	}
	uint8_t *q = xmalloc((size_t)ll->p.hidden);
	float *s = xmalloc((size_t)ll->blocks * sizeof(*s));
	assay_ep_ll_quantize_row(x, ll->p.hidden, ll->round_scale, q, s);
	assay_ep_ll_dequantize_row(q, s, 1, ll->p.hidden, y);
	free(q);
	free(s);
}

void assay_ep_ll_check_combine(const struct assay_ep_ll *ll, const struct assay_ep_routing *r,
			       int64_t rank, const uint16_t *out, struct assay_ep_ll_verdict *v)
{
	int64_t H = ll->p.hidden, K = ll->p.topk;
	uint16_t *x = xmalloc((size_t)H * sizeof(*x)), *y = xmalloc((size_t)H * sizeof(*y));
	float *acc = xmalloc((size_t)H * sizeof(*acc));
	double sums[2] = {0, 0};
	for (int64_t i = 0; i < ll->p.tokens; i++) {
		int64_t g = rank * ll->p.tokens + i;
		expert_row(ll, g, x, y);
		float wsum = 0;
		memset(acc, 0, (size_t)H * sizeof(*acc));
		for (int64_t k = 0; k < K; k++) {
			if (r->experts[g * K + k] < 0)
				continue;
			float w = r->weights[g * K + k];
			wsum += w;
			for (int64_t c = 0; c < H; c++)
				acc[c] += w * assay_bf16_to_float(y[c]);
		}
		const uint16_t *o = out + i * H;
		for (int64_t c = 0; c < H; c++) {
			if (!sum_close(o[c], acc[c]))
				v->failures[ASSAY_EP_LL_COMBINE_SUM]++;
			assay_ep_ll_diff_add((double)(assay_bf16_to_float(x[c]) * wsum),
					     (double)assay_bf16_to_float(o[c]), sums);
		}
	}
	v->diff = assay_ep_ll_diff_of(sums);
	if (!(v->diff < assay_ep_ll_tolerance(ll->p.precision)))
		v->failures[ASSAY_EP_LL_COMBINE_DIFF]++;
	free(x);
	free(y);
	free(acc);
}
