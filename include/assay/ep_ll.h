/* DeepEP's low-latency mode (deepseek-ai/DeepEP dd758ca,
 * tests/legacy/test_low_latency.py and Buffer.low_latency_dispatch /
 * low_latency_combine), in pure C: the fixed per-expert receive buffers and
 * their packed layout, the FP8 cast with one scale per 128 channels
 * (optionally power-of-two scales), the masked (-1) top-k slots, the
 * top-k-weighted combine accumulated in float32, and the oracle with
 * DeepEP's measure (calc_diff) and tolerances. assay-ep (src/assay-ep/lowlat.c)
 * moves the data; this decides what correct is. docs/ep.md, "Low-latency mode". */
#ifndef ASSAY_EP_LL_H
#define ASSAY_EP_LL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "assay/ep.h"

#define ASSAY_EP_LL_TOL_FP8    9e-4  /* calc_diff bound of an FP8 dispatch */
#define ASSAY_EP_LL_TOL_BF16   1e-5  /* calc_diff bound of a BF16 dispatch */
#define ASSAY_EP_LL_AMAX_FLOOR 1e-4f /* a block's amax is at least this */
#define ASSAY_EP_LL_HEADER     16    /* message header: the source token index */

/* The shape of one low-latency point on every rank. */
struct assay_ep_ll {
	struct assay_ep_problem p; /* tokens: this point's tokens per rank */
	int64_t max_tokens;        /* num_max_dispatch_tokens_per_rank (>= p.tokens) */
	int64_t local_experts;     /* experts / ep */
	int64_t slots;             /* ep * max_tokens: rows per local expert */
	int64_t blocks;            /* scale blocks per row: ceil(hidden / 128) */
	bool round_scale;          /* FP8 scales rounded up to a power of two */
	size_t row_bytes;          /* payload per row: hidden (FP8) or 2 * hidden */
	size_t msg_bytes;          /* header + payload + FP8 scales */
};
void assay_ep_ll_init(const struct assay_ep_problem *p, int64_t max_tokens, bool round_scale,
		      struct assay_ep_ll *ll);

/* DeepEP's cast: amax = max(|x| of the block, 1e-4); scale = 448 / amax and
 * the stored scale amax / 448, or with round_scale 2^-e and 2^e where
 * e = ceil(log2(amax / 448)); codes = e4m3(x * scale), saturating. */
void assay_ep_ll_quantize_row(const uint16_t *x, int64_t hidden, bool round_scale, uint8_t *q,
			      float *scales);
/* DeepEP's per_token_cast_back: bf16(code * scale); scale b of the row at
 * scales[b * scale_stride]. */
void assay_ep_ll_dequantize_row(const uint8_t *q, const float *scales, size_t scale_stride,
				int64_t hidden, uint16_t *out);
/* The message of a token: header (src index, int32, then zeros), then the
 * payload (BF16 row, or FP8 codes and float32 scales). */
void assay_ep_ll_message(const struct assay_ep_ll *ll, int32_t src, const uint16_t *x,
			 unsigned char *msg);

/* Set entries of the top-k ids to -1 as DeepEP's test does (random
 * positions, repeats allowed): per rank, `masked` draws of a token of that
 * rank and a slot, from the counter hash of the seed. */
void assay_ep_ll_mask(const struct assay_ep_problem *p, int64_t masked, struct assay_ep_routing *r);
/* Selections (non-negative ids) of the routing's tokens of rank src that go
 * to expert e. */
int64_t assay_ep_ll_selections(const struct assay_ep_ll *ll, const struct assay_ep_routing *r,
			       int64_t src, int64_t e);

