/* Unit tests for the SVG chart module (src/lib/report/svg.c): nice ticks,
 * log axes, tick labels, placement, escaping, thinning and determinism. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>

#include <cmocka.h>

#include "report/report_internal.h"
#include "report_check.h"

static void test_linear_ticks(void **state)
{
	(void)state;
	double t[64], lo = 0, hi = 97, step = 0;
	size_t n = svg_ticks_linear(&lo, &hi, 5, t, 64, &step);
	assert_int_equal(n, 6);
	assert_true(step == 20 && lo == 0 && hi == 100);
	assert_true(t[0] == 0 && t[5] == 100);

	lo = 0.013;
	hi = 0.087;
	n = svg_ticks_linear(&lo, &hi, 5, t, 64, &step);
	assert_int_equal(n, 9);
	assert_true(fabs(step - 0.01) < 1e-15);
	char buf[32];
	assert_string_equal(svg_tick_label(buf, sizeof(buf), t[0], step, false), "0.01");
	assert_string_equal(svg_tick_label(buf, sizeof(buf), t[2], step, false), "0.03");
	assert_string_equal(svg_tick_label(buf, sizeof(buf), t[8], step, false), "0.09");

	/* Across zero: zero is exactly zero. */
	lo = -3.2;
	hi = 7.9;
	n = svg_ticks_linear(&lo, &hi, 5, t, 64, &step);
	assert_true(step == 2 && lo == -4 && hi == 8);
	assert_int_equal(n, 7);
	assert_true(t[2] == 0 && !signbit(t[2]));

	/* A flat series still gets an axis around it. */
	lo = hi = 5;
	n = svg_ticks_linear(&lo, &hi, 5, t, 64, &step);
	assert_true(n >= 2 && lo < 5 && hi > 5);

	/* Every step is 1, 2 or 5 times a power of ten, and the ticks cover the data. */
	uint64_t s = 88172645463325252ULL;
	for (int k = 0; k < 2000; k++) {
		s ^= s << 13;
		s ^= s >> 7;
		s ^= s << 17;
		double a = (double)(s % 100000) / 100.0 - 500, w = pow(10, (double)(s % 13) - 6);
		double l = a * w, h = l + w * (1 + (double)(s % 977));
		lo = l;
		hi = h;
		n = svg_ticks_linear(&lo, &hi, 6, t, 64, &step);
		double m = step / pow(10, floor(log10(step) + 1e-9));
		assert_true(fabs(m - 1) < 1e-9 || fabs(m - 2) < 1e-9 || fabs(m - 5) < 1e-9);
		assert_true(lo <= l && hi >= h);
		assert_true(n >= 3 && n <= 14);
	}
}

static void test_log_ticks(void **state)
{
	(void)state;
	double t[64], lo = 1, hi = 8192;
	size_t n = svg_ticks_log(&lo, &hi, t, 64);
	assert_true(lo == 1 && hi == 10000);
	assert_int_equal(n, 5);
	assert_true(t[0] == 1 && t[1] == 10 && t[4] == 10000);

	lo = 20;
	hi = 700;
	n = svg_ticks_log(&lo, &hi, t, 64);
	assert_true(lo == 10 && hi == 1000);
	const double want[] = {10, 20, 50, 100, 200, 500, 1000};
	assert_int_equal(n, ARRAY_SIZE(want));
	for (size_t i = 0; i < n; i++)
		assert_true(fabs(t[i] - want[i]) < 1e-9 * want[i]);

	lo = 1e-3;
	hi = 1e9; /* twelve decades: every second one */
	n = svg_ticks_log(&lo, &hi, t, 64);
	assert_int_equal(n, 7);
	assert_true(fabs(t[1] - 0.1) < 1e-12);

	/* One value (a ladder of one point) sits inside, not on an edge. */
	lo = hi = 1024;
	n = svg_ticks_log(&lo, &hi, t, 64);
	assert_true(lo == 100 && hi == 10000);
	lo = hi = 8;
	n = svg_ticks_log(&lo, &hi, t, 64);
	assert_true(lo == 1 && hi == 100);
	assert_true(t[0] == 1 && t[n - 1] == 100);
}

