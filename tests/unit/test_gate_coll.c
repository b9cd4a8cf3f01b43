/* Unit tests for the per-size thresholds of collective benchmarks
 * (src/lib/gate/thresholds_coll.c): assay's shape, ROCm/cvs's rccl shape
 * (input/config_file/rccl/rccl_config.json: results.<program>.bus_bw, sizes
 * in bytes to minimum GB/s as strings, judged on in-place rows and on
 * out-of-place rows for alltoall, as lib/rccl_lib.py's check_bus_bw does),
 * the verdicts, and #wrong > 0 always failing. */
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

#include "assay/gate.h"
#include "assay/json.h"
#include "assay/parse.h"

static int setup(void **state)
{
	(void)state;
	return chdir(ASSAY_SOURCE_DIR);
}

/* Rows of a real table (tests/fixtures/nccl-text). */
static void rows_of(const char *file, struct assay_rows *rows)
{
	size_t len;
	struct assay_error e;
	char *text = assay_read_file(file, &len, &e);
	assert_non_null(text);
	struct assay_parse_opts o = {file, NULL, NULL, NULL, NULL, NULL, NULL, NULL};
	assert_int_equal(assay_parse_nccl_tests_text(text, len, &o, rows, &e), ASSAY_OK);
	free(text);
}

static const char *parse_fails(const char *text)
{
	static char buf[1024];
	struct assay_error e;
	struct assay_coll_thresholds t;
	json_t *doc = json_loads(text, 0, NULL);
	assert_non_null(doc);
	assert_int_equal(assay_coll_thresholds_parse(doc, "t.json", &t, &e), ASSAY_USAGE);
	json_decref(doc);
	snprintf(buf, sizeof(buf), "%s: %s", e.path, e.message);
	return buf;
}

static const struct assay_verdict *find(const struct assay_verdicts *vs, const char *needle)
{
	for (size_t i = 0; i < vs->n; i++)
		if (strstr(vs->v[i].message, needle))
			return &vs->v[i];
	return NULL;
}

static void test_sizes(void **state)
{
	(void)state;
	long long v;
	assert_true(assay_coll_size_parse("1048576", &v));
	assert_int_equal(v, 1048576);
	assert_true(assay_coll_size_parse("1M", &v));
	assert_int_equal(v, 1048576);
	assert_true(assay_coll_size_parse("16g", &v));
	assert_int_equal(v, 16LL << 30);
	assert_false(assay_coll_size_parse("1.5M", &v));
	assert_false(assay_coll_size_parse("-8", &v));
	assert_false(assay_coll_size_parse("99999999999999999999", &v));
	assert_string_equal(assay_coll_judged_placement("alltoall"), "out-of-place");
	assert_string_equal(assay_coll_judged_placement("all_reduce"), "in-place");
}

