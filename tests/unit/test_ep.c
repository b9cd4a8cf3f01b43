/* Unit tests for the EP workload library: known-answer vectors derived
 * independently (tests/fixtures/unit/gen-ep-kat.py, exact Python arithmetic) for
 * routing, activations, BF16/FP8 codecs and the combine expectation with one
 * and two scale-up domains; the oracle checks failing on each corruption;
 * nearest-rank statistics. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "assay/ep.h"
#include "assay/json.h"

static json_t *kat;

static int load_kat(void **state)
{
	(void)state;
	struct assay_error e;
	kat = assay_json_load_file(ASSAY_SOURCE_DIR "/tests/fixtures/unit/ep-kat.json", &e);
	return kat ? 0 : -1;
}

static int free_kat(void **state)
{
	(void)state;
	json_decref(kat);
	return 0;
}

static uint64_t u64(const json_t *v)
{
	return strtoull(json_string_value(v), NULL, 10);
}

static uint32_t fbits(float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	return u;
}

static float bitsf(uint32_t u)
{
	float f;
	memcpy(&f, &u, 4);
	return f;
}

static void test_counter(void **state)
{
	(void)state;
	size_t i;
	json_t *v;
	json_array_foreach(json_object_get(kat, "counter"), i, v)
	{
		uint64_t got =
		    assay_ep_counter(u64(json_array_get(v, 0)), u64(json_array_get(v, 1)),
				     (uint64_t)json_integer_value(json_array_get(v, 2)),
				     (uint64_t)json_integer_value(json_array_get(v, 3)),
				     (uint64_t)json_integer_value(json_array_get(v, 4)));
		assert_true(got == u64(json_array_get(v, 5)));
	}
	assert_true(i >= 6);
}

static void test_routing(void **state)
{
	(void)state;
	size_t i;
	json_t *v;
	json_array_foreach(json_object_get(kat, "routing"), i, v)
	{
		struct assay_ep_problem p = {.ep = 1, .tokens = 1, .hidden = 32};
		p.seed = (uint64_t)json_integer_value(json_object_get(v, "seed"));
		p.experts = json_integer_value(json_object_get(v, "experts"));
		p.topk = json_integer_value(json_object_get(v, "topk"));
		int32_t ex[16];
		float w[16];
		assay_ep_route_token(&p, (uint64_t)json_integer_value(json_object_get(v, "token")),
				     ex, w);
		for (int64_t k = 0; k < p.topk; k++) {
			assert_int_equal(ex[k], json_integer_value(json_array_get(
						    json_object_get(v, "ids"), (size_t)k)));
			assert_int_equal(fbits(w[k]),
					 json_integer_value(json_array_get(
					     json_object_get(v, "weight_bits"), (size_t)k)));
		}
	}
	assert_true(i >= 10);
}

static void test_activation(void **state)
{
	(void)state;
	size_t i;
	json_t *v;
	json_array_foreach(json_object_get(kat, "activation"), i, v)
	{
		float x = assay_ep_activation((uint64_t)json_integer_value(json_array_get(v, 0)),
					      (uint64_t)json_integer_value(json_array_get(v, 1)),
					      json_integer_value(json_array_get(v, 2)));
		assert_int_equal(fbits(x), json_integer_value(json_array_get(v, 3)));
		/* exactly representable in BF16 */
		assert_int_equal(fbits(assay_bf16_to_float(assay_bf16_from_float(x))), fbits(x));
	}
}

static void test_source_ids(void **state)
{
	(void)state;
	float row[32];
	uint64_t ids[] = {0, 1, 0x80000000u, 0xffffffffu, 123456789};
	for (size_t i = 0; i < ARRAY_SIZE(ids); i++) {
		for (int c = 0; c < 32; c++)
			row[c] = assay_ep_activation(67, ids[i], c);
		assert_int_equal(assay_ep_decode_source(row), (int64_t)ids[i]);
	}
	row[7] = 0.24f;
	assert_int_equal(assay_ep_decode_source(row), -1);
	row[7] = -0.25f;
	assert_true(assay_ep_decode_source(row) >= 0);
	row[7] = NAN;
	assert_int_equal(assay_ep_decode_source(row), -1);
}

