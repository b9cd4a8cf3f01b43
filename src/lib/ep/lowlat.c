/* DeepEP's low-latency mode (dd758ca): the shape, the FP8 cast with 128-
 * channel scales, the masked slots, the packed receive layout and the
 * float32 weighted combine (include/assay/ep_ll.h, docs/ep.md). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "assay/ep_ll.h"
#include "assay/util.h"

/* The counter stream of the masked slots (routing uses 0 and 1). */
#define LL_MASK_STREAM 17

void assay_ep_ll_init(const struct assay_ep_problem *p, int64_t max_tokens, bool round_scale,
		      struct assay_ep_ll *ll)
{
	memset(ll, 0, sizeof(*ll));
	ll->p = *p;
	ll->max_tokens = max_tokens;
	ll->local_experts = p->experts / p->ep;
	ll->slots = p->ep * max_tokens;
	ll->blocks = assay_ep_blocks(p->hidden);
	ll->round_scale = round_scale;
	bool fp8 = p->precision == ASSAY_EP_FP8;
	ll->row_bytes = (size_t)p->hidden * (fp8 ? 1 : 2);
	ll->msg_bytes = ASSAY_EP_LL_HEADER + ll->row_bytes + (fp8 ? (size_t)ll->blocks * 4 : 0);
}

static float pow2f(int e)
{
	uint32_t u = (uint32_t)(e + 127) << 23;
	float f;
	memcpy(&f, &u, sizeof(f));
	return f;
}

/* ceil(log2(x)) of a positive normal float, from its bits. */
static int log2_ceil(float x)
{
	uint32_t u;
	memcpy(&u, &x, sizeof(u));
	return (int)((u >> 23) & 0xff) - 127 + ((u & 0x7fffffu) != 0);
}

void assay_ep_ll_quantize_row(const uint16_t *x, int64_t hidden, bool round_scale, uint8_t *q,
			      float *scales)
{
	for (int64_t b0 = 0, blk = 0; b0 < hidden; b0 += ASSAY_EP_BLOCK, blk++) {
		int64_t b1 = b0 + ASSAY_EP_BLOCK < hidden ? b0 + ASSAY_EP_BLOCK : hidden;
		float amax = ASSAY_EP_LL_AMAX_FLOOR;
		for (int64_t c = b0; c < b1; c++)
			amax = fmaxf(amax, fabsf(assay_bf16_to_float(x[c])));
		float scale, scale_inv;
		if (round_scale) {
			int e = log2_ceil(amax * (1.0f / ASSAY_EP_FP8_MAX));
			scale = pow2f(-e), scale_inv = pow2f(e);
		} else {
			scale_inv = amax * (1.0f / ASSAY_EP_FP8_MAX);
			scale = ASSAY_EP_FP8_MAX / amax;
		}
		scales[blk] = scale_inv;
		for (int64_t c = b0; c < b1; c++)
			q[c] = assay_fp8_from_float(assay_bf16_to_float(x[c]) * scale);
	}
}

void assay_ep_ll_dequantize_row(const uint8_t *q, const float *scales, size_t scale_stride,
				int64_t hidden, uint16_t *out)
{
	for (int64_t c = 0; c < hidden; c++)
		out[c] = assay_bf16_from_float(assay_fp8_to_float(q[c]) *
					       scales[(size_t)(c / ASSAY_EP_BLOCK) * scale_stride]);
}

void assay_ep_ll_message(const struct assay_ep_ll *ll, int32_t src, const uint16_t *x,
			 unsigned char *msg)
{
	memset(msg, 0, ASSAY_EP_LL_HEADER);
	memcpy(msg, &src, sizeof(src));
	unsigned char *payload = msg + ASSAY_EP_LL_HEADER;
	if (ll->p.precision == ASSAY_EP_FP8) {
		float *scales = xmalloc((size_t)ll->blocks * sizeof(*scales));
		assay_ep_ll_quantize_row(x, ll->p.hidden, ll->round_scale, payload, scales);
		memcpy(payload + ll->row_bytes, scales, (size_t)ll->blocks * sizeof(*scales));
		free(scales);
	} else {
		memcpy(payload, x, ll->row_bytes);
	}
}

void assay_ep_ll_mask(const struct assay_ep_problem *p, int64_t masked, struct assay_ep_routing *r)
{
	for (int64_t s = 0; s < p->ep; s++)
		for (int64_t i = 0; i < masked; i++) {
			uint64_t t =
			    (uint64_t)(s * p->tokens) +
			    assay_ep_counter(p->seed, (uint64_t)s, (uint64_t)i, 0, LL_MASK_STREAM) %
				(uint64_t)p->tokens;
			uint64_t k =
			    assay_ep_counter(p->seed, (uint64_t)s, (uint64_t)i, 1, LL_MASK_STREAM) %
			    (uint64_t)p->topk;
			r->experts[t * (uint64_t)p->topk + k] = -1;
		}
}

int64_t assay_ep_ll_selections(const struct assay_ep_ll *ll, const struct assay_ep_routing *r,
			       int64_t src, int64_t e)
{
	int64_t n = 0, K = ll->p.topk, T = ll->p.tokens;
	for (int64_t t = src * T; t < (src + 1) * T; t++)
		for (int64_t k = 0; k < K; k++)
			n += r->experts[t * K + k] == e;
	return n;
}

