/* Unit tests for format "nccl-tests-text" (src/lib/parse/nccl_tests_text.c)
 * and the busbw factor table (src/lib/coll/busbw.c). The fixtures in
 * tests/fixtures/nccl-text/ were written with the printf formats of:
 *   NVIDIA/nccl-tests a0b82b2 (2.19.6) src/util.cu: writeDeviceReport (lines
 *     623-720), writeResultHeader (738-766), writeBenchmarkLinePreamble (455-457),
 *     writeBenchmarkLineBody (497-511, getFloatStr 487-492), writePerIterReport
 *     (568), writeTimestamp (609), writeResultFooter (777-780, its "FAILED"
 *     after the average when NCCL_TESTS_MIN_BW is set: src/common.cu 1829-1853);
 *     type and operator names src/common.cu 46-57 (f8e4m3, mulsum); and for
 *     hypercube_perf, gather_perf, alltoallv_perf the RunTest/GetCollByteCount/
 *     GetBw/InitData rules of src/hypercube.cu (redop ""), src/gather.cu and
 *     src/alltoallv.cu (the distance-weighted sizes, in-place N/A);
 *   NVIDIA/nccl-tests a89cf07 src/common.cu (2.13 era): 561-563, 610, 967, 987,
 *     1082-1086, 1174-1175;
 *   ROCm/rccl-tests ae3e635 src/common.cu: 673-675, 809-810, 1205-1227,
 *     1322-1334 (in-place only), 1424-1426 (1420-1427 with NCCL_TESTS_MIN_BW),
 *     its fp8 names fp8_e4m3/fp8_e5m2 line 46;
 *   ROCm/rccl-tests 51af557^ (before the NCCL 2.13 resync): src/<op>.cu
 *     print_header/print_line_header (lines 10-20: no redop column in
 *     all_gather/sendrecv/broadcast, no root in all_reduce/all_gather),
 *     src/common.cu 736 ("error" is the max delta, %5.0le), 1030, 1045.
 * Factors: nccl-tests doc/PERFORMANCE.md ("Bus bandwidth") and src/<op>.cu
 * <Op>GetBw. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "assay/collective.h"
#include "assay/json.h"
#include "assay/parse.h"
#include "assay/util.h"

#define FIX ASSAY_SOURCE_DIR "/tests/fixtures/nccl-text/"

static assay_err parse_file(const char *path, struct assay_rows *rows, struct assay_error *e,
			    const json_t *ctx)
{
	size_t len;
	char *d = assay_read_file(path, &len, e);
	if (!d)
		fail_msg("%s", e->message);
	const struct assay_format *f = assay_format_find("nccl-tests-text");
	assert_non_null(f);
	struct assay_parse_opts o = {.file = path, .context = ctx};
	assay_err rc = f->parse(d, len, &o, rows, e);
	free(d);
	return rc;
}

static const char *sfield(const struct assay_row *r, const char *k)
{
	return json_string_value(json_object_get(r->series, k));
}

/* The row of metric/statistic at bytes and placement (and root, -1 any). */
static const struct assay_row *find(const struct assay_rows *rows, const char *metric,
				    const char *stat, long long bytes, const char *placement,
				    long long root)
{
	for (size_t i = 0; i < rows->n; i++) {
		const struct assay_row *r = &rows->v[i];
		const json_t *b = json_object_get(r->series, "bytes");
		const json_t *rt = json_object_get(r->series, "root");
		if (strcmp(r->metric, metric) || strcmp(r->statistic, stat))
			continue;
		if (bytes >= 0 && (!b || json_integer_value(b) != bytes))
			continue;
		if (placement &&
		    (!sfield(r, "placement") || strcmp(sfield(r, "placement"), placement)))
			continue;
		if (root >= 0 && (!rt || json_integer_value(rt) != root))
			continue;
		return r;
	}
	fail_msg("no row %s/%s bytes %lld %s", metric, stat, bytes, placement ? placement : "");
	return NULL;
}

static size_t count(const struct assay_rows *rows, const char *metric, const char *stat)
{
	size_t n = 0;
	for (size_t i = 0; i < rows->n; i++)
		n += !strcmp(rows->v[i].metric, metric) && !strcmp(rows->v[i].statistic, stat);
	return n;
}

