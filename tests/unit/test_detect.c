/* Unit tests for change-point detection and regression gates: the Student
 * t distribution against closed forms, the Tigerbeetle conformance rows in
 * otava-compat mode (tests/conformance),
 * synthetic series that need no external data, the gates on plain values,
 * and the history gate against a real store with ack annotations. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "assay/detect.h"
#include "assay/json.h"
#include "assay/util.h"

static void close_rel(double got, double want, double tol)
{
	double err = fabs(got - want) / (fabs(want) > 1e-300 ? fabs(want) : 1.0);
	if (!(err <= tol))
		fail_msg("got %.17g, want %.17g (relative error %.3g)", got, want, err);
}

/* The detector passes over a window candidate whose normal tail
 * probability erfc(|t| / sqrt 2) is above the cut (times 1 + 1e-9) without
 * computing the exact p (src/lib/detect/edivisive_ttest.c, pooled_p): that needs
 * P(|T_df| > t) >= erfc(t / sqrt 2) / (1 + 1e-9) at every df a window test
 * can have (up to 2 x the largest window) and every t. */
static void test_student_tails_heavier_than_normal(void **state)
{
	(void)state;
	size_t checked = 0;
	for (double df = 1.0; df <= 2000.0; df += df < 60 ? 0.5 : 7.0)
		for (double t = 0.0; t <= 40.0; t += 0.0125) {
			double p = assay_t_two_sided(t, df), lb = erfc(t * M_SQRT1_2);
			if (!(p * (1.0 + 1e-9) >= lb))
				fail_msg("df %g t %g: p %.17g below the normal tail %.17g", df, t,
					 p, lb);
			checked++;
		}
	assert_true(checked > 600000);
}

static void test_student_t(void **state)
{
	(void)state;
	static const double ts[] = {0.0, 0.1, 0.5, 1.0, 2.0, 3.5, 10.0, 100.0, 1e4};
	for (size_t i = 0; i < sizeof(ts) / sizeof(ts[0]); i++) {
		double t = ts[i];
		/* df 1 (Cauchy), 2 and 3 have closed forms. */
		double p1 = 1.0 - 2.0 / M_PI * atan(t);
		double p2 = 1.0 - t / sqrt(2.0 + t * t);
		double u = t / sqrt(3.0);
		double f3 = 0.5 + (u / (1.0 + u * u) + atan(u)) / M_PI;
		/* Upper tails of t >= 2 are computed directly (no cancellation): compare
		 * to the closed forms in their tail-friendly shapes. */
		if (t >= 2) {
			p1 = 2.0 / M_PI * atan(1.0 / t);
			p2 = 1.0 - t / sqrt(2.0 + t * t);
			p2 = 2.0 / (sqrt(2.0 + t * t) * (sqrt(2.0 + t * t) + t));
		}
		close_rel(assay_t_two_sided(t, 1), p1, 1e-12);
		close_rel(assay_t_two_sided(-t, 1), p1, 1e-12);
		close_rel(assay_t_two_sided(t, 2), p2, 1e-12);
		if (t < 2)
			close_rel(assay_t_cdf(t, 3), f3, 1e-12);
		close_rel(assay_t_sf(t, 3) + assay_t_cdf(t, 3), 1.0, 1e-14);
	}
	close_rel(assay_t_cdf(-1.0, 1), 0.25, 1e-14);
	assert_true(assay_t_two_sided(INFINITY, 5) == 0.0);
	assert_true(isnan(assay_t_two_sided(NAN, 5)));
	assert_true(isnan(assay_t_two_sided(1.0, 0)));
	/* Incomplete beta identities. */
	close_rel(assay_betainc(3.0, 1.0, 0.3), pow(0.3, 3.0), 1e-13);
	close_rel(assay_betainc(1.0, 4.0, 0.2), 1.0 - pow(0.8, 4.0), 1e-13);
	close_rel(assay_betainc(7.5, 7.5, 0.5), 0.5, 1e-13);
	close_rel(assay_betainc(2.5, 0.5, 0.9) + assay_betainc(0.5, 2.5, 0.1), 1.0, 1e-13);
	assert_true(assay_betainc(2, 3, 0) == 0.0 && assay_betainc(2, 3, 1) == 1.0);
	assert_true(isnan(assay_betainc(-1, 3, 0.5)));
}

