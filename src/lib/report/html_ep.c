/* report.html's EP section: per (phase, component, group) latency and
 * bandwidth charts of the ladders and their data points, then the
 * correctness of every ladder. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/html_int.h"

struct ep_group {
	const char *phase, *component, *group;
	size_t *ladders;
	size_t n, alloc;
};

static bool same(const char *a, const char *b)
{
	return !strcmp(a ? a : "", b ? b : "");
}

static int cmp_point(const void *a, const void *b)
{
	double x = ((const struct assay_report_ep_point *)a)->tokens;
	double y = ((const struct assay_report_ep_point *)b)->tokens;
	return (x > y) - (x < y);
}

/* Label "backend precision[ low-latency]" of a ladder into sb: a
 * low-latency ladder is its own series, beside the normal one. */
static void ep_label(struct sbuf *sb, const struct assay_report_ep *ep)
{
	sbuf_reset(sb);
	sbuf_adds(sb, ep->backend && *ep->backend ? ep->backend : "?");
	if (ep->precision && *ep->precision)
		sbuf_addf(sb, " %s", ep->precision);
	if (ep->mode && !strcmp(ep->mode, "low-latency"))
		sbuf_adds(sb, " low-latency");
}

/* The ladder's points in token order, into the columns x, p50, p99 and bw. */
static void ep_columns(const struct assay_report_ep *ep, double *x, double *p50, double *p99,
		       double *bw)
{
	struct assay_report_ep_point *pts = xcalloc(ep->npoints + 1, sizeof(*pts));
	if (ep->npoints)
		memcpy(pts, ep->points, ep->npoints * sizeof(*pts));
	qsort(pts, ep->npoints, sizeof(*pts), cmp_point);
	for (size_t i = 0; i < ep->npoints; i++) {
		x[i] = pts[i].tokens;
		p50[i] = pts[i].p50_us;
		p99[i] = pts[i].p99_us;
		bw[i] = pts[i].bw_gbps;
	}
	free(pts);
}

/* Ladder k's legend label into lab (its case id added when another of the
 * chart's n ladders has the same label) and its colour: the palette index of
 * its label in colors, so a backend keeps its colour across charts. */
static int ep_series_label(const struct html *h, const struct ep_group *g, size_t n, size_t k,
			   const struct strlist *colors, struct sbuf *lab)
{
	const struct assay_report_ep *ep = &h->r->ep[g->ladders[k]];
	ep_label(lab, ep);
	int color = 0;
	for (size_t c = 0; c < colors->n; c++)
		if (!strcmp(colors->v[c], lab->buf))
			color = (int)c;
	for (size_t j = 0; j < n; j++) {
		struct sbuf other = SBUF_INIT;
		ep_label(&other, &h->r->ep[g->ladders[j]]);
		bool dup = j != k && !strcmp(other.buf, lab->buf);
		sbuf_release(&other);
		if (dup) {
			sbuf_addf(lab, " (%s)", ep->case_id ? ep->case_id : "?");
			break;
		}
	}
	return color;
}

/* "PHASE [COMPONENT] WHAT[ · GROUP]": a chart's title. */
static void ep_title(struct sbuf *t, const struct ep_group *g, const char *what)
{
	const char *comp = g->component && *g->component ? g->component : NULL;
	sbuf_addf(t, "%s%s%s %s", g->phase ? g->phase : "?", comp ? " " : "", comp ? comp : "",
		  what);
	if (g->group && *g->group)
		sbuf_addf(t, " · %s", g->group);
}

/* The group's two charts side by side: latency (lat: 2 n series and the
 * two legend entries) and bandwidth (bw: n series). */