static void test_busbw_factors(void **state)
{
	(void)state;
	/* doc/PERFORMANCE.md: allreduce 2(n-1)/n; allgather, reducescatter,
	 * alltoall (n-1)/n; broadcast, reduce (and sendrecv's GetBw) 1. */
	static const int ns[] = {1, 2, 3, 8, 16, 64};
	for (size_t i = 0; i < ARRAY_SIZE(ns); i++) {
		double n = ns[i], f;
		assert_true(assay_coll_busbw_factor("all_reduce", ns[i], &f));
		assert_true(fabs(f - 2 * (n - 1) / n) < 1e-12);
		const char *ring[] = {"all_gather", "reduce_scatter", "alltoall"};
		for (size_t k = 0; k < 3; k++) {
			assert_true(assay_coll_busbw_factor(ring[k], ns[i], &f));
			assert_true(fabs(f - (n - 1) / n) < 1e-12);
		}
		const char *one[] = {"broadcast", "reduce", "sendrecv"};
		for (size_t k = 0; k < 3; k++) {
			assert_true(assay_coll_busbw_factor(one[k], ns[i], &f));
			assert_true(f == 1.0);
		}
	}
	double f;
	assert_true(assay_coll_busbw_factor("all_reduce", 16, &f));
	assert_true(f == 1.875); /* 2 * 15 / 16 */
	assert_true(assay_coll_busbw_factor("all_gather", 8, &f));
	assert_true(f == 0.875);
	assert_false(assay_coll_busbw_factor("allreduce", 8, &f));
	assert_false(assay_coll_busbw_factor("all_reduce", 0, &f));
	assert_false(assay_coll_busbw_factor(NULL, 8, &f));
	assert_true(assay_coll_known("sendrecv"));
	/* a0b82b2 src/gather.cu, scatter.cu, alltoallv.cu GetBw: (n-1)/n;
	 * hypercube.cu: 1 */
	assert_true(assay_coll_busbw_factor("gather", 8, &f) && f == 0.875);
	assert_true(assay_coll_busbw_factor("scatter", 8, &f) && f == 0.875);
	assert_true(assay_coll_busbw_factor("alltoallv", 8, &f) && f == 0.875);
	assert_true(assay_coll_busbw_factor("hypercube", 8, &f) && f == 1.0);
	assert_false(assay_coll_known("allgatherv"));
}

/* The real-shaped 16 x H100 log: 31 sizes x 2 placements x 4 rows + average;
 * its busbw columns are algbw times the all_reduce factor for 16 ranks. */
static void test_h100_log(void **state)
{
	(void)state;
	struct assay_rows rows = ASSAY_ROWS_INIT;
	struct assay_error e;
	assert_int_equal(parse_file(FIX "all_reduce_perf-h100-2n.log", &rows, &e, NULL), ASSAY_OK);
	assert_int_equal(rows.n, 31 * 2 * 4 + 1);
	const struct assay_row *r = find(&rows, "time_us", "mean", 8, "out-of-place", -1);
	assert_true(r->value == 33.5);
	assert_int_equal(r->samples, 20); /* "iters: 20" */
	assert_string_equal(sfield(r, "workload"), "nccl-tests");
	assert_string_equal(sfield(r, "collective"), "all_reduce");
	assert_string_equal(sfield(r, "scale"), "2x8");
	assert_string_equal(sfield(r, "precision"), "fp32");
	assert_string_equal(sfield(r, "redop"), "sum");
	assert_null(json_object_get(r->series, "root")); /* -1: no root */
	assert_string_equal(r->unit, "us");
	assert_int_equal(r->direction, ASSAY_DIR_LOWER);
	/* "10509.1" and "41935.6": getFloatStr's one-decimal form */
	assert_true(find(&rows, "time_us", "mean", 2147483648LL, "out-of-place", -1)->value ==
		    10509.1);
	r = find(&rows, "busbw", "mean", 8589934592LL, "in-place", -1);
	assert_true(r->value == 378.45);
	assert_int_equal(r->direction, ASSAY_DIR_HIGHER);
	assert_true(find(&rows, "wrong", "count", 8589934592LL, "in-place", -1)->value == 0);
	double fac;
	assert_true(assay_coll_busbw_factor("all_reduce", 16, &fac));
	for (size_t i = 0; i < rows.n; i++) {
		const struct assay_row *b = &rows.v[i];
		if (strcmp(b->metric, "busbw") || strcmp(b->statistic, "mean"))
			continue;
		long long bytes = json_integer_value(json_object_get(b->series, "bytes"));
		if (bytes < 1048576)
			continue; /* two decimals are too coarse below */
		const struct assay_row *a =
		    find(&rows, "algbw", "mean", bytes, sfield(b, "placement"), -1);
		assert_true(fabs(b->value / a->value - fac) < 0.01);
	}
	r = find(&rows, "busbw", "average", -1, NULL, -1);
	assert_true(r->value == 132.777);
	assert_string_equal(sfield(r, "precision"), "fp32");
	assert_string_equal(sfield(r, "scale"), "2x8");
	assert_null(json_object_get(r->series, "placement"));
	assay_rows_release(&rows);
}

