/* Unit tests for CVS threshold files read as they are (gate/thresholds_cvs.c):
 * loading an unchanged ROCm/cvs file, the file rules (comments, placeholders,
 * kinds, metric names, cells) and, on the shared conformance logs, a table of
 * the verdicts CVS's code gives next to the ones assay gives. */
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
#include "assay/training.h"

/* Unchanged from ROCm/cvs at dddd91430fe4 (MIT), tests/fixtures/gate/cvs/SOURCE.md. */
#define CVS_FILE                                                                                   \
	ASSAY_SOURCE_DIR                                                                           \
	"/tests/fixtures/gate/cvs/mi325x_megatron_llama-3.1-8b_single_threshold.json"
#define CVS_DIST_FILE                                                                              \
	ASSAY_SOURCE_DIR                                                                           \
	"/tests/fixtures/gate/cvs/mi325x_megatron_llama-3.3-70b_distributed_threshold.json"

static assay_err parse_text(const char *text, struct assay_thresholds *t, struct assay_error *e)
{
	json_error_t je;
	json_t *doc = json_loads(text, 0, &je);
	assert_non_null(doc);
	assay_err rc = assay_thresholds_parse(doc, "cvs.json", t, e);
	json_decref(doc);
	return rc;
}

static void expect_error(const char *text, const char *message)
{
	struct assay_thresholds t;
	struct assay_error e;
	assert_int_equal(parse_text(text, &t, &e), ASSAY_USAGE);
	char buf[1024];
	assay_error_format(&e, buf, sizeof(buf));
	assert_string_equal(buf, message);
}

static const struct assay_threshold *find_th(const struct assay_threshold_cell *cell,
					     const char *metric)
{
	for (size_t i = 0; i < cell->n; i++)
		if (!strcmp(cell->v[i].metric, metric))
			return &cell->v[i];
	fail_msg("no threshold on %s", metric);
	return NULL;
}

