/* Unit tests for the peer-format parsers (madengine perf.csv,
 * perf_entry_super.json, multiple_results CSV, RCCL CI JSONL, nccl-tests
 * JSON): values and series fields from fixtures written from the documented
 * formats, format detection, CSV corner cases, and malformed input failing
 * whole with file and line (or JSON path). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "assay/json.h"
#include "assay/parse.h"

#define FIX ASSAY_SOURCE_DIR "/tests/fixtures/ingest/"

static char *load(const char *name, size_t *len)
{
	struct assay_error e;
	char *d = assay_read_file(name, len, &e);
	if (!d)
		fail_msg("%s", e.message);
	return d;
}

/* Parse a fixture with format fmt; returns the result code. */
static assay_err parse(const char *fmt, const char *name, struct assay_rows *rows,
		       struct assay_error *e, const json_t *ctx)
{
	size_t len;
	char *d = load(name, &len);
	const struct assay_format *f = assay_format_find(fmt);
	assert_non_null(f);
	/* Detection agrees with the format the fixture is written in. */
	const struct assay_format *d2 = assay_format_detect(d, len);
	assert_non_null(d2);
	assert_string_equal(d2->name, fmt);
	struct assay_parse_opts o = {.file = name, .context = ctx};
	assay_err rc = f->parse(d, len, &o, rows, e);
	free(d);
	return rc;
}

static const char *field(const struct assay_row *r, const char *k)
{
	const json_t *v = json_object_get(r->series, k);
	return json_is_string(v) ? json_string_value(v) : NULL;
}

/* The row with this metric and (when not NULL) precision. */
static const struct assay_row *find(const struct assay_rows *rows, const char *metric,
				    const char *precision, size_t nth)
{
	for (size_t i = 0; i < rows->n; i++) {
		const char *p = field(&rows->v[i], "precision");
		if (!strcmp(rows->v[i].metric, metric) &&
		    (!precision || (p && !strcmp(p, precision))) && nth-- == 0)
			return &rows->v[i];
	}
	fail_msg("no row %s/%s", metric, precision ? precision : "-");
	return NULL;
}

static void test_perf_csv(void **state)
{
	(void)state;
	struct assay_rows rows = ASSAY_ROWS_INIT;
	struct assay_error e;
	json_t *ctx = json_pack("{s:s}", "cluster", "mi300x-a");
	assert_int_equal(parse("madengine-csv", FIX "perf.csv", &rows, &e, ctx), ASSAY_OK);
	/* The FAILURE line is not a measurement; the vllm line has an extra metric column. */
	assert_int_equal(rows.n, 3);
	const struct assay_row *r = find(&rows, "tokens/sec", NULL, 0);
	assert_true(r->value == 3512.25);
	assert_string_equal(r->unit, "tokens/sec");
	assert_int_equal(r->direction, ASSAY_DIR_HIGHER);
	assert_string_equal(r->revision, "4f2c1e0");
	assert_string_equal(r->run_id, "1042");
	assert_string_equal(field(r, "workload"), "pyt_llama3_8b_train");
	assert_string_equal(field(r, "precision"), "bf16");
	assert_string_equal(field(r, "scale"), "1x8");
	assert_string_equal(field(r, "cluster"), "mi300x-a");             /* from the context */
	assert_string_equal(field(r, "args"), "--seq-len 4096, --mbs 2"); /* quoted comma */
	assert_null(json_object_get(r->series, "tags")); /* labels are not identity */
	assert_null(json_object_get(r->series, "machine_name"));
	r = find(&rows, "latency_p99_ms", NULL, 0);
	assert_true(r->value == 212.5);
	assert_string_equal(r->unit, "ms");
	assert_int_equal(r->direction, ASSAY_DIR_LOWER);
	assert_int_equal(json_integer_value(json_object_get(r->series, "batch_size")), 64);
	r = find(&rows, "requests/s", NULL, 0);
	assert_null(field(r, "precision")); /* empty training_precision: left to the context */
	assay_rows_release(&rows);
	json_decref(ctx);
}

