/* Unit tests for suites of kind "collective" (src/lib/suite/collective.c):
 * the cases (operations x dtypes x nodes x ranks), their nccl-tests
 * command lines and series fields, the swept sizes, and strict errors with
 * JSON paths. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "assay/json.h"
#include "assay/suite.h"

static char dir[64];
static char path[128];
static char thr[128];

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/assay-test-coll-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(path, sizeof(path), "%s/coll.json", dir);
	snprintf(thr, sizeof(thr), "%s/thr.json", dir);
	return chdir(ASSAY_SOURCE_DIR);
}

static int teardown(void **state)
{
	(void)state;
	unlink(path);
	unlink(thr);
	return rmdir(dir);
}

static void write_file(const char *file, const char *text)
{
	FILE *f = fopen(file, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static const char *load_fails(const char *text)
{
	static char buf[2048];
	struct assay_suite s;
	struct assay_error e;
	write_file(path, text);
	assert_int_equal(assay_suite_load(path, &s, &e), ASSAY_USAGE);
	snprintf(buf, sizeof(buf), "%s: %s", e.path, e.message);
	return buf;
}

static char *joined(const struct strlist *l)
{
	return strlist_join(l, " ");
}

static void test_cases_and_plan(void **state)
{
	(void)state;
	write_file(path,
		   "{\"kind\": \"collective\", \"binary\": \"/opt/nccl-tests/build/{OP}_perf\","
		   " \"operations\": [\"all_reduce\", \"alltoall\"], \"dtypes\": [\"float\","
		   " \"bfloat16\"], \"sizes\": {\"min\": 8, \"max\": \"1M\", \"factor\": 4},"
		   " \"ranks\": [8, 16], \"nodes\": [2], \"iterations\": 7, \"warmups\": 3,"
		   " \"check\": false, \"args\": [\"-o\", \"sum\"], \"cluster\": \"c1\"}");
	struct assay_suite s;
	struct assay_error e;
	assert_int_equal(assay_suite_load(path, &s, &e), ASSAY_OK);
	assert_int_equal(s.kind, ASSAY_SUITE_COLLECTIVE);
	assert_string_equal(s.name, "coll");
	assert_int_equal(s.n_cases, 8);
	const char *ids[] = {"all_reduce-float-2x4",    "all_reduce-float-2x8",
			     "all_reduce-bfloat16-2x4", "all_reduce-bfloat16-2x8",
			     "alltoall-float-2x4",      "alltoall-float-2x8",
			     "alltoall-bfloat16-2x4",   "alltoall-bfloat16-2x8"};
	for (size_t i = 0; i < 8; i++)
		assert_string_equal(s.cases[i].id, ids[i]);
	assert_int_equal(s.cases[1].nodes, 2);
	assert_int_equal(s.cases[1].ranks_per_node, 8);

	struct assay_case_plan p;
	assert_int_equal(assay_suite_plan(&s, &s.cases[5], "R1", "out/R1/x", NULL, &p, &e),
			 ASSAY_OK);
	char *argv = joined(&p.argv);
	assert_string_equal(argv, "/opt/nccl-tests/build/alltoall_perf -b 8 -e 1048576 -f 4 -g 1 "
				  "-n 7 -w 3 -c 0 -d float -o sum");
	free(argv);
	assert_int_equal(p.mpi_ranks, 16);
	assert_string_equal(p.parser, "nccl-tests-text");
	assert_int_equal(p.results.n, 1);
	assert_string_equal(p.results.v[0], "out/R1/x/stdout.log");
	char *ctx = assay_json_dumps(p.context, ASSAY_JSON_SORT);
	assert_string_equal(ctx,
			    "{\"cluster\":\"c1\",\"collective\":\"alltoall\",\"scale\":\"2x8\","
			    "\"suite\":\"coll\"}");
	free(ctx);
	assay_case_plan_release(&p);

	/* nccl-tests' sweep: 8, 32, ..., up to 1 MiB. */
	long long *sizes;
	size_t n = assay_suite_coll_sizes(&s, &sizes);
	assert_int_equal(n, 9);
	assert_int_equal(sizes[0], 8);
	assert_int_equal(sizes[8], 524288);
	free(sizes);
	assay_suite_release(&s);
}