static void test_cvs_file_loads(void **state)
{
	(void)state;
	struct assay_thresholds t;
	struct assay_error e;
	assert_int_equal(assay_thresholds_load(CVS_FILE, &t, &e), ASSAY_OK);
	assert_true(t.cvs);
	assert_true(t.enforce);
	assert_int_equal(t.n_cells, 4);
	const struct assay_threshold_cell *cell =
	    assay_thresholds_cell(&t, "MBS=4,GBS=128,PRECISION=MXFP8");
	assert_non_null(cell);
	assert_int_equal(cell->n, 4);
	const struct assay_threshold *th = find_th(cell, "tflops_per_gpu");
	assert_int_equal(th->kind, ASSAY_TH_MIN);
	assert_true(th->value == 100);
	/* CVS's value: the summary line, else its fallback mean; rows without
	 * either (RESULTS files) are read at assay's steady mean. */
	assert_string_equal(th->cvs_stats[0], "summary");
	assert_string_equal(th->cvs_stats[1], "cvs_mean");
	assert_string_equal(th->cvs_stats[2], "steady_mean");
	th = find_th(cell, "elapsed_ms_per_iter");
	assert_int_equal(th->kind, ASSAY_TH_MAX);
	assert_true(th->value == 500);
	th = find_th(cell, "tokens_per_gpu");
	assert_int_equal(th->kind, ASSAY_TH_MIN);
	assert_true(th->value == 1000);
	th = find_th(cell, "mem_usage_ratio");
	assert_int_equal(th->kind, ASSAY_TH_MAX);
	assert_true(th->value == 0.85);
	assert_string_equal(th->cvs_stats[0], "cvs_tail");
	assert_string_equal(th->cvs_stats[3], "max");
	/* No default cell: a combo without a cell is a config error. */
	assert_null(assay_thresholds_cell(&t, "MBS=1,GBS=8,PRECISION=BF16"));
	struct assay_rows rows = ASSAY_ROWS_INIT;
	struct assay_verdicts vs = ASSAY_VERDICTS_INIT;
	assert_int_equal(assay_gate_thresholds(&t, "MBS=1,GBS=8,PRECISION=BF16", &rows, &vs, &e),
			 ASSAY_USAGE);
	char buf[1024];
	assay_error_format(&e, buf, sizeof(buf));
	assert_non_null(
	    strstr(buf, "llama-3.1-8b_single_threshold.json: $: no cell for combo "
			"\"MBS=1,GBS=8,PRECISION=BF16\" (a CVS file has no default cell: give "
			"--combo)"));
	/* Orphan cells name their key at the top level. */
	const char *combos[] = {"MBS=4,GBS=128,PRECISION=FP8", "MBS=4,GBS=128,PRECISION=BF16",
				"MBS=4,GBS=128,PRECISION=MXFP4"};
	assert_int_equal(assay_thresholds_check_combos(&t, combos, 3, &e), ASSAY_USAGE);
	assay_error_format(&e, buf, sizeof(buf));
	assert_non_null(strstr(buf, "json: $[\"MBS=4,GBS=128,PRECISION=MXFP8\"]: orphan cell: "
				    "no run uses this combo"));
	const char *all[] = {"MBS=4,GBS=128,PRECISION=FP8", "MBS=4,GBS=128,PRECISION=BF16",
			     "MBS=4,GBS=128,PRECISION=MXFP4", "MBS=4,GBS=128,PRECISION=MXFP8"};
	assert_int_equal(assay_thresholds_check_combos(&t, all, 4, &e), ASSAY_OK);
	assay_verdicts_release(&vs);
	assay_thresholds_release(&t);

	assert_int_equal(assay_thresholds_load(CVS_DIST_FILE, &t, &e), ASSAY_OK);
	cell = assay_thresholds_cell(&t, "MBS=1,GBS=64,PRECISION=BF16");
	assert_non_null(cell);
	assert_int_equal(cell->n, 5);
	th = find_th(cell, "scaling_efficiency");
	assert_int_equal(th->kind, ASSAY_TH_MIN);
	assert_true(th->value == 85);
	assert_null(th->statistic);
	/* A log gives no scaling_efficiency row, so it fails as missing, as in
	 * CVS with the shipped scaling_baseline.tokens_per_sec_total of 0.0
	 * (compute_scaling_efficiency returns None: "missing from actuals"). */
	struct assay_rows none = ASSAY_ROWS_INIT;
	struct assay_verdicts dv = ASSAY_VERDICTS_INIT;
	assert_int_equal(assay_gate_thresholds(&t, "MBS=1,GBS=64,PRECISION=BF16", &none, &dv, &e),
			 ASSAY_OK);
	assert_int_equal(dv.n, 5);
	for (size_t i = 0; i < dv.n; i++)
		assert_int_equal(dv.v[i].status, ASSAY_VERDICT_FAIL);
	assay_verdicts_release(&dv);
	assay_thresholds_release(&t);
}

