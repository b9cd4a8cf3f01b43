/* Unit tests for the training-log parsers (megatron, primus,
 * megatron-golden): the project's fixtures under tests/fixtures/training, the
 * shared conformance logs (skipped when absent), steady state, outcomes and
 * rows. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "conformance.h"

#include "assay/json.h"
#include "assay/training.h"
#include "parse/train_scan.h"

#define FIXTURES ASSAY_SOURCE_DIR "/tests/fixtures/training/"

static const char *conformance(const char *name, char *buf, size_t size)
{
	return conformance_file("training-logs", name, buf, size);
}

/* Parse a file; fails the test on a parse error. */
static void parse_file(const char *format, const char *path, const struct assay_train_opts *o,
		       struct assay_train_result *r)
{
	size_t len;
	struct assay_error e;
	char *data = assay_read_file(path, &len, &e);
	assert_non_null(data);
	assert_int_equal(assay_train_parse(format, data, len, o, path, r, &e), ASSAY_OK);
	free(data);
}

static void parse_text(const char *format, const char *text, struct assay_train_result *r)
{
	struct assay_error e;
	assert_int_equal(assay_train_parse(format, text, strlen(text), NULL, "text", r, &e),
			 ASSAY_OK);
}

static double v(const struct assay_train_result *r, size_t i, enum assay_train_metric m)
{
	assert_true(i < r->n_steps);
	assert_true(r->steps[i].has & (1u << m));
	return r->steps[i].v[m];
}

static double avg(const struct assay_train_result *r, size_t i, enum assay_train_metric m)
{
	assert_true(r->steps[i].has_avg & (1u << m));
	return r->steps[i].avg[m];
}

static bool has(const struct assay_train_result *r, size_t i, enum assay_train_metric m)
{
	return r->steps[i].has & (1u << m);
}

#define assert_near(a, b)                                                                          \
	assert_true(fabs((double)(a) - (double)(b)) <= 1e-9 * (fabs((double)(b)) + 1))

/* ---- numbers ---- */

static void test_numbers(void **state)
{
	(void)state;
	static const struct {
		const char *text;
		double want;
		size_t used;
	} cases[] = {
	    {"1.189968E+01", 11.89968, 12},
	    {"9.045085E-06", 9.045085e-06, 12},
	    {"658.3 |", 658.3, 5},
	    {"-2.5e3x", -2500, 6},
	    {"0.5462", 0.5462, 6},
	    {"12525.2/", 12525.2, 7},
	    {"4.092303E-03", 0.004092303, 12},
	    {"7", 7, 1},
	    {"1e", 1, 1}, /* an exponent without digits is not part of the number */
	    {"123456789012345678901234", 123456789012345678901234.0, 24},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		double x;
		const char *t = cases[i].text;
		const char *end = train_number(t, t + strlen(t), &x);
		assert_non_null(end);
		assert_int_equal(end - t, cases[i].used);
		assert_true(x == cases[i].want); /* exact: the fast path rounds once */
	}
	double x;
	const char *t = "NAN |";
	assert_ptr_equal(train_number(t, t + 5, &x), t + 3);
	assert_true(isnan(x));
	t = "-inf";
	assert_ptr_equal(train_number(t, t + 4, &x), t + 4);
	assert_true(isinf(x) && x < 0);
	t = "Infinity";
	assert_ptr_equal(train_number(t, t + 8, &x), t + 8);
	assert_true(isinf(x));
	/* Words that start like nan/inf are not numbers; neither is a lone dot. */
	t = "nanoseconds";
	assert_null(train_number(t, t + strlen(t), &x));
	t = "information";
	assert_null(train_number(t, t + strlen(t), &x));
	t = ".";
	assert_null(train_number(t, t + 1, &x));
	/* Never reads past end. */
	t = "12.5";
	assert_ptr_equal(train_number(t, t + 2, &x), t + 2);
	assert_true(x == 12);
}

/* train_number against strtod (correctly rounded in glibc) on generated
 * numbers: 0 to 19 digits before and after the point, with and without an
 * exponent, followed by the bytes that end numbers in logs (and bytes that
 * are not digits only by a little: '/', ':', 0xFA..0xFF), so the eight-byte
 * digit runs meet every length and every neighbour. */
static void test_numbers_differential(void **state)
{
	(void)state;
	static const char tails[] = {' ', '|',  '/',        ':',        'G',
				     '%', '\n', (char)0xFA, (char)0xFF, '\0'};
	uint64_t rng = 0x9E3779B97F4A7C15ULL;
	char text[96], copy[96];
	for (int i = 0; i < 200000; i++) {
		rng ^= rng << 13;
		rng ^= rng >> 7;
		rng ^= rng << 17;
		size_t n = 0;
		int ints = (int)(rng % 20), fracs = (int)(rng >> 8) % 20;
		if (rng >> 60 & 1)
			text[n++] = '-';
		for (int d = 0; d < ints; d++)
			text[n++] = (char)('0' + (rng >> (d * 3 % 60)) % 10);
		if (fracs || !ints) {
			text[n++] = '.';
			for (int d = 0; d < fracs || (!ints && d == 0); d++)
				text[n++] = (char)('0' + (rng >> ((d * 5 + 7) % 60)) % 10);
		}
		if (rng >> 61 & 1)
			n += (size_t)snprintf(text + n, 8, "E%+03d", (int)(rng >> 40) % 40 - 20);
		size_t len = n;
		int pad = (int)(rng >> 50) % 10;
		for (int k = 0; k < pad; k++)
			text[n++] = tails[(rng >> (k * 4)) % (sizeof(tails) - 1)];
		text[n] = '\0';
		memcpy(copy, text, len);
		copy[len] = '\0';
		double x, want = strtod(copy, NULL);
		const char *end = train_number(text, text + n, &x);
		assert_non_null(end);
		assert_int_equal(end - text, len);
		if (x != want)
			fail_msg("\"%s\": %.17g, strtod %.17g", copy, x, want);
	}
}