/* No binary: assay-coll, with its --op and --backend. */
static void test_assay_coll_default(void **state)
{
	(void)state;
	write_file(path,
		   "{\"kind\": \"collective\", \"operations\": [\"all_gather\"], \"backend\": "
		   "\"shm\", \"sizes\": {\"min\": \"1K\", \"max\": \"4K\"}, \"ranks\": [2]}");
	struct assay_suite s;
	struct assay_error e;
	assert_int_equal(assay_suite_load(path, &s, &e), ASSAY_OK);
	assert_true(s.coll->assay_coll);
	struct assay_case_plan p;
	assert_int_equal(assay_suite_plan(&s, &s.cases[0], "R1", "d", NULL, &p, &e), ASSAY_OK);
	const char *base = strrchr(p.argv.v[0], '/');
	assert_string_equal(base ? base + 1 : p.argv.v[0], "assay-coll");
	char *argv = joined(&p.argv);
	assert_non_null(strstr(argv, " -O all_gather --backend shm -b 1024 -e 4096 -f 2 -g 1 "
				     "-n 20 -w 5 -c 1 -d float"));
	free(argv);
	assert_string_equal(json_string_value(json_object_get(p.context, "backend")), "shm");
	assay_case_plan_release(&p);
	assay_suite_release(&s);
}

/* nccl-tests' later programs (a0b82b2 src/gather.cu, scatter.cu,
 * hypercube.cu, alltoallv.cu) are operations too: assay-coll's -O, or
 * {OP}_perf of a binary. */
static void test_new_programs(void **state)
{
	(void)state;
	write_file(path, "{\"kind\": \"collective\", \"operations\": [\"gather\", \"scatter\", "
			 "\"hypercube\", \"alltoallv\"], \"backend\": \"shm\", \"sizes\": "
			 "{\"min\": \"1K\", \"max\": \"4K\"}, \"ranks\": [2]}");
	struct assay_suite s;
	struct assay_error e;
	assert_int_equal(assay_suite_load(path, &s, &e), ASSAY_OK);
	assert_int_equal(s.n_cases, 4);
	const char *ops[] = {"gather", "scatter", "hypercube", "alltoallv"};
	for (size_t i = 0; i < 4; i++) {
		struct assay_case_plan p;
		assert_int_equal(assay_suite_plan(&s, &s.cases[i], "R1", "d", NULL, &p, &e),
				 ASSAY_OK);
		char *argv = joined(&p.argv), want[64];
		snprintf(want, sizeof(want), " -O %s --backend shm ", ops[i]);
		assert_non_null(strstr(argv, want));
		free(argv);
		assay_case_plan_release(&p);
	}
	assay_suite_release(&s);
	write_file(path, "{\"kind\": \"collective\", \"binary\": \"/opt/nt/{OP}_perf\", "
			 "\"operations\": [\"alltoallv\"], \"sizes\": {\"min\": 8, \"max\": 64}, "
			 "\"ranks\": [2]}");
	assert_int_equal(assay_suite_load(path, &s, &e), ASSAY_OK);
	struct assay_case_plan p;
	assert_int_equal(assay_suite_plan(&s, &s.cases[0], "R1", "d", NULL, &p, &e), ASSAY_OK);
	assert_string_equal(p.argv.v[0], "/opt/nt/alltoallv_perf");
	assay_case_plan_release(&p);
	assay_suite_release(&s);
}