static void test_labels(void **state)
{
	(void)state;
	char b[32];
	assert_string_equal(svg_tick_label(b, sizeof(b), 20000, 5000, false), "20k");
	assert_string_equal(svg_tick_label(b, sizeof(b), 12500, 500, false), "12.5k");
	assert_string_equal(svg_tick_label(b, sizeof(b), 1500000, 500000, false), "1.5M");
	assert_string_equal(svg_tick_label(b, sizeof(b), 1000, 0, false), "1000");
	assert_string_equal(svg_tick_label(b, sizeof(b), 1000, 0, true), "1k");
	assert_string_equal(svg_tick_label(b, sizeof(b), 0.30000000000000004, 0.1, false), "0.3");
	assert_string_equal(svg_tick_label(b, sizeof(b), 1e-5, 1e-5, false), "1e-5");
	assert_string_equal(svg_tick_label(b, sizeof(b), 2.5e-5, 5e-6, false), "2.5e-5");
	assert_string_equal(svg_tick_label(b, sizeof(b), -4, 2, false), "-4");
	assert_string_equal(svg_tick_label(b, sizeof(b), 0, 2, false), "0");
}

static char *render(const struct svg_chart *c)
{
	struct sbuf sb = SBUF_INIT;
	svg_chart(&sb, c);
	return sbuf_detach(&sb, NULL);
}

static void test_log_placement(void **state)
{
	(void)state;
	/* Points at 1, 10, 100 on a log x axis are evenly spaced over the plot
	 * (x from 64 to 622 px for the default 640 px width). */
	double x[] = {1, 10, 100}, y[] = {5, 5, 5};
	struct svg_series s = {"s", x, y, 3, 0, SVG_MARK_CIRCLE, false, true, false, false};
	struct svg_chart c = {.x_log = true, .series = &s, .nseries = 1};
	char *out = render(&c);
	assert_non_null(strstr(out, "cx=\"64\""));
	assert_non_null(strstr(out, "cx=\"343\""));
	assert_non_null(strstr(out, "cx=\"622\""));
	free(out);

	/* Non-positive values cannot sit on a log axis: they are left out, never
	 * written as nan or inf. */
	double y2[] = {0, -1, 50};
	struct svg_series s2 = {"s", x, y2, 3, 0, SVG_MARK_CIRCLE, false, false, true, false};
	c = (struct svg_chart){
	    .x_log = true, .y_log = true, .series = &s2, .nseries = 1, .standalone = true};
	out = render(&c);
	assert_int_equal(count_of(out, "</circle>"), 1); /* data markers have a <title> */
	assert_null(strstr(out, "nan"));
	assert_null(strstr(out, "inf"));
	if (have_xmllint())
		assert_int_equal(xmllint(out, NULL), 0);
	free(out);

	/* Numbers no axis can hold, and a fit that cannot be drawn on log axes. */
	double x3[] = {NAN, 1e308, 2, 3}, y3[] = {1, 1, INFINITY, 4};
	struct svg_series s3 = {"s", x3, y3, 4, 0, SVG_MARK_CIRCLE, false, false, true, false};
	c = (struct svg_chart){.x_log = true,
			       .y_log = true,
			       .series = &s3,
			       .nseries = 1,
			       .fit = true,
			       .fit_slope = -5,
			       .fit_intercept = 1,
			       .fit_from = 1,
			       .fit_to = 3,
			       .fit_label = "fit",
			       .standalone = true};
	out = render(&c);
	assert_int_equal(count_of(out, "</circle>"), 1);
	assert_null(strstr(out, "nan"));
	assert_null(strstr(out, "inf"));
	assert_null(strstr(out, "stroke=\"#e11d48\" stroke-width=\"2\"")); /* no fit line */
	if (have_xmllint())
		assert_int_equal(xmllint(out, NULL), 0);
	free(out);
}