/* One fixture per column layout: rows, placements and identity fields. */
static void test_layouts(void **state)
{
	(void)state;
	static const struct {
		const char *file, *collective, *precision, *scale;
		size_t rows;
		bool redop, root, in_place_only;
		const char *wrong; /* the per-size correctness metric, NULL when N/A */
	} cases[] = {
	    /* rccl-tests today: root column, no program name (file name) */
	    {"all_reduce_perf-rccl.txt", "all_reduce", "fp16", "1x8", 3 * 2 * 4 + 1, true, false,
	     false, "wrong/count"},
	    /* rccl-tests before 2.13: no redop, no root, "error" column */
	    {"all_gather_perf-rccl-2.12.txt", "all_gather", "fp32", "1x4", 3 * 2 * 4 + 1, false,
	     false, false, "error/max"},
	    /* nccl-tests 2.19 -C 1: cputime columns */
	    {"reduce_scatter-nccl-cputime.txt", "reduce_scatter", "bf16", "1x8", 11 * 2 * 4 + 1,
	     true, false, false, "wrong/count"},
	    /* rccl-tests without out-of-place: one in-place group; redop none */
	    {"alltoall_perf-rccl-inplace.txt", "alltoall", "fp32", "1x8", 3 * 1 * 4 + 1, false,
	     false, true, "wrong/count"},
	    /* rccl-tests before 2.13: root but no redop, roots 0 and 3 */
	    {"broadcast_perf-rccl-2.12.txt", "broadcast", "fp32", "1x4", 6 * 2 * 4 + 1, false, true,
	     false, "error/max"},
	    /* nccl-tests 2.13 -c 0: #wrong is N/A, roots 0 and 1 */
	    {"reduce_perf-nccl-2.13.txt", "reduce", "fp32", "1x2", 6 * 2 * 3 + 1, true, true, false,
	     NULL},
	    /* nccl-tests 2.19 -I 1 -K 2 -S 1: per-iteration columns, timestamps */
	    {"sendrecv-nccl-per-iter.txt", "sendrecv", "fp32", "1x2", 3 * 2 * 8 + 1, true, false,
	     false, "wrong/count"},
	    /* nccl-tests 2.19 hypercube_perf: its redop cell is "" (one cell
	     * fewer than the header), no root */
	    {"hypercube_perf-nccl.txt", "hypercube", "fp32", "1x4", 3 * 2 * 4 + 1, false, false,
	     false, "wrong/count"},
	    /* nccl-tests 2.19 gather_perf -r -1: redop none, roots 0..3 */
	    {"gather_perf-nccl.txt", "gather", "fp32", "1x4", 2 * 4 * 2 * 4 + 1, false, true, false,
	     "wrong/count"},
	    /* nccl-tests 2.19 alltoallv_perf: in place N/A */
	    {"alltoallv_perf-nccl.txt", "alltoallv", "fp32", "1x4", 3 * (4 + 3) + 1, false, false,
	     false, "wrong/count"},
	    /* nccl-tests 2.19 -d f8e4m3 -o mulsum, NCCL_TESTS_MIN_BW: "... FAILED" */
	    {"all_reduce_perf-f8e4m3-mulsum-minbw.txt", "all_reduce", "fp8_e4m3", "1x8",
	     3 * 2 * 4 + 1, true, false, false, "wrong/count"},
	    /* rccl-tests' spelling fp8_e5m2, mulsum, NCCL_TESTS_MIN_BW: "... OK" */
	    {"reduce_scatter_perf-rccl-fp8.txt", "reduce_scatter", "fp8_e5m2", "1x8", 3 * 2 * 4 + 1,
	     true, false, false, "wrong/count"},
	};
	for (size_t c = 0; c < ARRAY_SIZE(cases); c++) {
		struct assay_rows rows = ASSAY_ROWS_INIT;
		struct assay_error e;
		char path[1024];
		snprintf(path, sizeof(path), "%s%s", FIX, cases[c].file);
		if (parse_file(path, &rows, &e, NULL) != ASSAY_OK)
			fail_msg("%s: %s", path, e.message);
		if (rows.n != cases[c].rows)
			fail_msg("%s: %zu rows, expected %zu", cases[c].file, rows.n,
				 cases[c].rows);
		for (size_t i = 0; i < rows.n; i++) {
			const struct assay_row *r = &rows.v[i];
			assert_string_equal(sfield(r, "collective"), cases[c].collective);
			assert_string_equal(sfield(r, "precision"), cases[c].precision);
			assert_string_equal(sfield(r, "scale"), cases[c].scale);
			if (!strcmp(r->statistic, "average"))
				continue;
			assert_int_equal(json_object_get(r->series, "redop") != NULL,
					 cases[c].redop);
			assert_int_equal(json_object_get(r->series, "root") != NULL, cases[c].root);
			if (cases[c].in_place_only)
				assert_string_equal(sfield(r, "placement"), "in-place");
		}
		if (cases[c].wrong) {
			char m[32];
			snprintf(m, sizeof(m), "%s", cases[c].wrong);
			char *slash = strchr(m, '/');
			*slash = '\0';
			assert_true(count(&rows, m, slash + 1) > 0);
		} else {
			assert_int_equal(count(&rows, "wrong", "count"), 0);
		}
		assay_rows_release(&rows);
	}
}