/* assay's shape on the H100 table: 1 MiB in-place is 50.05 GB/s. */
static void test_gate_assay_shape(void **state)
{
	(void)state;
	struct assay_rows rows = ASSAY_ROWS_INIT;
	rows_of("tests/fixtures/nccl-text/all_reduce_perf-h100-2n.log", &rows);
	json_t *doc = json_loads("{\"all_reduce\": {\"busbw\": {\"1M\": 50, \"2M\": 95, \"3M\": 1},"
				 " \"time_us\": {\"8\": 30}}, \"reduce\": {\"busbw\": {\"8\": 1}}}",
				 0, NULL);
	struct assay_coll_thresholds t;
	struct assay_error e;
	assert_int_equal(assay_coll_thresholds_parse(doc, "t.json", &t, &e), ASSAY_OK);
	json_decref(doc);
	assert_false(t.cvs);
	assert_int_equal(t.n, 5);
	assert_true(assay_coll_thresholds_has(&t, "reduce"));
	assert_false(assay_coll_thresholds_has(&t, "alltoall"));

	long long sizes[] = {8, 1048576, 2097152};
	struct assay_verdicts vs = ASSAY_VERDICTS_INIT;
	assay_gate_coll_thresholds(&t, "all_reduce", sizes, 3, &rows, &vs);
	const struct assay_verdict *v = find(&vs, "at 1048576 B");
	assert_non_null(v);
	assert_int_equal(v->status, ASSAY_VERDICT_PASS);
	assert_string_equal(v->message,
			    "all_reduce at 1048576 B, in-place: busbw 50.05 GB/s >= 50");
	assert_string_equal(v->spec, ">= 50");
	assert_non_null(v->series_key);
	v = find(&vs, "at 2097152 B, in-place: busbw");
	assert_int_equal(v->status, ASSAY_VERDICT_FAIL);
	assert_string_equal(v->message, "all_reduce at 2097152 B, in-place: busbw 88.86 GB/s < 95");
	/* 3 MiB is not a size this sweep has. */
	v = find(&vs, "at 3145728 B");
	assert_int_equal(v->status, ASSAY_VERDICT_SKIPPED);
	/* The time of 8 B in-place is 33.87 us > 30. */
	v = find(&vs, "at 8 B, in-place: time_us");
	assert_int_equal(v->status, ASSAY_VERDICT_FAIL);
	assert_string_equal(v->metric, "time_us/mean");
	/* Every other in-place size is recorded, the reduce threshold unused. */
	size_t counts[ASSAY_VERDICT_COUNT];
	assay_verdicts_count(&vs, counts);
	assert_int_equal(counts[ASSAY_VERDICT_PASS], 1);
	assert_int_equal(counts[ASSAY_VERDICT_FAIL], 2);
	assert_int_equal(counts[ASSAY_VERDICT_SKIPPED], 1);
	assert_int_equal(counts[ASSAY_VERDICT_RECORD], 31 - 2);
	assert_int_equal(assay_verdicts_outcome(&vs), ASSAY_GATE_FAILED);
	assay_verdicts_release(&vs);

	/* A swept size with no row: missing, a failure. */
	long long more[] = {16LL << 30};
	assay_gate_coll_thresholds(&t, "reduce", more, 1, &rows, &vs);
	assert_int_equal(vs.v[0].status, ASSAY_VERDICT_SKIPPED);
	assay_verdicts_release(&vs);
	long long eight[] = {8};
	assay_gate_coll_thresholds(&t, "reduce", eight, 1, &rows, &vs);
	assert_int_equal(vs.v[0].status, ASSAY_VERDICT_FAIL);
	assert_string_equal(
	    vs.v[0].message,
	    "reduce at 8 B, in-place: missing (no row for the size in the results)");
	assay_verdicts_release(&vs);
	assay_coll_thresholds_release(&t);
	assay_rows_release(&rows);
}

/* CVS's config as it is: 1 MiB in-place 50.05 >= 45; 8 GiB 378.45 passes
 * 390 as CVS judges it, above 0.95 x 390 = 370.5 (cvs/lib/rccl_lib.py,
 * check_bus_bw at ROCm/cvs dddd914); the gather_perf entry (a program assay
 * does not run) is kept. */
static void test_gate_cvs_shape(void **state)
{
	(void)state;
	struct assay_rows rows = ASSAY_ROWS_INIT;
	rows_of("tests/fixtures/nccl-text/all_reduce_perf-h100-2n.log", &rows);
	struct assay_coll_thresholds t;
	struct assay_error e;
	assert_int_equal(
	    assay_coll_thresholds_load("tests/fixtures/coll/cvs-rccl-config.json", &t, &e),
	    ASSAY_OK);
	assert_true(t.cvs);
	assert_true(t.enforce);
	assert_false(t.bw_dip);
	assert_int_equal(t.n, 4);
	assert_string_equal(t.v[0].path, "$.rccl.results.all_reduce_perf.bus_bw.1048576");
	assert_string_equal(t.v[2].placement, "out-of-place"); /* alltoall */
	struct assay_verdicts vs = ASSAY_VERDICTS_INIT;
	assay_gate_coll_thresholds(&t, "all_reduce", NULL, 0, &rows, &vs);
	assert_int_equal(find(&vs, "at 1048576 B, in-place: busbw")->status, ASSAY_VERDICT_PASS);
	const struct assay_verdict *v = find(&vs, "at 8589934592 B, in-place: busbw");
	assert_int_equal(v->status, ASSAY_VERDICT_PASS);
	assert_string_equal(v->message, "all_reduce at 8589934592 B, in-place: busbw 378.45 GB/s "
					">= 370.5 (390 x 0.95)");
	assay_verdicts_release(&vs);
	assay_coll_thresholds_release(&t);

	/* verify_bus_bw "False" (CVS's default): recorded, never failed; and
	 * verify_bus_bw beside cvs_params is not CVS's switch. */
	json_t *doc = json_loads("{\"rccl\": {\"verify_bus_bw\": \"True\", \"cvs_params\": "
				 "{\"verify_bw_dip\": \"False\", \"verify_lat_dip\": false}, "
				 "\"results\": {\"all_reduce_perf\": {\"bus_bw\": "
				 "{\"8589934592\": \"400\"}}}}}",
				 0, NULL);
	assert_int_equal(assay_coll_thresholds_parse(doc, "c.json", &t, &e), ASSAY_OK);
	json_decref(doc);
	assert_false(t.enforce);
	assert_false(t.bw_dip);
	assert_false(t.lat_dip);
	assay_gate_coll_thresholds(&t, "all_reduce", NULL, 0, &rows, &vs);
	assert_int_equal(assay_verdicts_outcome(&vs), ASSAY_OK);
	assert_int_equal(find(&vs, "at 8589934592 B, in-place: busbw")->status,
			 ASSAY_VERDICT_RECORD);
	assay_verdicts_release(&vs);
	assay_coll_thresholds_release(&t);
	assay_rows_release(&rows);
}