/* ---- Megatron fixtures ---- */

static void test_megatron_basic(void **state)
{
	(void)state;
	struct assay_train_result r;
	parse_file("auto", FIXTURES "megatron-basic.log", NULL, &r);
	assert_string_equal(r.format, "megatron");
	assert_int_equal(r.n_steps, 10);
	assert_int_equal(r.duplicates, 0);
	assert_true(r.complete_iteration);
	assert_false(r.complete_marker);
	assert_int_equal(assay_train_outcome(&r), ASSAY_OK);
	/* With and without the timestamp prefix. */
	assert_int_equal(r.steps[0].step, 1);
	assert_int_equal(r.steps[0].total, 10);
	assert_int_equal(r.steps[0].line, 7);
	assert_near(v(&r, 0, ASSAY_TM_ELAPSED_MS), 9000.0);
	assert_near(v(&r, 9, ASSAY_TM_ELAPSED_MS), 1000.0);
	assert_near(v(&r, 6, ASSAY_TM_TFLOPS), 352.9);
	assert_near(v(&r, 9, ASSAY_TM_LM_LOSS), 8.6);
	assert_near(v(&r, 0, ASSAY_TM_LR), 1e-4);
	assert_near(v(&r, 0, ASSAY_TM_GRAD_NORM), 2.5);
	assert_near(v(&r, 0, ASSAY_TM_LOSS_SCALE), 1.0);
	assert_int_equal(r.steps[3].consumed_samples, 256);
	assert_int_equal(r.steps[3].gbs, 64);
	assert_int_equal(r.steps[3].skipped, 0);
	assert_int_equal(r.steps[3].nan_iters, 0);
	assert_false(has(&r, 0, ASSAY_TM_TOKENS)); /* Megatron logs no tokens */
	/* Warm-up: max(2, 10% of 10) = 2 steps. */
	assert_int_equal(r.warmup, 2);
	assert_true(r.steps[1].warmup);
	assert_false(r.steps[2].warmup);
	double mean, median;
	assert_int_equal(assay_train_steady(&r, ASSAY_TM_TFLOPS, &mean, &median), 8);
	assert_near(mean, 360.025);
	assert_near(median, 360.0);
	/* Memory reports, evaluations. */
	assert_int_equal(r.n_mem_lines, 2);
	assert_near(r.mem_max_allocated_mb, 10300.75);
	assert_near(r.mem_max_reserved_mb, 12288.0);
	assert_int_equal(r.n_evals, 3);
	assert_int_equal(r.evals[0].step, 5);
	assert_near(r.evals[0].loss, 9.65);
	assert_int_equal(r.evals[2].step, -1); /* end of training */
	assert_near(r.evals[2].loss, 8.69);
	assay_train_result_release(&r);
}

static void test_megatron_derived_tokens(void **state)
{
	(void)state;
	struct assay_train_opts o;
	assay_train_opts_init(&o);
	o.seq_len = 4096;
	o.world_size = 8;
	struct assay_train_result r;
	parse_file("megatron", FIXTURES "megatron-basic.log", &o, &r);
	/* gbs * seq_len * 1000 / (elapsed_ms * world_size) = 64 * 4096 * 1000 / (1000 * 8) */
	assert_near(v(&r, 9, ASSAY_TM_TOKENS), 32768.0);
	assert_true(r.steps[9].derived & (1u << ASSAY_TM_TOKENS));
	assert_true(r.tokens_derived);
	assert_int_equal(r.world_size, 8);
	assay_train_result_release(&r);
	/* Without seq_len there is nothing to derive. */
	parse_file("megatron", FIXTURES "megatron-basic.log", NULL, &r);
	assert_false(has(&r, 9, ASSAY_TM_TOKENS));
	assert_false(r.tokens_derived);
	assay_train_result_release(&r);
}

static void test_megatron_rocm_and_summary(void **state)
{
	(void)state;
	struct assay_train_result r;
	parse_file("megatron", FIXTURES "megatron-rocm.log", NULL, &r);
	assert_int_equal(r.n_steps, 6);
	assert_near(v(&r, 2, ASSAY_TM_MEM_RATIO), 0.6123);
	assert_false(has(&r, 0, ASSAY_TM_TFLOPS)); /* the warm-up line has no throughput */
	assert_int_equal(r.summary_has, (1u << ASSAY_TM_ELAPSED_MS) | (1u << ASSAY_TM_TFLOPS) |
					    (1u << ASSAY_TM_TOKENS) | (1u << ASSAY_TM_MEM_RATIO));
	assert_near(r.summary[ASSAY_TM_TFLOPS], 403.2);
	assert_near(r.summary[ASSAY_TM_ELAPSED_MS], 812.5);
	assert_near(r.summary[ASSAY_TM_TOKENS], 20165.0);
	assert_near(r.summary[ASSAY_TM_MEM_RATIO], 0.6123);
	assert_int_equal(assay_train_outcome(&r), ASSAY_OK);
	assay_train_result_release(&r);
}