static void test_bf16(void **state)
{
	(void)state;
	size_t i;
	json_t *v;
	json_array_foreach(json_object_get(kat, "bf16"), i, v)
	{
		float f = bitsf((uint32_t)json_integer_value(json_array_get(v, 0)));
		assert_int_equal(assay_bf16_from_float(f),
				 json_integer_value(json_array_get(v, 1)));
	}
	assert_true(isnan(assay_bf16_to_float(assay_bf16_from_float(NAN))));
	assert_int_equal(assay_bf16_from_float(-0.0f), 0x8000);
	assert_true(assay_bf16_to_float(0x3f80) == 1.0f);
}

static void test_fp8(void **state)
{
	(void)state;
	size_t i;
	json_t *v;
	json_array_foreach(json_object_get(kat, "fp8"), i, v)
	{
		float f = bitsf((uint32_t)json_integer_value(json_array_get(v, 0)));
		assert_int_equal(assay_fp8_from_float(f), json_integer_value(json_array_get(v, 1)));
	}
	json_array_foreach(json_object_get(kat, "fp8_decode"), i, v)
	{
		float f = assay_fp8_to_float((uint8_t)json_integer_value(json_array_get(v, 0)));
		assert_int_equal(fbits(f), json_integer_value(json_array_get(v, 1)));
	}
	assert_int_equal(assay_fp8_from_float(NAN), 0x7f);
	assert_true(isnan(assay_fp8_to_float(0xff)));
	assert_int_equal(assay_fp8_from_float(INFINITY), 0x7e);
	assert_int_equal(assay_fp8_from_float(-INFINITY), 0xfe);
	/* Every finite code decodes and encodes back to itself. */
	for (int c = 0; c < 256; c++) {
		if ((c & 0x7f) == 0x7f)
			continue;
		assert_int_equal(assay_fp8_from_float(assay_fp8_to_float((uint8_t)c)), c);
	}
}

static void test_fp8_rows(void **state)
{
	(void)state;
	size_t i;
	json_t *v;
	json_array_foreach(json_object_get(kat, "fp8_rows"), i, v)
	{
		json_t *in = json_object_get(v, "bf16");
		size_t n = json_array_size(in);
		uint16_t *row = malloc(n * 2);
		uint8_t *q = malloc(n);
		float scales[8];
		for (size_t c = 0; c < n; c++)
			row[c] = (uint16_t)json_integer_value(json_array_get(in, c));
		assay_fp8_quantize_row(row, (int64_t)n, q, scales);
		for (size_t c = 0; c < n; c++)
			assert_int_equal(q[c], json_integer_value(
						   json_array_get(json_object_get(v, "codes"), c)));
		for (int64_t b = 0; b < assay_ep_blocks((int64_t)n); b++)
			assert_int_equal(fbits(scales[b]),
					 json_integer_value(json_array_get(
					     json_object_get(v, "scale_bits"), (size_t)b)));
		free(row);
		free(q);
	}
	assert_int_equal(i, 3);
}

static void test_combine_expect(void **state)
{
	(void)state;
	size_t i;
	json_t *v;
	int two_domains = 0, fp8 = 0;
	json_array_foreach(json_object_get(kat, "combine"), i, v)
	{
		struct assay_ep_problem p = {.tokens = 4};
		p.seed = (uint64_t)json_integer_value(json_object_get(v, "seed"));
		p.ep = json_integer_value(json_object_get(v, "ep"));
		p.experts = json_integer_value(json_object_get(v, "experts"));
		p.topk = json_integer_value(json_object_get(v, "topk"));
		p.hidden = json_integer_value(json_object_get(v, "hidden"));
		p.scale_up_domain = json_integer_value(json_object_get(v, "scale_up_domain"));
		p.precision =
		    json_is_true(json_object_get(v, "fp8")) ? ASSAY_EP_FP8 : ASSAY_EP_BF16;
		two_domains += assay_ep_domains(&p) == 2;
		fp8 += p.precision == ASSAY_EP_FP8;
		struct assay_error e;
		assert_int_equal(assay_ep_problem_check(&p, &e), ASSAY_OK);
		struct assay_ep_routing r;
		assay_ep_routing_build(&p, &r);
		float *out = malloc((size_t)p.hidden * 4), *scratch = malloc((size_t)p.hidden * 12);
		uint16_t *y = malloc((size_t)p.hidden * 2);
		assay_ep_combine_expect(&p, &r,
					(uint64_t)json_integer_value(json_object_get(v, "token")),
					out, scratch, y);
		json_t *want = json_object_get(v, "out_bits");
		for (int64_t c = 0; c < p.hidden; c++)
			assert_int_equal(fbits(out[c]),
					 json_integer_value(json_array_get(want, (size_t)c)));
		free(out);
		free(scratch);
		free(y);
		assay_ep_routing_release(&r);
	}
	assert_true(two_domains >= 3);
	assert_true(fp8 >= 1);
}

