/* report.html's history section: a chart card per series (change points,
 * this run's point ringed), failed ones first, then a table of the series
 * not drawn. */
#include <stdlib.h>

#include "report/html_int.h"

/* The mark of a series (summary.md counts the same): a badge, none for a
 * series without change points or a failed gate. */
static void badge_mark(struct html *h, enum assay_report_mark m)
{
	static const char *const cls[] = {"v-FAIL", "v-PASS", "v-RECORD"};
	static const char *const name[] = {"regression", "improvement", "earlier change"};
	if (m < ASSAY_MARK_NONE)
		sbuf_addf(h->o, " <span class=\"b %s\">%s</span>", cls[m], name[m]);
}

static bool regression(const struct assay_report_history *s)
{
	return assay_report_history_mark(s) == ASSAY_MARK_REGRESSION;
}

static void history_card(struct html *h, const struct assay_report_history *s)
{
	sbuf_addf(h->o, "<div class=\"card%s\"><h3><span>", regression(s) ? " fail" : "");
	esc(h, s->label);
	sbuf_adds(h->o, "</span>");
	badge_verdict(h, s->verdict);
	badge_mark(h, assay_report_history_mark(s));
	sbuf_adds(h->o, "</h3>");
	size_t n = s->npoints;
	double *x = xcalloc(n + 1, sizeof(double)), *y = xcalloc(n + 1, sizeof(double));
	const char **cats = xcalloc(n + 1, sizeof(*cats));
	for (size_t i = 0; i < n; i++) {
		x[i] = (double)i;
		y[i] = s->points[i].value;
		cats[i] = s->points[i].revision;
	}
	struct svg_vline *vl = xcalloc(s->nchange_points + 1, sizeof(*vl));
	char **vlabels = xcalloc(s->nchange_points + 1, sizeof(char *));
	size_t nvl = 0;
	for (size_t k = 0; k < s->nchange_points; k++) {
		size_t at = s->change_points[k];
		if (at >= n)
			continue;
		vlabels[nvl] = xasprintf("change point: %s", s->points[at].revision);
		vl[nvl] = (struct svg_vline){(double)at - 0.5, vlabels[nvl]};
		nvl++;
	}
	bool hl = s->new_point >= 0 && (size_t)s->new_point < n;
	struct sbuf ytitle = SBUF_INIT;
	if (s->unit && *s->unit)
		sbuf_addf(&ytitle, "%s, %s is better", s->unit,
			  s->lower_is_better ? "lower" : "higher");
	else
		sbuf_adds(&ytitle, s->lower_is_better ? "lower is better" : "higher is better");
	struct svg_series ser = {
	    "value", x,     y,       n,    0, n <= 80 ? SVG_MARK_CIRCLE : SVG_MARK_NONE,
	    false,   false, n <= 80, false};
	struct svg_chart c = {.x_title = "revision",
			      .y_title = ytitle.buf,
			      .x_categories = cats,
			      .ncategories = n,
			      .series = &ser,
			      .nseries = 1,
			      .vlines = vl,
			      .nvlines = nvl,
			      .vline_legend = "change point",
			      .highlight = hl,
			      .hx = hl ? (double)s->new_point : 0,
			      .hy = hl ? y[s->new_point] : 0,
			      .highlight_label = "this run",
			      .height = 260,
			      .secrets = h->secrets};
	svg_chart(h->o, &c);
	if (s->message && *s->message) {
		sbuf_adds(h->o, "<p>");
		esc_max(h, s->message, 600);
		sbuf_adds(h->o, "</p>");
	}
	sbuf_adds(h->o, "</div>");
	for (size_t k = 0; k < nvl; k++)
		free(vlabels[k]);
	free(vlabels);
	free(vl);
	sbuf_release(&ytitle);
	free(cats);
	free(x);
	free(y);
}

void assay_report_history_card(const struct assay_report_history *s, struct sbuf *out)
{
	struct html h = {out, NULL, NULL, NULL, 0};
	history_card(&h, s);
}

void html_history(struct html *h)
{
	const struct assay_report *r = h->r;
	if (!r->nhistory)
		return;
	size_t marks[ASSAY_MARK_COUNT];
	assay_report_count_marks(r, marks);
	size_t fail = marks[ASSAY_MARK_REGRESSION], imp = marks[ASSAY_MARK_IMPROVEMENT];
	sbuf_addf(h->o,
		  "<section id=\"history\"><h2>History <small>%zu series, %zu "
		  "regression%s, %zu improvement%s",
		  r->nhistory, fail, fail == 1 ? "" : "s", imp, imp == 1 ? "" : "s");
	if (marks[ASSAY_MARK_EARLIER])
		sbuf_addf(h->o, ", %zu with change points before this run only",
			  marks[ASSAY_MARK_EARLIER]);
	sbuf_adds(h->o, "</small></h2><div class=\"charts\">");
	size_t drawn = 0;
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < r->nhistory && drawn < HISTORY_CHARTS; i++)
			if (regression(&r->history[i]) == (pass == 0)) {
				history_card(h, &r->history[i]);
				drawn++;
			}
	sbuf_adds(h->o, "</div>");
	if (drawn < r->nhistory) {
		size_t listed =
		    r->nhistory - drawn < HISTORY_TABLE ? r->nhistory - drawn : HISTORY_TABLE;
		sbuf_addf(h->o,
			  "<p class=\"note\">%zu more series are not drawn%s:</p>"
			  "<div class=\"scroll\"><table class=\"sortable\"><thead><tr>"
			  "<th>Series</th><th class=\"num\">Points</th><th>Verdict</th>"
			  "<th>Message</th></tr></thead><tbody>",
			  r->nhistory - drawn,
			  listed < r->nhistory - drawn ? "; the first of them are listed" : "");
		/* The ones the loops above did not reach, in the same order. */
		size_t seen = 0;
		for (int pass = 0; pass < 2; pass++)
			for (size_t i = 0; i < r->nhistory && seen < drawn + listed; i++) {
				const struct assay_report_history *s = &r->history[i];
				if (regression(s) != (pass == 0))
					continue;
				if (seen++ < drawn)
					continue;
				sbuf_adds(h->o, "<tr><td>");
				esc(h, s->label);
				sbuf_addf(h->o, "</td><td class=\"num\">%zu</td><td>", s->npoints);
				badge_verdict(h, s->verdict);
				badge_mark(h, assay_report_history_mark(s));
				sbuf_adds(h->o, "</td><td>");
				esc_max(h, s->message, 600);
				sbuf_adds(h->o, "</td></tr>");
			}
		sbuf_adds(h->o, "</tbody></table></div>");
		if (drawn + listed < r->nhistory) {
			/* Failed series come first: only an excess of them is left out. */
			size_t shown = drawn + listed, left_fail = fail > shown ? fail - shown : 0;
			sbuf_addf(h->o,
				  "<p class=\"note\">%zu more series are left out of this page "
				  "(%zu of them regressions); <code>assay history</code> "
				  "shows any series from the store.</p>",
				  r->nhistory - shown, left_fail);
		}
	}
	sbuf_adds(h->o, "</section>");
}
