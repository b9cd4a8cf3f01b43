/* Unit tests for the gates: thresholds files (strict loading, combo cells,
 * every verdict, missing metrics), run health (NaN, incomplete), loss-curve
 * slope, convergence, scaling efficiency and checkpoint-resume continuity
 * (the golden Megatron pair when the conformance data is there). */
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

#include "assay/gate.h"
#include "assay/json.h"

#define DATA ASSAY_SOURCE_DIR "/tests/fixtures/"

#define assert_near(a, b)                                                                          \
	assert_true(fabs((double)(a) - (double)(b)) <= 1e-9 * (fabs((double)(b)) + 1))

static void parse_log(const char *path, const struct assay_train_opts *o,
		      struct assay_train_result *r)
{
	size_t len;
	struct assay_error e;
	char *data = assay_read_file(path, &len, &e);
	assert_non_null(data);
	assert_int_equal(assay_train_parse("auto", data, len, o, path, r, &e), ASSAY_OK);
	free(data);
}

static void log_rows(const char *path, struct assay_rows *rows)
{
	struct assay_train_result r;
	struct assay_error e;
	struct assay_parse_opts po = {.file = path};
	parse_log(path, NULL, &r);
	assert_int_equal(assay_train_rows(&r, &po, rows, &e), ASSAY_OK);
	assay_train_result_release(&r);
}

/* The verdict on metric, failing the test when there is none. */
static const struct assay_verdict *find(const struct assay_verdicts *vs, const char *metric)
{
	for (size_t i = 0; i < vs->n; i++)
		if (!strcmp(vs->v[i].metric, metric))
			return &vs->v[i];
	fail_msg("no verdict on %s", metric);
	return NULL;
}

static void expect(const struct assay_verdicts *vs, const char *metric,
		   enum assay_verdict_status status, const char *message)
{
	const struct assay_verdict *v = find(vs, metric);
	if (v->status != status)
		fail_msg("%s: %s, expected %s (%s)", metric, assay_verdict_status_name(v->status),
			 assay_verdict_status_name(status), v->message);
	if (message)
		assert_string_equal(v->message, message);
}

/* ---- verdicts ---- */

static void test_verdicts(void **state)
{
	(void)state;
	struct assay_verdicts vs = ASSAY_VERDICTS_INIT;
	assert_int_equal(assay_verdicts_outcome(&vs), ASSAY_OK);
	assay_verdicts_add(&vs, ASSAY_VERDICT_PASS, "threshold", "a/b", 1.5, "ms", ">= 1", "ok %d",
			   1);
	assay_verdicts_add(&vs, ASSAY_VERDICT_RECORD, "threshold", "c/d", NAN, NULL, NULL,
			   "missing");
	assay_verdicts_add(&vs, ASSAY_VERDICT_SKIPPED, "threshold", "e/f", NAN, "", "", "x");
	assert_int_equal(assay_verdicts_outcome(&vs), ASSAY_OK);
	assay_verdicts_add(&vs, ASSAY_VERDICT_FAIL, "run", "finite", 2, "values", "", "nan");
	assert_int_equal(assay_verdicts_outcome(&vs), ASSAY_GATE_FAILED);
	size_t c[ASSAY_VERDICT_COUNT];
	assay_verdicts_count(&vs, c);
	assert_int_equal(c[ASSAY_VERDICT_PASS], 1);
	assert_int_equal(c[ASSAY_VERDICT_FAIL], 1);
	assert_int_equal(c[ASSAY_VERDICT_RECORD], 1);
	assert_int_equal(c[ASSAY_VERDICT_SKIPPED], 1);
	assert_string_equal(assay_verdict_status_name(ASSAY_VERDICT_SKIPPED), "SKIPPED");
	json_t *o = assay_verdict_to_json(&vs.v[1]);
	char *s = assay_json_dumps(o, ASSAY_JSON_SORT);
	assert_string_equal(s, "{\"gate\":\"threshold\",\"message\":\"missing\",\"metric\":\"c/d\","
			       "\"spec\":\"\",\"status\":\"RECORD\",\"unit\":\"\",\"value\":null}");
	free(s);
	json_decref(o);
	assay_verdicts_release(&vs);
}

/* ---- thresholds files ---- */