static void test_megatron_skipped(void **state)
{
	(void)state;
	struct assay_train_result r;
	parse_file("megatron", FIXTURES "megatron-skipped.log", NULL, &r);
	assert_int_equal(r.n_steps, 4);
	for (size_t i = 0; i < r.n_steps; i++) {
		assert_false(has(&r, i, ASSAY_TM_LM_LOSS));
		assert_int_equal(r.steps[i].skipped, 10);
	}
	assert_int_equal(assay_train_outcome(&r), ASSAY_OK);
	struct assay_rows rows = ASSAY_ROWS_INIT;
	struct assay_parse_opts po = {.file = "x"};
	struct assay_error e;
	assert_int_equal(assay_train_rows(&r, &po, &rows, &e), ASSAY_OK);
	bool skipped = false;
	for (size_t i = 0; i < rows.n; i++) {
		assert_string_not_equal(rows.v[i].metric, "lm_loss");
		if (!strcmp(rows.v[i].metric, "skipped_iterations")) {
			skipped = true;
			assert_near(rows.v[i].value, 40);
		}
	}
	assert_true(skipped);
	assay_rows_release(&rows);
	assay_train_result_release(&r);
}

static void test_incomplete_and_nan(void **state)
{
	(void)state;
	struct assay_train_result r;
	char why[512];
	parse_file("megatron", FIXTURES "megatron-incomplete.log", NULL, &r);
	assert_int_equal(r.n_steps, 6);
	assert_true(assay_train_incomplete(&r));
	assert_int_equal(assay_train_outcome(&r), ASSAY_WORKLOAD_FAILED);
	assert_string_equal(
	    assay_train_outcome_text(&r, why, sizeof(why)),
	    "incomplete run: the last step is 6 of 20, with no final \"iteration "
	    "N/N\" line, no torchrun marker and no Megatron exit line; error "
	    "signature python-traceback (python) at line 7: Traceback (most recent "
	    "call last):; error signature cuda-oom (oom) at line 9: "
	    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB");
	assert_int_equal(r.n_errors, 2);
	assert_string_equal(r.errors[1].family, "oom");
	assay_train_result_release(&r);

	parse_file("megatron", FIXTURES "megatron-nan.log", NULL, &r);
	assert_false(assay_train_incomplete(&r));
	assert_int_equal(r.n_nonfinite, 2); /* lm loss and grad norm */
	assert_int_equal(r.nonfinite_step, 4);
	assert_int_equal(r.nonfinite_line, 4);
	assert_true(r.steps[3].nonfinite & (1u << ASSAY_TM_LM_LOSS));
	assert_true(r.steps[3].nonfinite & (1u << ASSAY_TM_GRAD_NORM));
	assert_int_equal(assay_train_outcome(&r), ASSAY_WORKLOAD_FAILED);
	assert_string_equal(assay_train_outcome_text(&r, why, sizeof(why)),
			    "lm loss is NAN at step 4 (line 4), and 1 more NaN/Inf value");
	/* The steady state skips the NaN. */
	double mean, median;
	assert_int_equal(assay_train_steady(&r, ASSAY_TM_LM_LOSS, &mean, &median), 3);
	assay_train_result_release(&r);

	/* NaN or Inf in any segment fails the run, known or not. */
	parse_text("megatron", " iteration 1/1 | lm loss: 1.0 | mtp_1 loss: inf |\n", &r);
	assert_int_equal(r.n_nonfinite, 1);
	assert_string_equal(r.nonfinite_label, "mtp_1 loss");
	assert_string_equal(r.nonfinite_text, "inf");
	assay_train_result_release(&r);

	/* Nothing at all: no metrics, not a failure (issue 14: the run did not
	 * start training, so it did not fail to finish it). */
	parse_text("megatron", "", &r);
	assert_int_equal(assay_train_outcome(&r), ASSAY_NO_METRICS);
	assay_train_result_release(&r);
}

static void test_checkpoint_lines(void **state)
{
	(void)state;
	struct assay_train_result r;
	parse_file("megatron", FIXTURES "megatron-save.log", NULL, &r);
	assert_int_equal(r.n_ckpts, 2);
	assert_int_equal(r.ckpts[0].op, ASSAY_CKPT_SAVE);
	assert_int_equal(r.ckpts[0].iteration, 10);
	assert_near(r.ckpts[0].ms, 2316.02);
	assert_int_equal(r.ckpts[1].iteration, 20);
	assert_near(r.ckpts[1].ms, 2301.47);
	assert_int_equal(assay_train_last_saved(&r), 20);
	assert_int_equal(assay_train_loaded(&r), -1);
	assay_train_result_release(&r);

	parse_file("megatron", FIXTURES "megatron-resume.log", NULL, &r);
	assert_int_equal(r.n_ckpts, 1);
	assert_int_equal(r.ckpts[0].op, ASSAY_CKPT_LOAD);
	assert_int_equal(assay_train_loaded(&r), 20);
	assert_near(r.ckpts[0].ms, 4542.10);
	assert_int_equal(r.steps[0].step, 25);
	assay_train_result_release(&r);

	/* The max-only timer form, and the report flattened onto one line. */
	parse_text("megatron",
		   "  successfully saved checkpoint from iteration      50 to /c [ t "
		   "1/1, p 1/1 ] (min, max) time across ranks (ms): save-checkpoint "
		   "...........: (24895.07, 24895.13)\n"
		   "max time across ranks (ms):\n    load-checkpoint ........: 812.25\n",
		   &r);
	assert_int_equal(r.n_ckpts, 2);
	assert_int_equal(r.ckpts[0].iteration, 50);
	assert_near(r.ckpts[0].ms, 24895.13);
	assert_int_equal(r.ckpts[1].op, ASSAY_CKPT_LOAD);
	assert_int_equal(r.ckpts[1].iteration, -1);
	assert_near(r.ckpts[1].ms, 812.25);
	assay_train_result_release(&r);
}

/* ---- Primus fixtures ---- */

static void test_primus_complete(void **state)
{
	(void)state;
	struct assay_train_result r;
	parse_file("auto", FIXTURES "primus-complete.log", NULL, &r);
	assert_string_equal(r.format, "primus");
	/* Step 4 appears twice (plain and ANSI): it counts once. */
	assert_int_equal(r.n_steps, 6);
	assert_int_equal(r.duplicates, 1);
	assert_true(r.complete_iteration);
	assert_true(r.complete_marker);
	assert_int_equal(r.world_size, 8); /* rank-7/8 */
	/* Warm-up lines carry single values. */
	assert_near(v(&r, 0, ASSAY_TM_ELAPSED_MS), 24000.0);
	assert_false(r.steps[0].has_avg & (1u << ASSAY_TM_ELAPSED_MS));
	/* X/Y */
	assert_near(v(&r, 2, ASSAY_TM_TOKENS), 7000.0);
	assert_near(avg(&r, 2, ASSAY_TM_TOKENS), 7000.0);
	/* "compute per GPU: X (avg Y)" and "tokens/s/GPU inst/harmonic mean: X/Y" */
	assert_near(v(&r, 3, ASSAY_TM_TFLOPS), 510.0);
	assert_near(avg(&r, 3, ASSAY_TM_TFLOPS), 505.0);
	assert_near(v(&r, 3, ASSAY_TM_TOKENS), 7200.0);
	assert_near(avg(&r, 3, ASSAY_TM_TOKENS), 7098.6);
	/* The line whose ESC bytes were lost. */
	assert_int_equal(r.steps[4].step, 5);
	assert_near(v(&r, 4, ASSAY_TM_TFLOPS), 505.0);
	/* HIP and ROCm memory: percentages become ratios. */
	assert_true(v(&r, 0, ASSAY_TM_MEM_RATIO) == 0.4672);
	assert_true(v(&r, 5, ASSAY_TM_MEM_RATIO) == 0.5933);
	assert_near(v(&r, 5, ASSAY_TM_MEM_GB), 170.86);
	assert_true(v(&r, 5, ASSAY_TM_ROCM_RATIO) == 0.598);
	assert_near(v(&r, 5, ASSAY_TM_ROCM_GB), 172.22);
	assert_near(r.mem_max_allocated_mb, 121964.93);
	double mean, median, ra;
	assert_int_equal(assay_train_steady(&r, ASSAY_TM_TFLOPS, &mean, &median), 4);
	assert_near(mean, 508.75);
	assert_near(median, 507.5);
	assert_true(assay_train_running_avg(&r, ASSAY_TM_TOKENS, &ra));
	assert_near(ra, 7139.3);
	assert_int_equal(assay_train_outcome(&r), ASSAY_OK);
	assay_train_result_release(&r);

	/* The same log read as plain Megatron: no Primus labels, so no tokens on step 4. */
	parse_file("megatron", FIXTURES "primus-complete.log", NULL, &r);
	assert_false(has(&r, 3, ASSAY_TM_TOKENS));
	assert_int_equal(r.world_size, 0);
	assay_train_result_release(&r);
}

static void test_primus_marker_and_no_steps(void **state)
{
	(void)state;
	struct assay_train_result r;
	parse_file("primus", FIXTURES "primus-marker-only.log", NULL, &r);
	assert_int_equal(r.n_steps, 3);
	assert_false(r.complete_iteration);
	assert_true(r.complete_marker);
	assert_int_equal(r.marker_line, 4);
	assert_int_equal(assay_train_outcome(&r), ASSAY_OK);
	assay_train_result_release(&r);

	parse_file("primus", FIXTURES "primus-no-steps.log", NULL, &r);
	assert_int_equal(r.n_steps, 0);
	assert_true(r.complete_marker);
	assert_int_equal(assay_train_outcome(&r), ASSAY_NO_METRICS);
	char why[256];
	assert_string_equal(assay_train_outcome_text(&r, why, sizeof(why)),
			    "no metrics: the log has no iteration line");
	assay_train_result_release(&r);
}

/* ---- steady state ---- */

static void test_warmup_rule(void **state)
{
	(void)state;
	struct sbuf sb = SBUF_INIT;
	for (int i = 1; i <= 25; i++)
		sbuf_addf(&sb, " iteration %d/25 | elapsed time per iteration (ms): %d.0 |\n", i,
			  i * 10);
	struct assay_train_opts o;
	struct assay_train_result r;
	struct assay_error e;
	assay_train_opts_init(&o);
	/* 10% of 25 is 2.5: the rule rounds up to 3. */
	assert_int_equal(assay_train_parse("megatron", sb.buf, sb.len, &o, "x", &r, &e), ASSAY_OK);
	assert_int_equal(r.warmup, 3);
	double mean, median;
	assert_int_equal(assay_train_steady(&r, ASSAY_TM_ELAPSED_MS, &mean, &median), 22);
	assert_near(mean, 145.0);   /* steps 4..25 */
	assert_near(median, 145.0); /* even count: mean of the middle two */
	assay_train_result_release(&r);
	assert_true(assay_train_warmup_parse("5", &o));
	assert_int_equal(assay_train_parse("megatron", sb.buf, sb.len, &o, "x", &r, &e), ASSAY_OK);
	assert_int_equal(r.warmup, 5);
	assay_train_result_release(&r);
	assert_true(assay_train_warmup_parse("1,20%", &o));
	assert_int_equal(assay_train_parse("megatron", sb.buf, sb.len, &o, "x", &r, &e), ASSAY_OK);
	assert_int_equal(r.warmup, 5);
	assay_train_result_release(&r);
	assert_true(assay_train_warmup_parse("0,0", &o));
	assert_int_equal(assay_train_parse("megatron", sb.buf, sb.len, &o, "x", &r, &e), ASSAY_OK);
	assert_int_equal(r.warmup, 0);
	assert_int_equal(assay_train_steady(&r, ASSAY_TM_ELAPSED_MS, &mean, &median), 25);
	assert_near(median, 130.0); /* odd count */
	assay_train_result_release(&r);
	/* More warm-up than steps: no steady state at all. */
	assert_true(assay_train_warmup_parse("40", &o));
	assert_int_equal(assay_train_parse("megatron", sb.buf, sb.len, &o, "x", &r, &e), ASSAY_OK);
	assert_int_equal(r.warmup, 25);
	assert_int_equal(assay_train_steady(&r, ASSAY_TM_ELAPSED_MS, &mean, &median), 0);
	assay_train_result_release(&r);
	assert_false(assay_train_warmup_parse("x", &o));
	assert_false(assay_train_warmup_parse("-1", &o));
	assert_false(assay_train_warmup_parse("2,101%", &o));
	sbuf_release(&sb);
}

static void test_rows(void **state)
{
	(void)state;
	struct assay_train_result r;
	struct assay_rows rows = ASSAY_ROWS_INIT;
	struct assay_error e;
	json_t *ctx = json_pack("{s:s}", "workload", "w");
	struct assay_parse_opts po = {.file = "x", .context = ctx, .revision = "abc"};
	parse_file("primus", FIXTURES "primus-complete.log", NULL, &r);
	assert_int_equal(assay_train_rows(&r, &po, &rows, &e), ASSAY_OK);
	static const struct {
		const char *metric, *statistic, *unit;
		enum assay_direction dir;
		double value;
		int64_t samples;
	} want[] = {
	    {"elapsed_ms_per_iter", "steady_mean", "ms", ASSAY_DIR_LOWER, 585.0, 4},
	    {"elapsed_ms_per_iter", "steady_median", "ms", ASSAY_DIR_LOWER, 585.0, 4},
	    {"elapsed_ms_per_iter", "running_avg", "ms", ASSAY_DIR_LOWER, 585.2, 1},
	    {"tflops_per_gpu", "steady_mean", "TFLOP/s/GPU", ASSAY_DIR_HIGHER, 508.75, 4},
	    {"tflops_per_gpu", "steady_median", "TFLOP/s/GPU", ASSAY_DIR_HIGHER, 507.5, 4},
	    {"tflops_per_gpu", "running_avg", "TFLOP/s/GPU", ASSAY_DIR_HIGHER, 509.0, 1},
	    {"tokens_per_gpu", "steady_mean", "tokens/s/GPU", ASSAY_DIR_HIGHER, 7150.0, 4},
	    {"tokens_per_gpu", "steady_median", "tokens/s/GPU", ASSAY_DIR_HIGHER, 7150.0, 4},
	    {"tokens_per_gpu", "running_avg", "tokens/s/GPU", ASSAY_DIR_HIGHER, 7139.3, 1},
	    {"lm_loss", "last", "nats", ASSAY_DIR_LOWER, 10.1, 1},
	    {"mem_usage_ratio", "max", "ratio", ASSAY_DIR_LOWER, 0.5933, 6},
	    {"mem_used_gb", "max", "GB", ASSAY_DIR_LOWER, 170.86, 6},
	    {"rocm_mem_usage_ratio", "max", "ratio", ASSAY_DIR_LOWER, 0.598, 6},
	    {"rocm_mem_used_gb", "max", "GB", ASSAY_DIR_LOWER, 172.22, 6},
	    {"mem_max_allocated_mb", "max", "MB", ASSAY_DIR_LOWER, 121964.93, 2},
	    {"mem_max_reserved_mb", "max", "MB", ASSAY_DIR_LOWER, 159578.0, 2},
	    {"skipped_iterations", "total", "iterations", ASSAY_DIR_LOWER, 0, 6},
	    {"nan_iterations", "total", "iterations", ASSAY_DIR_LOWER, 0, 6},
	};
	assert_int_equal(rows.n, sizeof(want) / sizeof(want[0]));
	for (size_t i = 0; i < rows.n; i++) {
		const struct assay_row *row = &rows.v[i];
		assert_string_equal(row->metric, want[i].metric);
		assert_string_equal(row->statistic, want[i].statistic);
		assert_string_equal(row->unit, want[i].unit);
		assert_int_equal(row->direction, want[i].dir);
		assert_near(row->value, want[i].value);
		assert_int_equal(row->samples, want[i].samples);
		assert_string_equal(json_string_value(json_object_get(row->series, "workload")),
				    "w");
		assert_string_equal(row->revision, "abc");
		assert_int_equal(strlen(row->series_key), 64);
	}
	assay_rows_release(&rows);
	assay_train_result_release(&r);
	json_decref(ctx);
}

static void test_step_json(void **state)
{
	(void)state;
	struct assay_train_result r;
	parse_file("megatron", FIXTURES "megatron-nan.log", NULL, &r);
	json_t *o = assay_train_step_to_json(&r.steps[3]);
	char *s = assay_json_dumps(o, ASSAY_JSON_SORT);
	assert_string_equal(
	    s, "{\"consumed_samples\":256,\"elapsed_ms_per_iter\":1000.0,\"global_batch_size\":64,"
	       "\"grad_norm\":\"nan\",\"learning_rate\":0.0001,\"line\":4,\"lm_loss\":\"nan\","
	       "\"loss_scale\":1.0,\"nan_iterations\":0,\"skipped_iterations\":0,\"step\":4,"
	       "\"tflops_per_gpu\":350.0,\"total\":6,\"warmup\":false}");
	free(s);
	json_decref(o);
	assay_train_result_release(&r);
}

static void test_detect(void **state)
{
	(void)state;
	static const struct {
		const char *file, *format;
	} cases[] = {
	    {"megatron-basic.log", "megatron"},   {"megatron-rocm.log", "megatron"},
	    {"megatron-save.log", "megatron"},    {"primus-complete.log", "primus"},
	    {"primus-marker-only.log", "primus"}, {"primus-no-steps.log", "primus"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char path[512];
		size_t len;
		struct assay_error e;
		snprintf(path, sizeof(path), FIXTURES "%s", cases[i].file);
		char *data = assay_read_file(path, &len, &e);
		assert_non_null(data);
		assert_string_equal(assay_train_detect(data, len), cases[i].format);
		free(data);
	}
	assert_null(assay_train_detect("hello\n", 6));
	struct assay_train_result r;
	struct assay_error e;
	assert_int_equal(assay_train_parse("auto", "hello\n", 6, NULL, "f.txt", &r, &e),
			 ASSAY_USAGE);
	assert_string_equal(e.file, "f.txt");
	assert_string_equal(e.message, "cannot tell the format: not a Megatron-LM or Primus log, "
				       "nor a golden-values file (use --input-format)");
	assay_train_result_release(&r);
	assert_int_equal(assay_train_parse("csv", "", 0, NULL, "f", &r, &e), ASSAY_USAGE);
	assay_train_result_release(&r);
}

static void test_golden_errors(void **state)
{
	(void)state;
	static const struct {
		const char *text, *path, *message;
	} cases[] = {
	    {"[1]", "$", "expected an object of golden metrics, got [...]"},
	    {"{\"lm loss\": {\"values\": {\"x\": 1}}}", "$[\"lm loss\"].values.x",
	     "expected a step number as the key, got \"x\""},
	    {"{\"lm loss\": {\"values\": {\"1\": \"inf\"}}}", "$[\"lm loss\"].values.1",
	     "expected a number or \"nan\", got \"inf\""},
	    {"{\"lm loss\": {\"start\": 1, \"values\": {}}}", "$[\"lm loss\"].start",
	     "unknown key (expected one of: start_step, end_step, step_interval, values)"},
	    {"{\"lm loss\": {}}", "$[\"lm loss\"].values", "missing (expected an object)"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct assay_train_result r;
		struct assay_error e;
		assert_int_equal(assay_train_parse("megatron-golden", cases[i].text,
						   strlen(cases[i].text), NULL, "g.json", &r, &e),
				 ASSAY_USAGE);
		assert_string_equal(e.file, "g.json");
		assert_string_equal(e.path, cases[i].path);
		assert_string_equal(e.message, cases[i].message);
		assay_train_result_release(&r);
	}
}

/* ---- the shared conformance logs ---- */

static void test_conformance_smoke_tail(void **state)
{
	(void)state;
	char path[1024];
	if (!conformance("primus_megatron_smoke_tail_mi355x.log", path, sizeof(path))) {
		skip();
		return;
	}
	struct assay_train_result r;
	parse_file("auto", path, NULL, &r);
	assert_string_equal(r.format, "primus");
	assert_int_equal(r.n_steps, 10);
	assert_int_equal(r.steps[0].step, 1);
	assert_int_equal(r.steps[9].step, 10);
	assert_int_equal(r.steps[9].total, 10);
	assert_true(v(&r, 0, ASSAY_TM_LM_LOSS) == 11.89968);
	assert_true(v(&r, 9, ASSAY_TM_LM_LOSS) == 9.258826);
	/* Completion both ways; no NaN/Inf. */
	assert_true(r.complete_iteration);
	assert_true(r.complete_marker);
	assert_int_equal(r.n_nonfinite, 0);
	assert_int_equal(assay_train_outcome(&r), ASSAY_OK);
	/* The last line's running averages. */
	double x, mean, median;
	assert_true(assay_train_running_avg(&r, ASSAY_TM_TFLOPS, &x));
	assert_true(x == 502.1);
	assert_true(assay_train_running_avg(&r, ASSAY_TM_TOKENS, &x));
	assert_true(x == 7673.2);
	assert_true(assay_train_running_avg(&r, ASSAY_TM_ELAPSED_MS, &x));
	assert_true(x == 537.9);
	assert_true(v(&r, 9, ASSAY_TM_MEM_RATIO) == 0.5933);
	/* The trap: step 2 is still warm-up (12525.2 ms). Excluding only step 1
	 * would give 448.6 TFLOP/s and 1869.8 ms; the default rule drops 2. */
	assert_near(v(&r, 1, ASSAY_TM_ELAPSED_MS), 12525.2);
	assert_int_equal(r.warmup, 2);
	assay_train_steady(&r, ASSAY_TM_TFLOPS, &mean, &median);
	assert_near(mean, 502.05);
	assay_train_steady(&r, ASSAY_TM_ELAPSED_MS, &mean, &median);
	assert_near(mean, 537.9125);
	assay_train_result_release(&r);
	struct assay_train_opts o;
	assay_train_opts_init(&o);
	o.warmup_steps = 1;
	parse_file("auto", path, &o, &r);
	assay_train_steady(&r, ASSAY_TM_TFLOPS, &mean, &median);
	assert_true(fabs(mean - 448.6) < 0.05);
	assay_train_steady(&r, ASSAY_TM_ELAPSED_MS, &mean, &median);
	assert_true(fabs(mean - 1869.8) < 0.05);
	assay_train_result_release(&r);
}

static void test_conformance_safe_lens(void **state)
{
	(void)state;
	char path[1024];
	if (!conformance("primus_safe_lens_iteration_lines.log", path, sizeof(path))) {
		skip();
		return;
	}
	/* step, total, elapsed X/Y, TFLOP X/Y, tokens X/Y, lm loss, hip ratio */
	static const double want[4][11] = {
	    {424, 40000, 16601.3, 17219.3, 11.9, 11.5, 246.7, 238.1, 4.447942, 0.9898},
	    {12125, 36000, 2701.3, 2712.7, 210.5, 217.3, 12130.4, 12525.5, 2.352391, 0.8881},
	    {4273, 5000, 13107.0, 13341.7, 579.1, 569.3, 10000.2, 9831.0, 0.004092303, 0.6009},
	    {126, 5000, 13372.8, 13364.7, 567.6, 568.0, 9801.4, 9807.3, 0.006548988, 0.6009},
	};
	struct assay_train_result r;
	parse_file("primus", path, NULL, &r);
	assert_int_equal(r.n_steps, 4);
	for (size_t i = 0; i < 4; i++) {
		assert_int_equal(r.steps[i].step, (long long)want[i][0]);
		assert_int_equal(r.steps[i].total, (long long)want[i][1]);
		assert_true(v(&r, i, ASSAY_TM_ELAPSED_MS) == want[i][2]);
		assert_true(avg(&r, i, ASSAY_TM_ELAPSED_MS) == want[i][3]);
		assert_true(v(&r, i, ASSAY_TM_TFLOPS) == want[i][4]);
		assert_true(avg(&r, i, ASSAY_TM_TFLOPS) == want[i][5]);
		assert_true(v(&r, i, ASSAY_TM_TOKENS) == want[i][6]);
		assert_true(avg(&r, i, ASSAY_TM_TOKENS) == want[i][7]);
		assert_true(v(&r, i, ASSAY_TM_LM_LOSS) == want[i][8]);
		assert_true(v(&r, i, ASSAY_TM_MEM_RATIO) == want[i][9]);
	}
	/* None marks completion. */
	assert_true(assay_train_incomplete(&r));
	assert_int_equal(assay_train_outcome(&r), ASSAY_WORKLOAD_FAILED);
	assay_train_result_release(&r);
}

/* Each line of the CVS fixtures on its own, as the fixtures were meant. */
static void test_conformance_cvs(void **state)
{
	(void)state;
	char path[1024];
	if (!conformance("cvs_iteration_metrics_fixtures.log", path, sizeof(path))) {
		skip();
		return;
	}
	size_t len;
	struct assay_error e;
	char *data = assay_read_file(path, &len, &e);
	assert_non_null(data);
	const char *lines[8];
	size_t lens[8], n = 0;
	for (char *p = data; *p && n < 8;) {
		char *nl = strchr(p, '\n');
		lines[n] = p;
		lens[n++] = nl ? (size_t)(nl - p) : strlen(p);
		p = nl ? nl + 1 : p + strlen(p);
	}
	assert_true(n >= 5);
	struct assay_train_result r;
	struct assay_train_opts o;
	assay_train_opts_init(&o);
	/* The memory-dump line yields no step. With its line end: its last
	 * field has no closing "|", so without one it reads as cut (issue 35). */
	assert_int_equal(assay_train_parse("primus", lines[0], lens[0] + 1, &o, path, &r, &e),
			 ASSAY_OK);
	assert_int_equal(r.n_steps, 0);
	assert_int_equal(r.n_mem_lines, 1);
	assay_train_result_release(&r);
	/* The ROCm Megatron line; tokens/GPU derivable as 16*8192*1000/(658.3*8). */
	o.seq_len = 8192;
	o.world_size = 8;
	assert_int_equal(assay_train_parse("megatron", lines[1], lens[1], &o, path, &r, &e),
			 ASSAY_OK);
	assert_int_equal(r.n_steps, 1);
	assert_int_equal(r.steps[0].step, 2);
	assert_true(v(&r, 0, ASSAY_TM_TFLOPS) == 1441.4);
	assert_true(v(&r, 0, ASSAY_TM_LM_LOSS) == 12.50274);
	assert_true(v(&r, 0, ASSAY_TM_GRAD_NORM) == 2.772);
	assert_true(v(&r, 0, ASSAY_TM_MEM_RATIO) == 0.5462);
	assert_near(v(&r, 0, ASSAY_TM_TOKENS), 16.0 * 8192 * 1000 / (658.3 * 8));
	assay_train_result_release(&r);
	assay_train_opts_init(&o);
	/* The Primus warm-up line: no tokens. */
	assert_int_equal(assay_train_parse("primus", lines[2], lens[2], &o, path, &r, &e),
			 ASSAY_OK);
	assert_true(v(&r, 0, ASSAY_TM_TFLOPS) == 103.7);
	assert_false(has(&r, 0, ASSAY_TM_TOKENS));
	assay_train_result_release(&r);
	/* Step 4, plain and ANSI-wrapped: the same values. */
	for (size_t i = 3; i <= 4; i++) {
		assert_int_equal(assay_train_parse("primus", lines[i], lens[i], &o, path, &r, &e),
				 ASSAY_OK);
		assert_int_equal(r.n_steps, 1);
		assert_int_equal(r.steps[0].step, 4);
		assert_true(v(&r, 0, ASSAY_TM_TFLOPS) == 1290.3);
		assert_true(v(&r, 0, ASSAY_TM_TOKENS) == 25032.8);
		assay_train_result_release(&r);
	}
	/* The whole file: step 4 counts once. */
	assert_int_equal(assay_train_parse("primus", data, len, &o, path, &r, &e), ASSAY_OK);
	assert_int_equal(r.n_steps, 2);
	assert_int_equal(r.duplicates, 2);
	assay_train_result_release(&r);
	free(data);
}

static void test_conformance_golden(void **state)
{
	(void)state;
	char p1[1024], p2[1024];
	if (!conformance("megatron_golden_gpt3_resume_run1_dgx_h100.json", p1, sizeof(p1)) ||
	    !conformance("megatron_golden_gpt3_resume_run2_dgx_h100.json", p2, sizeof(p2))) {
		skip();
		return;
	}
	struct assay_train_result a, b;
	parse_file("auto", p1, NULL, &a);
	parse_file("auto", p2, NULL, &b);
	assert_string_equal(a.format, "megatron-golden");
	assert_int_equal(a.n_steps, 100);
	assert_int_equal(b.n_steps, 50);
	assert_int_equal(b.steps[0].step, 51); /* steps 1-50 are "nan": not run */
	assert_true(v(&a, 49, ASSAY_TM_LM_LOSS) == 10.21087);
	assert_true(v(&b, 0, ASSAY_TM_LM_LOSS) == 10.19942);
	assert_true(v(&a, 1, ASSAY_TM_ELAPSED_MS) == 3751.43); /* iteration-time s -> ms */
	assert_false(has(&a, 0, ASSAY_TM_ELAPSED_MS));         /* iteration-time starts at 2 */
	assert_near(a.mem_max_allocated_mb, 2691792384.0 / 1048576.0);
	assert_int_equal(assay_train_outcome(&a), ASSAY_OK);
	/* Over steps 51-100 the runs differ by about 1.5e-5 relative at most. */
	double worst = 0;
	for (size_t i = 0; i < 50; i++) {
		double x = v(&a, 50 + i, ASSAY_TM_LM_LOSS), y = v(&b, i, ASSAY_TM_LM_LOSS);
		assert_int_equal(a.steps[50 + i].step, b.steps[i].step);
		if (fabs(x - y) / x > worst)
			worst = fabs(x - y) / x;
	}
	assert_true(worst > 1.5e-5 && worst < 1.52e-5);
	assay_train_result_release(&a);
	assay_train_result_release(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_numbers),
	    cmocka_unit_test(test_numbers_differential),
	    cmocka_unit_test(test_megatron_basic),
	    cmocka_unit_test(test_megatron_derived_tokens),
	    cmocka_unit_test(test_megatron_rocm_and_summary),
	    cmocka_unit_test(test_megatron_skipped),
	    cmocka_unit_test(test_incomplete_and_nan),
	    cmocka_unit_test(test_checkpoint_lines),
	    cmocka_unit_test(test_primus_complete),
	    cmocka_unit_test(test_primus_marker_and_no_steps),
	    cmocka_unit_test(test_warmup_rule),
	    cmocka_unit_test(test_rows),
	    cmocka_unit_test(test_step_json),
	    cmocka_unit_test(test_detect),
	    cmocka_unit_test(test_golden_errors),
	    cmocka_unit_test(test_conformance_smoke_tail),
	    cmocka_unit_test(test_conformance_safe_lens),
	    cmocka_unit_test(test_conformance_cvs),
	    cmocka_unit_test(test_conformance_golden),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