static void test_perf_csv_bad(void **state)
{
	(void)state;
	struct assay_rows rows = ASSAY_ROWS_INIT;
	struct assay_error e;
	char buf[1024];
	assert_int_equal(parse("madengine-csv", FIX "perf-bad.csv", &rows, &e, NULL), ASSAY_USAGE);
	assert_string_equal(
	    assay_error_format(&e, buf, sizeof(buf)),
	    FIX "perf-bad.csv:3: column \"performance\": expected a number, got \"fast\"");
	assert_int_equal(rows.n, 0); /* nothing of the file */
}

static void test_multiple_results(void **state)
{
	(void)state;
	struct assay_rows rows = ASSAY_ROWS_INIT;
	struct assay_error e;
	char buf[1024];
	assert_int_equal(parse("multiple-results", FIX "multiple_results.csv", &rows, &e, NULL),
			 ASSAY_OK);
	assert_int_equal(rows.n, 4);
	const struct assay_row *bf = find(&rows, "tokens/s", "bf16", 0);
	const struct assay_row *fp = find(&rows, "tokens/s", "fp8_e4m3", 0);
	assert_true(bf->value == 2210.5 && fp->value == 3120.0);
	/* Precision is identity: BF16 and FP8 are different series. */
	assert_string_not_equal(bf->series_key, fp->series_key);
	assert_int_equal(json_integer_value(json_object_get(bf->series, "batch_size")), 32);
	assert_true(find(&rows, "latency_p99_ms", "fp8_e4m3", 0)->value == 29.0);
	assay_rows_release(&rows);
	assert_int_equal(parse("multiple-results", FIX "multiple_results-bad.csv", &rows, &e, NULL),
			 ASSAY_USAGE);
	assert_string_equal(assay_error_format(&e, buf, sizeof(buf)), FIX
			    "multiple_results-bad.csv:3: 4 fields, but the header has 5 columns");
	assert_int_equal(rows.n, 0);
}

static void test_madengine_super(void **state)
{
	(void)state;
	struct assay_rows rows = ASSAY_ROWS_INIT;
	struct assay_error e;
	char buf[1024];
	assert_int_equal(parse("madengine-super", FIX "perf_entry_super.json", &rows, &e, NULL),
			 ASSAY_OK);
	assert_int_equal(rows.n, 2); /* performance and ttft_p50_ms; the FAILURE entry is skipped */
	const struct assay_row *r = find(&rows, "tokens/s", "fp8_e4m3", 0);
	assert_true(r->value == 1830.5);
	assert_string_equal(field(r, "scale"), "1x8");
	assert_int_equal(json_integer_value(json_object_get(r->series, "concurrency")), 64);
	const json_t *cfg = json_object_get(r->series, "configs");
	assert_int_equal(json_integer_value(json_object_get(cfg, "input_len")), 1024);
	assert_int_equal(find(&rows, "ttft_p50_ms", "fp8_e4m3", 0)->direction, ASSAY_DIR_LOWER);
	assay_rows_release(&rows);
	assert_int_equal(parse("madengine-super", FIX "perf_entry_super-bad.json", &rows, &e, NULL),
			 ASSAY_USAGE);
	assert_string_equal(
	    assay_error_format(&e, buf, sizeof(buf)),
	    FIX "perf_entry_super-bad.json: $[1].performance: expected a number, got [...]");
	assert_int_equal(rows.n, 0);
}