static void test_cvs_rules(void **state)
{
	(void)state;
	struct assay_thresholds t;
	struct assay_error e;
	/* Comments at every level are ignored; kinds map; values may be
	 * numeric strings (CVS reads them with float()). */
	assert_int_equal(
	    parse_text(
		"{\"_comment\": \"x\", \"mbs=2,gbs=16,precision=bf16\": {\"_note\": 1,"
		" \"training.throughput_per_gpu\": {\"kind\": \"min_tok_s\", \"value\": "
		"\"120\", \"_why\": \"x\"},"
		" \"training.elapsed_time_per_iteration\": {\"kind\": \"max_ms\", \"value\": "
		"700},"
		" \"training.tokens_per_gpu\": {\"kind\": \"within\", \"value\": 5000, "
		"\"tolerance_pct\": 10},"
		" \"training.steps_to_target\": {\"kind\": \"info\", \"value\": 1000000},"
		" \"training.time_to_target_seconds\": {\"kind\": \"info\"}},"
		" \"MBS=1,GBS=8,PRECISION=FP8\": {},"
		" \"MBS=1,GBS=16,PRECISION=FP8\": null}",
		&t, &e),
	    ASSAY_OK);
	assert_int_equal(t.n_cells, 3);
	const struct assay_threshold_cell *cell =
	    assay_thresholds_cell(&t, "MBS=2,GBS=16,PRECISION=BF16");
	assert_non_null(cell);
	assert_int_equal(cell->n, 5);
	assert_int_equal(find_th(cell, "tflops_per_gpu")->kind, ASSAY_TH_MIN);
	assert_true(find_th(cell, "tflops_per_gpu")->value == 120);
	assert_int_equal(find_th(cell, "elapsed_ms_per_iter")->kind, ASSAY_TH_MAX);
	assert_int_equal(find_th(cell, "tokens_per_gpu")->kind, ASSAY_TH_WITHIN);
	assert_true(find_th(cell, "tokens_per_gpu")->tolerance == 0.1);
	assert_true(find_th(cell, "steps_to_target")->missing_fails);

	/* Verdicts: info present records, info missing fails (CVS: "missing
	 * from actuals"), within is CVS's band value*(1 -/+ pct/100). */
	struct assay_rows rows = ASSAY_ROWS_INIT;
	struct assay_row *r = assay_rows_add(&rows);
	assay_row_init(r);
	assay_row_set(r, json_object(), "steps_to_target", "value", 420, "steps", ASSAY_DIR_LOWER);
	r = assay_rows_add(&rows);
	assay_row_init(r);
	assay_row_set(r, json_object(), "tokens_per_gpu", "steady_mean", 5499, "tokens/s/GPU",
		      ASSAY_DIR_HIGHER);
	r = assay_rows_add(&rows);
	assay_row_init(r);
	assay_row_set(r, json_object(), "tflops_per_gpu", "steady_mean", 120, "TFLOP/s/GPU",
		      ASSAY_DIR_HIGHER);
	struct assay_verdicts vs = ASSAY_VERDICTS_INIT;
	assert_int_equal(assay_gate_thresholds(&t, "MBS=2,GBS=16,PRECISION=BF16", &rows, &vs, &e),
			 ASSAY_OK);
	size_t want = 0;
	for (size_t i = 0; i < vs.n; i++) {
		const struct assay_verdict *v = &vs.v[i];
		if (!strcmp(v->metric, "steps_to_target/value")) {
			assert_int_equal(v->status, ASSAY_VERDICT_RECORD);
			want++;
		} else if (!strncmp(v->metric, "time_to_target/", 15)) {
			assert_int_equal(v->status, ASSAY_VERDICT_FAIL);
			want++;
		} else if (!strcmp(v->metric, "tokens_per_gpu/steady_mean")) {
			assert_int_equal(v->status, ASSAY_VERDICT_PASS);
			want++;
		} else if (!strcmp(v->metric, "tflops_per_gpu/steady_mean")) {
			assert_int_equal(v->status, ASSAY_VERDICT_PASS); /* 120 >= 120 */
			want++;
		} else if (!strcmp(v->metric, "elapsed_ms_per_iter/summary")) {
			/* missing: named by the statistic CVS reads first */
			assert_int_equal(v->status, ASSAY_VERDICT_FAIL);
			want++;
		}
	}
	assert_int_equal(want, 5);
	assay_verdicts_release(&vs);
	/* An empty or null cell judges nothing: every row is recorded. */
	assert_int_equal(assay_gate_thresholds(&t, "MBS=1,GBS=16,PRECISION=FP8", &rows, &vs, &e),
			 ASSAY_OK);
	assert_int_equal(vs.n, 3);
	for (size_t i = 0; i < vs.n; i++)
		assert_int_equal(vs.v[i].status, ASSAY_VERDICT_RECORD);
	assay_verdicts_release(&vs);
	assay_rows_release(&rows);
	assay_thresholds_release(&t);

	/* The assay format is not mistaken for CVS's, and a file of neither
	 * kind gets assay's own message. */
	expect_error("{\"cels\": {}}", "cvs.json: $.cels: unknown key (expected one of: "
				       "description, enforce, cells)");

	expect_error("{\"MBS=4,GBS=128,PRECISION=FP8\": {\"training.mem_usage\": {\"kind\": "
		     "\"max\", \"value\": \"<changeme>\"}}}",
		     "cvs.json: $[\"MBS=4,GBS=128,PRECISION=FP8\"][\"training.mem_usage\"].value: "
		     "unfilled placeholder \"<changeme>\": replace it with a calibrated value");
	expect_error("{\"_comment\": \"<changeme>\", \"MBS=<changeme>,GBS=1,PRECISION=FP8\": {}}",
		     "cvs.json: $._comment: unfilled placeholder \"<changeme>\" (and 1 more in the "
		     "file): replace each with a calibrated value");
	expect_error("{\"_comment\": \"only words\"}",
		     "cvs.json: $: expected at least one combo cell "
		     "(MBS=<m>,GBS=<g>,PRECISION=<p>)");
	expect_error("{\"default\": {}, \"MBS=1,GBS=8,PRECISION=FP8\": {}}",
		     "cvs.json: $.default: expected a combo key (a CVS file has one cell per sweep "
		     "combo and no default cell): expected MBS=<m>,GBS=<g>,PRECISION=<p>, got "
		     "\"default\"");
	expect_error("{\"MBS=1,GBS=8,PRECISION=FP8\": {}, \"PRECISION=fp8,MBS=1,GBS=8\": {}}",
		     "cvs.json: $[\"PRECISION=fp8,MBS=1,GBS=8\"]: duplicate cell: the same combo "
		     "as \"MBS=1,GBS=8,PRECISION=FP8\"");
	expect_error(
	    "{\"MBS=1,GBS=8,PRECISION=FP8\": {\"training.tflops_per_sec\": "
	    "{\"kind\": \"min\", \"value\": 1}}}",
	    "cvs.json: $[\"MBS=1,GBS=8,PRECISION=FP8\"][\"training.tflops_per_sec\"]"
	    ": unknown CVS metric (expected one of: training.throughput_per_gpu, "
	    "training.elapsed_time_per_iteration, training.tokens_per_gpu, "
	    "training.mem_usage, training.scaling_efficiency_pct, "
	    "training.steps_to_target, training.time_to_target_seconds, "
	    "training.tokens_per_sec, training.loss, training.mem_usage_gb, "
	    "training.tflops_per_sec_per_gpu, training.tokens_per_sec_per_gpu, "
	    "training.tokens_per_sec_total, training.step_time_seconds, "
	    "training.step_time_mean_ms, training.step_time_p50_ms, training.step_time_p95_ms, "
	    "training.final_loss, training.loss_decreased, training.eval_loss)");
	expect_error(
	    "{\"MBS=1,GBS=8,PRECISION=FP8\": {\"training.mem_usage\": {\"kind\": "
	    "\"min_ratio\", \"value\": 0.8}}}",
	    "cvs.json: $[\"MBS=1,GBS=8,PRECISION=FP8\"][\"training.mem_usage\"]: missing key "
	    "\"reference\" (kind \"min_ratio\")");
	expect_error(
	    "{\"MBS=1,GBS=8,PRECISION=FP8\": {\"training.mem_usage\": {\"kind\": "
	    "\"min_ratio\", \"value\": 0.8, \"reference\": \"training.tokens\"}}}",
	    "cvs.json: $[\"MBS=1,GBS=8,PRECISION=FP8\"][\"training.mem_usage\"].reference: "
	    "unknown CVS metric \"training.tokens\"");
	expect_error(
	    "{\"MBS=1,GBS=8,PRECISION=FP8\": {\"training.mem_usage\": {\"kind\": "
	    "\"max\", \"value\": 0.8, \"reference\": \"training.tokens_per_gpu\"}}}",
	    "cvs.json: $[\"MBS=1,GBS=8,PRECISION=FP8\"][\"training.mem_usage\"].reference: "
	    "only kind \"min_ratio\" takes a reference");
	expect_error("{\"MBS=1,GBS=8,PRECISION=FP8\": {\"training.mem_usage\": {\"kind\": "
		     "\"max\", \"value\": 0.8, \"vaule\": 0.7}}}",
		     "cvs.json: $[\"MBS=1,GBS=8,PRECISION=FP8\"][\"training.mem_usage\"].vaule: "
		     "unknown key (expected one of: kind, value, tolerance_pct, reference; keys "
		     "starting with _ are comments)");
	expect_error(
	    "{\"MBS=1,GBS=8,PRECISION=FP8\": {\"training.mem_usage\": {\"kind\": "
	    "\"below\", \"value\": 0.8}}}",
	    "cvs.json: $[\"MBS=1,GBS=8,PRECISION=FP8\"][\"training.mem_usage\"].kind: "
	    "unknown kind \"below\" (expected one of: min, max, max_ms, min_tok_s, within, "
	    "min_ratio, info, min_every_match)");
	expect_error("{\"MBS=1,GBS=8,PRECISION=FP8\": {\"training.mem_usage\": {\"kind\": "
		     "\"max\", \"value\": \"high\"}}}",
		     "cvs.json: $[\"MBS=1,GBS=8,PRECISION=FP8\"][\"training.mem_usage\"].value: "
		     "expected a number, got \"high\"");
	expect_error("{\"MBS=1,GBS=8,PRECISION=FP8\": {\"training.mem_usage\": {\"kind\": "
		     "\"max\"}}}",
		     "cvs.json: $[\"MBS=1,GBS=8,PRECISION=FP8\"][\"training.mem_usage\"]: missing "
		     "key \"value\"");
	expect_error("{\"MBS=1,GBS=8,PRECISION=FP8\": {\"training.mem_usage\": {\"kind\": "
		     "\"within\", \"value\": -1, \"tolerance_pct\": 5}}}",
		     "cvs.json: $[\"MBS=1,GBS=8,PRECISION=FP8\"][\"training.mem_usage\"]: kind "
		     "\"within\" needs a value >= 0 (CVS's band value*(1 -/+ tolerance_pct/100) is "
		     "empty for -1)");
	expect_error("{\"MBS=1,GBS=8,PRECISION=FP8\": [1]}",
		     "cvs.json: $[\"MBS=1,GBS=8,PRECISION=FP8\"]: expected an object of training.* "
		     "metric thresholds, got [...]");
}