static void test_tigerbeetle(void **state)
{
	(void)state;
	/* The project's own copy (tests/conformance); ASSAY_CONFORMANCE_DIR
	 * overrides it. Absent data fails the test rather than skipping it. */
	char path[1024];
	const char *dir = getenv("ASSAY_CONFORMANCE_DIR");
	snprintf(path, sizeof(path), "%s/changepoint/tigerbeetle.json",
		 dir ? dir : ASSAY_SOURCE_DIR "/tests/conformance");
	if (access(path, R_OK) != 0)
		fail_msg("%s is not readable; the otava-compat conformance rows cannot run", path);
	struct assay_error e;
	json_t *doc = assay_json_load_file(path, &e);
	if (!doc)
		fail_msg("%s", e.message);
	json_t *series = json_object_get(doc, "series");
	size_t n = json_array_size(series), i;
	assert_true(n > 300);
	double *x = malloc(n * sizeof(*x));
	for (i = 0; i < n; i++)
		x[i] = json_number_value(json_array_get(series, i));
	json_t *row, *rows = json_object_get(doc, "expected");
	assert_true(json_array_size(rows) >= 10);
	json_array_foreach(rows, i, row)
	{
		struct assay_detect_opts o;
		assay_detect_otava_defaults(&o);
		o.window = (int)json_integer_value(json_object_get(row, "window_len"));
		o.max_pvalue = json_number_value(json_object_get(row, "max_pvalue"));
		o.min_magnitude = json_number_value(json_object_get(row, "min_magnitude"));
		struct assay_changes ch = {0};
		assert_int_equal(assay_detect(x, n, &o, &ch, &e), ASSAY_OK);
		json_t *want = json_object_get(row, "change_point_indexes");
		struct sbuf got = SBUF_INIT, exp = SBUF_INIT;
		for (size_t k = 0; k < ch.n; k++)
			sbuf_addf(&got, " %zu", ch.v[k].index);
		size_t k;
		json_t *v;
		json_array_foreach(want, k, v)
		    sbuf_addf(&exp, " %lld", (long long)json_integer_value(v));
		if (strcmp(sbuf_str(&got), sbuf_str(&exp)))
			fail_msg("row %zu (window %d, max_pvalue %g, min_magnitude %g):\n "
				 "got:%s\nwant:%s",
				 i, o.window, o.max_pvalue, o.min_magnitude, sbuf_str(&got),
				 sbuf_str(&exp));
		sbuf_release(&got);
		sbuf_release(&exp);
		assay_changes_release(&ch);
	}
	free(x);
	json_decref(doc);
}

/* Deterministic Gaussian noise (xorshift64 and Box-Muller). */
static uint64_t rng = 88172645463325252ULL;
static double gauss(void)
{
	double u[2];
	for (int i = 0; i < 2; i++) {
		rng ^= rng << 13;
		rng ^= rng >> 7;
		rng ^= rng << 17;
		u[i] = ((double)(rng >> 11) + 0.5) / 9007199254740992.0;
	}
	return sqrt(-2.0 * log(u[0])) * cos(2.0 * M_PI * u[1]);
}

static void noise(double *x, size_t n, double mean, double sd)
{
	for (size_t i = 0; i < n; i++)
		x[i] = mean + sd * gauss();
}

