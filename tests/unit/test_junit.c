/* Unit tests for junit.xml (src/lib/report/junit.c): the outcome mapping and
 * counts, validity against tests/report/junit.xsd (xmllint), and redaction. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "report_check.h"

static char *junit(const struct assay_report *r)
{
	return written(assay_report_junit, r);
}

static void validate(const char *xml)
{
	if (!have_xmllint()) {
		print_message(
		    "xmllint not installed (scripts/deps.sh check): schema check skipped\n");
		return;
	}
	assert_int_equal(xmllint(xml, "tests/report/junit.xsd"), 0);
}

/* One case of every outcome, one gate of every verdict. */
static void test_mapping(void **state)
{
	(void)state;
	struct assay_report r;
	assay_report_init(&r);
	assay_report_set(&r.suite, "unit");
	assay_report_set(&r.run_id, "r1");
	assay_report_set(&r.started, "2026-11-30T19:15:02Z");
	assay_report_set(&r.host, "h1");
	r.exit_code = ASSAY_INFRA;
	for (int o = 0; o < ASSAY_REPORT_OUTCOME_COUNT; o++) {
		char id[32];
		snprintf(id, sizeof(id), "case-%s", assay_report_outcome_name(o));
		struct assay_report_case *c = assay_report_add_case(&r, id, o);
		c->duration_s = 1.5;
		if (o != ASSAY_REPORT_PASSED && o != ASSAY_REPORT_NO_METRICS)
			assay_report_set(&c->reason, "first line\nsecond line");
	}
	for (int v = 0; v < ASSAY_VERDICT_COUNT; v++) {
		struct assay_report_gate *g =
		    assay_report_add_gate(&r, "case-passed", "threshold", v);
		assay_report_set(&g->metric, assay_report_verdict_name(v));
		g->value = 12.5;
		assay_report_set(&g->unit, "us");
		assay_report_set(&g->spec, "<= 10");
	}
	char *out = junit(&r);
	/* 7 cases + 4 gates; failures: gate-failed, workload-failed, gate FAIL;
	 * errors: no-metrics, infrastructure; skipped: unsupported, skipped,
	 * gate SKIPPED. PASS and RECORD gates pass. */
	assert_non_null(strstr(out, "<testsuites name=\"unit\" tests=\"11\" failures=\"3\" "
				    "errors=\"2\" skipped=\"3\" time=\"10.500\">"));
	assert_non_null(strstr(out, "tests=\"11\" failures=\"3\" errors=\"2\" skipped=\"3\" "
				    "time=\"10.500\" timestamp=\"2026-11-30T19:15:02\" "
				    "hostname=\"h1\">"));
	assert_int_equal(count_of(out, "<testsuite "), 1);
	assert_int_equal(count_of(out, "<testcase "), 11);
	assert_int_equal(count_of(out, "<failure "), 3);
	assert_int_equal(count_of(out, "<error "), 2);
	assert_int_equal(count_of(out, "<skipped "), 3);
	assert_non_null(strstr(out, "<failure type=\"workload-failed\" message=\"first line\">"
				    "first line\nsecond line</failure>"));
	assert_non_null(strstr(out, "<error type=\"no-metrics\" message=\"no-metrics\"/>"));
	assert_non_null(strstr(out, "<failure type=\"gate\" message=\"FAIL: 12.5 us, expected "
				    "&lt;= 10\">"));
	assert_non_null(strstr(out, "name=\"case-passed / threshold / RECORD\" "
				    "classname=\"unit.gates\" time=\"0.000\"/>"));
	assert_non_null(strstr(out, "<property name=\"exit_code\" value=\"5\"/>"));
	validate(out);
	free(out);

	/* Without a start time or host the attributes are left out, still valid. */
	assay_report_set(&r.started, "yesterday");
	assay_report_set(&r.host, NULL);
	out = junit(&r);
	assert_null(strstr(out, "timestamp="));
	assert_null(strstr(out, "hostname="));
	validate(out);
	free(out);
	assay_report_release(&r);
}

static void test_sample_valid(void **state)
{
	(void)state;
	struct assay_report r;
	canary_model(&r, 200);
	/* Text XML cannot carry: control characters, broken UTF-8, ANSI. */
	assay_report_set(&r.cases[3].reason,
			 "\x1b[31mred\x1b[0m \x01\x02 \xc3\x28 \xed\xa0\x80 ok");
	r.cases[3].outcome = ASSAY_REPORT_WORKLOAD_FAILED;
	char *out = junit(&r);
	assert_true(canaries_gone(out));
	assert_null(strstr(out, "\x1b"));
	size_t tests = r.ncases + r.ngates;
	char *want = xasprintf("<testsuites name=\"quickstart\" tests=\"%zu\"", tests);
	assert_non_null(strstr(out, want));
	free(want);
	assert_int_equal(count_of(out, "<testcase "), tests);
	validate(out);
	free(out);
	assay_report_release(&r);

	/* A run without cases is still a valid document, and so is one whose
	 * names clean up to nothing. */
	assay_report_init(&r);
	out = junit(&r);
	assert_non_null(strstr(out, "tests=\"0\""));
	validate(out);
	free(out);
	assay_report_set(&r.suite, "\x1b[0m");
	assay_report_add_case(&r, "", ASSAY_REPORT_PASSED);
	assay_report_add_gate(&r, NULL, NULL, ASSAY_VERDICT_FAIL);
	out = junit(&r);
	assert_non_null(strstr(out, "<testcase name=\"-\""));
	validate(out);
	free(out);
	assay_report_release(&r);
}

/* Testcase names are distinct: "case / gate / metric / series label", and a
 * name that would still repeat is numbered (issue 14, defect 5). */
static void test_unique_names(void **state)
{
	(void)state;
	struct assay_report r;
	assay_report_init(&r);
	assay_report_set(&r.suite, "unit");
	assay_report_add_case(&r, "c1", ASSAY_REPORT_PASSED);
	const char *series[] = {"tokens=1", "tokens=8", NULL, NULL};
	for (size_t i = 0; i < ARRAY_SIZE(series); i++) {
		struct assay_report_gate *g =
		    assay_report_add_gate(&r, "c1", "ab", ASSAY_VERDICT_RECORD);
		assay_report_set(&g->metric, "latency_us/p50");
		assay_report_set(&g->series, series[i]);
	}
	assay_report_add_gate(&r, NULL, "run", ASSAY_VERDICT_PASS);
	char *out = junit(&r);
	assert_non_null(strstr(out, "<testcase name=\"c1\" "));
	assert_non_null(strstr(out, "name=\"c1 / ab / latency_us/p50 / tokens=1\" "));
	assert_non_null(strstr(out, "name=\"c1 / ab / latency_us/p50 / tokens=8\" "));
	assert_non_null(strstr(out, "name=\"c1 / ab / latency_us/p50\" "));
	assert_non_null(strstr(out, "name=\"c1 / ab / latency_us/p50 #2\" "));
	assert_non_null(strstr(out, "name=\"(run) / run\" "));
	validate(out);
	free(out);
	assay_report_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_unique_names),
	    cmocka_unit_test(test_mapping),
	    cmocka_unit_test(test_sample_valid),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