static void test_values(void **state)
{
	(void)state;
	struct assay_rows rows = ASSAY_ROWS_INIT;
	struct assay_error e;
	/* broadcast, root 3, 32768 B: "  %7s  %6.2f  %6.2f  %5.0le" */
	assert_int_equal(parse_file(FIX "broadcast_perf-rccl-2.12.txt", &rows, &e, NULL), ASSAY_OK);
	const struct assay_row *r = find(&rows, "busbw", "mean", 32768, "in-place", 3);
	assert_true(r->value == 2.11);
	assert_true(find(&rows, "error", "max", 32768, "in-place", 3)->value == 0);
	assay_rows_release(&rows);
	/* per-iteration columns, the row's timestamp, samples iters - skip */
	assert_int_equal(parse_file(FIX "sendrecv-nccl-per-iter.txt", &rows, &e, NULL), ASSAY_OK);
	r = find(&rows, "time_us", "p99", 131072, "in-place", -1);
	assert_int_equal(r->samples, 18);
	assert_string_equal(r->timestamp, "2026-11-30T19:15:03Z");
	assert_string_equal(find(&rows, "time_cv", "pct", 65536, "out-of-place", -1)->unit, "%");
	assay_rows_release(&rows);
	/* cputime */
	assert_int_equal(parse_file(FIX "reduce_scatter-nccl-cputime.txt", &rows, &e, NULL),
			 ASSAY_OK);
	assert_true(find(&rows, "cpu_time_us", "mean", 1024, "out-of-place", -1)->value == 18.01);
	assay_rows_release(&rows);
}

/* fp8 types and mulsum keep their names (precision canonical, redop as
 * printed); the average before a "FAILED" or "OK" verdict of
 * NCCL_TESTS_MIN_BW is read as any other. */
static void test_fp8_mulsum_min_bw(void **state)
{
	(void)state;
	struct assay_rows rows = ASSAY_ROWS_INIT;
	struct assay_error e;
	assert_int_equal(parse_file(FIX "all_reduce_perf-f8e4m3-mulsum-minbw.txt", &rows, &e, NULL),
			 ASSAY_OK);
	const struct assay_row *r = find(&rows, "busbw", "mean", 2097152, "in-place", -1);
	assert_string_equal(sfield(r, "redop"), "mulsum");
	assert_true(find(&rows, "busbw", "average", -1, NULL, -1)->value == 113.92);
	assay_rows_release(&rows);
	assert_int_equal(parse_file(FIX "reduce_scatter_perf-rccl-fp8.txt", &rows, &e, NULL),
			 ASSAY_OK);
	assert_true(find(&rows, "busbw", "average", -1, NULL, -1)->value == 50.245);
	assay_rows_release(&rows);
}

/* The JSON that -J writes for the same run (src/util.cu writeDeviceReport,
 * writeBenchmarkLine*, writeResultFooter) lands in the same series. */