static void test_rccl_ci(void **state)
{
	(void)state;
	struct assay_rows rows = ASSAY_ROWS_INIT;
	struct assay_error e;
	char buf[1024];
	assert_int_equal(parse("rccl-ci", FIX "rccl_ci.jsonl", &rows, &e, NULL), ASSAY_OK);
	/* 3 BF16 lines x 3 metrics, 1 FP8 line x 3 + 1 FP8 line with metric_value only; the failed
	 * line skipped. */
	assert_int_equal(rows.n, 13);
	const struct assay_row *b0 = find(&rows, "metric_value", "bf16", 0);
	const struct assay_row *b2 = find(&rows, "metric_value", "bf16", 2);
	const struct assay_row *f0 = find(&rows, "metric_value", "fp8_e4m3", 0);
	assert_string_equal(b0->series_key, b2->series_key); /* "2N8G" and "bf16" normalize */
	assert_string_not_equal(b0->series_key, f0->series_key);
	assert_string_equal(b2->run_id, "1005");
	assert_string_equal(b2->timestamp, "2026-10-03T04:00:00Z"); /* Unix seconds 1791000000 */
	assert_string_equal(b0->revision, "a1");
	assert_string_equal(field(b0, "cluster"), "mi300x-a");
	assert_string_equal(find(&rows, "tokens_per_sec_per_gpu", "bf16", 0)->unit, "tokens/s/GPU");
	assay_rows_release(&rows);
	assert_int_equal(parse("rccl-ci", FIX "rccl_ci-bad.jsonl", &rows, &e, NULL), ASSAY_USAGE);
	assert_string_equal(
	    assay_error_format(&e, buf, sizeof(buf)),
	    FIX "rccl_ci-bad.jsonl:3: $.scale: expected NODESxGPUS such as 2x8, got \"eight\"");
	assert_int_equal(rows.n, 0);
}

static void test_nccl_tests(void **state)
{
	(void)state;
	struct assay_rows rows = ASSAY_ROWS_INIT;
	struct assay_error e;
	char buf[1024];
	assert_int_equal(parse("nccl-tests", FIX "nccl_tests.json", &rows, &e, NULL), ASSAY_OK);
	/* size 1M: 2 placements x 4 metrics; size 2M: out-of-place algbw and busbw ("nan" time,
	 * null nwrong, null in_place); the average bus bandwidth. */
	assert_int_equal(rows.n, 11);
	const struct assay_row *r = find(&rows, "busbw", "fp32", 0);
	assert_true(r->value == 34.86);
	assert_string_equal(field(r, "collective"), "all_reduce");
	assert_string_equal(field(r, "scale"), "2x2"); /* two hosts, two ranks each */
	assert_string_equal(field(r, "placement"), "out-of-place");
	assert_string_equal(field(r, "redop"), "sum");
	assert_null(json_object_get(r->series, "root")); /* -1: no root */
	assert_int_equal(json_integer_value(json_object_get(r->series, "bytes")), 1048576);
	assert_int_equal(r->samples, 20);
	assert_string_equal(r->timestamp, "2026-10-05T14:03:11Z");
	assert_int_equal(find(&rows, "time_us", NULL, 0)->direction, ASSAY_DIR_LOWER);
	assert_true(find(&rows, "wrong", NULL, 1)->value == 0);
	const struct assay_row *avg = find(&rows, "busbw", NULL, 3);
	assert_string_equal(avg->statistic, "average");
	assert_true(avg->value == 42.826667);
	assay_rows_release(&rows);
	assert_int_equal(parse("nccl-tests", FIX "nccl_tests-bad.json", &rows, &e, NULL),
			 ASSAY_USAGE);
	assert_string_equal(assay_error_format(&e, buf, sizeof(buf)),
			    FIX "nccl_tests-bad.json: $.results[0].out_of_place.alg_bw: expected a "
				"number, got \"fast\"");
	assert_int_equal(rows.n, 0);
}

/* Parse text as format fmt; returns the code and fills e. */
static assay_err parse_text(const char *fmt, const char *text, struct assay_rows *rows,
			    struct assay_error *e)
{
	struct assay_parse_opts o = {.file = "x.csv"};
	return assay_format_find(fmt)->parse(text, strlen(text), &o, rows, e);
}