/* A small problem and the records rank receives, built from the routing. */
struct fixture {
	struct assay_ep_problem p;
	struct assay_ep_layout l;
	struct assay_ep_routing r;
	unsigned char *recs;
	int64_t n;
};

static void fixture_init(struct fixture *f, enum assay_ep_precision prec, int64_t rank)
{
	struct assay_ep_problem p = {.ep = 4,
				     .tokens = 6,
				     .hidden = 160,
				     .experts = 16,
				     .topk = 4,
				     .seed = 67,
				     .scale_up_domain = 4,
				     .precision = prec};
	f->p = p;
	assay_ep_layout_init(&f->p, &f->l);
	assert_int_equal(f->l.stride % 64, 0);
	assay_ep_routing_build(&f->p, &f->r);
	f->recs = calloc((size_t)f->r.ntok, f->l.stride);
	f->n = 0;
	int32_t dests[4];
	for (int64_t t = 0; t < f->r.ntok; t++) {
		int nd = assay_ep_token_dests(&f->p, f->r.experts + t * 4, dests);
		for (int i = 0; i < nd; i++)
			if (dests[i] == rank)
				assay_ep_record_fill(&f->p, &f->l, &f->r, (uint64_t)t,
						     f->recs + (size_t)f->n++ * f->l.stride);
	}
	assert_true(f->n > 1);
}

static void fixture_release(struct fixture *f)
{
	assay_ep_routing_release(&f->r);
	free(f->recs);
}

static int64_t failures(const struct assay_ep_verdict *v, enum assay_ep_check only)
{
	int64_t other = 0;
	for (int c = 0; c < ASSAY_EP_CHECK_COUNT; c++)
		if (c != (int)only)
			other += v->failures[c];
	return other ? -1 : only == ASSAY_EP_CHECK_COUNT ? 0 : v->failures[only];
}

static void test_check_dispatch(void **state)
{
	(void)state;
	for (int prec = 0; prec < 2; prec++) {
		struct fixture f;
		fixture_init(&f, (enum assay_ep_precision)prec, 1);
		struct assay_ep_verdict v = {{0}, 0};
		assay_ep_check_dispatch(&f.p, &f.l, &f.r, 1, f.recs, f.n, &v);
		assert_int_equal(failures(&v, ASSAY_EP_CHECK_COUNT), 0);

		/* dropped record: the source set (and the counts) */
		memset(&v, 0, sizeof(v));
		assay_ep_check_dispatch(&f.p, &f.l, &f.r, 1, f.recs, f.n - 1, &v);
		assert_true(v.failures[ASSAY_EP_CHECK_SOURCES] == 1 &&
			    v.failures[ASSAY_EP_CHECK_COUNTS] > 0);

		unsigned char *last = f.recs + (size_t)(f.n - 1) * f.l.stride;
		unsigned char save[1024];
		memcpy(save, last, f.l.stride);
		/* a payload bit outside the id columns */
		last[f.l.payload + 100] ^= 1;
		memset(&v, 0, sizeof(v));
		assay_ep_check_dispatch(&f.p, &f.l, &f.r, 1, f.recs, f.n, &v);
		assert_int_equal(failures(&v, ASSAY_EP_CHECK_PAYLOAD), 1);
		memcpy(last, save, f.l.stride);
		/* an id column erased */
		memset(last + f.l.payload, 0, prec ? 1 : 2);
		memset(&v, 0, sizeof(v));
		assay_ep_check_dispatch(&f.p, &f.l, &f.r, 1, f.recs, f.n, &v);
		assert_int_equal(v.failures[ASSAY_EP_CHECK_PROVENANCE], 1);
		memcpy(last, save, f.l.stride);
		/* a weight */
		last[f.l.weights] ^= 1;
		memset(&v, 0, sizeof(v));
		assay_ep_check_dispatch(&f.p, &f.l, &f.r, 1, f.recs, f.n, &v);
		assert_int_equal(failures(&v, ASSAY_EP_CHECK_WEIGHTS), 1);
		memcpy(last, save, f.l.stride);
		/* an expert id: a local one swapped for another local expert */
		int32_t e;
		int k = 0;
		for (;; k++) {
			memcpy(&e, last + f.l.experts + (size_t)k * 4, 4);
			if (assay_ep_expert_rank(&f.p, e) == 1)
				break;
		}
		int32_t other = 4;
		while (other == e || memmem(last + f.l.experts, 16, &other, 4))
			other++;
		assert_true(other < 8);
		memcpy(last + f.l.experts + (size_t)k * 4, &other, 4);
		memset(&v, 0, sizeof(v));
		assay_ep_check_dispatch(&f.p, &f.l, &f.r, 1, f.recs, f.n, &v);
		assert_int_equal(v.failures[ASSAY_EP_CHECK_EXPERTS], 1);
		assert_int_equal(v.failures[ASSAY_EP_CHECK_COUNTS], 2);
		memcpy(last, save, f.l.stride);
		/* a duplicate */
		memcpy(last, f.recs, f.l.stride);
		memset(&v, 0, sizeof(v));
		assay_ep_check_dispatch(&f.p, &f.l, &f.r, 1, f.recs, f.n, &v);
		assert_true(v.failures[ASSAY_EP_CHECK_SOURCES] >= 1);
		fixture_release(&f);
	}
}