/* ---- CVS's verdicts on the conformance logs ---- */

/* One metric of one log under the cell MBS=4,GBS=128,PRECISION=FP8 of the
 * unchanged CVS file (min 100 TFLOP/s/GPU, max 500 ms, min 1000 tokens/s/GPU,
 * max 0.85 memory). cvs_value is what CVS's megatron_lib.py reads (summary
 * patterns on the last 15 lines, else the mean of the per-iteration matches
 * without the first; NAN: no pattern matches, "missing from actuals"), and
 * cvs_pass its verdict from cvs/lib/utils/verdict.py::_check_one; worked out
 * from the CVS sources at dddd91430fe4. `assay gate --as cvs` (cvs_labels)
 * gives exactly these; assay_value and assay_pass are assay's own reading
 * (the same rules over every label assay reads, one line per step). */
static const struct {
	const char *log, *metric;
	double cvs_value;
	bool cvs_pass;
	double assay_value; /* NAN: missing */
	bool assay_pass;
} cvs_table[] = {
    /* Primus smoke tail: CVS's per-iteration fallback for TFLOP/s and ms
     * reads the same numbers as assay; its patterns for tokens
     * ("tokens/GPU/s:") and memory ("mem usages:") match nothing in Primus's
     * "tokens per GPU (tokens/s/GPU):" and "hip mem usage/.../usage_ratio:". */
    {"primus_megatron_smoke_tail_mi355x.log", "tflops_per_gpu", 448.64444444444444, true,
     448.64444444444444, true},
    {"primus_megatron_smoke_tail_mi355x.log", "elapsed_ms_per_iter", 1869.8333333333333, false,
     1869.8333333333333, false},
    {"primus_megatron_smoke_tail_mi355x.log", "tokens_per_gpu", NAN, false, 7902.642857142857,
     true},
    {"primus_megatron_smoke_tail_mi355x.log", "mem_usage_ratio", NAN, false, 0.5933, true},
    /* Primus-SaFE lines: the same. */
    {"primus_safe_lens_iteration_lines.log", "tflops_per_gpu", 452.4, true, 452.4, true},
    {"primus_safe_lens_iteration_lines.log", "elapsed_ms_per_iter", 9727.033333333333, false,
     9727.033333333333, false},
    {"primus_safe_lens_iteration_lines.log", "tokens_per_gpu", NAN, false, 10644, true},
    {"primus_safe_lens_iteration_lines.log", "mem_usage_ratio", NAN, false, 0.69663333333333333,
     true},
    /* CVS's own fixtures (lines of three runs): CVS averages every matching
     * line, the ANSI duplicate of step 4 included (and so does --as cvs);
     * assay keeps one line per step of the last run. */
    {"cvs_iteration_metrics_fixtures.log", "tflops_per_gpu", 894.7666666666667, true, 1290.3, true},
    {"cvs_iteration_metrics_fixtures.log", "elapsed_ms_per_iter", 3151.9, false, 654.5, false},
    {"cvs_iteration_metrics_fixtures.log", "tokens_per_gpu", NAN, false, 25032.8, true},
    {"cvs_iteration_metrics_fixtures.log", "mem_usage_ratio", 0.5462, true, 0.5462, true},
};