static void ep_chart_pair(struct html *h, const struct ep_group *g, const struct svg_series *lat,
			  const struct svg_series *bw, size_t n)
{
	struct sbuf t1 = SBUF_INIT, t2 = SBUF_INIT;
	ep_title(&t1, g, "latency");
	ep_title(&t2, g, "bandwidth per rank");
	struct svg_chart c1 = {.title = t1.buf,
			       .x_title = "tokens per rank (log)",
			       .y_title = "latency (µs, log)",
			       .x_log = true,
			       .y_log = true,
			       .series = lat,
			       .nseries = 2 * n + 2,
			       .secrets = h->secrets};
	struct svg_chart c2 = {.title = t2.buf,
			       .x_title = "tokens per rank (log)",
			       .y_title = "bandwidth per rank (GB/s)",
			       .x_log = true,
			       .y_zero = true,
			       .series = bw,
			       .nseries = n,
			       .secrets = h->secrets};
	html_chart_pair(h, &c1, &c2);
	sbuf_release(&t1);
	sbuf_release(&t2);
}

/* Latency (p50 solid, p99 dashed) and bandwidth against tokens, one series
 * per ladder of the group, at most EP_CHART_SERIES of them. */
static void ep_charts(struct html *h, const struct ep_group *g, const struct strlist *colors)
{
	const struct assay_report *r = h->r;
	size_t n = g->n < EP_CHART_SERIES ? g->n : EP_CHART_SERIES;
	struct svg_series *lat = xcalloc(2 * n + 2, sizeof(*lat));
	struct svg_series *bw = xcalloc(n, sizeof(*bw));
	struct strlist labels = STRLIST_INIT;
	size_t total = 0, at = 0;
	for (size_t k = 0; k < n; k++)
		total += r->ep[g->ladders[k]].npoints;
	double *buf = xcalloc(4 * total + 1, sizeof(double));
	double *x = buf, *p50 = buf + total, *p99 = buf + 2 * total, *bwv = buf + 3 * total;
	struct sbuf lab = SBUF_INIT;
	for (size_t k = 0; k < n; k++) {
		const struct assay_report_ep *ep = &r->ep[g->ladders[k]];
		ep_columns(ep, x + at, p50 + at, p99 + at, bwv + at);
		int color = ep_series_label(h, g, n, k, colors, &lab);
		strlist_push(&labels, lab.buf);
		int mark = (int)(color % SVG_MARK_COUNT) + 1;
		/* Labels come below: the hover text needs them, but only p50's
		 * series goes in the legend (p99 shares its colour and marker). */
		lat[2 * k] = (struct svg_series){NULL, x + at, p50 + at, ep->npoints, color,
						 mark, false,  false,    true,        false};
		lat[2 * k + 1] = (struct svg_series){NULL, x + at, p99 + at, ep->npoints, color,
						     mark, true,   false,    true,        false};
		bw[k] = (struct svg_series){NULL, x + at, bwv + at, ep->npoints, color,
					    mark, false,  false,    true,        false};
		at += ep->npoints;
	}
	for (size_t k = 0; k < n; k++) {
		lat[2 * k].label = labels.v[k];
		bw[k].label = labels.v[k];
	}
	/* Style-only legend entries for the two statistics. */
	lat[2 * n] = (struct svg_series){"p50",         NULL,  NULL,  0,     SVG_COLOR_GREY,
					 SVG_MARK_NONE, false, false, false, false};
	lat[2 * n + 1] = (struct svg_series){"p99",         NULL, NULL,  0,     SVG_COLOR_GREY,
					     SVG_MARK_NONE, true, false, false, false};
	ep_chart_pair(h, g, lat, bw, n);
	if (g->n > n)
		sbuf_addf(h->o,
			  "<p class=\"note\">%zu more ladder%s of this phase and group are in "
			  "the table below but not drawn.</p>",
			  g->n - n, g->n - n == 1 ? "" : "s");
	sbuf_release(&lab);
	strlist_clear(&labels);
	free(buf);
	free(lat);
	free(bw);
}

/* The routing and its imbalance (max / mean load per expert and per rank;
 * "-" when the artifact did not record them). */
