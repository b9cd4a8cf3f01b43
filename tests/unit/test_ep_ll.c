/* Unit tests for the low-latency mode's rules (include/assay/ep_ll.h), from
 * deepseek-ai/DeepEP dd758ca: the FP8 cast of csrc/kernels/legacy/
 * internode_ll.cu and utils.cuh (amax floor 1e-4, scale 448 / amax, stored
 * amax / 448, or power-of-two scales 2^ceil(log2(amax / 448)) with
 * round_scale), per_token_cast_back and calc_diff of deep_ep/utils/math.py,
 * the packed receive layout of Buffer.low_latency_dispatch (deep_ep/buffers/
 * legacy.py: [local experts, ranks x max tokens, hidden], counts, source
 * info, layout ranges begin << 32 | count, column-major scales) and the -1
 * slots of tests/legacy/test_low_latency.py. Expected values are worked by
 * hand from those rules. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "assay/ep_ll.h"

static void fill(uint16_t *row, int64_t n, float v)
{
	for (int64_t i = 0; i < n; i++)
		row[i] = assay_bf16_from_float(v);
}

static void test_quantize(void **state)
{
	(void)state;
	uint16_t x[160];
	uint8_t q[160];
	float s[2];
	/* Block 0 all 2.0: scale 448 / 2 = 224, 2 * 224 = 448 = e4m3 0x7e;
	 * block 1 (32 columns, partial) all zero: amax floors at 1e-4. */
	fill(x, 128, 2.0f);
	fill(x + 128, 32, 0.0f);
	assay_ep_ll_quantize_row(x, 160, false, q, s);
	assert_int_equal(q[0], 0x7e);
	assert_int_equal(q[127], 0x7e);
	assert_int_equal(q[128], 0);
	assert_true(s[0] == 2.0f * (1.0f / 448.0f));
	assert_true(s[1] == 1e-4f * (1.0f / 448.0f));
	/* round_scale: 2 / 448 = 2^-7.8 -> 2^-7; 2 * 2^7 = 256 = 2^8 (0x78),
	 * 1 * 2^7 = 2^7 (0x70). */
	x[5] = assay_bf16_from_float(1.0f);
	assay_ep_ll_quantize_row(x, 160, true, q, s);
	assert_true(s[0] == 0x1p-7f);
	assert_int_equal(q[0], 0x78);
	assert_int_equal(q[5], 0x70);
	/* amax 56: 56 / 448 = 2^-3 exactly, no rounding up. */
	fill(x, 128, 56.0f);
	assay_ep_ll_quantize_row(x, 128, true, q, s);
	assert_true(s[0] == 0.125f);
	assert_int_equal(q[0], 0x7e); /* 448 */
	/* Cast back: bf16(code * scale) gives the row back here. */
	uint16_t back[128];
	assay_ep_ll_dequantize_row(q, s, 1, 128, back);
	assert_true(assay_bf16_to_float(back[7]) == 56.0f);
}

static void test_calc_diff(void **state)
{
	(void)state;
	double x[2] = {0, 3}, y[2] = {0, 3};
	assert_true(assay_ep_ll_calc_diff(x, y, 2) == 0);
	/* x' = 1, y' = 2: 1 - 2 * 2 / (1 + 4) = 0.2 */
	double a = 0, b = 1;
	assert_true(fabs(assay_ep_ll_calc_diff(&a, &b, 1) - 0.2) < 1e-15);
	/* A NaN element makes the measure NaN, never 0 (it fails the gate). */
	double n = NAN;
	assert_true(isnan(assay_ep_ll_calc_diff(&a, &n, 1)));
	assert_true(assay_ep_ll_tolerance(ASSAY_EP_FP8) == 9e-4);
	assert_true(assay_ep_ll_tolerance(ASSAY_EP_BF16) == 1e-5);
}

static void test_mask(void **state)
{
	(void)state;
	struct assay_ep_problem p = {.ep = 2,
				     .tokens = 3,
				     .hidden = 64,
				     .experts = 8,
				     .topk = 4,
				     .seed = 5,
				     .scale_up_domain = 2};
	struct assay_ep_routing r, m;
	assay_ep_routing_build(&p, &r);
	assay_ep_routing_build(&p, &m);
	assay_ep_ll_mask(&p, 0, &m);
	assert_memory_equal(r.experts, m.experts, 24 * sizeof(int32_t));
	assay_ep_ll_mask(&p, 4, &m);
	int masked[2] = {0, 0};
	for (int i = 0; i < 24; i++) {
		if (m.experts[i] < 0)
			masked[i / 12]++;
		else
			assert_int_equal(m.experts[i], r.experts[i]);
	}
	/* At most 4 per rank (draws repeat), at least one. */
	assert_in_range(masked[0], 1, 4);
	assert_in_range(masked[1], 1, 4);
	assay_ep_routing_release(&r);
	assay_ep_routing_release(&m);
}

