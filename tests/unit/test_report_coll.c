/* Unit tests for the report's collective charts: the log-2 byte axis of
 * svg.c (ticks, labels), fainter lines, and the HTML section (one
 * busbw-vs-size chart per operation, this run's curves over earlier
 * revisions). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>

#include <cmocka.h>

#include "report/report_internal.h"
#include "report_check.h"

static void test_log2_ticks(void **state)
{
	(void)state;
	double lo = 8, hi = 8589934592.0, t[64];
	size_t n = svg_ticks_log2(&lo, &hi, t, 64);
	assert_true(lo == 8 && hi == 8589934592.0);
	/* 2^3 .. 2^33: every 5th power, at most 8 ticks. */
	assert_int_equal(n, 6);
	char buf[32];
	const char *want[] = {"32", "1K", "32K", "1M", "32M", "1G"};
	for (size_t i = 0; i < n; i++)
		assert_string_equal(svg_bytes_label(buf, sizeof(buf), t[i]), want[i]);
	/* A narrow range: every power. */
	lo = 1000, hi = 5000;
	n = svg_ticks_log2(&lo, &hi, t, 64);
	assert_true(lo == 512 && hi == 8192);
	assert_int_equal(n, 5);
	assert_string_equal(svg_bytes_label(buf, sizeof(buf), t[0]), "512");
	assert_string_equal(svg_bytes_label(buf, sizeof(buf), t[4]), "8K");
	assert_string_equal(svg_bytes_label(buf, sizeof(buf), 1536), "1.5K");
	assert_string_equal(svg_bytes_label(buf, sizeof(buf), 16.0 * (1LL << 40)), "16T");
}

static void test_chart(void **state)
{
	(void)state;
	double x[] = {8, 1024, 1048576, 1073741824.0}, y[] = {0.1, 1, 50, 370};
	struct svg_series s[] = {
	    {"in-place", x, y, 4, 0, SVG_MARK_CIRCLE, false, false, true, false},
	    {NULL, x, y, 4, 0, SVG_MARK_NONE, false, false, false, true},
	    {"earlier: A", NULL, NULL, 0, SVG_COLOR_GREY, SVG_MARK_NONE, false, false, false, true},
	};
	struct svg_chart c = {
	    .title = "t", .x_log2 = true, .y_zero = true, .series = s, .nseries = 3};
	struct sbuf sb = SBUF_INIT;
	svg_chart(&sb, &c);
	/* Byte labels on x, one faint line, a faint legend swatch. */
	assert_non_null(strstr(sb.buf, ">1K</text>"));
	assert_non_null(strstr(sb.buf, ">1G</text>"));
	assert_int_equal(count_of(sb.buf, "stroke-opacity=\"0.35\" stroke-width=\"1.25\""), 1);
	assert_int_equal(count_of(sb.buf, "<polyline"), 2);
	assert_non_null(strstr(sb.buf, "earlier: A"));
	assert_non_null(strstr(sb.buf, "<title>1M: 50 (in-place)</title>"));
	/* The same chart, the same bytes. */
	struct sbuf again = SBUF_INIT;
	svg_chart(&again, &c);
	assert_string_equal(sb.buf, again.buf);
	sbuf_release(&sb);
	sbuf_release(&again);
}

static void test_html_section(void **state)
{
	(void)state;
	struct assay_report r;
	assay_report_init(&r);
	assay_report_set(&r.suite, "coll");
	struct assay_report_coll *c =
	    assay_report_add_coll(&r, "all_reduce", "in-place", "B", true);
	assay_report_coll_point(c, 1048576, 50);
	assay_report_coll_point(c, 8, 0.1);
	assay_report_coll_point(c, 1048576, 51); /* replaces */
	assert_int_equal(c->npoints, 2);
	assert_true(c->points[0].x == 8 && c->points[1].y == 51);
	c = assay_report_add_coll(&r, "all_reduce", "in-place", "A", false);
	assay_report_coll_point(c, 8, 0.2);
	assay_report_coll_point(c, 1048576, 40);
	c = assay_report_add_coll(&r, "alltoall", "out-of-place", "B", true);
	assay_report_coll_point(c, 8, 0.3);
	c->color = 1;
	char *out = written(assay_report_html, &r);
	assert_non_null(strstr(out, "<a href=\"#collectives\">Collectives</a>"));
	assert_non_null(strstr(out, "<section id=\"collectives\"><h2>Collectives <small>2 "
				    "operations</small></h2>"));
	assert_int_equal(count_of(out, "bus bandwidth by message size</title>"), 2);
	assert_non_null(strstr(out, "all_reduce: bus bandwidth by message size"));
	assert_non_null(strstr(out, "alltoall: bus bandwidth by message size"));
	assert_non_null(strstr(out, "earlier: A"));
	assert_int_equal(count_of(out, "stroke-opacity=\"0.35\" stroke-width=\"1.25\""), 1);
	assert_non_null(strstr(out, "message size (bytes)"));
	free(out);
	assay_report_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_log2_ticks),
	    cmocka_unit_test(test_chart),
	    cmocka_unit_test(test_html_section),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