static void test_escaping(void **state)
{
	(void)state;
	struct assay_redactor secrets = ASSAY_REDACTOR_INIT;
	assay_redactor_add(&secrets, "S", "s3cr3t");
	double x[] = {1, 2}, y[] = {3, 4};
	struct svg_series s = {"<b>\"q\" & 's' s3cr3t", x,     y,     2,    0,
			       SVG_MARK_AUTO,           false, false, true, false};
	const char *cats[] = {"r<1>", "r&2"};
	struct svg_vline v = {0.5, "change </title><script>"};
	struct svg_chart c = {.title = "<script>alert(1)</script>",
			      .x_title = "x & y",
			      .y_title = "lat\x1b[31m (\xff)",
			      .series = &s,
			      .nseries = 1,
			      .x_categories = cats,
			      .ncategories = 2,
			      .vlines = &v,
			      .nvlines = 1,
			      .vline_legend = "change",
			      .standalone = true,
			      .secrets = &secrets};
	char *out = render(&c);
	assert_null(strstr(out, "<script"));
	assert_null(strstr(out, "<b>"));
	assert_null(strstr(out, "s3cr3t"));
	assert_non_null(strstr(out, "&lt;script&gt;alert(1)&lt;/script&gt;"));
	assert_non_null(strstr(out, "&lt;b&gt;&quot;q&quot; &amp; &#39;s&#39; ***"));
	assert_non_null(strstr(out, "r&lt;1&gt;"));
	assert_non_null(strstr(out, "lat (\xEF\xBF\xBD)")); /* ANSI gone, bad byte replaced */
	if (have_xmllint())
		assert_int_equal(xmllint(out, NULL), 0);
	free(out);
	assay_redactor_release(&secrets);
}

static void test_features(void **state)
{
	(void)state;
	double x[] = {1, 2, 3, 4, 5, 6}, y[] = {10, 8, 6.5, 6, 5.5, 5.2};
	struct svg_series s[] = {
	    {"loss", x, y, 6, SVG_COLOR_AUTO, SVG_MARK_AUTO, false, false, true, false},
	    {"other", x, y, 6, SVG_COLOR_AUTO, SVG_MARK_AUTO, true, false, false, false},
	};
	struct svg_band band = {0.5, 2.5, "warm-up"};
	struct svg_chart c = {.title = "t",
			      .x_title = "step",
			      .y_title = "loss",
			      .series = s,
			      .nseries = 2,
			      .bands = &band,
			      .nbands = 1,
			      .fit = true,
			      .fit_slope = -1,
			      .fit_intercept = 11,
			      .fit_from = 3,
			      .fit_to = 6,
			      .fit_label = "fit",
			      .highlight = true,
			      .hx = 6,
			      .hy = 5.2,
			      .highlight_label = "this run"};
	char *a = render(&c), *b = render(&c);
	assert_string_equal(a, b); /* deterministic */
	/* Two series: distinct colours and markers, the second dashed. */
	assert_non_null(strstr(a, "stroke=\"#2563eb\""));
	assert_non_null(strstr(a, "stroke=\"#ea580c\" stroke-dasharray"));
	assert_int_equal(count_of(a, "<circle cx"), 6 + 1);     /* circles + legend swatch */
	assert_int_equal(count_of(a, "h5.6v5.6h-5.6z"), 6 + 1); /* squares + legend swatch */
	assert_non_null(strstr(a, "fill=\"#fde68a\""));         /* the band */
	assert_non_null(strstr(a, "r=\"6.5\""));                /* the highlighted point */
	assert_non_null(strstr(a, ">fit</text>"));
	assert_non_null(strstr(a, ">this run</text>"));
	assert_non_null(strstr(a, ">warm-up</text>"));
	free(a);
	free(b);

	struct svg_chart empty = {.title = "nothing"};
	a = render(&empty);
	assert_non_null(strstr(a, ">no data</text>"));
	free(a);
}

static void test_dense(void **state)
{
	(void)state;
	/* 200,000 points draw as at most four per pixel column. */
	size_t n = 200000;
	double *x = xcalloc(n, sizeof(double)), *y = xcalloc(n, sizeof(double));
	for (size_t i = 0; i < n; i++) {
		x[i] = (double)i;
		y[i] = sin((double)i / 1000.0) + (i == 123457 ? 50 : 0);
	}
	struct svg_series s = {"dense", x, y, n, 0, SVG_MARK_NONE, false, false, false, false};
	struct svg_chart c = {.series = &s, .nseries = 1};
	char *out = render(&c);
	assert_true(strlen(out) < 60000);
	/* The spike survives the thinning: y axis reaches 50 and the top tick is drawn. */
	assert_non_null(strstr(out, ">50</text>"));
	free(out);
	free(x);
	free(y);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_linear_ticks), cmocka_unit_test(test_log_ticks),
	    cmocka_unit_test(test_labels),       cmocka_unit_test(test_log_placement),
	    cmocka_unit_test(test_escaping),     cmocka_unit_test(test_features),
	    cmocka_unit_test(test_dense),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