/* A dispatch to `rank` done by hand: every rank's messages for rank's
 * experts, per expert and source in token order, into raw blocks. */
struct sim {
	unsigned char *raw; /* [le][ep][max] messages */
	const unsigned char *block[8];
	int32_t count[8];
};

static void simulate(const struct assay_ep_ll *ll, const struct assay_ep_routing *r, int64_t rank,
		     struct sim *s)
{
	int64_t P = ll->p.ep, T = ll->p.tokens, K = ll->p.topk, nle = ll->local_experts;
	s->raw = calloc((size_t)(nle * P * ll->max_tokens), ll->msg_bytes);
	uint16_t x[256];
	memset(s->count, 0, sizeof(s->count));
	for (int64_t src = 0; src < P; src++)
		for (int64_t t = 0; t < T; t++)
			for (int64_t k = 0; k < K; k++) {
				int32_t e = r->experts[(src * T + t) * K + k];
				if (e < 0 || e / nle != rank)
					continue;
				int64_t b = (e % nle) * P + src;
				assay_ep_activation_row(&ll->p, (uint64_t)(src * T + t), x);
				assay_ep_ll_message(
				    ll, (int32_t)t, x,
				    s->raw + (size_t)(b * ll->max_tokens + s->count[b]++) *
						 ll->msg_bytes);
			}
	for (int64_t b = 0; b < nle * P; b++)
		s->block[b] = s->raw + (size_t)(b * ll->max_tokens) * ll->msg_bytes;
}

/* ep 2, 4 experts (2 per rank), 3 tokens per rank, top-2, max 4 tokens:
 * routing by hand with -1 slots. */
static const int32_t ids[12] = {0, 1, 3, -1, -1, -1, /* rank 0's tokens 0..2 */
				1, 2, 0, 3,  -1, 1}; /* rank 1's tokens 0..2 */

static void setup_ll(struct assay_ep_ll *ll, struct assay_ep_routing *r,
		     enum assay_ep_precision prec)
{
	struct assay_ep_problem p = {.ep = 2,
				     .tokens = 3,
				     .hidden = 256,
				     .experts = 4,
				     .topk = 2,
				     .seed = 9,
				     .scale_up_domain = 2,
				     .precision = prec};
	assay_ep_ll_init(&p, 4, false, ll);
	r->ntok = 6, r->topk = 2;
	r->experts = malloc(sizeof(ids));
	r->weights = malloc(12 * sizeof(float));
	memcpy(r->experts, ids, sizeof(ids));
	for (int i = 0; i < 12; i++)
		r->weights[i] = 0.25f + 0.125f * (float)(i % 3);
}

static void test_layout(void **state)
{
	(void)state;
	struct assay_ep_ll ll;
	struct assay_ep_routing r;
	setup_ll(&ll, &r, ASSAY_EP_FP8);
	assert_int_equal(ll.slots, 8);
	assert_int_equal(ll.msg_bytes, 16 + 256 + 2 * 4);
	struct sim s;
	simulate(&ll, &r, 0, &s);
	struct assay_ep_ll_recv rv;
	assay_ep_ll_recv_alloc(&ll, &rv);
	assay_ep_ll_unpack(&ll, s.block, s.count, &rv);
	/* Expert 0: rank 0 token 0, rank 1 token 1 -> count 2, ranges
	 * (0, 1) and (1, 1). Expert 1: rank 0 token 0, rank 1 tokens 0 and 2. */
	assert_int_equal(rv.count[0], 2);
	assert_int_equal(rv.count[1], 3);
	assert_int_equal(rv.layout_range[0 * 2 + 0], ((int64_t)0 << 32) | 1);
	assert_int_equal(rv.layout_range[0 * 2 + 1], ((int64_t)1 << 32) | 1);
	assert_int_equal(rv.layout_range[1 * 2 + 1], ((int64_t)1 << 32) | 2);
	assert_int_equal(rv.src_info[0 * 8 + 1], 1);
	assert_int_equal(rv.src_info[1 * 8 + 2], 2);
	/* Scales column-major per expert: [le][block][slot]. */
	assert_memory_equal(&rv.scales[(1 * 2 + 1) * 8 + 2],
			    s.block[1 * 2 + 1] + ll.msg_bytes + 16 + 256 + 4, 4);
	struct assay_ep_ll_verdict v;
	memset(&v, 0, sizeof(v));
	assay_ep_ll_check_dispatch(&ll, &r, 0, &rv, &v);
	for (int c = 0; c < ASSAY_EP_LL_CHECKS; c++)
		assert_int_equal(v.failures[c], 0);
	/* Each corruption fails its check. */
	rv.x[1 * 8 * 256 + 5] ^= 1;
	rv.src_info[0] = 2;
	rv.count[1] = 2;
	rv.layout_range[1] = ((int64_t)0 << 32) | 1;
	assay_ep_ll_check_dispatch(&ll, &r, 0, &rv, &v);
	assert_true(v.failures[ASSAY_EP_LL_PAYLOAD] > 0);
	assert_true(v.failures[ASSAY_EP_LL_SRC_INFO] > 0);
	assert_true(v.failures[ASSAY_EP_LL_RECV_COUNT] > 0);
	assert_true(v.failures[ASSAY_EP_LL_LAYOUT] > 0);
	assay_ep_ll_recv_release(&rv);
	free(s.raw);
	assay_ep_routing_release(&r);
}