static void test_synthetic(void **state)
{
	(void)state;
	struct assay_detect_opts o;
	struct assay_changes ch = {0};
	struct assay_error e;
	double x[200];
	assay_detect_defaults(&o);
	/* A 3-sigma drop at 120 of a higher-is-better metric: one regression. */
	rng = 42;
	noise(x, 200, 1000.0, 10.0);
	for (int i = 120; i < 200; i++)
		x[i] -= 30.0;
	assert_int_equal(assay_detect(x, 200, &o, &ch, &e), ASSAY_OK);
	assert_int_equal(ch.n, 1);
	assert_true(ch.v[0].index >= 118 && ch.v[0].index <= 122);
	assert_true(assay_change_is_regression(&ch.v[0], ASSAY_DIR_HIGHER));
	assert_false(assay_change_is_regression(&ch.v[0], ASSAY_DIR_LOWER));
	close_rel(ch.v[0].rel_change, -0.03, 0.2);
	assert_true(ch.v[0].pvalue < 1e-4);
	assert_int_equal(ch.v[0].n_before + ch.v[0].n_after, 200);
	assay_changes_release(&ch);
	/* Otava's flavour finds the same step. */
	struct assay_detect_opts oc;
	assay_detect_otava_defaults(&oc);
	assert_int_equal(assay_detect(x, 200, &oc, &ch, &e), ASSAY_OK);
	bool found = false;
	for (size_t i = 0; i < ch.n; i++)
		found |= ch.v[i].index >= 118 && ch.v[i].index <= 122;
	assert_true(found);
	assay_changes_release(&ch);
	/* Pure noise, and a single 10-sigma spike in it: nothing at CI defaults. */
	rng = 7;
	noise(x, 200, 500.0, 5.0);
	assert_int_equal(assay_detect(x, 200, &o, &ch, &e), ASSAY_OK);
	assert_int_equal(ch.n, 0);
	x[90] = 450.0;
	assert_int_equal(assay_detect(x, 200, &o, &ch, &e), ASSAY_OK);
	assert_int_equal(ch.n, 0);
	/* Otava's flavour without the segment rule does flag the spike. */
	oc.max_pvalue = 1e-4;
	assert_int_equal(assay_detect(x, 200, &oc, &ch, &e), ASSAY_OK);
	assert_true(ch.n >= 1);
	assay_changes_release(&ch);
	/* A short A->B->A excursion of 3 points is not a change either. */
	x[90] = 500.0;
	for (int i = 100; i < 103; i++)
		x[i] += 40.0;
	assert_int_equal(assay_detect(x, 200, &o, &ch, &e), ASSAY_OK);
	assert_int_equal(ch.n, 0);
	/* A step in the newest points is found (the newest segment may be short). */
	for (int i = 100; i < 103; i++)
		x[i] -= 40.0;
	for (int i = 194; i < 200; i++)
		x[i] += 50.0;
	assert_int_equal(assay_detect(x, 200, &o, &ch, &e), ASSAY_OK);
	assert_int_equal(ch.n, 1);
	assert_int_equal(ch.v[0].index, 194);
	assay_changes_release(&ch);
	/* Degenerate input. */
	assert_int_equal(assay_detect(x, 1, &o, &ch, &e), ASSAY_OK);
	assert_int_equal(ch.n, 0);
	double flat[20] = {0};
	assert_int_equal(assay_detect(flat, 20, &o, &ch, &e), ASSAY_OK);
	assert_int_equal(ch.n, 0);
	x[3] = NAN;
	assert_int_equal(assay_detect(x, 200, &o, &ch, &e), ASSAY_USAGE);
	assert_string_equal(e.message, "point 4: value is not finite");
	o.window = 1;
	assert_int_equal(assay_detect(x, 200, &o, &ch, &e), ASSAY_USAGE);
	assert_string_equal(e.message, "window 1: expected an integer from 2 to 1000");
}

/* The best-split search from its definition (src/lib/detect/edivisive_q.c,
 * split_scores): P(k, r) = sum of |z_i - z_k| over i < r, added from i = 0;
 * for split t, sxx adds P(j, j) for j = 1 .. t-1; at end point k + 1 the
 * sums grow by P(k, t) and P(k, k) - P(k, t); Q = 2/kk sxy - 2(kk-t)/(kk(t-1))
 * sxx - 2t/(kk(kk-t-1)) syy (a term absent when its divisor is 0); the best
 * is the first maximum over k. Straight loops, in the same order of
 * additions, so every width must give these doubles exactly. */
static double row_prefix(const double *z, size_t k, size_t r)
{
	double acc = 0.0;
	for (size_t i = 0; i < r; i++)
		acc += fabs(z[i] - z[k]);
	return acc;
}