static void test_combo_keys(void **state)
{
	(void)state;
	char out[128];
	struct assay_error e;
	assert_true(assay_combo_canonical("gbs=128,mbs=4,precision=fp8", out, sizeof(out), &e));
	assert_string_equal(out, "MBS=4,GBS=128,PRECISION=FP8");
	assert_true(assay_combo_canonical("MBS=1,GBS=8,PRECISION=BF16", out, sizeof(out), &e));
	assert_string_equal(out, "MBS=1,GBS=8,PRECISION=BF16");
	static const char *const bad[] = {"MBS=1,GBS=8",
					  "MBS=1,GBS=8,PRECISION=BF16,TP=2",
					  "MBS=0,GBS=8,PRECISION=BF16",
					  "MBS=1,MBS=2,PRECISION=x",
					  "MBS=1,GBS=8,PRECISION=bf 16",
					  "default",
					  ""};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_false(assay_combo_canonical(bad[i], out, sizeof(out), &e));
	assert_false(assay_combo_canonical("MBS=1,GBS=x,PRECISION=BF16", out, sizeof(out), &e));
	assert_string_equal(e.message,
			    "expected MBS=<m>,GBS=<g>,PRECISION=<p>, got "
			    "\"MBS=1,GBS=x,PRECISION=BF16\" (GBS must be a positive integer)");
	/* A CVS sweep name (MaxText's cells) is kept as written; a key that
	 * names MBS must be a combo. */
	assert_true(assay_combo_key("NNODES=2,STEPS=30,PRECISION=BF16", out, sizeof(out), &e));
	assert_string_equal(out, "NNODES=2,STEPS=30,PRECISION=BF16");
	assert_true(assay_combo_key("gbs=128,mbs=4,precision=fp8", out, sizeof(out), &e));
	assert_string_equal(out, "MBS=4,GBS=128,PRECISION=FP8");
	static const char *const bad_key[] = {"MBS=1,GBS=8,PRECISION=BF16,TP=2",
					      "NNODES=2,,STEPS=30",
					      "NNODES=2,",
					      "=2",
					      "NNODES=",
					      "NNODES=2 x",
					      "default",
					      ""};
	for (size_t i = 0; i < sizeof(bad_key) / sizeof(bad_key[0]); i++)
		assert_false(assay_combo_key(bad_key[i], out, sizeof(out), &e));
}

