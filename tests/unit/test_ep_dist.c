/* Unit tests for the routing distributions (src/lib/ep/dist.c, docs/ep.md
 * "Routing distributions"): zipf and hot routes pinned for a seed (known
 * answers from tests/fixtures/unit/gen-ep-dist-kat.py, an independent
 * cumulative-scan implementation), the uniform router equal to the design's
 * rule, skew that shows in the imbalance, the spec syntax and the routing
 * file's located errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "assay/ep.h"
#include "assay/util.h"

/* python3 tests/fixtures/unit/gen-ep-dist-kat.py: 16 experts, top-4, seed 67. */
static const int32_t kat_zipf_1_2[6][4] = {
    {4, 12, 9, 14}, {4, 13, 6, 12}, {9, 12, 14, 3}, {14, 13, 0, 2}, {13, 2, 9, 11}, {15, 12, 2, 10},
};
static const int32_t kat_hot_3_0_6[6][4] = {
    {5, 11, 7, 2}, {7, 1, 2, 8}, {1, 2, 0, 13}, {12, 0, 1, 2}, {2, 5, 3, 0}, {2, 3, 1, 13},
};

static struct assay_ep_problem shape(int64_t ep, int64_t tokens, int64_t experts, int64_t topk,
				     const struct assay_ep_dist *d)
{
	struct assay_ep_problem p = {.ep = ep,
				     .tokens = tokens,
				     .hidden = 32,
				     .experts = experts,
				     .topk = topk,
				     .seed = 67,
				     .scale_up_domain = ep,
				     .dist = d};
	return p;
}

static void pinned(const char *spec, const int32_t (*want)[4])
{
	struct assay_ep_dist d;
	struct assay_error e;
	assert_int_equal(assay_ep_dist_parse(spec, &d, &e), ASSAY_OK);
	assert_int_equal(assay_ep_dist_prepare(&d, 16, 4, &e), ASSAY_OK);
	struct assay_ep_problem p = shape(2, 3, 16, 4, &d);
	struct assay_ep_routing r;
	assay_ep_routing_build(&p, &r);
	assert_int_equal(r.ntok, 6);
	for (int t = 0; t < 6; t++)
		for (int k = 0; k < 4; k++)
			assert_int_equal(r.experts[t * 4 + k], want[t][k]);
	/* The weights are the uniform rule's: the same for every distribution. */
	struct assay_ep_problem u = shape(2, 3, 16, 4, NULL);
	struct assay_ep_routing ru;
	assay_ep_routing_build(&u, &ru);
	assert_memory_equal(r.weights, ru.weights, 24 * sizeof(float));
	assay_ep_routing_release(&ru);
	assay_ep_routing_release(&r);
	assay_ep_dist_release(&d);
}

static void test_pinned(void **state)
{
	(void)state;
	pinned("zipf:1.2", kat_zipf_1_2);
	pinned("hot:3:0.6", kat_hot_3_0_6);
}

/* The router and the one-token call agree with "uniform" given explicitly
 * and with NULL, and topk == experts (every expert once) is quick. */
static void test_uniform(void **state)
{
	(void)state;
	struct assay_ep_dist d;
	struct assay_error e;
	assert_int_equal(assay_ep_dist_parse("uniform", &d, &e), ASSAY_OK);
	struct assay_ep_problem p = shape(4, 50, 64, 8, &d), q = shape(4, 50, 64, 8, NULL);
	struct assay_ep_routing r;
	assay_ep_routing_build(&p, &r);
	int32_t ex[8];
	float w[8];
	for (int64_t t = 0; t < r.ntok; t++) {
		assay_ep_route_token(&q, (uint64_t)t, ex, w);
		assert_memory_equal(ex, r.experts + t * 8, sizeof(ex));
		assert_memory_equal(w, r.weights + t * 8, sizeof(w));
	}
	assay_ep_routing_release(&r);
	assay_ep_dist_release(&d);
	struct assay_ep_problem all = shape(1, 2, 4096, 4096, NULL);
	assay_ep_routing_build(&all, &r);
	for (int64_t t = 0; t < 2; t++) {
		char *seen = xcalloc(4096, 1);
		for (int64_t k = 0; k < 4096; k++)
			seen[r.experts[t * 4096 + k]]++;
		for (int64_t x = 0; x < 4096; x++)
			assert_int_equal(seen[x], 1);
		free(seen);
	}
	assay_ep_routing_release(&r);
}

static double imbalance(const char *spec, double *rank)
{
	struct assay_ep_dist d;
	struct assay_error e;
	assert_int_equal(assay_ep_dist_parse(spec, &d, &e), ASSAY_OK);
	assert_int_equal(assay_ep_dist_prepare(&d, 64, 2, &e), ASSAY_OK);
	struct assay_ep_problem p = shape(8, 2000, 64, 2, &d);
	struct assay_ep_routing r;
	struct assay_ep_route_stats s;
	assay_ep_routing_build(&p, &r);
	assay_ep_route_stats(&p, &r, &s);
	for (int64_t i = 0; i < r.ntok * 2; i += 2)
		assert_int_not_equal(r.experts[i], r.experts[i + 1]);
	double x = s.imbalance_expert;
	*rank = s.imbalance_rank;
	assert_true(s.expert_load_mean == 2000.0 * 8 * 2 / 64);
	assay_ep_route_stats_release(&s);
	assay_ep_routing_release(&r);
	assay_ep_dist_release(&d);
	return x;
}