static void ref_scores(const double *z, size_t len, double *best)
{
	for (size_t t = 1; t < len; t++) {
		double sxx = 0.0;
		for (size_t j = 1; j < t; j++)
			sxx += row_prefix(z, j, j);
		double sxy = 0.0, syy = 0.0, b = 0.0;
		for (size_t k = t; k < len; k++) {
			double pkt = row_prefix(z, k, t), pkk = row_prefix(z, k, k);
			size_t kk = k + 1;
			double a = 2.0 / (double)kk;
			double cb = t > 1 ? (double)(2 * (kk - t)) / (double)(kk * (t - 1)) : 0.0;
			double cc =
			    kk - t - 1 > 0 ? (double)(2 * t) / (double)(kk * (kk - t - 1)) : 0.0;
			if (k == t) {
				sxy = pkt;
				syy = 0.0;
			} else {
				sxy += pkt;
				syy += pkk - pkt;
			}
			double q = a * sxy - cb * sxx - cc * syy;
			b = k == t || q > b ? q : b;
		}
		best[t] = b;
	}
}

static void test_split_scores_widths(void **state)
{
	(void)state;
	/* Lengths around every vector boundary (blocks of 4 and 8 splits), the
	 * table limit (128) and past it; noise, ties, constants, steps, large
	 * and negative levels. */
	static const size_t lens[] = {2,  3,  4,  5,  7,  8,  9,   10,  15,  16,  17,
				      18, 31, 49, 50, 51, 64, 100, 127, 128, 129, 140};
	static const char *widths[] = {"c", "sse2", "avx2"};
	double z[140], want[140], got[140];
	size_t compared = 0;
	rng = 99;
	for (size_t li = 0; li < ARRAY_SIZE(lens); li++) {
		size_t n = lens[li];
		for (int pat = 0; pat < 6; pat++) {
			for (size_t i = 0; i < n; i++) {
				double g = gauss();
				z[i] = pat == 0   ? 100.0 + g
				       : pat == 1 ? round(3.0 * g) /* ties */
				       : pat == 2 ? 7.0            /* constant */
				       : pat == 3 ? (i < n / 3 ? 10.0 : 10.5) + 0.1 * g
				       : pat == 4 ? 1e12 + 1e3 * g
						  : -50.0 + (i % 5 == 0 ? 40.0 : 0.0) + g;
			}
			ref_scores(z, n, want);
			for (size_t w = 0; w < ARRAY_SIZE(widths); w++) {
				memset(got, 0xff, sizeof(got));
				if (!assay_detect_split_scores(z, n, widths[w], got)) {
					assert_true(w > 0); /* scalar C is always there */
					continue;
				}
				for (size_t t = 1; t < n; t++)
					if (memcmp(&got[t], &want[t], sizeof(double)))
						fail_msg("width %s, %zu points, pattern %d, split "
							 "%zu: %.17g, want %.17g",
							 widths[w], n, pat, t, got[t], want[t]);
				compared++;
			}
		}
	}
	assert_true(compared >= ARRAY_SIZE(lens) * 6 * 2);
	assert_false(assay_detect_split_scores(z, 10, "avx1024", got));
}

/* A series much longer than the window (each window then sorted on its
 * own, not cut from the sorted series): two 3-sigma steps among spikes are
 * found where they are, and nothing else. */
static void test_long_series(void **state)
{
	(void)state;
	struct assay_detect_opts o;
	struct assay_changes ch = {0};
	struct assay_error e;
	size_t n = 1000;
	double *x = malloc(n * sizeof(*x));
	assay_detect_defaults(&o);
	rng = 11;
	noise(x, n, 1000.0, 10.0);
	for (size_t i = 300; i < n; i++)
		x[i] -= 30.0;
	for (size_t i = 700; i < n; i++)
		x[i] += 35.0;
	for (size_t i = 50; i < n; i += 97)
		x[i] += 120.0; /* spikes */
	assert_int_equal(assay_detect(x, n, &o, &ch, &e), ASSAY_OK);
	assert_int_equal(ch.n, 2);
	assert_true(ch.v[0].index >= 298 && ch.v[0].index <= 302);
	assert_true(ch.v[1].index >= 698 && ch.v[1].index <= 702);
	assert_true(assay_change_is_regression(&ch.v[0], ASSAY_DIR_HIGHER));
	assert_false(assay_change_is_regression(&ch.v[1], ASSAY_DIR_HIGHER));
	assay_changes_release(&ch);
	free(x);
}