static void test_csv_corners(void **state)
{
	(void)state;
	struct assay_rows rows = ASSAY_ROWS_INIT;
	struct assay_error e;
	char buf[512];
	/* BOM, CRLF, a quoted field with a newline and an escaped quote, blank lines. */
	const char *ok = "\xEF\xBB\xBFmodel,performance,metric,note\r\n\r\n"
			 "m1,1.5,tokens/s,\"two\nlines, \"\"quoted\"\"\"\r\n"
			 "m2, 2.5 ,tokens/s,plain\r\n";
	assert_int_equal(parse_text("multiple-results", ok, &rows, &e), ASSAY_OK);
	assert_int_equal(rows.n, 2);
	assert_string_equal(field(&rows.v[0], "note"), "two\nlines, \"quoted\"");
	assert_true(rows.v[1].value == 2.5);
	assay_rows_release(&rows);
	static const struct {
		const char *text, *want;
	} bad[] = {
	    {"model,performance,metric\nm,\"1.5,tokens/s\n", "x.csv:2: unterminated quoted field"},
	    {"model,performance,metric\nm,\"1.5\"x,tokens/s\n",
	     "x.csv:2: text after a closing quote"},
	    {"model,performance\nm,1\n", "x.csv:1: header has no \"metric\" column"},
	    {"model,performance,metric,model\n",
	     "x.csv:1: header column 4: duplicate name \"model\""},
	    {"", "x.csv:1: empty file: expected a CSV header"},
	    {"model,performance,metric\n,1,tokens/s\n",
	     "x.csv:2: column \"model\": expected a model name, got an empty value"},
	    {"model,performance,metric,scale\nm,1,tokens/s,eight\n",
	     "x.csv:2: column \"scale\": expected NODESxGPUS such as 2x8, got \"eight\""},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(parse_text("multiple-results", bad[i].text, &rows, &e),
				 ASSAY_USAGE);
		assert_string_equal(assay_error_format(&e, buf, sizeof(buf)), bad[i].want);
		assert_int_equal(rows.n, 0);
	}
}

static void test_rccl_lines(void **state)
{
	(void)state;
	struct assay_rows rows = ASSAY_ROWS_INIT;
	struct assay_error e;
	char buf[512];
	static const struct {
		const char *text, *want;
	} bad[] = {
	    {"{\"workload\": \"w\", \"metric_value\": 1}\n{\"workload\": \"w\", \"metric_value\": "
	     "\"1\"}\n",
	     "x.csv:2: $.metric_value: expected a number, got \"1\""},
	    {"{\"workload\": \"w\", \"status\": \"pass\"}\n",
	     "x.csv:1: $: a passing run with none of tflops_per_gpu, tokens_per_sec_per_gpu, "
	     "metric_value"},
	    {"{\"workload\": \"w\", \"metric_value\": 1, \"timestamp\": \"yesterday\"}\n",
	     "x.csv:1: $.timestamp: expected an RFC 3339 time or Unix seconds, got \"yesterday\""},
	    {"{\"metric_value\": 1}\n",
	     "x.csv:1: $.workload: missing (expected a non-empty string)"},
	    {"[1]\n", "x.csv:1: $: expected an object, got [...]"},
	    {"{\"workload\": \n", "x.csv:1:13: invalid JSON: unexpected token near end of file"},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(parse_text("rccl-ci", bad[i].text, &rows, &e), ASSAY_USAGE);
		assert_string_equal(assay_error_format(&e, buf, sizeof(buf)), bad[i].want);
		assert_int_equal(rows.n, 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_perf_csv),         cmocka_unit_test(test_perf_csv_bad),
	    cmocka_unit_test(test_multiple_results), cmocka_unit_test(test_madengine_super),
	    cmocka_unit_test(test_rccl_ci),          cmocka_unit_test(test_nccl_tests),
	    cmocka_unit_test(test_csv_corners),      cmocka_unit_test(test_rccl_lines),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