static void test_check_combine(void **state)
{
	(void)state;
	for (int64_t sud = 1; sud <= 4; sud *= 2) {
		struct fixture f;
		fixture_init(&f, ASSAY_EP_BF16, 2);
		f.p.scale_up_domain = sud;
		int64_t H = f.p.hidden;
		float *out = calloc((size_t)(f.p.tokens * H), 4), *scratch = malloc((size_t)H * 12);
		uint16_t *y = malloc((size_t)H * 2);
		for (int64_t i = 0; i < f.p.tokens; i++)
			assay_ep_combine_expect(&f.p, &f.r, (uint64_t)(2 * f.p.tokens + i),
						out + i * H, scratch, y);
		struct assay_ep_verdict v = {{0}, 0};
		assay_ep_check_combine(&f.p, &f.r, 2, out, &v);
		assert_int_equal(failures(&v, ASSAY_EP_CHECK_COUNT), 0);
		assert_true(v.max_relative_error == 0);
		/* just inside and just outside the gate */
		out[40] = out[40] + 0.03f * fmaxf(fabsf(out[40]), 0.02f);
		assay_ep_check_combine(&f.p, &f.r, 2, out, &v);
		assert_int_equal(failures(&v, ASSAY_EP_CHECK_COUNT), 0);
		assert_true(v.max_relative_error > 0.029 && v.max_relative_error < 0.031);
		out[41] = -out[41] * 1.5f - 1.0f;
		assay_ep_check_combine(&f.p, &f.r, 2, out, &v);
		assert_int_equal(failures(&v, ASSAY_EP_CHECK_COMBINE), 1);
		out[41] = NAN;
		memset(&v, 0, sizeof(v));
		assay_ep_check_combine(&f.p, &f.r, 2, out, &v);
		assert_int_equal(failures(&v, ASSAY_EP_CHECK_COMBINE), 1);
		assert_true(isnan(v.max_relative_error));
		free(out);
		free(scratch);
		free(y);
		fixture_release(&f);
	}
}

static void test_stats(void **state)
{
	(void)state;
	assert_int_equal(assay_ep_rank_index(1, 50), 0);
	assert_int_equal(assay_ep_rank_index(1, 99), 0);
	assert_int_equal(assay_ep_rank_index(2, 50), 0);
	/* The cross-rank median of pair_period: the lower median at an even
	 * count, as torch.median in CollectiveX's harness (ep_harness.py). */
	assert_int_equal(assay_ep_rank_index(4, 50), 1);
	assert_int_equal(assay_ep_rank_index(8, 50), 3);
	assert_int_equal(assay_ep_rank_index(3, 50), 1);
	assert_int_equal(assay_ep_rank_index(128, 50), 63);
	assert_int_equal(assay_ep_rank_index(128, 90), 115); /* ceil(115.2) - 1 */
	assert_int_equal(assay_ep_rank_index(128, 95), 121); /* ceil(121.6) - 1 */
	assert_int_equal(assay_ep_rank_index(128, 99), 126); /* ceil(126.72) - 1 */
	assert_int_equal(assay_ep_rank_index(100, 99), 98);
	assert_int_equal(assay_ep_rank_index(2048, 99), 2027);
	double s[10] = {9, 1, 8, 2, 7, 3, 6, 4, 5, 10};
	struct assay_ep_stats st;
	assay_ep_stats_compute(s, 10, &st);
	assert_true(st.min == 1 && st.max == 10 && st.p50 == 5 && st.p90 == 9 && st.p95 == 10 &&
		    st.p99 == 10 && st.n == 10);
}