static const double *sort_base;
static int by_value_then_pos(const void *a, const void *b)
{
	unsigned i = *(const unsigned *)a, j = *(const unsigned *)b;
	double x = sort_base[i], y = sort_base[j];
	return x < y ? -1 : x > y ? 1 : (i > j) - (i < j);
}

/* The detector's sort of a series (a radix sort over the top bits that
 * vary, an insertion pass, a whole radix sort when that pass would move too
 * much, a merge sort up to 32 values) against qsort by value, then
 * position. */
static void test_series_sort(void **state)
{
	(void)state;
	static const size_t lens[] = {1, 2, 5, 31, 32, 33, 64, 200, 1000, 5000};
	size_t nmax = 5000;
	double *x = malloc(nmax * sizeof(*x)), *v = malloc(nmax * sizeof(*v));
	unsigned *pos = malloc(nmax * sizeof(*pos)), *want = malloc(nmax * sizeof(*want));
	rng = 5;
	for (size_t li = 0; li < ARRAY_SIZE(lens); li++) {
		size_t n = lens[li];
		for (int pat = 0; pat < 7; pat++) {
			for (size_t i = 0; i < n; i++) {
				double g = gauss();
				x[i] = pat == 0   ? 100.0 * (1.0 + 0.02 * g)
				       : pat == 1 ? round(2.0 * g)  /* ties, -0.0 and 0.0 */
				       : pat == 2 ? 3.0             /* all equal */
				       : pat == 3 ? -1e-300 * g     /* tiny, both signs */
				       : pat == 4 ? (double)(n - i) /* descending */
						  : 100.0 + 1e-9 * g;
				if (pat == 1 && x[i] == 0.0 && i % 2)
					x[i] = -0.0;
				if (pat == 5 && i == n / 2)
					x[i] =
					    1e300; /* one huge outlier: top bits alike below it */
				if (pat == 6)
					x[i] = (i % 3 ? 1.0 : -1.0) * 1e6 * gauss();
			}
			for (size_t i = 0; i < n; i++)
				want[i] = (unsigned)i;
			sort_base = x;
			qsort(want, n, sizeof(*want), by_value_then_pos);
			assay_detect_sorted(x, n, v, pos);
			for (size_t i = 0; i < n; i++) {
				if (pos[i] != want[i] || memcmp(&v[i], &x[want[i]], sizeof(double)))
					fail_msg("%zu values, pattern %d, rank %zu: position %u "
						 "(%.17g), "
						 "want %u (%.17g)",
						 n, pat, i, pos[i], v[i], want[i], x[want[i]]);
			}
		}
	}
	free(x);
	free(v);
	free(pos);
	free(want);
}