/* CVS's shipped file: results beside cvs_params (where its code never looks;
 * assay reads them, docs/parity.md), verify_bus_bw "False", the dip checks
 * on over the sizes of the reference, in the order printed: busbw below
 * 0.95 x the previous checked size fails, and a time below 0.95 x the
 * previous one (cvs/lib/rccl_lib.py, check_bw_dip, check_lat_dip). */
static void test_gate_cvs_dips(void **state)
{
	(void)state;
	struct assay_rows rows = ASSAY_ROWS_INIT;
	rows_of("tests/fixtures/nccl-text/all_reduce_perf-h100-2n.log", &rows);
	struct assay_coll_thresholds t;
	struct assay_error e;
	assert_int_equal(
	    assay_coll_thresholds_load("tests/fixtures/coll/cvs-rccl-shipped.json", &t, &e),
	    ASSAY_OK);
	assert_false(t.enforce);
	assert_true(t.bw_dip);
	assert_true(t.lat_dip);
	assert_string_equal(t.v[0].path, "$.rccl.results.all_reduce_perf.bus_bw.1048576");
	struct assay_verdicts vs = ASSAY_VERDICTS_INIT;
	assay_gate_coll_thresholds(&t, "all_reduce", NULL, 0, &rows, &vs);
	assert_int_equal(assay_verdicts_outcome(&vs), ASSAY_OK);
	size_t bw = 0, lat = 0;
	for (size_t i = 0; i < vs.n; i++) {
		bw += !strcmp(vs.v[i].gate, "bw-dip");
		lat += !strcmp(vs.v[i].gate, "lat-dip");
	}
	assert_int_equal(bw, 3); /* 4 reference sizes: 3 steps */
	assert_int_equal(lat, 3);
	assay_verdicts_release(&vs);
	/* A dip: 8 GiB's busbw under 0.95 x 4 GiB's, and its time under 0.95 x
	 * 4 GiB's time. */
	double bw4 = 0, t4 = 0;
	for (size_t i = 0; i < rows.n; i++) {
		struct assay_row *r = &rows.v[i];
		const json_t *b = json_object_get(r->series, "bytes");
		const char *pl = json_string_value(json_object_get(r->series, "placement"));
		if (!b || !pl || strcmp(pl, "in-place") || strcmp(r->statistic, "mean"))
			continue;
		if (json_integer_value(b) == 4294967296LL && !strcmp(r->metric, "busbw"))
			bw4 = r->value;
		if (json_integer_value(b) == 4294967296LL && !strcmp(r->metric, "time_us"))
			t4 = r->value;
		if (json_integer_value(b) == 8589934592LL && !strcmp(r->metric, "busbw"))
			r->value = bw4 * 0.9;
		if (json_integer_value(b) == 8589934592LL && !strcmp(r->metric, "time_us"))
			r->value = t4 * 0.9;
	}
	assay_gate_coll_thresholds(&t, "all_reduce", NULL, 0, &rows, &vs);
	assert_int_equal(assay_verdicts_outcome(&vs), ASSAY_GATE_FAILED);
	size_t failed = 0;
	for (size_t i = 0; i < vs.n; i++)
		if (vs.v[i].status == ASSAY_VERDICT_FAIL) {
			assert_non_null(strstr(vs.v[i].message, "all_reduce at 8589934592 B: "));
			assert_non_null(strstr(vs.v[i].message, "at 4294967296 B)"));
			failed++;
		}
	assert_int_equal(failed, 2);
	assay_verdicts_release(&vs);
	assay_coll_thresholds_release(&t);
	assay_rows_release(&rows);
}