static void test_rotation(void **state)
{
	(void)state;
	size_t o[3];
	/* trials 0..5 over 3 components: rotations, then reversed rotations */
	static const size_t want[6][3] = {{0, 1, 2}, {1, 2, 0}, {2, 0, 1},
					  {2, 1, 0}, {0, 2, 1}, {1, 0, 2}};
	for (int t = 0; t < 6; t++) {
		assay_ep_rotation(3, t, o);
		for (int j = 0; j < 3; j++)
			assert_int_equal(o[j], want[t][j]);
	}
	/* over 2 * n trials every item is first exactly twice */
	size_t o4[4], first[4] = {0};
	for (int t = 0; t < 8; t++) {
		assay_ep_rotation(4, t, o4);
		first[o4[0]]++;
	}
	for (int i = 0; i < 4; i++)
		assert_int_equal(first[i], 2);
	assay_ep_rotation(1, 7, o);
	assert_int_equal(o[0], 0);
}

static void test_problem_and_stats(void **state)
{
	(void)state;
	struct assay_error e;
	struct assay_ep_problem p = {.ep = 3,
				     .tokens = 2,
				     .hidden = 64,
				     .experts = 256,
				     .topk = 8,
				     .seed = 67,
				     .scale_up_domain = 3};
	assert_int_equal(assay_ep_problem_check(&p, &e), ASSAY_USAGE);
	assert_string_equal(e.message, "--experts (256) must be a multiple of --ep (3)");
	p.ep = 2;
	p.hidden = 16;
	assert_int_equal(assay_ep_problem_check(&p, &e), ASSAY_USAGE);
	assert_string_equal(e.message, "--hidden must be from 32 to 1048576, got 16");
	p.hidden = 64;
	p.topk = 300;
	assert_int_equal(assay_ep_problem_check(&p, &e), ASSAY_USAGE);
	p.topk = 8;
	assert_int_equal(assay_ep_problem_check(&p, &e), ASSAY_OK);
	struct assay_ep_routing r;
	assay_ep_routing_build(&p, &r);
	struct assay_ep_route_stats s;
	assay_ep_route_stats(&p, &r, &s);
	int64_t sum = 0, fan = 0;
	int32_t d[8];
	for (int64_t t = 0; t < r.ntok; t++)
		fan += assay_ep_token_dests(&p, r.experts + t * 8, d);
	for (int i = 0; i < 2; i++)
		sum += s.recv_copies[i];
	assert_int_equal(sum, s.routed_copies);
	assert_int_equal(fan, s.routed_copies);
	assert_true(s.fanout_min >= 1 && s.fanout_max <= 2);
	assay_ep_route_stats_release(&s);
	assay_ep_routing_release(&r);
	/* dests are distinct and ascending */
	int32_t ex[4] = {200, 3, 130, 7}, dests[4];
	p.ep = 4;
	p.topk = 4;
	assert_int_equal(assay_ep_token_dests(&p, ex, dests), 3);
	assert_true(dests[0] == 0 && dests[1] == 2 && dests[2] == 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_counter),
	    cmocka_unit_test(test_routing),
	    cmocka_unit_test(test_activation),
	    cmocka_unit_test(test_source_ids),
	    cmocka_unit_test(test_bf16),
	    cmocka_unit_test(test_fp8),
	    cmocka_unit_test(test_fp8_rows),
	    cmocka_unit_test(test_combine_expect),
	    cmocka_unit_test(test_check_dispatch),
	    cmocka_unit_test(test_check_combine),
	    cmocka_unit_test(test_stats),
	    cmocka_unit_test(test_rotation),
	    cmocka_unit_test(test_problem_and_stats),
	};
	return cmocka_run_group_tests(tests, load_kat, free_kat);
}