static void test_gates(void **state)
{
	(void)state;
	struct assay_gate_config c;
	struct assay_regression v;
	struct assay_error e;
	assay_gate_defaults(&c);
	double h[] = {100, 101, 99, 100, 100, 100};
	/* Rolling mean: the last 5 earlier points average 100. */
	assay_gate_rolling_mean(h, 6, 97.9, ASSAY_DIR_HIGHER, 0.02, &c, false, &v);
	assert_int_equal(v.outcome, ASSAY_GATE_FAILED);
	assert_string_equal(v.message,
			    "97.9 vs mean 100 of the last 5: -2.10% (regression beyond -2%)");
	assay_gate_rolling_mean(h, 6, 98.1, ASSAY_DIR_HIGHER, 0.02, &c, false, &v);
	assert_int_equal(v.outcome, ASSAY_OK);
	assay_gate_rolling_mean(h, 6, 97.9, ASSAY_DIR_HIGHER, 0.05, &c, false, &v);
	assert_int_equal(v.outcome, ASSAY_OK); /* inference threshold */
	assay_gate_rolling_mean(h, 6, 103.0, ASSAY_DIR_LOWER, 0.02, &c, false, &v);
	assert_int_equal(v.outcome, ASSAY_GATE_FAILED); /* latency up 3% */
	assay_gate_rolling_mean(h, 6, 97.0, ASSAY_DIR_HIGHER, 0.02, &c, true, &v);
	assert_int_equal(v.outcome, ASSAY_OK);
	assert_true(v.acked);
	assay_gate_rolling_mean(h, 2, 50.0, ASSAY_DIR_HIGHER, 0.02, &c, false, &v);
	assert_int_equal(v.outcome, ASSAY_OK);
	assert_true(v.insufficient);
	assert_string_equal(v.message, "not enough history (2 earlier points, needs 3)");
	/* Changepoint: a stable history, then a regime 10% lower for 8 runs. */
	double hist[60];
	rng = 3;
	noise(hist, 60, 200.0, 1.0);
	for (int i = 52; i < 60; i++)
		hist[i] -= 20.0;
	assay_gate_changepoint(hist, 60, 180.5, ASSAY_DIR_HIGHER, &c, false, &v);
	assert_int_equal(v.outcome, ASSAY_GATE_FAILED);
	assert_non_null(strstr(v.message, "started 8 points before the new one"));
	assay_gate_changepoint(hist, 60, 180.5, ASSAY_DIR_LOWER, &c, false, &v);
	assert_int_equal(v.outcome, ASSAY_OK); /* lower is better: an improvement */
	c.cp_threshold = 0.2;
	assay_gate_changepoint(hist, 60, 180.5, ASSAY_DIR_HIGHER, &c, false, &v);
	assert_int_equal(v.outcome, ASSAY_OK); /* below the threshold */
	c.cp_threshold = 0;
	assay_gate_changepoint(hist, 52, 200.3, ASSAY_DIR_HIGHER, &c, false, &v);
	assert_int_equal(v.outcome, ASSAY_OK);
	assert_string_equal(v.message, "no change point in 53 points");
	/* A/B in one run. */
	struct assay_row a, b;
	assay_row_init(&a);
	assay_row_init(&b);
	assay_row_set(&a, json_pack("{s:s}", "variant", "baseline"), "tokens", "mean", 1000,
		      "tok/s", ASSAY_DIR_HIGHER);
	assay_row_set(&b, json_pack("{s:s}", "variant", "candidate"), "tokens", "mean", 940,
		      "tok/s", ASSAY_DIR_HIGHER);
	assert_int_equal(assay_row_finish(&a, &e), ASSAY_OK);
	assert_int_equal(assay_row_finish(&b, &e), ASSAY_OK);
	assert_int_equal(assay_gate_ab(&a, &b, 0.05, false, &v, &e), ASSAY_OK);
	assert_int_equal(v.outcome, ASSAY_GATE_FAILED);
	assert_int_equal(assay_gate_ab(&a, &b, 0.07, false, &v, &e), ASSAY_OK);
	assert_int_equal(v.outcome, ASSAY_OK);
	free(b.unit);
	b.unit = xstrdup("tok/ms");
	assert_int_equal(assay_gate_ab(&a, &b, 0.05, false, &v, &e), ASSAY_USAGE);
	assay_row_release(&a);
	assay_row_release(&b);
	/* Which threshold a series gets. */
	json_t *s = json_pack("{s:s}", "workload", "vllm-serving-70b");
	assert_true(assay_series_is_inference(s));
	json_object_set_new(s, "workload", json_string("llama3-70b-pretrain"));
	assert_false(assay_series_is_inference(s));
	json_object_set_new(s, "task", json_string("inference"));
	assert_true(assay_series_is_inference(s));
	json_decref(s);
}

/* Rows of one series (cluster c, bf16, 2x8) with values v, revisions r0.. */
static void rows_of(struct assay_rows *rows, const double *v, size_t n, size_t first_rev)
{
	for (size_t i = 0; i < n; i++) {
		struct assay_row *r = assay_rows_add(rows);
		assay_row_set(r,
			      json_pack("{s:s, s:s, s:s, s:s}", "workload", "llama", "cluster", "c",
					"scale", "2x8", "precision", "bf16"),
			      "tokens_per_sec_per_gpu", "value", v[i], "tokens/s/GPU",
			      ASSAY_DIR_HIGHER);
		char rev[16], ts[32];
		snprintf(rev, sizeof(rev), "r%zu", first_rev + i);
		assay_time_rfc3339(1790000000 + 3600 * (int64_t)(first_rev + i), ts);
		r->revision = xstrdup(rev);
		r->timestamp = xstrdup(ts);
		struct assay_error e;
		assert_int_equal(assay_row_finish(r, &e), ASSAY_OK);
	}
}