static void test_same_series_as_json(void **state)
{
	(void)state;
	json_t *devs = json_array();
	for (int r = 0; r < 16; r++)
		json_array_append_new(devs, json_pack("{s:i, s:i, s:i, s:s, s:i}", "rank", r,
						      "group", 0, "pid", 402113 + r, "hostname",
						      r < 8 ? "dgx-h100-01" : "dgx-h100-02",
						      "device", r % 8));
	json_t *results = json_array();
	const double t[2][2] = {{33.50, 33.87}, {33.61, 33.98}};
	for (int i = 0; i < 2; i++)
		json_array_append_new(
		    results,
		    json_pack("{s:i, s:i, s:s, s:s, s:s, s:{s:f, s:f, s:f, s:f}, s:{s:f, s:f, s:f, "
			      "s:f}, s:i, s:s}",
			      "size", 8 << i, "count", 2 << i, "type", "float", "redop", "sum",
			      "root", "    -1", "out_of_place", "time", t[i][0], "alg_bw", 0.0,
			      "bus_bw", 0.0, "nwrong", 0.0, "in_place", "time", t[i][1], "alg_bw",
			      0.0, "bus_bw", 0.0, "nwrong", 0.0, "actual_iterations", 20,
			      "experiment_name", ""));
	json_t *doc = json_pack("{s:[s,s,s], s:s, s:{s:i, s:o}, s:o, s:{s:f}}", "args",
				"./build/all_reduce_perf", "-b", "8", "nccl_version", "2.28.7",
				"config", "ngpus", 1, "devices", devs, "results", results,
				"average_bus_bandwidth", "bandwidth", 132.777);
	char *text = json_dumps(doc, 0);
	json_decref(doc);
	struct assay_rows js = ASSAY_ROWS_INIT, tx = ASSAY_ROWS_INIT;
	struct assay_error e;
	struct assay_parse_opts o = {.file = "ar.json"};
	assert_int_equal(assay_format_find("nccl-tests")->parse(text, strlen(text), &o, &js, &e),
			 ASSAY_OK);
	free(text);
	assert_int_equal(parse_file(FIX "all_reduce_perf-h100-2n.log", &tx, &e, NULL), ASSAY_OK);
	assert_int_equal(js.n, 2 * 2 * 4 + 1);
	for (size_t i = 0; i < js.n; i++) {
		size_t k = 0;
		while (k < tx.n && strcmp(tx.v[k].series_key, js.v[i].series_key))
			k++;
		if (k == tx.n) {
			char *s = json_dumps(js.v[i].series, JSON_SORT_KEYS);
			fail_msg("JSON series %s not in the text rows", s);
		}
		if (strcmp(js.v[i].metric, "algbw") && strcmp(js.v[i].metric, "busbw"))
			assert_true(tx.v[k].value == js.v[i].value);
		assert_int_equal(tx.v[k].samples, js.v[i].samples);
	}
	assay_rows_release(&js);
	assay_rows_release(&tx);
}

static void expect_error(const char *text, const json_t *ctx, const char *file, const char *message,
			 long line)
{
	struct assay_rows rows = ASSAY_ROWS_INIT;
	struct assay_error e;
	struct assay_parse_opts o = {.file = file, .context = ctx};
	assert_int_equal(
	    assay_format_find("nccl-tests-text")->parse(text, strlen(text), &o, &rows, &e),
	    ASSAY_USAGE);
	assert_int_equal(rows.n, 0);
	assert_string_equal(e.file, file);
	assert_int_equal(e.line, line);
	assert_string_equal(e.message, message);
}

#define HDR                                                                                        \
	"# Collective test starting: all_reduce_perf\n"                                            \
	"#       size         count      type   redop    root     time   algbw   busbw  #wrong  "  \
	"   time   algbw   busbw  #wrong\n"

static void test_errors(void **state)
{
	(void)state;
	expect_error(HDR "           8             2     float     sum      -1    33.50    0.00\n",
		     NULL, "t.log", "expected 13 cells (as the header on line 2 says), got 7", 3);
	expect_error(HDR "           8             2     float     sum      -1    33.50    0,00    "
			 "0.00       0    33.87    0.00    0.00       0\n",
		     NULL, "t.log", "column 'algbw' (out-of-place): expected a number, got '0,00'",
		     3);
	expect_error(HDR "           8           two     float     sum      -1    33.50    0.00    "
			 "0.00       0    33.87    0.00    0.00       0\n",
		     NULL, "t.log", "column 'count': expected a whole number, got 'two'", 3);
	expect_error("#  size  count  type  redop  time  algbw  busbw  #wrong  latency\n", NULL,
		     "t.log", "unknown column 'latency' in the nccl-tests table header", 1);
	expect_error("no table here\n", NULL, "t.log",
		     "no nccl-tests table (a '#  size  count  type ...' header line) in the file",
		     0);
	/* No program name and a file not named after one: the collective is asked for. */
	const char *anon = "#  size  count  type  time  algbw  busbw  error\n"
			   "  8  2  float  1.00  0.00  0.00  0e+00\n";
	expect_error(anon, NULL, "t.log",
		     "the table does not say which collective it measures (older nccl-tests and "
		     "rccl-tests print no program name); give it with --set collective=NAME "
		     "(--series in assay parse)",
		     2);
	json_t *ctx = json_pack("{s:s}", "collective", "all_gather");
	struct assay_rows rows = ASSAY_ROWS_INIT;
	struct assay_error e;
	struct assay_parse_opts o = {.file = "t.log", .context = ctx};
	assert_int_equal(
	    assay_format_find("nccl-tests-text")->parse(anon, strlen(anon), &o, &rows, &e),
	    ASSAY_OK);
	assert_int_equal(rows.n, 4);
	assert_string_equal(sfield(&rows.v[0], "collective"), "all_gather");
	assay_rows_release(&rows);
	json_decref(ctx);
	/* "N/A" and nan cells are not measurements; an NCCL line is not a row. */
	const char *na =
	    HDR "node:1:1 [0] NCCL INFO comm 0x1 rank 0 nranks 2\n"
		"           8             2     float     sum      -1      nan    0.00    "
		"0.00     N/A    33.87    0.00    0.00     N/A\n";
	o.context = NULL;
	assert_int_equal(assay_format_find("nccl-tests-text")->parse(na, strlen(na), &o, &rows, &e),
			 ASSAY_OK);
	assert_int_equal(rows.n, 5);
	assay_rows_release(&rows);
}