static void ep_routing_cells(struct html *h, const struct assay_report_ep *ep,
			     const struct assay_report_ep_point *p)
{
	sbuf_adds(h->o, "</td><td>");
	esc(h, ep->routing ? ep->routing : "-");
	double v[] = {p->imbalance_expert, p->imbalance_rank};
	for (size_t j = 0; j < ARRAY_SIZE(v); j++) {
		sbuf_adds(h->o, "</td><td class=\"num\"");
		data_v(h, v[j]);
		sbuf_adds(h->o, ">");
		num(h, v[j], 3);
	}
}

static void ep_points_table(struct html *h, const struct ep_group *g)
{
	const struct assay_report *r = h->r;
	sbuf_adds(h->o,
		  "<details><summary>Data points</summary><div class=\"scroll\"><table "
		  "class=\"sortable\"><thead><tr><th>Case</th><th>Backend</th>"
		  "<th>Precision</th><th class=\"num\">Tokens per rank</th>"
		  "<th class=\"num\">p50 (µs)</th><th class=\"num\">p99 (µs)</th>"
		  "<th class=\"num\">GB/s per rank</th>"
		  "<th class=\"num\">max_relative_error</th><th>Routing</th>"
		  "<th class=\"num\">Imbalance per expert</th>"
		  "<th class=\"num\">Imbalance per rank</th><th>Valid</th></tr></thead><tbody>");
	for (size_t k = 0; k < g->n; k++) {
		const struct assay_report_ep *ep = &r->ep[g->ladders[k]];
		for (size_t i = 0; i < ep->npoints; i++) {
			const struct assay_report_ep_point *p = &ep->points[i];
			sbuf_adds(h->o, "<tr><td>");
			html_case_ref(h, ep->case_id);
			sbuf_adds(h->o, "</td><td>");
			esc(h, ep->backend);
			sbuf_adds(h->o, "</td><td>");
			esc(h, ep->precision);
			double v[] = {p->tokens, p->p50_us, p->p99_us, p->bw_gbps,
				      p->max_rel_error};
			for (size_t j = 0; j < ARRAY_SIZE(v); j++) {
				sbuf_adds(h->o, "</td><td class=\"num\"");
				data_v(h, v[j]);
				sbuf_adds(h->o, ">");
				num(h, v[j], j == 4 ? 3 : 4);
			}
			ep_routing_cells(h, ep, p);
			sbuf_adds(h->o, "</td><td>");
			badge_verdict(h, p->valid ? ASSAY_VERDICT_PASS : ASSAY_VERDICT_FAIL);
			sbuf_adds(h->o, "</td></tr>");
		}
	}
	sbuf_adds(h->o, "</tbody></table></div></details>");
}

/* Correctness at a glance: one row per ladder, ladders with a failed point
 * first; open when short. */
