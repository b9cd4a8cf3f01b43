/* Unit tests for the report model (src/lib/report/model.c): outcome and
 * verdict names, exit codes, counts, and writing the three files. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "report_check.h"

static void test_names(void **state)
{
	(void)state;
	const char *names[] = {"passed",         "gate-failed", "workload-failed", "no-metrics",
			       "infrastructure", "unsupported", "skipped"};
	assert_int_equal(ARRAY_SIZE(names), ASSAY_REPORT_OUTCOME_COUNT);
	for (int i = 0; i < ASSAY_REPORT_OUTCOME_COUNT; i++) {
		assert_string_equal(assay_report_outcome_name(i), names[i]);
		assert_int_equal(assay_report_outcome_parse(names[i]), i);
	}
	assert_int_equal(assay_report_outcome_parse("ok"), ASSAY_REPORT_PASSED);
	assert_int_equal(assay_report_outcome_parse("nope"), -1);
	assert_int_equal(assay_report_outcome_parse(NULL), -1);
	/* Case outcomes map onto the exit codes of docs/exit-codes.md. */
	assert_int_equal(assay_report_outcome_exit(ASSAY_REPORT_PASSED), ASSAY_OK);
	assert_int_equal(assay_report_outcome_exit(ASSAY_REPORT_GATE_FAILED), ASSAY_GATE_FAILED);
	assert_int_equal(assay_report_outcome_exit(ASSAY_REPORT_WORKLOAD_FAILED),
			 ASSAY_WORKLOAD_FAILED);
	assert_int_equal(assay_report_outcome_exit(ASSAY_REPORT_NO_METRICS), ASSAY_NO_METRICS);
	assert_int_equal(assay_report_outcome_exit(ASSAY_REPORT_INFRA), ASSAY_INFRA);
	assert_int_equal(assay_report_outcome_exit(ASSAY_REPORT_UNSUPPORTED), ASSAY_OK);
	assert_int_equal(assay_report_outcome_exit(ASSAY_REPORT_SKIPPED), ASSAY_OK);
	/* Outcome names agree with the exit-code names where they overlap. */
	for (int i = 1; i <= ASSAY_REPORT_INFRA; i++)
		assert_string_equal(assay_report_outcome_name(i),
				    assay_strerror(assay_report_outcome_exit(i)));

	assert_string_equal(assay_report_verdict_name(ASSAY_VERDICT_RECORD), "RECORD");
	assert_int_equal(assay_report_verdict_parse("skipped"), ASSAY_VERDICT_SKIPPED);
	assert_int_equal(assay_report_verdict_parse("FAIL"), ASSAY_VERDICT_FAIL);
	assert_int_equal(assay_report_verdict_parse("maybe"), -1);
}

static void test_build_and_count(void **state)
{
	(void)state;
	struct assay_report r;
	assay_report_init(&r);
	assay_report_add_case(&r, "a", ASSAY_REPORT_PASSED);
	struct assay_report_case *c = assay_report_add_case(&r, "b", ASSAY_REPORT_SKIPPED);
	assert_true(isnan(c->duration_s));
	assay_report_case_factor(c, "ep", "8");
	assay_report_case_link(c, "stdout", "cases/b/stdout.log");
	assay_report_add_case(&r, "c", ASSAY_REPORT_SKIPPED);
	size_t counts[ASSAY_REPORT_OUTCOME_COUNT];
	assay_report_count(&r, counts);
	assert_int_equal(counts[ASSAY_REPORT_PASSED], 1);
	assert_int_equal(counts[ASSAY_REPORT_SKIPPED], 2);
	assert_int_equal(counts[ASSAY_REPORT_GATE_FAILED], 0);
	struct assay_report_ep *ep = assay_report_add_ep(&r, "a", "mpi", "bf16", "decode");
	struct assay_report_ep_point *p = assay_report_ep_point(ep, 128);
	assert_true(p->tokens == 128 && isnan(p->p50_us) && !p->valid);
	struct assay_report_history *h = assay_report_add_history(&r, "s", "us");
	assert_int_equal(h->new_point, -1);
	assay_report_history_point(h, "r1", 1);
	assay_report_history_change(h, 0);
	struct assay_report_train *t = assay_report_add_train(&r, "a", "combo");
	assay_report_train_loss(t, 1, 10);
	assay_report_train_throughput(t, 1, 100);
	char *s = NULL;
	assay_report_set(&s, "x");
	assay_report_set(&s, "y");
	assert_string_equal(s, "y");
	assay_report_set(&s, NULL);
	assert_null(s);
	assay_report_release(&r); /* ASan checks that everything was owned and freed */
	assert_int_equal(r.ncases, 0);
}

static void test_write(void **state)
{
	(void)state;
	char dir[] = "/tmp/assay-report-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char *out = xasprintf("%s/sub/report", dir);
	struct assay_report r;
	assay_report_init(&r);
	assay_report_sample(&r, 16);
	/* A skewed ladder: its routing and imbalance reach the EP data points. */
	assert_true(r.nep > 0 && r.ep[0].npoints > 0);
	assay_report_set(&r.ep[0].routing, "hot:8:0.5");
	r.ep[0].points[0].imbalance_expert = 7.25;
	r.ep[0].points[0].imbalance_rank = 3.5;
	struct assay_error e;
	assert_int_equal(assay_report_write(&r, out, &e), ASSAY_OK);
	const char *files[] = {"report.html", "junit.xml", "summary.md"};
	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		char *p = xasprintf("%s/%s", out, files[i]);
		size_t len = 0;
		char *text = assay_read_file(p, &len, &e);
		assert_non_null(text);
		assert_true(len > 500);
		/* The sample's own secret never reaches a file. */
		assert_null(strstr(text, "hf_sampleSECRET42"));
		if (i == 0)
			assert_true(
			    strstr(text, "<th class=\"num\">Imbalance per expert</th>") &&
			    strstr(text,
				   "<td>hot:8:0.5</td><td class=\"num\" data-v=\"7.25\">7.25<") &&
			    strstr(text, "data-v=\"3.5\">3.5<"));
		free(text);
		unlink(p);
		free(p);
	}
	/* A file where the folder should be: infrastructure error, nothing written. */
	char *blocked = xasprintf("%s/blocked", dir);
	FILE *f = fopen(blocked, "w");
	assert_non_null(f);
	fclose(f);
	assert_int_equal(assay_report_write(&r, blocked, &e), ASSAY_INFRA);
	unlink(blocked);
	free(blocked);
	assay_report_release(&r);
	char *sub = xasprintf("%s/sub", dir);
	rmdir(out);
	rmdir(sub);
	rmdir(dir);
	free(sub);
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_names),
	    cmocka_unit_test(test_build_and_count),
	    cmocka_unit_test(test_write),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