static void test_detect(void **state)
{
	(void)state;
	static const char *const files[] = {
	    "all_reduce_perf-h100-2n.log",       "all_reduce_perf-rccl.txt",
	    "all_gather_perf-rccl-2.12.txt",     "reduce_scatter-nccl-cputime.txt",
	    "alltoall_perf-rccl-inplace.txt",    "broadcast_perf-rccl-2.12.txt",
	    "reduce_perf-nccl-2.13.txt",         "sendrecv-nccl-per-iter.txt",
	    "all_reduce_perf-rccl-truncated.txt"};
	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		char path[1024];
		size_t len;
		struct assay_error e;
		snprintf(path, sizeof(path), "%s%s", FIX, files[i]);
		char *d = assay_read_file(path, &len, &e);
		assert_non_null(d);
		const struct assay_format *f = assay_format_detect(d, len);
		if (!f || strcmp(f->name, "nccl-tests-text"))
			fail_msg("%s detected as %s", files[i], f ? f->name : "nothing");
		free(d);
	}
	const char *json = "{\"nccl_version\": \"2.28.7\", \"results\": []}";
	assert_string_equal(assay_format_detect(json, strlen(json))->name, "nccl-tests");
	assert_false(assay_detect_nccl_tests_text("# size count type\n", 18));
	assert_false(assay_detect_nccl_tests_text("busbw", 5));
	assert_false(assay_detect_nccl_tests_text("x size count type busbw\n", 24));
}

/* assay-coll's output (tests/fixtures/nccl-text/assay-coll-*: its stdout and
 * -J JSON of one run, mpirun -np 2 assay-coll -O reduce_scatter --backend shm
 * -b 1K -e 64K -f 8 -n 3): the backend from its first line / top-level key
 * is a series field, and both files give the same series. */
static void test_assay_coll_backend(void **state)
{
	(void)state;
	struct assay_rows js = ASSAY_ROWS_INIT, tx = ASSAY_ROWS_INIT;
	struct assay_error e;
	assert_int_equal(parse_file(FIX "assay-coll-reduce_scatter-shm.txt", &tx, &e, NULL),
			 ASSAY_OK);
	size_t len;
	char *d = assay_read_file(FIX "assay-coll-reduce_scatter-shm.json", &len, &e);
	assert_non_null(d);
	struct assay_parse_opts o = {.file = "rs.json"};
	assert_int_equal(assay_format_find("nccl-tests")->parse(d, len, &o, &js, &e), ASSAY_OK);
	free(d);
	assert_int_equal(count(&tx, "busbw", "mean"), 3 * 2);
	assert_int_equal(js.n, tx.n);
	for (size_t i = 0; i < tx.n; i++) {
		assert_string_equal(sfield(&tx.v[i], "backend"), "shm");
		assert_string_equal(sfield(&tx.v[i], "collective"), "reduce_scatter");
		size_t k = 0;
		while (k < js.n && strcmp(js.v[k].series_key, tx.v[i].series_key))
			k++;
		assert_true(k < js.n);
	}
	assay_rows_release(&js);
	assay_rows_release(&tx);
}

/* -d all (all_reduce_perf-dall.txt/.json, written by assay-coll in nccl-tests'
 * layout): one row per type and one average over them all, stored under
 * precision "all", not under the first row's type (int8) in either reader. */