/* Rank 1's combine through the identity expert on both ranks. */
static void combine(const struct assay_ep_ll *ll, const struct assay_ep_routing *r,
		    const uint16_t *const *rows, uint16_t *out)
{
	float acc[256];
	assay_ep_ll_reduce(ll, r->experts + 6, r->weights + 6, rows, acc, out);
}

static void test_combine(void **state)
{
	(void)state;
	for (int prec = 0; prec < 2; prec++) {
		struct assay_ep_ll ll;
		struct assay_ep_routing r;
		setup_ll(&ll, &r, (enum assay_ep_precision)prec);
		/* The identity expert's row of each of rank 1's tokens. */
		static uint16_t y[3][256], x[256], out[3 * 256];
		for (int t = 0; t < 3; t++) {
			assay_ep_activation_row(&ll.p, (uint64_t)(3 + t), x);
			unsigned char msg[16 + 256 * 2 + 8];
			assay_ep_ll_message(&ll, t, x, msg);
			float sc[2];
			memcpy(sc, msg + 16 + 256, sizeof(sc));
			if (prec)
				assay_ep_ll_dequantize_row(msg + 16, sc, 1, 256, y[t]);
			else
				memcpy(y[t], x, sizeof(x));
		}
		const uint16_t *rows[6];
		for (int i = 0; i < 6; i++)
			rows[i] = r.experts[6 + i] < 0 ? NULL : y[i / 2];
		combine(&ll, &r, rows, out);
		struct assay_ep_ll_verdict v;
		memset(&v, 0, sizeof(v));
		assay_ep_ll_check_combine(&ll, &r, 1, out, &v);
		assert_int_equal(v.failures[ASSAY_EP_LL_COMBINE_SUM], 0);
		assert_int_equal(v.failures[ASSAY_EP_LL_COMBINE_DIFF], 0);
		assert_true(v.diff < assay_ep_ll_tolerance(ll.p.precision));
		/* Not skipping the -1 of token 2 adds its weight: the diff fails. */
		r.experts[6 + 4] = 0;
		rows[4] = y[2];
		combine(&ll, &r, rows, out);
		r.experts[6 + 4] = -1;
		memset(&v, 0, sizeof(v));
		assay_ep_ll_check_combine(&ll, &r, 1, out, &v);
		assert_true(v.failures[ASSAY_EP_LL_COMBINE_DIFF] > 0);
		/* A NaN element fails the diff (NaN), not passes it. */
		rows[4] = NULL;
		combine(&ll, &r, rows, out);
		out[7] = 0x7fc0;
		memset(&v, 0, sizeof(v));
		assay_ep_ll_check_combine(&ll, &r, 1, out, &v);
		assert_true(isnan(v.diff));
		assert_true(v.failures[ASSAY_EP_LL_COMBINE_DIFF] > 0);
		/* One element a BF16 step off the float32 sum fails the
		 * per-element check. With BF16 rows and these weights (multiples
		 * of 1/8) the sums are exact, never near a rounding midpoint;
		 * FP8 rows cast back can land on one (a neighbour is accepted
		 * there), so they are moved two steps. */
		combine(&ll, &r, rows, out);
		out[300] = (uint16_t)(out[300] + (prec ? 2 : 1));
		memset(&v, 0, sizeof(v));
		assay_ep_ll_check_combine(&ll, &r, 1, out, &v);
		assert_int_equal(v.failures[ASSAY_EP_LL_COMBINE_SUM], 1);
		assay_ep_routing_release(&r);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_quantize), cmocka_unit_test(test_calc_diff),
	    cmocka_unit_test(test_mask),     cmocka_unit_test(test_layout),
	    cmocka_unit_test(test_combine),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