/* The verdict on metric (any statistic). */
static const struct assay_verdict *metric_verdict(const struct assay_verdicts *vs,
						  const char *metric)
{
	size_t n = strlen(metric);
	for (size_t j = 0; j < vs->n; j++)
		if (!strncmp(vs->v[j].metric, metric, n) && vs->v[j].metric[n] == '/' &&
		    vs->v[j].status != ASSAY_VERDICT_RECORD)
			return &vs->v[j];
	return NULL;
}

static void check_value(const char *log, const char *metric, double got, double want)
{
	if (isnan(want))
		assert_true(isnan(got));
	else if (fabs(got - want) > 1e-9 * fabs(want))
		fail_msg("%s %s: %.10g, expected %.10g", log, metric, got, want);
}

/* The CVS file's verdict on one table row, judged as assay does or as CVS. */
static void check_row(struct assay_thresholds *t, size_t i, const struct assay_train_result *r,
		      bool as_cvs)
{
	struct assay_error e;
	struct assay_parse_opts po = {.file = cvs_table[i].log};
	struct assay_rows rows = ASSAY_ROWS_INIT;
	assert_int_equal(assay_train_rows(r, &po, &rows, &e), ASSAY_OK);
	assay_train_cvs_rows(r, as_cvs, &rows);
	t->cvs_labels = as_cvs;
	struct assay_verdicts vs = ASSAY_VERDICTS_INIT;
	assert_int_equal(assay_gate_thresholds(t, "MBS=4,GBS=128,PRECISION=FP8", &rows, &vs, &e),
			 ASSAY_OK);
	const struct assay_verdict *v = metric_verdict(&vs, cvs_table[i].metric);
	if (!v)
		fail_msg("%s: no verdict on %s", cvs_table[i].log, cvs_table[i].metric);
	bool pass = as_cvs ? cvs_table[i].cvs_pass : cvs_table[i].assay_pass;
	enum assay_verdict_status want = pass ? ASSAY_VERDICT_PASS : ASSAY_VERDICT_FAIL;
	if (v->status != want)
		fail_msg("%s %s: %s, expected %s (%s)", cvs_table[i].log, cvs_table[i].metric,
			 assay_verdict_status_name(v->status), assay_verdict_status_name(want),
			 v->message);
	check_value(cvs_table[i].log, cvs_table[i].metric, v->value,
		    as_cvs ? cvs_table[i].cvs_value : cvs_table[i].assay_value);
	assay_verdicts_release(&vs);
	assay_rows_release(&rows);
}

