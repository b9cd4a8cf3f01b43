/* Unit tests for summary.md (src/lib/report/markdown.c): counts, the tables
 * of what did not pass, caps, cell escaping and redaction. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "report_check.h"

static char *md(const struct assay_report *r)
{
	return written(assay_report_markdown, r);
}

static void test_small(void **state)
{
	(void)state;
	struct assay_report r;
	assay_report_init(&r);
	assay_report_set(&r.suite, "quickstart");
	assay_report_set(&r.run_id, "r7");
	assay_report_set(&r.revision, "abc123");
	r.exit_code = ASSAY_GATE_FAILED;
	assay_report_add_case(&r, "a", ASSAY_REPORT_PASSED);
	assay_report_add_case(&r, "b", ASSAY_REPORT_PASSED);
	assay_report_add_case(&r, "c", ASSAY_REPORT_UNSUPPORTED);
	struct assay_report_case *c = assay_report_add_case(&r, "d_1", ASSAY_REPORT_GATE_FAILED);
	assay_report_set(&c->reason, "p99 | too high *now*\nsecond line");
	struct assay_report_gate *g =
	    assay_report_add_gate(&r, "d_1", "threshold", ASSAY_VERDICT_FAIL);
	assay_report_set(&g->metric, "roundtrip_us p99");
	g->value = 130;
	assay_report_set(&g->unit, "us");
	assay_report_set(&g->spec, "<= 120");
	struct assay_report_history *h = assay_report_add_history(&r, "lat p99", "us");
	assay_report_history_point(h, "r1", 100);
	assay_report_history_point(h, "r2", 125);
	h->new_point = 1;
	h->verdict = ASSAY_VERDICT_FAIL;
	assay_report_set(&h->message, "+25% against the regime mean");
	char *out = md(&r);
	const char *want =
	    "### assay: quickstart run r7: **gate-failed** (exit 1)\n\n"
	    "| outcome | cases |\n|---|---:|\n| passed | 2 |\n| gate-failed | 1 |\n"
	    "| unsupported | 1 |\n| **total** | **4** |\n\n"
	    "Gates: 1 evaluated, 1 failed. History: 1 series, 1 regression, 0 improvements.\n\n"
	    "#### Cases that did not pass\n\n| case | outcome | reason |\n|---|---|---|\n"
	    "| d\\_1 | gate-failed | p99 \\| too high \\*now\\* |\n\n"
	    "#### Failed gates\n\n| case | gate | metric | value | expected | message |\n"
	    "|---|---|---|---:|---|---|\n"
	    "| d\\_1 | threshold | roundtrip\\_us p99 | 130 us | &lt;= 120 | - |\n\n"
	    "#### Regressions\n\n| series | this run | message |\n|---|---:|---|\n"
	    "| lat p99 | 125 us | +25% against the regime mean |\n\n"
	    "revision abc123. Full report with charts: `report.html`; JUnit: `junit.xml`.\n";
	assert_string_equal(out, want);
	free(out);
	assay_report_release(&r);
}

static void test_caps_and_redaction(void **state)
{
	(void)state;
	struct assay_report r;
	canary_model(&r, 1000);
	char *out = md(&r);
	assert_true(canaries_gone(out));
	assert_non_null(strstr(out, "more in report.html."));
	/* Short: a few dozen table rows whatever the run's size. */
	assert_true(strlen(out) < 20000);
	/* Every table row is one line that starts and ends with a pipe. */
	for (char *line = out; *line;) {
		char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		if (len && line[0] == '|')
			assert_true(line[len - 1] == '|');
		line += len + (nl ? 1 : 0);
	}
	free(out);
	assay_report_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_small),
	    cmocka_unit_test(test_caps_and_redaction),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