/* 16000 tokens, top-2 of 64 experts on 8 ranks (mean load 500 per expert):
 * uniform is near 1. zipf:1 puts the most popular expert (p0 = 1/H(64)) in
 * a token's top-2 with probability p0 + sum_j p_j p0 / (1 - p_j) = 0.3835,
 * an expected imbalance of 12.27; hot:8:0.5 gives a hot expert 3.94 (the
 * same sum): within 5% of each. Its hot experts all live on rank 0. */
static void test_skew(void **state)
{
	(void)state;
	double ru, rz, rh;
	double u = imbalance("uniform", &ru), z = imbalance("zipf:1", &rz),
	       h = imbalance("hot:8:0.5", &rh);
	assert_true(u > 1.0 && u < 1.2 && ru < 1.1);
	assert_true(z > 11.6 && z < 12.9);
	assert_true(h > 3.74 && h < 4.14);
	assert_true(rh > 2.5);
}

static void bad_spec(const char *spec, const char *msg)
{
	struct assay_ep_dist d;
	struct assay_error e;
	assert_int_equal(assay_ep_dist_parse(spec, &d, &e), ASSAY_USAGE);
	assert_string_equal(e.message, msg);
}

static void test_specs(void **state)
{
	(void)state;
	bad_spec("zipf", "--routing: expected uniform, zipf:S, hot:K:P or file:PATH, got 'zipf'");
	bad_spec("zipf:4.5", "--routing 'zipf:4.5': expected zipf:S with S a decimal from 0 to 4, "
			     "e.g. zipf:1.2");
	bad_spec("zipf:nan", "--routing 'zipf:nan': expected zipf:S with S a decimal from 0 to 4, "
			     "e.g. zipf:1.2");
	bad_spec("hot:8:1", "--routing 'hot:8:1': expected hot:K:P, K hot experts (at least 1) "
			    "sharing a fraction P of the routing (0 < P < 1), e.g. hot:8:0.5");
	bad_spec("hot:0:0.5", "--routing 'hot:0:0.5': expected hot:K:P, K hot experts (at least "
			      "1) sharing a fraction P of the routing (0 < P < 1), e.g. hot:8:0.5");
	bad_spec("file:", "--routing 'file:': expected file:PATH, a routing file (docs/ep.md)");
	struct assay_ep_dist d;
	struct assay_error e;
	assert_int_equal(assay_ep_dist_parse("hot:16:0.5", &d, &e), ASSAY_OK);
	assert_int_equal(assay_ep_dist_prepare(&d, 16, 4, &e), ASSAY_USAGE);
	assert_string_equal(e.message,
			    "--routing 'hot:16:0.5': K must be from 1 to experts - 1 (15)");
	assay_ep_dist_release(&d);
}

static assay_err load_text(const char *text, int64_t experts, int64_t topk, struct assay_ep_dist *d,
			   struct assay_error *e)
{
	char path[] = "/tmp/assay-ep-dist-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	FILE *f = fdopen(fd, "w");
	fputs(text, f);
	fclose(f);
	char *spec = xasprintf("file:%s", path);
	assert_int_equal(assay_ep_dist_parse(spec, d, e), ASSAY_OK);
	free(spec);
	assay_err rc = assay_ep_dist_prepare(d, experts, topk, e);
	if (rc == ASSAY_OK)
		assert_string_equal(d->path, path);
	/* Messages name the file: keep only what follows it. */
	if (rc != ASSAY_OK) {
		size_t n = strlen(path);
		assert_memory_equal(e->message, path, n);
		memmove(e->message, e->message + n, strlen(e->message + n) + 1);
	}
	unlink(path);
	return rc;
}

static void bad_file(const char *text, const char *msg)
{
	struct assay_ep_dist d;
	struct assay_error e;
	assert_int_equal(load_text(text, 16, 3, &d, &e), ASSAY_USAGE);
	assert_string_equal(e.message, msg);
	assay_ep_dist_release(&d);
}

static void test_file(void **state)
{
	(void)state;
	struct assay_ep_dist d;
	struct assay_error e;
	assert_int_equal(load_text("# layer 3, tokens 0..1\n1 2 3\n15\t0 7\r\n", 16, 3, &d, &e),
			 ASSAY_OK);
	assert_int_equal(d.rows, 2);
	struct assay_ep_problem p = shape(1, 3, 16, 3, &d);
	struct assay_ep_routing r;
	assay_ep_routing_build(&p, &r);
	static const int32_t want[9] = {1, 2, 3, 15, 0, 7, 1, 2, 3}; /* row t mod rows */
	assert_memory_equal(r.experts, want, sizeof(want));
	assay_ep_routing_release(&r);
	assay_ep_dist_release(&d);
	bad_file("1 2 3\n1 2\n", ":2: expected 3 expert ids (--topk), got 2");
	bad_file("1 2 3 4\n", ":1: more than 3 expert ids (--topk)");
	bad_file("1 2 16\n", ":1: '16' is not an expert id (0 to 15, --experts)");
	bad_file("1 -1 2\n", ":1: '-1' is not an expert id (0 to 15, --experts)");
	bad_file("1,2,3\n", ":1: '1,2,3' is not an expert id (0 to 15, --experts)");
	bad_file("1 2 99999999999999999999\n",
		 ":1: '99999999999999999999' is not an expert id (0 to 15, --experts)");
	bad_file("# c\n4 5 4\n", ":2: expert 4 appears twice");
	bad_file("1 2 3\n\n", ":2: expected 3 expert ids (--topk), got 0");
	bad_file("# only a comment\n", ": no rows of expert ids (docs/ep.md)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_pinned), cmocka_unit_test(test_uniform),
	    cmocka_unit_test(test_skew),   cmocka_unit_test(test_specs),
	    cmocka_unit_test(test_file),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