static void test_errors(void **state)
{
	(void)state;
	assert_string_equal(
	    load_fails("{\"kind\": \"collective\", \"operations\": [\"allreduce\"], "
		       "\"sizes\": {\"min\": 8, \"max\": 64}, \"ranks\": [2]}"),
	    "$.operations[0]: expected one of \"all_reduce\", \"all_gather\", "
	    "\"reduce_scatter\", \"alltoall\", \"broadcast\", \"reduce\", "
	    "\"sendrecv\", \"gather\", \"scatter\", \"hypercube\", \"alltoallv\", got "
	    "\"allreduce\"");
	assert_string_equal(load_fails("{\"kind\": \"collective\", \"operations\": [\"reduce\"], "
				       "\"sizes\": {\"min\": 64, \"max\": 8}, \"ranks\": [2]}"),
			    "$.sizes.max: expected at least min (64), got 8");
	assert_string_equal(load_fails("{\"kind\": \"collective\", \"operations\": [\"reduce\"], "
				       "\"sizes\": {\"min\": \"8X\", \"max\": 8}, \"ranks\": [2]}"),
			    "$.sizes.min: expected a size in bytes > 0 (8, \"1M\", \"8G\"), got "
			    "\"8X\"");
	assert_string_equal(load_fails("{\"kind\": \"collective\", \"operations\": [\"reduce\"], "
				       "\"sizes\": {\"min\": 8, \"max\": 8}, \"ranks\": [3], "
				       "\"nodes\": [2]}"),
			    "$.ranks: 3 ranks do not divide evenly over 2 nodes");
	assert_string_equal(
	    load_fails("{\"kind\": \"collective\", \"binary\": \"./all_reduce_perf\", "
		       "\"operations\": [\"reduce\", \"all_reduce\"], \"sizes\": {\"min\": 8, "
		       "\"max\": 8}, \"ranks\": [2]}"),
	    "$.binary: runs one operation, and operations lists 2; name the program with {OP} "
	    "(e.g. \"/opt/nccl-tests/build/{OP}_perf\")");
	assert_string_equal(
	    load_fails(
		"{\"kind\": \"collective\", \"binary\": \"./all_reduce_perf\", "
		"\"backend\": \"shm\", \"operations\": [\"all_reduce\"], \"sizes\": {\"min\": "
		"8, \"max\": 8}, \"ranks\": [2]}"),
	    "$.backend: is assay-coll's: the binary ./all_reduce_perf takes no backend");
	assert_string_equal(load_fails("{\"kind\": \"collective\", \"binary\": \"{DIR}/x_perf\", "
				       "\"operations\": [\"all_reduce\"], \"sizes\": {\"min\": 8, "
				       "\"max\": 8}, \"ranks\": [2]}"),
			    "$.binary: placeholder {DIR} has no value (a collective case has {OP}, "
			    "{DTYPE}, {RANKS}, {NODES} and assay's own)");
	assert_string_equal(
	    load_fails("{\"kind\": \"collective\", \"operations\": [\"all_reduce\"], "
		       "\"sizes\": {\"min\": 8, \"max\": 8}, \"ranks\": [2], "
		       "\"combos\": {}}"),
	    "$.combos: unknown key (expected one of: kind, name, description, "
	    "launcher, store, output, cluster, revision, signatures, secrets, env, "
	    "timeout_s, gates, raw_artifacts, container, variants, repeat, expect, binary, "
	    "backend, operations, dtypes, sizes, ranks, nodes, iterations, warmups, check, "
	    "args)");
	assert_string_equal(
	    load_fails("{\"kind\": \"collective\", \"operations\": [\"all_reduce\"], "
		       "\"sizes\": {\"min\": 8, \"max\": 8}, \"ranks\": [2], "
		       "\"gates\": {\"loss_curve\": {}}}"),
	    "$.gates.loss_curve: applies to command suites (collective suites take "
	    "thresholds and regression)");
}

/* The gates block: a per-size file, checked at load. */
static void test_thresholds_gate(void **state)
{
	(void)state;
	char text[512];
	write_file(thr, "{\"all_gather\": {\"busbw\": {\"1M\": 10}}}");
	snprintf(text, sizeof(text),
		 "{\"kind\": \"collective\", \"operations\": [\"all_reduce\"], \"sizes\": "
		 "{\"min\": 8, \"max\": 8}, \"ranks\": [2], \"gates\": {\"thresholds\": \"%s\"}}",
		 thr);
	char want[512];
	snprintf(want, sizeof(want),
		 "$.gates.thresholds: %s has no threshold for any operation of the suite", thr);
	assert_string_equal(load_fails(text), want);

	write_file(thr, "{\"all_reduce\": {\"busbw\": {\"1M\": \"fast\"}}}");
	struct assay_suite s;
	struct assay_error e;
	write_file(path, text);
	assert_int_equal(assay_suite_load(path, &s, &e), ASSAY_USAGE);
	assert_string_equal(e.file, thr);
	assert_string_equal(e.path, "$.all_reduce.busbw.1M");

	write_file(thr, "{\"all_reduce_perf\": {\"bus_bw\": {\"8\": \"0.5\"}}}");
	assert_int_equal(assay_suite_load(path, &s, &e), ASSAY_OK);
	assert_true(s.gates.coll_thresholds_on);
	assert_true(s.gates.coll_thresholds.cvs);
	assert_int_equal(s.gates.coll_thresholds.n, 1);
	assay_suite_release(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_cases_and_plan),  cmocka_unit_test(test_assay_coll_default),
	    cmocka_unit_test(test_new_programs),    cmocka_unit_test(test_errors),
	    cmocka_unit_test(test_thresholds_gate),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
