/* Unit tests for the pipeline's outcome model: names, the exit code each
 * outcome contributes, the run's precedence and the summary document. The
 * pipeline itself runs end to end in tests/e2e/run. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "assay/json.h"
#include "assay/run.h"

static void test_names_and_exits(void **state)
{
	(void)state;
	static const struct {
		enum assay_outcome o;
		const char *name;
		assay_err exit;
	} want[] = {
	    {ASSAY_OUTCOME_PASSED, "passed", ASSAY_OK},
	    {ASSAY_OUTCOME_GATE_FAILED, "gate-failed", ASSAY_GATE_FAILED},
	    {ASSAY_OUTCOME_WORKLOAD_FAILED, "workload-failed", ASSAY_WORKLOAD_FAILED},
	    {ASSAY_OUTCOME_NO_METRICS, "no-metrics", ASSAY_NO_METRICS},
	    {ASSAY_OUTCOME_INFRA, "infrastructure", ASSAY_INFRA},
	    {ASSAY_OUTCOME_UNSUPPORTED, "unsupported", ASSAY_OK},
	    {ASSAY_OUTCOME_SKIPPED, "skipped", ASSAY_OK},
	};
	assert_int_equal(sizeof(want) / sizeof(want[0]), ASSAY_OUTCOME_COUNT);
	for (size_t i = 0; i < ASSAY_OUTCOME_COUNT; i++) {
		assert_string_equal(assay_outcome_name(want[i].o), want[i].name);
		assert_int_equal(assay_outcome_exit(want[i].o), want[i].exit);
		assert_int_equal(assay_outcome_parse(want[i].name), (int)want[i].o);
		/* A resume runs skipped and infrastructure cases again, keeps the rest. */
		assert_int_equal(assay_outcome_final(want[i].o),
				 want[i].o != ASSAY_OUTCOME_SKIPPED &&
				     want[i].o != ASSAY_OUTCOME_INFRA);
	}
	assert_int_equal(assay_outcome_parse("ok"), -1);
	assert_string_equal(assay_outcome_name((enum assay_outcome)99), "unknown");
	assert_string_equal(assay_failure_name(ASSAY_FAILURE_SIGNATURE), "signature");
	assert_string_equal(assay_failure_name(ASSAY_FAILURE_TIMEOUT), "timeout");
	assert_string_equal(assay_failure_name(ASSAY_FAILURE_EXIT), "exit-code");
	assert_string_equal(assay_failure_name(ASSAY_FAILURE_NONE), "");
	/* A run of a workload failure and missing metrics exits 3, never 4 or 0. */
	assay_err run = ASSAY_OK;
	run = assay_err_worst(run, assay_outcome_exit(ASSAY_OUTCOME_NO_METRICS));
	run = assay_err_worst(run, assay_outcome_exit(ASSAY_OUTCOME_WORKLOAD_FAILED));
	run = assay_err_worst(run, assay_outcome_exit(ASSAY_OUTCOME_UNSUPPORTED));
	assert_int_equal(run, ASSAY_WORKLOAD_FAILED);
}

static void test_summary(void **state)
{
	(void)state;
	struct assay_case_outcome cases[2] = {0};
	cases[0].case_id = "a";
	cases[0].outcome = ASSAY_OUTCOME_WORKLOAD_FAILED;
	cases[0].failure = ASSAY_FAILURE_SIGNATURE;
	cases[0].reason = "signature nccl-error in stderr: NCCL error";
	cases[0].signature = "nccl-error";
	cases[0].source = "stderr";
	cases[0].line = "NCCL error";
	cases[0].duration_s = 1.5;
	cases[0].dir = "out/R/a";
	cases[1].case_id = "b";
	cases[1].outcome = ASSAY_OUTCOME_UNSUPPORTED;
	cases[1].reason = "backend-platform-unsupported";
	struct assay_run_result res = {0};
	strcpy(res.run_id, "R");
	res.suite = "s";
	res.revision = "r1";
	res.store = "assay.db";
	res.exit_code = ASSAY_WORKLOAD_FAILED;
	res.cases = cases;
	res.n = 2;
	res.counts[ASSAY_OUTCOME_WORKLOAD_FAILED] = 1;
	res.counts[ASSAY_OUTCOME_UNSUPPORTED] = 1;
	/* Secret names (never values) go in, for reports. */
	strlist_push(&res.secrets, "HF_TOKEN");
	json_t *doc = assay_run_summary_json(&res);
	char *text = assay_json_dumps(doc, ASSAY_JSON_SORT);
	assert_string_equal(
	    text, "{\"cases\":[{\"case_id\":\"a\",\"dir\":\"out/R/"
		  "a\",\"duration_s\":1.5,\"earlier_attempt\":false,"
		  "\"failure\":\"signature\",\"outcome\":\"workload-failed\","
		  "\"queue_s\":0.0,\"reason\":\"signature nccl-error in "
		  "stderr: NCCL error\",\"rows\":0,\"run_s\":1.5,\"signature\":{\"line\":\"NCCL "
		  "error\",\"name\":\"nccl-error\","
		  "\"source\":\"stderr\"},\"verdicts\":[]},{\"case_id\":\"b\","
		  "\"dir\":null,\"duration_s\":0.0,\"earlier_attempt\":false,"
		  "\"failure\":null,\"outcome\":\"unsupported\",\"queue_s\":0.0,"
		  "\"reason\":\"backend-platform-unsupported\",\"rows\":0,"
		  "\"run_s\":0.0,\"verdicts\":[]}],"
		  "\"counts\":{\"gate-failed\":0,\"infrastructure\":0,\"no-"
		  "metrics\":0,\"passed\":0,\"skipped\":0,\"unsupported\":1,"
		  "\"workload-failed\":1},\"exit_code\":3,\"interrupted\":false,"
		  "\"result\":\"workload-failed\","
		  "\"revision\":\"r1\",\"run_id\":\"R\",\"schema\":\"assay.run/"
		  "1\",\"secrets\":[\"HF_TOKEN\"],"
		  "\"store\":\"assay.db\",\"suite\":\"s\"}");
	free(text);
	json_decref(doc);
	strlist_clear(&res.secrets);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_names_and_exits),
	    cmocka_unit_test(test_summary),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
