/* Unit tests for report.html (src/lib/report/html.c): self-contained (no
 * external resources), every case present, escaping, link safety, redaction
 * of canary secrets, determinism and the size of a 1,000-case report. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "report_check.h"

static char *html(const struct assay_report *r)
{
	return written(assay_report_html, r);
}

static void test_self_contained(void **state)
{
	(void)state;
	struct assay_report r;
	canary_model(&r, 60);
	char *out = html(&r);
	/* Nothing is fetched from anywhere: no URLs, no src attributes, no
	 * stylesheet links or imports, and a policy that forbids it anyway. */
	const char *banned[] = {"http://", "https://", "src=",    "<link",  "@import",
				"url(",    "<iframe",  "<object", "<embed", "<img"};
	for (size_t i = 0; i < ARRAY_SIZE(banned); i++) {
		if (strstr(out, banned[i]))
			fail_msg("report.html contains %s", banned[i]);
	}
	assert_non_null(strstr(out, "Content-Security-Policy\" content=\"default-src 'none'"));
	assert_true(assay_starts_with(out, "<!DOCTYPE html>"));
	assert_true(assay_ends_with(out, "</html>\n"));
	/* Every case appears, as a row of the case table. */
	for (size_t i = 0; i < r.ncases; i++) {
		char *row =
		    xasprintf("<tr id=\"c%zu\" data-o=\"%s\"><td class=\"id\"><code>%s</code>", i,
			      assay_report_outcome_name(r.cases[i].outcome), r.cases[i].id);
		if (!strstr(out, row))
			fail_msg("case %s is missing", r.cases[i].id);
		free(row);
	}
	/* The sections and the script's sentinel. */
	const char *want[] = {"id=\"cases\"",
			      "id=\"gates\"",
			      "id=\"ep\"",
			      "id=\"training\"",
			      "id=\"history\"",
			      "data-assay-js",
			      "max_relative_error",
			      "lm loss per step",
			      "throughput per step",
			      "change point",
			      "this run",
			      "tokens per rank (log)",
			      "warm-up"};
	for (size_t i = 0; i < ARRAY_SIZE(want); i++)
		if (!strstr(out, want[i]))
			fail_msg("report.html lacks %s", want[i]);
	assert_true(canaries_gone(out));
	free(out);
	assay_report_release(&r);
}

static void test_escaping_and_links(void **state)
{
	(void)state;
	struct assay_report r;
	assay_report_init(&r);
	assay_report_set(&r.suite, "<script>alert(1)</script>");
	struct assay_report_case *c =
	    assay_report_add_case(&r, "<img src=x onerror=alert(1)>", ASSAY_REPORT_PASSED);
	assay_report_case_link(c, "evil", "https://example.com/x");
	assay_report_case_link(c, "js", "javascript:alert(1)");
	assay_report_case_link(c, "abs", "/etc/passwd");
	assay_report_case_link(c, "ok", "cases/a b/out\".log");
	assay_report_set(&c->reason, "bad \xff\xfe utf-8 and \x01 control");
	char *out = html(&r);
	assert_null(strstr(out, "<script>alert"));
	assert_null(strstr(out, "<img"));
	assert_non_null(strstr(out, "&lt;img src=x onerror=alert(1)&gt;"));
	/* Only the relative path becomes a link, percent-encoded. */
	assert_int_equal(count_of(out, "<a href=\"cases/"), 1);
	assert_non_null(strstr(out, "<a href=\"cases/a%20b/out%22.log\">ok</a>"));
	assert_null(strstr(out, "href=\"javascript"));
	assert_null(strstr(out, "href=\"/etc"));
	assert_null(strstr(out, "\xff"));
	assert_null(strstr(out, "\x01"));
	free(out);
	assay_report_release(&r);
}

static void test_empty_and_deterministic(void **state)
{
	(void)state;
	struct assay_report r;
	assay_report_init(&r);
	char *out = html(&r);
	assert_non_null(strstr(out, "This run has no cases."));
	assert_null(strstr(out, "id=\"ep\""));
	free(out);
	assay_report_release(&r);

	assay_report_sample(&r, 40);
	char *a = html(&r), *b = html(&r);
	assert_string_equal(a, b);
	free(a);
	free(b);
	assay_report_release(&r);
}

static void test_large(void **state)
{
	(void)state;
	/* A 1,000-case report stays under 5 MB; the charts are capped and say so. */
	struct assay_report r;
	assay_report_init(&r);
	assay_report_sample(&r, 1000);
	char *out = html(&r);
	size_t len = strlen(out);
	assert_true(len < 5u * 1000 * 1000);
	assert_int_equal(count_of(out, "<tr id=\"c"), 1000);
	assert_non_null(strstr(out, "more phase/group chart pairs are not drawn"));
	assert_non_null(strstr(out, "more series are not drawn"));
	free(out);

	/* Even when every case fails with a 20 kB reason. */
	char *longer = xcalloc(20001, 1);
	memset(longer, 'x', 20000);
	for (size_t i = 0; i < r.ncases; i++)
		assay_report_set(&r.cases[i].reason, longer);
	out = html(&r);
	assert_true(strlen(out) < 5u * 1000 * 1000);
	free(out);
	free(longer);
	assay_report_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_self_contained),
	    cmocka_unit_test(test_escaping_and_links),
	    cmocka_unit_test(test_empty_and_deterministic),
	    cmocka_unit_test(test_large),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