static void test_cvs_conformance_verdicts(void **state)
{
	(void)state;
	struct assay_thresholds t;
	struct assay_error e;
	assert_int_equal(assay_thresholds_load(CVS_FILE, &t, &e), ASSAY_OK);
	size_t same = 0, checked = 0;
	for (size_t i = 0; i < ARRAY_SIZE(cvs_table); i++) {
		char buf[4096];
		const char *path =
		    conformance_file("training-logs", cvs_table[i].log, buf, sizeof(buf));
		if (!path)
			continue;
		size_t len;
		char *data = assay_read_file(path, &len, &e);
		assert_non_null(data);
		struct assay_train_result r;
		assert_int_equal(assay_train_parse("auto", data, len, NULL, path, &r, &e),
				 ASSAY_OK);
		free(data);
		check_row(&t, i, &r, true);
		check_row(&t, i, &r, false);
		same += cvs_table[i].assay_pass == cvs_table[i].cvs_pass;
		checked++;
		assay_train_result_release(&r);
	}
	if (checked == ARRAY_SIZE(cvs_table))
		assert_int_equal(same, 7); /* the other 5: values CVS's patterns do not read */
	assay_thresholds_release(&t);
}

/* ROCm/cvs's older library (dddd914, cvs/lib/megatron_training_lib.py):
 * re.findall with re.I of TRAINING_RESULT_PATTERNS over `tail -15` of the
 * log; the counts and least values here are what Python's re gives on the
 * same text. The log is parsed whole and fed one byte at a time. */