/* #wrong > 0 fails whatever the file says (and without one). */
static void test_correctness(void **state)
{
	(void)state;
	struct assay_rows rows = ASSAY_ROWS_INIT;
	rows_of("tests/fixtures/nccl-text/all_reduce_perf-h100-2n.log", &rows);
	for (size_t i = 0; i < rows.n; i++) {
		struct assay_row *r = &rows.v[i];
		const json_t *b = json_object_get(r->series, "bytes");
		if (!strcmp(r->metric, "wrong") && b && json_integer_value(b) == 4096 &&
		    !strcmp(json_string_value(json_object_get(r->series, "placement")),
			    "out-of-place"))
			r->value = 3;
	}
	struct assay_verdicts vs = ASSAY_VERDICTS_INIT;
	assay_gate_coll_thresholds(NULL, "all_reduce", NULL, 0, &rows, &vs);
	assert_int_equal(vs.n, 1);
	assert_int_equal(vs.v[0].status, ASSAY_VERDICT_FAIL);
	assert_string_equal(vs.v[0].gate, "correctness");
	assert_string_equal(vs.v[0].message,
			    "all_reduce at 4096 B, out-of-place: 3 wrong elements (#wrong)");
	assay_verdicts_release(&vs);
	json_t *doc =
	    json_loads("{\"enforce\": false, \"all_reduce\": {\"busbw\": {\"8\": 0}}}", 0, NULL);
	struct assay_coll_thresholds t;
	struct assay_error e;
	assert_int_equal(assay_coll_thresholds_parse(doc, "t.json", &t, &e), ASSAY_OK);
	json_decref(doc);
	assay_gate_coll_thresholds(&t, "all_reduce", NULL, 0, &rows, &vs);
	assert_int_equal(assay_verdicts_outcome(&vs), ASSAY_GATE_FAILED);
	assay_verdicts_release(&vs);
	assay_coll_thresholds_release(&t);
	assay_rows_release(&rows);
}

static void test_parse_errors(void **state)
{
	(void)state;
	assert_string_equal(parse_fails("[]"), "$: expected an object of operations, got []");
	assert_string_equal(parse_fails("{\"allreduce\": {\"busbw\": {\"8\": 1}}}"),
			    "$.allreduce: unknown operation \"allreduce\" (expected one of: "
			    "all_reduce, all_gather, reduce_scatter, alltoall, broadcast, reduce, "
			    "sendrecv, gather, scatter, hypercube, alltoallv; \"_perf\" may "
			    "follow)");
	assert_string_equal(parse_fails("{\"all_reduce\": {\"busbw\": {\"8B\": 1}}}"),
			    "$.all_reduce.busbw.8B: expected a message size in bytes "
			    "(\"1048576\", or with K, M or G: \"1M\"), got \"8B\"");
	assert_string_equal(
	    parse_fails("{\"all_reduce\": {\"busbw\": {\"1M\": 1, \"1048576\": 2}}}"),
	    "$.all_reduce.busbw.1048576: duplicate size: 1048576 B is also at "
	    "$.all_reduce.busbw.1M");
	assert_string_equal(parse_fails("{\"all_reduce\": {\"time_us\": {\"8\": 0}}}"),
			    "$.all_reduce.time_us.8: expected a time in us > 0 (a number or a "
			    "numeric string), got 0");
	assert_string_equal(parse_fails("{\"all_reduce\": {\"busbw\": {\"8\": 1}, \"min\": 1}}"),
			    "$.all_reduce.min: unknown key (expected one of: busbw (or bus_bw), "
			    "time_us, placement; keys starting with _ are comments)");
	assert_string_equal(parse_fails("{\"all_reduce\": {\"placement\": \"both\", \"busbw\": "
					"{\"8\": 1}}}"),
			    "$.all_reduce.placement: expected one of \"in-place\", "
			    "\"out-of-place\", got \"both\"");
	assert_string_equal(parse_fails("{\"all_reduce\": {}}"),
			    "$.all_reduce: expected busbw (or bus_bw) or time_us");
	assert_string_equal(parse_fails("{\"_comment\": \"x\"}"),
			    "$: no threshold: expected operations with sizes, e.g. "
			    "{\"all_reduce\": {\"busbw\": {\"1048576\": 40}}}");
	assert_string_equal(parse_fails("{\"rccl\": {\"no_of_nodes\": \"2\"}}"),
			    "$.rccl: missing key \"results\" (the expected bus bandwidth per "
			    "program and size, in cvs_params or beside it)");
	assert_string_equal(
	    parse_fails("{\"all_reduce_perf\": {\"bus_bw\": {\"8589934592\": \"<changeme>\"}}}"),
	    "$.all_reduce_perf.bus_bw.8589934592: unfilled placeholder \"<changeme>\": replace it "
	    "with a calibrated value");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_sizes),          cmocka_unit_test(test_gate_assay_shape),
	    cmocka_unit_test(test_gate_cvs_shape), cmocka_unit_test(test_gate_cvs_dips),
	    cmocka_unit_test(test_correctness),    cmocka_unit_test(test_parse_errors),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