static void ep_ladder_table(struct html *h)
{
	const struct assay_report *r = h->r;
	size_t bad = 0;
	for (size_t i = 0; i < r->nep; i++)
		for (size_t k = 0; k < r->ep[i].npoints; k++)
			if (!r->ep[i].points[k].valid) {
				bad++;
				break;
			}
	sbuf_addf(h->o,
		  "<details%s><summary>Correctness per ladder: %zu ladder%s, %zu with a "
		  "failed point</summary>",
		  r->nep <= EP_TABLE_OPEN ? " open" : "", r->nep, r->nep == 1 ? "" : "s", bad);
	sbuf_adds(h->o,
		  "<div class=\"scroll\"><table class=\"sortable\"><thead><tr><th>Case</th>"
		  "<th>Backend</th><th>Precision</th><th>Phase</th><th>Component</th><th>Group</th>"
		  "<th class=\"num\">Points</th><th class=\"num\">Valid</th>"
		  "<th class=\"num\">max_relative_error</th><th>Correct</th></tr></thead><tbody>");
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < r->nep; i++) {
			const struct assay_report_ep *ep = &r->ep[i];
			size_t valid = 0;
			double worst = NAN;
			for (size_t k = 0; k < ep->npoints; k++) {
				valid += ep->points[k].valid;
				double e = ep->points[k].max_rel_error;
				if (isfinite(e) && (!isfinite(worst) || e > worst))
					worst = e;
			}
			bool ok = ep->npoints && valid == ep->npoints;
			if (ok != (pass == 1))
				continue;
			sbuf_adds(h->o, "<tr><td>");
			html_case_ref(h, ep->case_id);
			const char *cols[] = {ep->backend, ep->precision, ep->phase, ep->component,
					      ep->group};
			for (size_t k = 0; k < ARRAY_SIZE(cols); k++) {
				sbuf_adds(h->o, "</td><td>");
				esc(h, cols[k]);
			}
			sbuf_addf(h->o,
				  "</td><td class=\"num\">%zu</td><td class=\"num\">%zu</td>"
				  "<td class=\"num\"",
				  ep->npoints, valid);
			data_v(h, worst);
			sbuf_adds(h->o, ">");
			num(h, worst, 3);
			sbuf_adds(h->o, "</td><td>");
			badge_verdict(h, ok ? ASSAY_VERDICT_PASS : ASSAY_VERDICT_FAIL);
			sbuf_adds(h->o, "</td></tr>");
		}
	sbuf_adds(h->o, "</tbody></table></div></details>");
}

void html_ep(struct html *h)
{
	const struct assay_report *r = h->r;
	if (!r->nep)
		return;
	struct ep_group *groups = NULL;
	size_t ngroups = 0, galloc = 0;
	struct strlist colors = STRLIST_INIT;
	struct sbuf lab = SBUF_INIT;
	for (size_t i = 0; i < r->nep; i++) {
		const struct assay_report_ep *ep = &r->ep[i];
		ep_label(&lab, ep);
		if (!strlist_has(&colors, lab.buf))
			strlist_push(&colors, lab.buf);
		size_t g = 0;
		while (g < ngroups && !(same(groups[g].phase, ep->phase) &&
					same(groups[g].component, ep->component) &&
					same(groups[g].group, ep->group)))
			g++;
		if (g == ngroups) {
			ALLOC_GROW(groups, ngroups + 1, galloc);
			groups[ngroups++] =
			    (struct ep_group){ep->phase, ep->component, ep->group, NULL, 0, 0};
		}
		ALLOC_GROW(groups[g].ladders, groups[g].n + 1, groups[g].alloc);
		groups[g].ladders[groups[g].n++] = i;
	}
	sbuf_addf(h->o,
		  "<section id=\"ep\"><h2>Expert-parallel dispatch and combine "
		  "<small>%zu ladder%s</small></h2>",
		  r->nep, r->nep == 1 ? "" : "s");
	for (size_t g = 0; g < ngroups; g++) {
		if (g == EP_CHART_GROUPS) {
			sbuf_addf(h->o,
				  "<p class=\"note\">%zu more phase/group chart pairs are not "
				  "drawn; their ladders are in the table below.</p>",
				  ngroups - g);
			break;
		}
		sbuf_adds(h->o, "<h3>");
		esc(h, groups[g].phase ? groups[g].phase : "?");
		if (groups[g].component && *groups[g].component) {
			sbuf_adds(h->o, " ");
			esc(h, groups[g].component);
		}
		if (groups[g].group && *groups[g].group) {
			sbuf_adds(h->o, " <small>");
			esc(h, groups[g].group);
			sbuf_adds(h->o, "</small>");
		}
		sbuf_adds(h->o, "</h3>");
		ep_charts(h, &groups[g], &colors);
		ep_points_table(h, &groups[g]);
	}
	ep_ladder_table(h);
	sbuf_adds(h->o, "</section>");
	for (size_t g = 0; g < ngroups; g++)
		free(groups[g].ladders);
	free(groups);
	strlist_clear(&colors);
	sbuf_release(&lab);
}