static void older(const char *log, const long long n[4], const double min[4], long long bad)
{
	static const enum assay_train_metric ms[] = {ASSAY_TM_TFLOPS, ASSAY_TM_TOKENS,
						     ASSAY_TM_MEM_RATIO, ASSAY_TM_ELAPSED_MS};
	for (int pass = 0; pass < 2; pass++) {
		struct assay_train_result r;
		struct assay_error e;
		if (pass == 0) {
			assert_int_equal(
			    assay_train_parse("megatron", log, strlen(log), NULL, "x.log", &r, &e),
			    ASSAY_OK);
		} else {
			struct assay_train_stream *st =
			    assay_train_stream_new("megatron", NULL, &r);
			for (const char *p = log; *p; p++)
				assay_train_stream_feed(st, p, 1);
			assert_int_equal(assay_train_stream_end(st, "x.log", &e), ASSAY_OK);
		}
		long long nbad = 0;
		for (int i = 0; i < 4; i++) {
			assert_int_equal(r.cvs_old_n[ms[i]], n[i]);
			if (n[i])
				assert_true(fabs(r.cvs_old_min[ms[i]] - min[i]) < 1e-9);
			nbad += r.cvs_old_bad[ms[i]];
		}
		assert_int_equal(nbad, bad);
		assay_train_result_release(&r);
	}
}

static void test_cvs_older_library(void **state)
{
	(void)state;
	struct sbuf sb = SBUF_INIT;
	/* 20 lines: the first five are outside the tail. */
	for (int i = 1; i <= 17; i++)
		sbuf_addf(&sb,
			  " iteration %d/ 17 | elapsed time per iteration (ms): %d.5 | mem usages: "
			  "0.%d | throughput per GPU (TFLOP/s/GPU): %d.0 |\n",
			  i, 400 + i, 50 + i, i == 3 ? 100 : 300 + i);
	sbuf_addf(&sb, "THROUGHPUT PER GPU: 350.5\nelapsed time per iteration: 10.0\n"
		       "tokens/GPU/s: 8271.9\n");
	older(sbuf_str(&sb), (long long[]){13, 1, 12, 12}, (double[]){306, 8271, 0.56, 406.5}, 0);
	sbuf_release(&sb);
	/* A last line without a line end is a line; a match across a line
	 * end (\s+); "(...)" that does not close before ":" falls back. */
	older("a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\nm\nn\nthroughput per GPU: 1.0\nmem usages:\n"
	      "0.25\nthroughput per GPU (x) y: 5\nthroughput per GPU :  7.\ntokens/GPU/s: x",
	      (long long[]){2, 0, 1, 0}, (double[]){1, 0, 0.25, 0}, 0);
	/* No match at all; a capture float() cannot read. */
	older("iteration 1/ 1 | lm loss: 1.0 |\n", (long long[]){0, 0, 0, 0},
	      (double[]){0, 0, 0, 0}, 0);
	/* The kind that reads them: in CVS files only. */
	struct assay_thresholds t;
	struct assay_error e;
	assert_int_equal(parse_text("{\"MBS=1,GBS=8,PRECISION=FP8\": {\"training.tokens_per_gpu\": "
				    "{\"kind\": \"min_every_match\", \"value\": \"2000\"}}}",
				    &t, &e),
			 ASSAY_OK);
	assert_true(t.cells[0].v[0].every_match && assay_thresholds_every_match(&t));
	assert_string_equal(t.cells[0].v[0].cvs_stats[0], "cvs_tail_min");
	assay_thresholds_release(&t);
	assert_int_equal(parse_text("{\"cells\": {\"default\": {\"tflops_per_gpu\": {\"kind\": "
				    "\"min_every_match\", \"value\": 1}}}}",
				    &t, &e),
			 ASSAY_USAGE);
	older("mem usages: 1.2.3\nmem usages: 0.5\n", (long long[]){0, 0, 1, 0},
	      (double[]){0, 0, 0.5, 0}, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_cvs_file_loads),
	    cmocka_unit_test(test_cvs_rules),
	    cmocka_unit_test(test_cvs_conformance_verdicts),
	    cmocka_unit_test(test_cvs_older_library),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