/* What a rank's dispatch returns (DeepEP's packed tensors). */
struct assay_ep_ll_recv {
	unsigned char *x;      /* [local_experts][slots][row_bytes] */
	float *scales;         /* FP8: [local_experts][blocks][slots] (column-major) */
	int32_t *count;        /* [local_experts]: rows received */
	int32_t *src_info;     /* [local_experts][slots]: source token index */
	int64_t *layout_range; /* [local_experts][ep]: begin << 32 | count */
};
void assay_ep_ll_recv_alloc(const struct assay_ep_ll *ll, struct assay_ep_ll_recv *rv);
void assay_ep_ll_recv_poison(const struct assay_ep_ll *ll, struct assay_ep_ll_recv *rv);
void assay_ep_ll_recv_release(struct assay_ep_ll_recv *rv);
/* Pack the received messages: block[le * ep + src] holds count[le * ep + src]
 * messages from rank src for local expert le, in send order; they are
 * packed per expert in source-rank order. */
void assay_ep_ll_unpack(const struct assay_ep_ll *ll, const unsigned char *const *block,
			const int32_t *count, struct assay_ep_ll_recv *rv);
/* The identity expert of DeepEP's test: y[le][i] = the received row as BF16
 * (FP8 cast back), for every received row. */
void assay_ep_ll_expert(const struct assay_ep_ll *ll, const struct assay_ep_ll_recv *rv,
			uint16_t *y);
/* Combine on the source rank: out[t] = bf16(sum over the slots k with
 * ids[t][k] >= 0 of weights[t][k] * rows[t * topk + k]), summed in float32
 * in slot order; acc holds hidden floats. */
void assay_ep_ll_reduce(const struct assay_ep_ll *ll, const int32_t *ids, const float *weights,
			const uint16_t *const *rows, float *acc, uint16_t *out);

/* DeepEP's calc_diff over n elements: with x' = x + 1 and y' = y + 1 in
 * double, 1 - 2 sum(x'y') / sum(x'^2 + y'^2); NaN when an element is NaN
 * (DeepEP's test asserts a NaN-free output besides). */
double assay_ep_ll_calc_diff(const double *x, const double *y, size_t n);
/* The same, streamed: add one pair to sums {sum(x'y'), sum(x'^2 + y'^2)},
 * then assay_ep_ll_diff_of(sums). */
static inline void assay_ep_ll_diff_add(double x, double y, double *sums)
{
	double a = x + 1, b = y + 1;
	sums[0] += a * b;
	sums[1] += a * a + b * b;
}
static inline double assay_ep_ll_diff_of(const double *sums)
{
	if (sums[0] != sums[0] || sums[1] != sums[1])
		return sums[0] != sums[0] ? sums[0] : sums[1]; /* NaN: a NaN element */
	return sums[1] > 0 ? 1 - 2 * sums[0] / sums[1] : 0;
}

/* ---- the oracle ---- */
enum assay_ep_ll_check {
	ASSAY_EP_LL_RECV_COUNT,   /* rows per local expert == selections */
	ASSAY_EP_LL_LAYOUT,       /* layout_range: per source its count, ranges tile */
	ASSAY_EP_LL_SRC_INFO,     /* each row's source token selected the expert, once */
	ASSAY_EP_LL_PAYLOAD,      /* rows (FP8: codes and scales) bit-exact */
	ASSAY_EP_LL_COMBINE_DIFF, /* calc_diff below DeepEP's tolerance, no NaN */
	ASSAY_EP_LL_COMBINE_SUM,  /* each element within one BF16 step of the float32 sum */
	ASSAY_EP_LL_CHECKS
};
const char *assay_ep_ll_check_name(enum assay_ep_ll_check c);
double assay_ep_ll_tolerance(enum assay_ep_precision p);

struct assay_ep_ll_verdict {
	int64_t failures[ASSAY_EP_LL_CHECKS];
	double diff; /* calc_diff of the combine (NaN when an output is NaN) */
};
/* Check what rank received (r: the global routing, masked). */
void assay_ep_ll_check_dispatch(const struct assay_ep_ll *ll, const struct assay_ep_routing *r,
				int64_t rank, const struct assay_ep_ll_recv *rv,
				struct assay_ep_ll_verdict *v);
/* Check rank's combine output out[tokens][hidden] (BF16). */
void assay_ep_ll_check_combine(const struct assay_ep_ll *ll, const struct assay_ep_routing *r,
			       int64_t rank, const uint16_t *out, struct assay_ep_ll_verdict *v);

#endif