/* Paired A/B of variants: the median of candidate/baseline ratios, its
 * spread, and the threshold by direction. */
static void test_gate_ab_pairs(void **state)
{
	(void)state;
	struct assay_regression v;
	struct assay_error e;
	/* 5% slower (lower is better) fails a 2% threshold, 0.1% passes. */
	double base[] = {100, 200, 300}, slow[] = {105, 210, 315}, same[] = {100.1, 200.2, 300.3};
	assert_int_equal(assay_gate_ab_pairs(base, slow, 3, ASSAY_DIR_LOWER, 0.02, false, &v, &e),
			 ASSAY_OK);
	assert_int_equal(v.outcome, ASSAY_GATE_FAILED);
	assert_int_equal(v.pairs, 3);
	assert_true(fabs(v.ratio - 1.05) < 1e-12);
	assert_string_equal(v.gate, "ab");
	assert_string_equal(v.message, "candidate/baseline median 1.0500 over 3 pairs (spread "
				       "1.0500..1.0500): -4.76% (regression beyond -2%)");
	assert_int_equal(assay_gate_ab_pairs(base, same, 3, ASSAY_DIR_LOWER, 0.02, false, &v, &e),
			 ASSAY_OK);
	assert_int_equal(v.outcome, ASSAY_OK);
	/* Higher is better: 5% more is no regression; the median of an even
	 * count is the mean of the middle two; the spread is min..max. */
	double b4[] = {10, 10, 10, 10}, c4[] = {9.0, 9.9, 10.1, 12};
	assert_int_equal(assay_gate_ab_pairs(base, slow, 3, ASSAY_DIR_HIGHER, 0.02, false, &v, &e),
			 ASSAY_OK);
	assert_int_equal(v.outcome, ASSAY_OK);
	assert_int_equal(assay_gate_ab_pairs(b4, c4, 4, ASSAY_DIR_HIGHER, 0.02, false, &v, &e),
			 ASSAY_OK);
	assert_true(fabs(v.ratio - 1.0) < 1e-12);
	assert_true(fabs(v.ratio_min - 0.9) < 1e-12 && fabs(v.ratio_max - 1.2) < 1e-12);
	assert_int_equal(v.outcome, ASSAY_OK);
	/* An acked regression passes, marked. */
	assert_int_equal(assay_gate_ab_pairs(base, slow, 3, ASSAY_DIR_LOWER, 0.02, true, &v, &e),
			 ASSAY_OK);
	assert_true(v.acked && v.outcome == ASSAY_OK);
	/* Nothing to compare, a zero baseline, a negative threshold. */
	assert_int_equal(assay_gate_ab_pairs(base, slow, 0, ASSAY_DIR_LOWER, 0.02, false, &v, &e),
			 ASSAY_USAGE);
	double zero[] = {0};
	assert_int_equal(assay_gate_ab_pairs(zero, slow, 1, ASSAY_DIR_LOWER, 0.02, false, &v, &e),
			 ASSAY_USAGE);
	assert_string_equal(e.message,
			    "ab gate: pair 1: baseline 0, candidate 105: no finite ratio");
	assert_int_equal(assay_gate_ab_pairs(base, slow, 3, ASSAY_DIR_LOWER, -1, false, &v, &e),
			 ASSAY_USAGE);
}