void assay_ep_ll_recv_alloc(const struct assay_ep_ll *ll, struct assay_ep_ll_recv *rv)
{
	size_t rows = (size_t)(ll->local_experts * ll->slots);
	rv->x = xmalloc(rows * ll->row_bytes);
	rv->scales = ll->p.precision == ASSAY_EP_FP8
			 ? xmalloc(rows * (size_t)ll->blocks * sizeof(*rv->scales))
			 : NULL;
	rv->count = xmalloc((size_t)ll->local_experts * sizeof(*rv->count));
	rv->src_info = xmalloc(rows * sizeof(*rv->src_info));
	rv->layout_range =
	    xmalloc((size_t)(ll->local_experts * ll->p.ep) * sizeof(*rv->layout_range));
	assay_ep_ll_recv_poison(ll, rv);
}

void assay_ep_ll_recv_poison(const struct assay_ep_ll *ll, struct assay_ep_ll_recv *rv)
{
	size_t rows = (size_t)(ll->local_experts * ll->slots);
	memset(rv->x, 0xFF, rows * ll->row_bytes);
	if (rv->scales)
		memset(rv->scales, 0xFF, rows * (size_t)ll->blocks * sizeof(*rv->scales));
	memset(rv->count, 0xFF, (size_t)ll->local_experts * sizeof(*rv->count));
	memset(rv->src_info, 0xFF, rows * sizeof(*rv->src_info));
	memset(rv->layout_range, 0xFF,
	       (size_t)(ll->local_experts * ll->p.ep) * sizeof(*rv->layout_range));
}

void assay_ep_ll_recv_release(struct assay_ep_ll_recv *rv)
{
	free(rv->x);
	free(rv->scales);
	free(rv->count);
	free(rv->src_info);
	free(rv->layout_range);
	memset(rv, 0, sizeof(*rv));
}

/* One message into packed row i of local expert le. */
static void unpack_one(const struct assay_ep_ll *ll, const unsigned char *msg, int64_t le,
		       int64_t i, struct assay_ep_ll_recv *rv)
{
	size_t row = (size_t)(le * ll->slots + i);
	memcpy(&rv->src_info[row], msg, sizeof(int32_t));
	memcpy(rv->x + row * ll->row_bytes, msg + ASSAY_EP_LL_HEADER, ll->row_bytes);
	if (!rv->scales)
		return;
	const unsigned char *s = msg + ASSAY_EP_LL_HEADER + ll->row_bytes;
	for (int64_t b = 0; b < ll->blocks; b++)
		memcpy(&rv->scales[(size_t)((le * ll->blocks + b) * ll->slots + i)], s + b * 4, 4);
}

void assay_ep_ll_unpack(const struct assay_ep_ll *ll, const unsigned char *const *block,
			const int32_t *count, struct assay_ep_ll_recv *rv)
{
	int64_t P = ll->p.ep;
	for (int64_t le = 0; le < ll->local_experts; le++) {
		int64_t begin = 0;
		for (int64_t src = 0; src < P; src++) {
			int32_t n = count[le * P + src];
			rv->layout_range[le * P + src] = (int64_t)((uint64_t)begin << 32) | n;
			/* More than max_tokens from one source (an expert twice
			 * in a token): kept in the counts, not copied past the
			 * buffer. */
			for (int32_t i = 0; i < n && i < ll->max_tokens && begin + i < ll->slots;
			     i++)
				unpack_one(ll, block[le * P + src] + (size_t)i * ll->msg_bytes, le,
					   begin + i, rv);
			begin += n;
		}
		rv->count[le] = (int32_t)begin;
	}
}

void assay_ep_ll_expert(const struct assay_ep_ll *ll, const struct assay_ep_ll_recv *rv,
			uint16_t *y)
{
	int64_t H = ll->p.hidden;
	for (int64_t le = 0; le < ll->local_experts; le++)
		for (int64_t i = 0; i < rv->count[le] && i < ll->slots; i++) {
			size_t row = (size_t)(le * ll->slots + i);
			uint16_t *dst = y + row * (size_t)H;
			if (rv->scales)
				assay_ep_ll_dequantize_row(
				    rv->x + row * ll->row_bytes,
				    rv->scales + (size_t)(le * ll->blocks * ll->slots + i),
				    (size_t)ll->slots, H, dst);
			else
				memcpy(dst, rv->x + row * ll->row_bytes, ll->row_bytes);
		}
}

void assay_ep_ll_reduce(const struct assay_ep_ll *ll, const int32_t *ids, const float *weights,
			const uint16_t *const *rows, float *acc, uint16_t *out)
{
	int64_t H = ll->p.hidden, K = ll->p.topk;
	for (int64_t t = 0; t < ll->p.tokens; t++) {
		memset(acc, 0, (size_t)H * sizeof(*acc));
		for (int64_t k = 0; k < K; k++) {
			if (ids[t * K + k] < 0)
				continue;
			const uint16_t *row = rows[t * K + k];
			float w = weights[t * K + k];
			for (int64_t c = 0; c < H; c++)
				acc[c] += w * assay_bf16_to_float(row[c]);
		}
		for (int64_t c = 0; c < H; c++)
			out[t * H + c] = assay_bf16_from_float(acc[c]);
	}
}

double assay_ep_ll_calc_diff(const double *x, const double *y, size_t n)
{
	double sums[2] = {0, 0};
	for (size_t i = 0; i < n; i++)
		assay_ep_ll_diff_add(x[i], y[i], sums);
	return assay_ep_ll_diff_of(sums);
}