static void test_thresholds_errors(void **state)
{
	(void)state;
	static const struct {
		const char *json, *path, *message;
	} cases[] = {
	    {"[]", "$", "expected an object, got []"},
	    {"{}", "$.cells", "missing (expected an object)"},
	    {"{\"cells\": {}}", "$.cells", "expected at least one cell"},
	    {"{\"enforce\": 1, \"cells\": {}}", "$.enforce", "expected true or false, got 1"},
	    {"{\"cells\": {}, \"mode\": 1}", "$.mode",
	     "unknown key (expected one of: description, enforce, cells)"},
	    {"{\"cells\": {\"default\": []}}", "$.cells.default",
	     "expected an object of metric thresholds, got []"},
	    {"{\"cells\": {\"default\": {\"m\": {\"kind\": \"above\", \"value\": 1}}}}",
	     "$.cells.default.m.kind",
	     "expected one of \"min\", \"max\", \"within\", \"info\", got \"above\""},
	    {"{\"cells\": {\"default\": {\"m\": {\"kind\": \"min\"}}}}", "$.cells.default.m.value",
	     "missing (expected a number)"},
	    {"{\"cells\": {\"default\": {\"m\": {\"kind\": \"min\", \"value\": \"5\"}}}}",
	     "$.cells.default.m.value", "expected a number, got \"5\""},
	    {"{\"cells\": {\"default\": {\"m\": {\"kind\": \"within\", \"value\": 5}}}}",
	     "$.cells.default.m.tolerance", "missing (expected a number >= 0)"},
	    {"{\"cells\": {\"default\": {\"m\": {\"kind\": \"max\", \"value\": 5, \"tolerance\": "
	     "-1}}}}",
	     "$.cells.default.m.tolerance", "expected a number >= 0, got -1"},
	    {"{\"cells\": {\"default\": {\"m\": {\"kind\": \"info\", \"value\": 5}}}}",
	     "$.cells.default.m.value", "kind \"info\" takes no value or tolerance"},
	    {"{\"cells\": {\"default\": {\"m\": {\"kind\": \"min\", \"value\": 5, \"optional\": "
	     "\"yes\"}}}}",
	     "$.cells.default.m.optional", "expected true or false, got \"yes\""},
	    {"{\"cells\": {\"default\": {\"m\": {\"kind\": \"min\", \"value\": 5, \"statistic\": "
	     "\"\"}}}}",
	     "$.cells.default.m.statistic", "expected a non-empty string, got \"\""},
	    {"{\"cells\": {\"default\": {\"m\": {\"kind\": \"min\", \"value\": 5, \"tol\": 1}}}}",
	     "$.cells.default.m.tol",
	     "unknown key (expected one of: kind, value, tolerance, optional, statistic)"},
	    {"{\"cells\": {\"MBS=1,GBS=8\": {}}}", "$.cells[\"MBS=1,GBS=8\"]",
	     "expected \"default\" or a combo key: expected MBS=<m>,GBS=<g>,PRECISION=<p>, got "
	     "\"MBS=1,GBS=8\""},
	    {"{\"cells\": {\"MBS=1,GBS=8,PRECISION=BF16\": {}, \"mbs=1,gbs=8,precision=bf16\": "
	     "{}}}",
	     "$.cells[\"mbs=1,gbs=8,precision=bf16\"]",
	     "duplicate cell: the same combo as $.cells[\"MBS=1,GBS=8,PRECISION=BF16\"]"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct assay_error e;
		struct assay_thresholds t;
		json_t *doc = assay_json_loadb(cases[i].json, strlen(cases[i].json), "t.json", &e);
		assert_non_null(doc);
		assert_int_equal(assay_thresholds_parse(doc, "t.json", &t, &e), ASSAY_USAGE);
		assert_string_equal(e.file, "t.json");
		assert_string_equal(e.path, cases[i].path);
		assert_string_equal(e.message, cases[i].message);
		json_decref(doc);
	}
	/* Duplicate JSON keys are the loader's: the file and the path. */
	struct assay_error e;
	struct assay_thresholds t;
	assert_int_equal(assay_thresholds_load(DATA "gate/duplicate-key.json", &t, &e),
			 ASSAY_USAGE);
	assert_string_equal(e.path, "$.cells.default.tflops_per_gpu.value");
}

static void test_thresholds_default_cell(void **state)
{
	(void)state;
	struct assay_thresholds t;
	struct assay_error e;
	struct assay_rows rows = ASSAY_ROWS_INIT;
	struct assay_verdicts vs = ASSAY_VERDICTS_INIT;
	assert_int_equal(assay_thresholds_load(DATA "gate/thresholds.json", &t, &e), ASSAY_OK);
	assert_true(t.enforce);
	assert_int_equal(t.n_cells, 2);
	log_rows(DATA "training/primus-complete.log", &rows);
	/* A combo without its own cell uses "default". */
	assert_int_equal(assay_gate_thresholds(&t, "MBS=2,GBS=8,PRECISION=FP8", &rows, &vs, &e),
			 ASSAY_OK);
	expect(&vs, "tflops_per_gpu/steady_mean", ASSAY_VERDICT_PASS, "508.75 >= 500");
	expect(&vs, "elapsed_ms_per_iter/steady_mean", ASSAY_VERDICT_PASS, "585 <= 588");
	assert_string_equal(find(&vs, "elapsed_ms_per_iter/steady_mean")->spec,
			    "<= 588 (560 + 5%)");
	expect(&vs, "tokens_per_gpu/steady_mean", ASSAY_VERDICT_PASS,
	       "7150 is within [6958, 7242]");
	expect(&vs, "mem_usage_ratio/max", ASSAY_VERDICT_RECORD, "info: recorded");
	expect(&vs, "eval_lm_loss/last", ASSAY_VERDICT_SKIPPED, "missing (optional)");
	expect(&vs, "lm_loss/last", ASSAY_VERDICT_RECORD, "no threshold");
	/* Every row gets a verdict: nothing measured is lost. */
	assert_int_equal(vs.n, rows.n + 1);
	assert_int_equal(assay_verdicts_outcome(&vs), ASSAY_OK);
	assay_verdicts_release(&vs);
	assay_rows_release(&rows);
	assay_thresholds_release(&t);
}

static void test_thresholds_combo_cell(void **state)
{
	(void)state;
	struct assay_thresholds t;
	struct assay_error e;
	struct assay_rows rows = ASSAY_ROWS_INIT;
	struct assay_verdicts vs = ASSAY_VERDICTS_INIT;
	assert_int_equal(assay_thresholds_load(DATA "gate/thresholds.json", &t, &e), ASSAY_OK);
	log_rows(DATA "training/primus-complete.log", &rows);
	assert_int_equal(assay_gate_thresholds(&t, "precision=bf16,mbs=1,gbs=8", &rows, &vs, &e),
			 ASSAY_OK);
	expect(&vs, "tflops_per_gpu/steady_mean", ASSAY_VERDICT_FAIL, "508.75 < 520");
	expect(&vs, "tokens_per_gpu/running_avg", ASSAY_VERDICT_PASS, "7139.3 >= 7000");
	expect(&vs, "lm_loss/last", ASSAY_VERDICT_FAIL, "10.1 > 10");
	/* A missing metric is a FAIL that says so, not a crash. */
	expect(&vs, "checkpoint_save_ms/max", ASSAY_VERDICT_FAIL,
	       "missing: no row has this metric");
	assert_true(isnan(find(&vs, "checkpoint_save_ms/max")->value));
	assert_int_equal(assay_verdicts_outcome(&vs), ASSAY_GATE_FAILED);
	assay_verdicts_release(&vs);
	assay_thresholds_release(&t);

	/* Enforcement off: the same judgements, recorded. */
	assert_int_equal(assay_thresholds_load(DATA "gate/thresholds-record.json", &t, &e),
			 ASSAY_OK);
	assert_false(t.enforce);
	assert_int_equal(assay_gate_thresholds(&t, "MBS=1,GBS=8,PRECISION=BF16", &rows, &vs, &e),
			 ASSAY_OK);
	expect(&vs, "tflops_per_gpu/steady_mean", ASSAY_VERDICT_RECORD,
	       "not enforced: would fail (508.75 < 520)");
	expect(&vs, "checkpoint_save_ms/max", ASSAY_VERDICT_RECORD, "missing (not enforced)");
	assert_int_equal(assay_verdicts_outcome(&vs), ASSAY_OK);
	assay_verdicts_release(&vs);
	assay_rows_release(&rows);
	assay_thresholds_release(&t);
}

static void test_thresholds_cells_and_combos(void **state)
{
	(void)state;
	struct assay_thresholds t;
	struct assay_error e;
	struct assay_rows rows = ASSAY_ROWS_INIT;
	struct assay_verdicts vs = ASSAY_VERDICTS_INIT;
	assert_int_equal(assay_thresholds_load(DATA "gate/thresholds-no-default.json", &t, &e),
			 ASSAY_OK);
	log_rows(DATA "training/primus-complete.log", &rows);
	/* A run without a cell is a config error when enforcing. */
	assert_int_equal(assay_gate_thresholds(&t, "MBS=4,GBS=8,PRECISION=BF16", &rows, &vs, &e),
			 ASSAY_USAGE);
	assert_string_equal(e.path, "$.cells");
	assert_string_equal(e.message, "no cell for combo \"MBS=4,GBS=8,PRECISION=BF16\" and no "
				       "\"default\" cell");
	assert_int_equal(vs.n, 0);
	assert_int_equal(assay_gate_thresholds(&t, "MBS=1,GBS=x", &rows, &vs, &e), ASSAY_USAGE);
	/* The suite's combos against the cells: orphans and runs without cells. */
	const char *both[] = {"MBS=1,GBS=8,PRECISION=BF16", "MBS=2,GBS=16,PRECISION=FP8"};
	assert_int_equal(assay_thresholds_check_combos(&t, both, 2, &e), ASSAY_OK);
	assert_int_equal(assay_thresholds_check_combos(&t, both, 1, &e), ASSAY_USAGE);
	assert_string_equal(e.file, DATA "gate/thresholds-no-default.json");
	assert_string_equal(e.path, "$.cells[\"MBS=2,GBS=16,PRECISION=FP8\"]");
	assert_string_equal(e.message, "orphan cell: no run uses this combo");
	const char *other[] = {"MBS=1,GBS=8,PRECISION=BF16", "MBS=2,GBS=16,PRECISION=FP8",
			       "MBS=8,GBS=16,PRECISION=FP8"};
	assert_int_equal(assay_thresholds_check_combos(&t, other, 3, &e), ASSAY_USAGE);
	assert_string_equal(e.message, "no cell for combo \"MBS=8,GBS=16,PRECISION=FP8\" and no "
				       "\"default\" cell");
	/* Not enforcing: neither is an error, and all rows are recorded. */
	t.enforce = false;
	assert_int_equal(assay_thresholds_check_combos(&t, other, 1, &e), ASSAY_OK);
	assert_int_equal(assay_gate_thresholds(&t, "MBS=4,GBS=8,PRECISION=BF16", &rows, &vs, &e),
			 ASSAY_OK);
	assert_int_equal(vs.n, rows.n);
	for (size_t i = 0; i < vs.n; i++)
		assert_int_equal(vs.v[i].status, ASSAY_VERDICT_RECORD);
	assay_verdicts_release(&vs);
	assay_rows_release(&rows);
	assay_thresholds_release(&t);
}

static void test_thresholds_statistic(void **state)
{
	(void)state;
	const char *json = "{\"cells\": {\"default\": {\"roundtrip_us\": {\"kind\": \"max\", "
			   "\"value\": 500}}}}";
	struct assay_error e;
	json_t *doc = assay_json_loadb(json, strlen(json), "t.json", &e);
	struct assay_thresholds t;
	assert_int_equal(assay_thresholds_parse(doc, "t.json", &t, &e), ASSAY_OK);
	json_decref(doc);
	struct assay_rows rows = ASSAY_ROWS_INIT;
	struct assay_verdicts vs = ASSAY_VERDICTS_INIT;
	const char *stats[] = {"p50", "p99"};
	for (int i = 0; i < 2; i++) {
		struct assay_row *r = assay_rows_add(&rows);
		assay_row_init(r);
		assay_row_set(r, json_object(), "roundtrip_us", stats[i], 400 + i * 200, "us",
			      ASSAY_DIR_LOWER);
		assert_int_equal(assay_row_finish(r, &e), ASSAY_OK);
	}
	/* An unknown metric with rows of two statistics: say which one. */
	assert_int_equal(assay_gate_thresholds(&t, NULL, &rows, &vs, &e), ASSAY_USAGE);
	assert_string_equal(e.path, "$.cells.default.roundtrip_us");
	assert_string_equal(e.message,
			    "the rows of roundtrip_us have several statistics (p50, p99, "
			    "...): add \"statistic\"");
	/* With one statistic left, it is the one. */
	assay_row_release(&rows.v[1]);
	rows.n = 1;
	assert_int_equal(assay_gate_thresholds(&t, NULL, &rows, &vs, &e), ASSAY_OK);
	expect(&vs, "roundtrip_us/p50", ASSAY_VERDICT_PASS, "400 <= 500");
	assay_verdicts_release(&vs);
	assay_rows_release(&rows);
	assay_thresholds_release(&t);
	assert_string_equal(assay_threshold_default_statistic("tflops_per_gpu"), "steady_mean");
	assert_string_equal(assay_threshold_default_statistic("lm_loss"), "last");
	assert_null(assay_threshold_default_statistic("roundtrip_us"));
}

/* ---- run health ---- */

static void test_run_health(void **state)
{
	(void)state;
	struct assay_train_result r;
	struct assay_verdicts vs = ASSAY_VERDICTS_INIT;
	parse_log(DATA "training/megatron-nan.log", NULL, &r);
	assay_gate_run(&r, &vs);
	expect(&vs, "completion", ASSAY_VERDICT_PASS, "completed (iteration N/N)");
	expect(&vs, "finite", ASSAY_VERDICT_FAIL,
	       "lm loss is NAN at step 4 (line 4); 2 NaN/Inf values in all");
	assert_int_equal(assay_verdicts_outcome(&vs), ASSAY_GATE_FAILED);
	assay_verdicts_release(&vs);
	assay_train_result_release(&r);

	parse_log(DATA "training/megatron-incomplete.log", NULL, &r);
	assay_gate_run(&r, &vs);
	expect(&vs, "completion", ASSAY_VERDICT_FAIL,
	       "incomplete run: no final \"iteration N/N\" line, no torchrun marker and no "
	       "Megatron exit line");
	assert_near(find(&vs, "completion")->value, 6);
	expect(&vs, "finite", ASSAY_VERDICT_PASS, NULL);
	assay_verdicts_release(&vs);
	assay_train_result_release(&r);

	parse_log(DATA "training/primus-no-steps.log", NULL, &r);
	assay_gate_run(&r, &vs);
	expect(&vs, "completion", ASSAY_VERDICT_PASS, "completed (torchrun marker)");
	expect(&vs, "steps", ASSAY_VERDICT_FAIL, "no metrics: the log has no iteration line");
	assay_verdicts_release(&vs);
	assay_train_result_release(&r);

	/* Issue 15: the NaN counter and an error signature each fail a verdict;
	 * a log that never trained has no completion verdict (issue 14). */
	parse_log(DATA "training/megatron-nan-counter.log", NULL, &r);
	assay_gate_run(&r, &vs);
	expect(&vs, "nan_iterations", ASSAY_VERDICT_FAIL,
	       "number of nan iterations is 5, the first at step 40 (line 4)");
	assay_verdicts_release(&vs);
	assay_train_result_release(&r);
	parse_log(DATA "training/megatron-nccl-timeout.log", NULL, &r);
	assay_gate_run(&r, &vs);
	assert_int_equal(find(&vs, "errors")->status, ASSAY_VERDICT_FAIL);
	assay_verdicts_release(&vs);
	assay_train_result_release(&r);
	parse_log(DATA "training/megatron-no-training.log", NULL, &r);
	assay_gate_run(&r, &vs);
	for (size_t i = 0; i < vs.n; i++)
		assert_string_not_equal(vs.v[i].metric, "completion");
	assay_verdicts_release(&vs);
	assay_train_result_release(&r);
}

/* ---- loss curve ---- */

static void test_loss_curve(void **state)
{
	(void)state;
	double x[] = {1, 2, 3, 4}, y[] = {10, 8, 6, 4}, slope;
	assert_true(assay_lsq_slope(x, y, 4, &slope));
	assert_near(slope, -2.0);
	assert_false(assay_lsq_slope(x, y, 1, &slope));
	double same[] = {5, 5};
	assert_false(assay_lsq_slope(same, y, 2, &slope));

	struct assay_train_result r;
	struct assay_verdicts vs = ASSAY_VERDICTS_INIT;
	struct assay_loss_curve_spec s = {.max_slope = 0, .sample_every = 1, .enforce = true};
	parse_log(DATA "training/megatron-basic.log", NULL, &r);
	assay_gate_loss_curve(&s, &r, &vs);
	const struct assay_verdict *v = find(&vs, "lm_loss/slope");
	assert_int_equal(v->status, ASSAY_VERDICT_PASS);
	/* The least-squares slope of the 10 losses against steps 1..10. */
	double xs[10], ys[10];
	for (int i = 0; i < 10; i++) {
		xs[i] = i + 1;
		ys[i] = r.steps[i].v[ASSAY_TM_LM_LOSS];
	}
	assert_true(assay_lsq_slope(xs, ys, 10, &slope));
	assert_near(v->value, slope);
	assert_true(slope < -0.25 && slope > -0.27);
	assay_verdicts_release(&vs);

	/* Milestones plus every 5th step: steps 1, 5, 10. */
	long long ms[] = {1};
	s.milestones = ms;
	s.n_milestones = 1;
	s.sample_every = 5;
	assay_gate_loss_curve(&s, &r, &vs);
	double x3[] = {1, 5, 10}, y3[] = {10.95, 9.50, 8.60};
	assert_true(assay_lsq_slope(x3, y3, 3, &slope));
	assert_near(find(&vs, "lm_loss/slope")->value, slope);
	assert_string_equal(find(&vs, "lm_loss/slope")->message,
			    "slope -0.257787 < 0 over 3 samples (steps 1..10)");
	assay_verdicts_release(&vs);

	/* A rising curve fails; not enforced, it is recorded. */
	s.max_slope = -0.3;
	assay_gate_loss_curve(&s, &r, &vs);
	expect(&vs, "lm_loss/slope", ASSAY_VERDICT_FAIL, NULL);
	assay_verdicts_release(&vs);
	s.enforce = false;
	assay_gate_loss_curve(&s, &r, &vs);
	expect(&vs, "lm_loss/slope", ASSAY_VERDICT_RECORD, NULL);
	assay_verdicts_release(&vs);
	assay_train_result_release(&r);

	/* No losses at all (every iteration skipped): SKIPPED, as CVS's
	 * evaluate_loss_decreasing() gives None under 2 points. */
	s.enforce = true;
	parse_log(DATA "training/megatron-skipped.log", NULL, &r);
	assay_gate_loss_curve(&s, &r, &vs);
	expect(&vs, "lm_loss/slope", ASSAY_VERDICT_SKIPPED,
	       "0 sampled steps with a finite lm loss: 2 needed for a slope");
	assay_verdicts_release(&vs);
	assay_train_result_release(&r);
}

/* ---- convergence ---- */

static void test_convergence(void **state)
{
	(void)state;
	struct assay_train_result r;
	struct assay_verdicts vs = ASSAY_VERDICTS_INIT;
	struct assay_convergence_spec s = {
	    .target_value = 9.0, .source = ASSAY_LOSS_TRAIN, .enforce = true};
	parse_log(DATA "training/megatron-basic.log", NULL, &r);
	assay_gate_convergence(&s, &r, &vs);
	expect(&vs, "lm_loss/final", ASSAY_VERDICT_PASS,
	       "final loss 8.6 at step 10 reached target 9");
	expect(&vs, "steps_to_target", ASSAY_VERDICT_RECORD, "first reached 9 at step 8");
	/* 9000 + 3000 + 1010 + 1000 + 990 + 1000 + 1020 + 1000 ms */
	assert_near(find(&vs, "time_to_target")->value, 18.02);
	assay_verdicts_release(&vs);

	/* auto prefers the evaluation loss: 8.69 at the end of training. */
	s.source = ASSAY_LOSS_AUTO;
	s.target_value = 8.65;
	assay_gate_convergence(&s, &r, &vs);
	expect(&vs, "eval_lm_loss/final", ASSAY_VERDICT_FAIL, "final loss 8.69 missed target 8.65");
	expect(&vs, "steps_to_target", ASSAY_VERDICT_RECORD, "the loss never reached 8.65");
	assay_verdicts_release(&vs);
	s.target_value = 9.7;
	assay_gate_convergence(&s, &r, &vs);
	expect(&vs, "eval_lm_loss/final", ASSAY_VERDICT_PASS, NULL);
	expect(&vs, "steps_to_target", ASSAY_VERDICT_RECORD, "first reached 9.7 at step 5");
	assert_near(find(&vs, "time_to_target")->value, 15.0); /* steps 1..5 */
	assay_verdicts_release(&vs);
	/* Reached only by the end-of-training evaluation: at the last step. */
	s.target_value = 8.695;
	assay_gate_convergence(&s, &r, &vs);
	expect(&vs, "eval_lm_loss/final", ASSAY_VERDICT_PASS,
	       "final loss 8.69 reached target 8.695");
	expect(&vs, "steps_to_target", ASSAY_VERDICT_RECORD, "first reached 8.695 at step 10");
	assay_verdicts_release(&vs);
	assay_train_result_release(&r);

	/* No loss: missing, a FAIL when enforced. */
	parse_log(DATA "training/megatron-skipped.log", NULL, &r);
	s.source = ASSAY_LOSS_TRAIN;
	assay_gate_convergence(&s, &r, &vs);
	expect(&vs, "lm_loss/final", ASSAY_VERDICT_FAIL, "missing: no finite lm loss in the log");
	assay_verdicts_release(&vs);
	assay_train_result_release(&r);
}

/* ---- scaling ---- */

static void test_scaling(void **state)
{
	(void)state;
	/* Two nodes at 1.8x one node's tokens/s: 90 %. */
	assert_near(assay_scaling_efficiency(180000, 2, 1, 100000), 90.0);
	assert_near(assay_scaling_efficiency(350000, 4, 2, 200000), 87.5);
	assert_true(isnan(assay_scaling_efficiency(1000, 2, 1, 0)));

	struct assay_train_result r;
	struct assay_verdicts vs = ASSAY_VERDICTS_INIT;
	parse_log(DATA "training/primus-complete.log", NULL, &r);
	/* 7150 tokens/s/GPU x 8 GPUs (rank-7/8) = 57200 tokens/s on 2 nodes. */
	struct assay_scaling_spec s = {.nodes = 2,
				       .baseline_nodes = 1,
				       .baseline_tokens_per_s = 30000,
				       .min_efficiency = 90,
				       .enforce = true};
	assay_gate_scaling(&s, &r, &vs);
	assert_near(find(&vs, "total_tokens_per_s")->value, 57200);
	expect(&vs, "scaling_efficiency", ASSAY_VERDICT_PASS, NULL);
	assert_near(find(&vs, "scaling_efficiency")->value, 57200.0 / 2 / 30000 * 100);
	assay_verdicts_release(&vs);
	s.min_efficiency = 96;
	assay_gate_scaling(&s, &r, &vs);
	expect(&vs, "scaling_efficiency", ASSAY_VERDICT_FAIL,
	       "95.33% = 57200 tokens/s / (2 / 1 nodes) / 30000 tokens/s");
	assay_verdicts_release(&vs);
	/* A zero baseline: record only. */
	s.baseline_tokens_per_s = 0;
	assay_gate_scaling(&s, &r, &vs);
	expect(&vs, "scaling_efficiency", ASSAY_VERDICT_RECORD,
	       "record only: the baseline is 0 tokens/s");
	assay_verdicts_release(&vs);
	assay_train_result_release(&r);

	/* A Megatron log without tokens: missing. */
	parse_log(DATA "training/megatron-basic.log", NULL, &r);
	s.baseline_tokens_per_s = 30000;
	assay_gate_scaling(&s, &r, &vs);
	expect(&vs, "scaling_efficiency", ASSAY_VERDICT_FAIL, NULL);
	assert_true(isnan(find(&vs, "scaling_efficiency")->value));
	assay_verdicts_release(&vs);
	assay_train_result_release(&r);
}

/* ---- checkpoint resume ---- */

static void test_checkpoint_fixtures(void **state)
{
	(void)state;
	struct assay_train_result save, resume, bad;
	struct assay_verdicts vs = ASSAY_VERDICTS_INIT;
	struct assay_checkpoint_spec s = {
	    .loss_rtol = 0.01, .overlap_rtol = NAN, .last_checkpoint = -1, .enforce = true};
	parse_log(DATA "training/megatron-save.log", NULL, &save);
	parse_log(DATA "training/megatron-resume.log", NULL, &resume);
	parse_log(DATA "training/megatron-resume-bad.log", NULL, &bad);
	assay_gate_checkpoint(&s, &save, &resume, &vs);
	/* Logged every 5 steps: after checkpoint 20 the first logged step is 25. */
	expect(&vs, "resume_first_step", ASSAY_VERDICT_PASS, NULL);
	assert_near(find(&vs, "resume_first_step")->value, 25);
	expect(&vs, "loaded_iteration", ASSAY_VERDICT_PASS, NULL);
	expect(&vs, "resume_loss_rdiff", ASSAY_VERDICT_PASS, NULL);
	assert_near(find(&vs, "resume_loss_rdiff")->value, (8.79 - 8.8) / 8.8);
	expect(&vs, "checkpoint_save_ms", ASSAY_VERDICT_RECORD, NULL);
	assert_near(find(&vs, "checkpoint_save_ms")->value, 2301.47);
	assert_near(find(&vs, "checkpoint_load_ms")->value, 4542.10);
	assert_int_equal(assay_verdicts_outcome(&vs), ASSAY_OK);
	assay_verdicts_release(&vs);

	assay_gate_checkpoint(&s, &save, &bad, &vs);
	expect(&vs, "resume_first_step", ASSAY_VERDICT_FAIL,
	       "resumed at step 15; last checkpoint 20 (logged every few steps)");
	expect(&vs, "loaded_iteration", ASSAY_VERDICT_FAIL,
	       "the resumed run loaded the checkpoint of iteration 10");
	expect(&vs, "resume_loss_rdiff", ASSAY_VERDICT_FAIL,
	       "loss 9.9 at step 15 after 8.8 at step 20: +0.125 relative");
	assay_verdicts_release(&vs);

	/* No checkpoint anywhere: missing. */
	assay_gate_checkpoint(&s, &resume, &resume, &vs);
	expect(&vs, "resume_first_step", ASSAY_VERDICT_FAIL,
	       "missing: the saving run logged no saved checkpoint and the spec gives no "
	       "last_checkpoint");
	assay_verdicts_release(&vs);
	s.enforce = false;
	assay_gate_checkpoint(&s, &save, &bad, &vs);
	assert_int_equal(assay_verdicts_outcome(&vs), ASSAY_OK);
	expect(&vs, "resume_first_step", ASSAY_VERDICT_RECORD, NULL);
	assay_verdicts_release(&vs);
	assay_train_result_release(&save);
	assay_train_result_release(&resume);
	assay_train_result_release(&bad);
}

static const char *conformance(const char *name, char *buf, size_t size)
{
	return conformance_file("training-logs", name, buf, size);
}

static void test_checkpoint_golden_pair(void **state)
{
	(void)state;
	char p1[1024], p2[1024];
	if (!conformance("megatron_golden_gpt3_resume_run1_dgx_h100.json", p1, sizeof(p1)) ||
	    !conformance("megatron_golden_gpt3_resume_run2_dgx_h100.json", p2, sizeof(p2))) {
		skip();
		return;
	}
	struct assay_train_result save, resume;
	struct assay_verdicts vs = ASSAY_VERDICTS_INIT;
	struct assay_checkpoint_spec s = {
	    .loss_rtol = 0.01, .overlap_rtol = 2e-5, .last_checkpoint = 50, .enforce = true};
	parse_log(p1, NULL, &save);
	parse_log(p2, NULL, &resume);
	assay_gate_checkpoint(&s, &save, &resume, &vs);
	expect(&vs, "resume_first_step", ASSAY_VERDICT_PASS,
	       "resumed at step 51; last checkpoint 50");
	expect(&vs, "resume_loss_rdiff", ASSAY_VERDICT_PASS,
	       "loss 10.1994 at step 51 after 10.2109 at step 50: -0.00112 relative");
	expect(&vs, "overlap_loss_rdiff", ASSAY_VERDICT_PASS,
	       "50 shared steps after the checkpoint; largest at step 79");
	assert_int_equal(assay_verdicts_outcome(&vs), ASSAY_OK);
	assay_verdicts_release(&vs);

	/* Doctored: the resumed run's first loss jumps 5 %, and a later step drifts. */
	resume.steps[0].v[ASSAY_TM_LM_LOSS] = 10.21087 * 1.05;
	resume.steps[20].v[ASSAY_TM_LM_LOSS] *= 1.001;
	assay_gate_checkpoint(&s, &save, &resume, &vs);
	expect(&vs, "resume_first_step", ASSAY_VERDICT_PASS, NULL);
	expect(&vs, "resume_loss_rdiff", ASSAY_VERDICT_FAIL, NULL);
	expect(&vs, "overlap_loss_rdiff", ASSAY_VERDICT_FAIL, NULL);
	assert_int_equal(assay_verdicts_outcome(&vs), ASSAY_GATE_FAILED);
	assay_verdicts_release(&vs);
	/* Doctored: the run resumed one step late (step 51 lost). */
	memmove(resume.steps, resume.steps + 1, (resume.n_steps - 1) * sizeof(*resume.steps));
	resume.n_steps--;
	assay_gate_checkpoint(&s, &save, &resume, &vs);
	expect(&vs, "resume_first_step", ASSAY_VERDICT_FAIL,
	       "resumed at step 52; last checkpoint 50");
	assay_verdicts_release(&vs);
	assay_train_result_release(&save);
	assay_train_result_release(&resume);
}

/* ---- spec files ---- */

static void test_spec_files(void **state)
{
	(void)state;
	struct assay_gate_spec s;
	struct assay_error e;
	assert_int_equal(assay_gate_spec_load(DATA "gate/spec.json", &s, &e), ASSAY_OK);
	assert_true(s.has_loss_curve && s.has_convergence && s.has_scaling);
	assert_false(s.has_checkpoint);
	assert_int_equal(s.loss_curve.sample_every, 2);
	assert_int_equal(s.loss_curve.n_milestones, 1);
	assert_true(s.loss_curve.enforce);
	assert_int_equal(s.convergence.source, ASSAY_LOSS_TRAIN);
	assert_int_equal(s.scaling.nodes, 2);
	assay_gate_spec_release(&s);
	assert_int_equal(assay_gate_spec_load(DATA "gate/spec-checkpoint.json", &s, &e), ASSAY_OK);
	assert_true(s.has_checkpoint);
	assert_int_equal(s.checkpoint.last_checkpoint, -1);
	assert_near(s.checkpoint.overlap_rtol, 0.001);
	assay_gate_spec_release(&s);
	static const struct {
		const char *json, *path, *message;
	} cases[] = {
	    {"{\"loss_curve\": {\"max_slope\": \"0\"}}", "$.loss_curve.max_slope",
	     "expected a number, got \"0\""},
	    {"{\"loss_curve\": {\"max_slope\": 0, \"milestones\": [5, 5]}}",
	     "$.loss_curve.milestones[1]", "duplicate value 5"},
	    {"{\"convergence\": {\"target_value\": 2, \"source\": \"test\"}}",
	     "$.convergence.source", "expected one of \"auto\", \"eval\", \"train\", got \"test\""},
	    {"{\"scaling\": {\"nodes\": 0, \"baseline_nodes\": 1, \"baseline_tokens_per_s\": 1}}",
	     "$.scaling.nodes", "expected a positive integer, got 0"},
	    {"{\"scaling\": {\"nodes\": 2, \"baseline_nodes\": 1}}",
	     "$.scaling.baseline_tokens_per_s", "missing (expected a number >= 0)"},
	    {"{\"checkpoint\": {\"loss_rtol\": 0.01, \"every\": 5}}", "$.checkpoint.every",
	     "unknown key (expected one of: loss_rtol, overlap_rtol, last_checkpoint, enforce)"},
	    {"{\"thresholds\": {}}", "$.thresholds",
	     "unknown key (expected one of: description, loss_curve, convergence, scaling, "
	     "checkpoint)"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		json_t *doc = assay_json_loadb(cases[i].json, strlen(cases[i].json), "s.json", &e);
		assert_non_null(doc);
		assert_int_equal(assay_gate_spec_parse(doc, "s.json", &s, &e), ASSAY_USAGE);
		assert_string_equal(e.file, "s.json");
		assert_string_equal(e.path, cases[i].path);
		assert_string_equal(e.message, cases[i].message);
		json_decref(doc);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_verdicts),
	    cmocka_unit_test(test_combo_keys),
	    cmocka_unit_test(test_thresholds_errors),
	    cmocka_unit_test(test_thresholds_default_cell),
	    cmocka_unit_test(test_thresholds_combo_cell),
	    cmocka_unit_test(test_thresholds_cells_and_combos),
	    cmocka_unit_test(test_thresholds_statistic),
	    cmocka_unit_test(test_run_health),
	    cmocka_unit_test(test_loss_curve),
	    cmocka_unit_test(test_convergence),
	    cmocka_unit_test(test_scaling),
	    cmocka_unit_test(test_checkpoint_fixtures),
	    cmocka_unit_test(test_checkpoint_golden_pair),
	    cmocka_unit_test(test_spec_files),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