static void test_gate_history(void **state)
{
	(void)state;
	char path[] = "/tmp/assay-test-detect-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	unlink(path);
	struct assay_store *s;
	struct assay_error e;
	assert_int_equal(assay_store_open(path, ASSAY_STORE_CREATE, &s, &e), ASSAY_OK);
	double hist[40];
	rng = 11;
	noise(hist, 40, 1500.0, 5.0);
	for (int i = 30; i < 40; i++)
		hist[i] -= 75.0; /* -5% from r30 */
	struct assay_rows rows = ASSAY_ROWS_INIT, fresh = ASSAY_ROWS_INIT;
	rows_of(&rows, hist, 40, 0);
	struct assay_ingest_result res;
	struct assay_ingest_info ii = {.file = "h", .format = "rows", .sha256 = "h1"};
	assert_int_equal(assay_store_ingest_rows(s, &ii, &rows, &res, &e), ASSAY_OK);
	double next = 1424.0;
	rows_of(&fresh, &next, 1, 40);
	struct assay_gate_config c;
	assay_gate_defaults(&c);
	struct assay_regressions v = {0};
	assert_int_equal(assay_gate_history(s, &fresh, &c, &v, &e), ASSAY_OK);
	assert_int_equal(v.n, 2);
	assert_string_equal(v.v[0].gate, "changepoint");
	assert_int_equal(v.v[0].outcome, ASSAY_GATE_FAILED);
	assert_string_equal(v.v[0].series_key, fresh.v[0].series_key);
	assert_string_equal(v.v[1].gate, "rolling-mean");
	assert_int_equal(v.v[1].outcome, ASSAY_OK); /* the last 5 are already low */
	assert_int_equal(assay_regressions_outcome(&v), ASSAY_GATE_FAILED);
	assay_regressions_release(&v);
	/* Acknowledging the change (at its first revision) lets it pass. */
	assert_int_equal(
	    assay_store_annotate(s, rows.v[0].series_key, "r30", ASSAY_ANN_ACK, "new kernel", &e),
	    ASSAY_OK);
	assert_int_equal(assay_gate_history(s, &fresh, &c, &v, &e), ASSAY_OK);
	assert_int_equal(v.v[0].outcome, ASSAY_OK);
	assert_true(v.v[0].acked);
	assert_non_null(strstr(v.v[0].message, "acknowledged"));
	assay_regressions_release(&v);
	/* Rolling mean: a new 3% drop fails, unless its revision is acked. */
	fresh.v[0].value = 1425.0 * 0.97;
	c.changepoint = false;
	assert_int_equal(assay_gate_history(s, &fresh, &c, &v, &e), ASSAY_OK);
	assert_int_equal(v.n, 1);
	assert_int_equal(v.v[0].outcome, ASSAY_GATE_FAILED);
	assay_regressions_release(&v);
	assert_int_equal(
	    assay_store_annotate(s, rows.v[0].series_key, "r40", ASSAY_ANN_ACK, NULL, &e),
	    ASSAY_OK);
	assert_int_equal(assay_gate_history(s, &fresh, &c, &v, &e), ASSAY_OK);
	assert_int_equal(v.v[0].outcome, ASSAY_OK);
	assert_true(v.v[0].acked);
	assay_regressions_release(&v);
	/* A series never stored: not enough history, passes. */
	json_object_set_new(fresh.v[0].series, "precision", json_string("fp8"));
	assert_int_equal(assay_row_finish(&fresh.v[0], &e), ASSAY_OK);
	c.changepoint = true;
	assert_int_equal(assay_gate_history(s, &fresh, &c, &v, &e), ASSAY_OK);
	assert_true(v.v[0].insufficient && v.v[1].insufficient);
	assert_int_equal(assay_regressions_outcome(&v), ASSAY_OK);
	assay_regressions_release(&v);
	assay_rows_release(&rows);
	assay_rows_release(&fresh);
	assert_int_equal(assay_store_close(s, &e), ASSAY_OK);
	char cmd[200];
	snprintf(cmd, sizeof(cmd), "rm -f %s %s-wal %s-shm", path, path, path);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_student_t),
	    cmocka_unit_test(test_student_tails_heavier_than_normal),
	    cmocka_unit_test(test_tigerbeetle),
	    cmocka_unit_test(test_synthetic),
	    cmocka_unit_test(test_split_scores_widths),
	    cmocka_unit_test(test_series_sort),
	    cmocka_unit_test(test_long_series),
	    cmocka_unit_test(test_gates),
	    cmocka_unit_test(test_gate_history),
	    cmocka_unit_test(test_gate_ab_pairs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