static void test_dall_average(void **state)
{
	(void)state;
	struct assay_rows tx = ASSAY_ROWS_INIT, js = ASSAY_ROWS_INIT;
	struct assay_error e;
	assert_int_equal(parse_file(FIX "all_reduce_perf-dall.txt", &tx, &e, NULL), ASSAY_OK);
	size_t len;
	char *d = assay_read_file(FIX "all_reduce_perf-dall.json", &len, &e);
	assert_non_null(d);
	struct assay_parse_opts o = {.file = "all_reduce_perf-dall.json"};
	assert_int_equal(assay_format_find("nccl-tests")->parse(d, len, &o, &js, &e), ASSAY_OK);
	free(d);
	const struct assay_rows *both[] = {&tx, &js};
	for (int k = 0; k < 2; k++) {
		assert_int_equal(count(both[k], "busbw", "average"), 1);
		const struct assay_row *avg = find(both[k], "busbw", "average", -1, NULL, -1);
		assert_string_equal(sfield(avg, "precision"), "all");
		assert_string_equal(
		    sfield(find(both[k], "busbw", "mean", 64, "out-of-place", -1), "precision"),
		    "int8");
		assert_int_equal(count(both[k], "busbw", "mean"), 10 * 2);
	}
	assay_rows_release(&tx);
	assay_rows_release(&js);
}

/* Two runs of a version that prints no "Collective test starting" line,
 * concatenated (all_gather_perf-rccl-2.12.txt twice: 4 ranks on one host
 * each): every row's scale is 1x4, not the devices of both runs (1x8). */
static void test_concatenated_scale(void **state)
{
	(void)state;
	struct assay_error e;
	size_t len;
	char *d = assay_read_file(FIX "all_gather_perf-rccl-2.12.txt", &len, &e);
	assert_non_null(d);
	char *two = malloc(2 * len);
	memcpy(two, d, len);
	memcpy(two + len, d, len);
	free(d);
	struct assay_rows rows = ASSAY_ROWS_INIT;
	struct assay_parse_opts o = {.file = "all_gather_perf-twice.txt"};
	assert_int_equal(assay_format_find("nccl-tests-text")->parse(two, 2 * len, &o, &rows, &e),
			 ASSAY_OK);
	free(two);
	assert_true(rows.n > 0);
	for (size_t i = 0; i < rows.n; i++)
		assert_string_equal(sfield(&rows.v[i], "scale"), "1x4");
	assay_rows_release(&rows);
}

static assay_err parse_notes(const char *name, const char *d, size_t len, struct assay_rows *rows,
			     struct strlist *notes)
{
	struct assay_error e;
	struct assay_parse_opts o = {.file = name, .notes = notes};
	return assay_format_find("nccl-tests-text")->parse(d, len, &o, rows, &e);
}

/* A cut row (all_reduce_perf-rccl-truncated.txt: line 18 ends after the
 * algbw, then an NCCL WARN line from another rank), the same WARN written
 * into the row's line with the rest of the row on the next, and a log cut
 * at a row boundary (no "# Avg bus bandwidth" footer): the good rows are
 * kept and each bad one, and the missing footer, is a note. A table with
 * no good row at all stays an error (test_errors). */
static void test_bad_rows_flagged(void **state)
{
	(void)state;
	struct assay_error e;
	size_t len;
	char *d = assay_read_file(FIX "all_reduce_perf-rccl-truncated.txt", &len, &e);
	assert_non_null(d);
	struct assay_rows rows = ASSAY_ROWS_INIT;
	struct strlist notes = STRLIST_INIT;
	assert_int_equal(parse_notes("all_reduce_perf-cut.txt", d, len, &rows, &notes), ASSAY_OK);
	assert_int_equal(notes.n, 1);
	assert_non_null(strstr(notes.v[0], "all_reduce_perf-cut.txt:18: expected 13 cells"));
	find(&rows, "busbw", "mean", 1048576, "out-of-place", -1);
	find(&rows, "busbw", "mean", 4194304, "in-place", -1);
	assert_int_equal(count(&rows, "busbw", "mean"), 2 * 2);
	assert_int_equal(count(&rows, "busbw", "average"), 1);
	assay_rows_release(&rows);
	strlist_clear(&notes);

	/* The WARN inside the row: "... 37.11   56.51host:pid:tid [2] NCCL WARN ...". */
	char *cut = strstr(d, "   56.51\n");
	assert_non_null(cut);
	cut += strlen("   56.51");
	char *warn_end = strchr(cut + 1, '\n');
	struct sbuf sb = SBUF_INIT;
	sbuf_add(&sb, d, (size_t)(cut - d));
	sbuf_add(&sb, cut + 1, (size_t)(warn_end - cut - 1));
	sbuf_adds(&sb, "\n   98.89      0    38.11   55.03   96.31      0");
	sbuf_adds(&sb, warn_end);
	assert_int_equal(parse_notes("all_reduce_perf-warn.txt", sb.buf, sb.len, &rows, &notes),
			 ASSAY_OK);
	/* Line 18 is flagged; the rest of the row ("   98.89 ...") is not a row. */
	assert_int_equal(notes.n, 1);
	assert_non_null(strstr(notes.v[0], "all_reduce_perf-warn.txt:18: expected 13 cells"));
	assert_int_equal(count(&rows, "busbw", "mean"), 2 * 2);
	assay_rows_release(&rows);
	strlist_clear(&notes);
	sbuf_release(&sb);
	free(d);

	/* Cut at a row boundary: the first 40 lines of the H100 log. */
	d = assay_read_file(FIX "all_reduce_perf-h100-2n.log", &len, &e);
	assert_non_null(d);
	char *p = d;
	for (int i = 0; i < 40 && p; i++)
		p = strchr(p, '\n') + 1;
	assert_int_equal(parse_notes("all_reduce_perf-end.log", d, (size_t)(p - d), &rows, &notes),
			 ASSAY_OK);
	assert_int_equal(notes.n, 1);
	assert_non_null(strstr(notes.v[0], "all_reduce_perf-end.log:26: the table has no footer"));
	assert_int_equal(count(&rows, "busbw", "average"), 0);
	assert_true(count(&rows, "busbw", "mean") > 0);
	assay_rows_release(&rows);
	strlist_clear(&notes);
	/* The whole log: complete, nothing flagged. */
	assert_int_equal(parse_notes("all_reduce_perf-h100-2n.log", d, len, &rows, &notes),
			 ASSAY_OK);
	assert_int_equal(notes.n, 0);
	assay_rows_release(&rows);
	free(d);
}

/* The H100 log as srun -l prints it: every line labelled with its task id,
 * "%0*d: " (SchedMD/slurm 1d32d81 src/common/write_labelled_message.c,
 * _write_label: "00: " with 16 tasks), and with a space-padded label: the
 * same rows as the plain log, and detected by content. */
static void test_srun_labels(void **state)
{
	(void)state;
	struct assay_error e;
	size_t len;
	char *d = assay_read_file(FIX "all_reduce_perf-h100-2n.log", &len, &e);
	assert_non_null(d);
	struct assay_rows plain = ASSAY_ROWS_INIT;
	assert_int_equal(parse_file(FIX "all_reduce_perf-h100-2n.log", &plain, &e, NULL), ASSAY_OK);
	const char *labels[] = {"00: ", " 0: "};
	for (int k = 0; k < 2; k++) {
		struct sbuf sb = SBUF_INIT;
		for (const char *p = d; p < d + len;) {
			const char *nl = memchr(p, '\n', (size_t)(d + len - p));
			size_t n = nl ? (size_t)(nl - p) + 1 : (size_t)(d + len - p);
			sbuf_adds(&sb, labels[k]);
			sbuf_add(&sb, p, n);
			p += n;
		}
		assert_true(assay_detect_nccl_tests_text(sb.buf, sb.len));
		struct assay_rows rows = ASSAY_ROWS_INIT;
		struct strlist notes = STRLIST_INIT;
		assert_int_equal(
		    parse_notes("all_reduce_perf-srun.log", sb.buf, sb.len, &rows, &notes),
		    ASSAY_OK);
		assert_int_equal(notes.n, 0);
		assert_int_equal(rows.n, plain.n);
		for (size_t i = 0; i < rows.n; i++) {
			assert_string_equal(rows.v[i].series_key, plain.v[i].series_key);
			assert_true(rows.v[i].value == plain.v[i].value);
		}
		assay_rows_release(&rows);
		sbuf_release(&sb);
	}
	assay_rows_release(&plain);
	free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_busbw_factors),
	    cmocka_unit_test(test_h100_log),
	    cmocka_unit_test(test_layouts),
	    cmocka_unit_test(test_values),
	    cmocka_unit_test(test_same_series_as_json),
	    cmocka_unit_test(test_errors),
	    cmocka_unit_test(test_detect),
	    cmocka_unit_test(test_assay_coll_backend),
	    cmocka_unit_test(test_dall_average),
	    cmocka_unit_test(test_concatenated_scale),
	    cmocka_unit_test(test_bad_rows_flagged),
	    cmocka_unit_test(test_srun_labels),
	    cmocka_unit_test(test_fp8_mulsum_min_bw),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
