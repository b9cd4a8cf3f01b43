/* report.html: one self-contained page (inline CSS and SVG, a Content
 * Security Policy that forbids every external request, readable without
 * JavaScript; a little inline script sorts and filters the tables). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "assay/version.h"
#include "report/report_internal.h"

/* Caps that keep a 1,000-case report compact; what is left out of the charts
 * stays in the tables, and the page says so. */
#define EP_CHART_GROUPS 24      /* (phase, group) chart pairs */
#define EP_CHART_SERIES 10      /* ladders per chart */
#define TRAIN_CHARTS    24      /* combos drawn */
#define HISTORY_CHARTS  48      /* series drawn, failed ones first */
#define HISTORY_TABLE   500     /* further series listed in a table */
#define GATES_OPEN      12      /* the gates table starts folded beyond this, unless one failed */
#define EP_TABLE_OPEN   40      /* the per-ladder table starts open up to this many rows */
#define REASON_LINE     160     /* bytes of a reason shown in the table */
#define REASON_BUDGET   1500000 /* bytes for all reasons' <details> together */

struct html {
	struct sbuf *o;
	const struct assay_report *r;
	const struct assay_redactor *secrets;
	size_t *case_order; /* case indexes sorted by id, for links */
	size_t reason_max;  /* bytes of one reason kept in its <details> */
};

static void esc(struct html *h, const char *s)
{
	rep_text(h->o, REP_XML, s, 0, h->secrets);
}

static void esc_max(struct html *h, const char *s, size_t max)
{
	rep_text(h->o, REP_XML, s, max, h->secrets);
}

static void num(struct html *h, double v, int sig)
{
	char buf[64];
	sbuf_adds(h->o, rep_num(buf, sizeof(buf), v, sig));
}

/* data-v="..." for sorting a numeric column ("" when unknown). */
static void data_v(struct html *h, double v)
{
	char buf[64];
	sbuf_addf(h->o, " data-v=\"%s\"", isfinite(v) ? rep_num(buf, sizeof(buf), v, 9) : "");
}

static const char *run_outcome_class(assay_err code)
{
	switch (code) {
	case ASSAY_OK: return "passed";
	case ASSAY_GATE_FAILED: return "gate-failed";
	case ASSAY_WORKLOAD_FAILED: return "workload-failed";
	case ASSAY_NO_METRICS: return "no-metrics";
	case ASSAY_INFRA: return "infrastructure";
	default: return "usage";
	}
}

static void badge_outcome(struct html *h, enum assay_report_outcome o)
{
	const char *n = assay_report_outcome_name(o);
	sbuf_addf(h->o, "<span class=\"b o-%s\">%s</span>", n, n);
}

static void badge_verdict(struct html *h, enum assay_report_verdict v)
{
	const char *n = assay_report_verdict_name(v);
	sbuf_addf(h->o, "<span class=\"b v-%s\">%s</span>", n, n);
}

static int cmp_case(const void *a, const void *b, void *arg)
{
	const struct assay_report *r = arg;
	return strcmp(r->cases[*(const size_t *)a].id, r->cases[*(const size_t *)b].id);
}

/* Index of the case with this id, or -1. */
static long find_case(const struct html *h, const char *id)
{
	if (!id)
		return -1;
	size_t lo = 0, hi = h->r->ncases;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(h->r->cases[h->case_order[mid]].id, id);
		if (!c)
			return (long)h->case_order[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

/* The case id as a link to its row in the case table. */
static void case_ref(struct html *h, const char *id)
{
	long k = find_case(h, id);
	if (k >= 0)
		sbuf_addf(h->o, "<a href=\"#c%ld\"><code>", k);
	else
		sbuf_adds(h->o, "<code>");
	esc(h, id ? id : "(run)");
	sbuf_adds(h->o, k >= 0 ? "</code></a>" : "</code>");
}

static void duration(struct html *h, double s)
{
	char buf[64];
	if (!isfinite(s) || s < 0) {
		sbuf_adds(h->o, "-");
	} else if (s < 60) {
		sbuf_addf(h->o, "%s s", rep_num(buf, sizeof(buf), s, 3));
	} else if (s < 3600) {
		long t = lround(s);
		sbuf_addf(h->o, "%ld min %ld s", t / 60, t % 60);
	} else {
		long t = lround(s / 60);
		sbuf_addf(h->o, "%ld h %ld min", t / 60, t % 60);
	}
}

static void meta(struct html *h, const char *label, const char *value, bool digest)
{
	sbuf_addf(h->o, "<div><dt>%s</dt><dd", label);
	if (digest && value && strlen(value) > 16) {
		sbuf_adds(h->o, " class=\"mono\" title=\"");
		esc(h, value);
		sbuf_adds(h->o, "\">");
		esc_max(h, value, 16);
	} else {
		sbuf_adds(h->o, ">");
		esc(h, value && *value ? value : "-");
	}
	sbuf_adds(h->o, "</dd></div>");
}

static void header(struct html *h)
{
	const struct assay_report *r = h->r;
	size_t counts[ASSAY_REPORT_OUTCOME_COUNT];
	assay_report_count(r, counts);
	sbuf_adds(h->o, "<header class=\"top\"><div class=\"brand\">assay report</div>"
			"<div class=\"title\"><h1>");
	esc(h, r->suite && *r->suite ? r->suite : "(unnamed suite)");
	sbuf_adds(h->o, "<span class=\"run\">run ");
	esc(h, r->run_id && *r->run_id ? r->run_id : "-");
	const char *cls = run_outcome_class(r->exit_code);
	sbuf_addf(h->o,
		  "</span></h1><span class=\"b verdict o-%s\">%s &middot; exit %d</span></div>",
		  cls, r->exit_code == ASSAY_OK ? "passed" : assay_strerror(r->exit_code),
		  (int)r->exit_code);
	sbuf_adds(h->o, "<dl class=\"meta\">");
	meta(h, "revision", r->revision, false);
	meta(h, "host", r->host, false);
	meta(h, "launcher", r->launcher, false);
	meta(h, "started", r->started, false);
	meta(h, "ended", r->ended, false);
	meta(h, "matrix digest", r->matrix_digest, true);
	meta(h, "catalog digest", r->catalog_digest, true);
	if (r->image) { /* provenance of a run in a container */
		meta(h, "image", r->image, false);
		meta(h, "image digest", r->image_digest, true);
	}
	sbuf_adds(h->o, "</dl><div class=\"counts\">");
	sbuf_addf(h->o, "<span class=\"total\">%zu case%s</span>", r->ncases,
		  r->ncases == 1 ? "" : "s");
	for (int i = 0; i < ASSAY_REPORT_OUTCOME_COUNT; i++)
		if (counts[i])
			sbuf_addf(h->o, "<span class=\"b o-%s\">%zu %s</span>",
				  assay_report_outcome_name(i), counts[i],
				  assay_report_outcome_name(i));
	size_t gate_fail = 0;
	for (size_t i = 0; i < r->ngates; i++)
		gate_fail += r->gates[i].verdict == ASSAY_VERDICT_FAIL;
	if (r->ngates)
		sbuf_addf(h->o,
			  "<span class=\"total\" style=\"margin-left:12px\">%zu gate%s</span>"
			  "<span class=\"b %s\">%zu FAIL</span>",
			  r->ngates, r->ngates == 1 ? "" : "s", gate_fail ? "v-FAIL" : "v-PASS",
			  gate_fail);
	sbuf_adds(h->o, "</div>");
	for (size_t i = 0; i < r->notes.n; i++) {
		sbuf_adds(h->o, "<p class=\"hnote\">");
		esc(h, r->notes.v[i]);
		sbuf_adds(h->o, "</p>");
	}
	sbuf_adds(h->o, "</header>");
}

static void reason(struct html *h, const char *s)
{
	if (!s || !*s) {
		sbuf_adds(h->o, "<td class=\"reason\"></td>");
		return;
	}
	size_t first = rep_first_line(s);
	sbuf_adds(h->o, "<td class=\"reason\">");
	if (first == strlen(s) && first <= REASON_LINE) {
		esc(h, s);
	} else {
		char *line = xstrndup(s, first);
		sbuf_adds(h->o, "<details><summary>");
		esc_max(h, line, REASON_LINE);
		sbuf_adds(h->o, "</summary><pre>");
		esc_max(h, s, h->reason_max);
		sbuf_adds(h->o, "</pre></details>");
		free(line);
	}
	sbuf_adds(h->o, "</td>");
}

/* Whether case c's factor k is one every case has with the same value. */
static bool common_factor(const struct assay_report *r, const struct assay_report_kv *f)
{
	if (r->ncases < 2)
		return false;
	for (size_t i = 0; i < r->ncases; i++) {
		const struct assay_report_case *c = &r->cases[i];
		bool has = false;
		for (size_t k = 0; k < c->nfactors && !has; k++)
			has = !strcmp(c->factors[k].key, f->key) &&
			      !strcmp(c->factors[k].value, f->value);
		if (!has)
			return false;
	}
	return true;
}

static void factor(struct html *h, const struct assay_report_kv *f)
{
	sbuf_adds(h->o, "<span class=\"f\"><i>");
	esc(h, f->key);
	sbuf_adds(h->o, "</i> ");
	esc(h, f->value);
	sbuf_adds(h->o, "</span>");
}

static void cases(struct html *h)
{
	const struct assay_report *r = h->r;
	sbuf_addf(h->o, "<section id=\"cases\"><h2>Cases <small>%zu</small></h2>", r->ncases);
	if (!r->ncases) {
		sbuf_adds(h->o, "<p class=\"note\">This run has no cases.</p></section>");
		return;
	}
	/* Factors every case shares are said once, above the table. */
	struct strlist common = STRLIST_INIT;
	const struct assay_report_case *c0 = &r->cases[0];
	for (size_t k = 0; k < c0->nfactors; k++)
		if (common_factor(r, &c0->factors[k])) {
			if (!common.n)
				sbuf_adds(h->o, "<p class=\"note factors\">Every case: ");
			factor(h, &c0->factors[k]);
			strlist_push(&common, c0->factors[k].key);
		}
	if (common.n)
		sbuf_adds(h->o, "</p>");
	sbuf_adds(h->o, "<div class=\"tools\" id=\"tools\" hidden><input id=\"filter\" "
			"type=\"search\" placeholder=\"Filter cases\" aria-label=\"Filter cases\">"
			"<select id=\"outcome\" aria-label=\"Outcome\"><option value=\"\">"
			"all outcomes</option>");
	size_t counts[ASSAY_REPORT_OUTCOME_COUNT];
	assay_report_count(r, counts);
	for (int i = 0; i < ASSAY_REPORT_OUTCOME_COUNT; i++)
		if (counts[i])
			sbuf_addf(h->o, "<option>%s</option>", assay_report_outcome_name(i));
	sbuf_adds(h->o,
		  "</select><span id=\"shown\"></span></div>"
		  "<div class=\"scroll\"><table class=\"sortable\" id=\"case-table\"><thead><tr>"
		  "<th>Case</th><th>Factors</th><th>Outcome</th><th class=\"num\">Duration</th>"
		  "<th>Reason</th><th>Files</th></tr></thead><tbody>");
	for (size_t i = 0; i < r->ncases; i++) {
		const struct assay_report_case *c = &r->cases[i];
		sbuf_addf(h->o, "<tr id=\"c%zu\" data-o=\"%s\"><td class=\"id\"><code>", i,
			  assay_report_outcome_name(c->outcome));
		esc(h, c->id);
		sbuf_adds(h->o, "</code></td><td class=\"factors\">");
		for (size_t k = 0; k < c->nfactors; k++)
			if (!strlist_has(&common, c->factors[k].key))
				factor(h, &c->factors[k]);
		sbuf_adds(h->o, "</td><td>");
		badge_outcome(h, c->outcome);
		sbuf_adds(h->o, "</td><td class=\"num\"");
		data_v(h, c->duration_s);
		sbuf_adds(h->o, ">");
		if (c->queue_s >= 0.05 && isfinite(c->duration_s)) {
			/* Running time, and apart from it the time in the queue. */
			duration(h, c->duration_s - c->queue_s);
			sbuf_adds(h->o, "<br><small>+ ");
			duration(h, c->queue_s);
			sbuf_adds(h->o, " queued</small>");
		} else {
			duration(h, c->duration_s);
		}
		sbuf_adds(h->o, "</td>");
		reason(h, c->reason);
		sbuf_adds(h->o, "<td class=\"files\">");
		for (size_t k = 0; k < c->nlinks; k++) {
			const struct assay_report_link *l = &c->links[k];
			if (rep_href_ok(l->href)) {
				sbuf_adds(h->o, "<a href=\"");
				rep_href(h->o, l->href, h->secrets);
				sbuf_adds(h->o, "\">");
				esc(h, l->label);
				sbuf_adds(h->o, "</a> ");
			} else {
				/* Not a relative path: shown, never followed. */
				sbuf_adds(h->o, "<span title=\"");
				esc(h, l->href);
				sbuf_adds(h->o, "\">");
				esc(h, l->label);
				sbuf_adds(h->o, "</span> ");
			}
		}
		sbuf_adds(h->o, "</td></tr>");
	}
	sbuf_adds(h->o, "</tbody></table></div></section>");
	strlist_clear(&common);
}

/* What the provenance expectations matched, per case and node or rank. */
static void provenance_section(struct html *h)
{
	const struct assay_report *r = h->r;
	if (!r->nprovenance)
		return;
	sbuf_addf(h->o,
		  "<section id=\"provenance\"><h2>Provenance <small>%zu</small></h2>"
		  "<div class=\"scroll\"><table><thead><tr><th>Case</th><th>Expectation</th>"
		  "<th>Node or rank</th><th>Matched</th></tr></thead><tbody>",
		  r->nprovenance);
	for (size_t i = 0; i < r->nprovenance; i++) {
		const struct assay_report_prov *p = &r->provenance[i];
		sbuf_adds(h->o, "<tr><td><code>");
		esc(h, p->case_id);
		sbuf_adds(h->o, "</code></td><td>");
		esc(h, p->name);
		sbuf_adds(h->o, "</td><td>");
		esc(h, p->per);
		sbuf_adds(h->o, " ");
		esc(h, p->unit);
		sbuf_adds(h->o, "</td><td>");
		if (p->matched) {
			sbuf_adds(h->o, "<code>");
			esc(h, p->matched);
			sbuf_adds(h->o, "</code>");
		} else {
			sbuf_adds(h->o, "<strong>no match</strong>");
		}
		sbuf_adds(h->o, "</td></tr>");
	}
	sbuf_adds(h->o, "</tbody></table></div></section>");
}

static void gate_row(struct html *h, const struct assay_report_gate *g, bool with_case)
{
	sbuf_adds(h->o, "<tr>");
	if (with_case) {
		sbuf_adds(h->o, "<td>");
		case_ref(h, g->case_id);
		sbuf_adds(h->o, "</td>");
	}
	sbuf_adds(h->o, "<td>");
	esc(h, g->name);
	sbuf_adds(h->o, "</td><td>");
	esc(h, g->metric);
	sbuf_adds(h->o, "</td><td class=\"num\"");
	data_v(h, g->value);
	sbuf_adds(h->o, ">");
	num(h, g->value, 5);
	if (isfinite(g->value) && g->unit && *g->unit) {
		sbuf_adds(h->o, " ");
		esc(h, g->unit);
	}
	sbuf_adds(h->o, "</td><td><code>");
	esc(h, g->spec);
	sbuf_adds(h->o, "</code></td><td>");
	badge_verdict(h, g->verdict);
	sbuf_adds(h->o, "</td><td class=\"msg\">");
	esc_max(h, g->message, 600);
	sbuf_adds(h->o, "</td></tr>");
}

static void gate_table_head(struct html *h, bool with_case)
{
	sbuf_adds(h->o, "<div class=\"scroll\"><table class=\"sortable\"><thead><tr>");
	if (with_case)
		sbuf_adds(h->o, "<th>Case</th>");
	sbuf_adds(h->o, "<th>Gate</th><th>Metric</th><th class=\"num\">Value</th><th>Spec</th>"
			"<th>Verdict</th><th>Message</th></tr></thead><tbody>");
}

static void gates(struct html *h)
{
	const struct assay_report *r = h->r;
	if (!r->ngates)
		return;
	size_t fail = 0;
	for (size_t i = 0; i < r->ngates; i++)
		fail += r->gates[i].verdict == ASSAY_VERDICT_FAIL;
	sbuf_addf(h->o, "<section id=\"gates\"><h2>Gates <small>%zu, %zu failed</small></h2>",
		  r->ngates, fail);
	/* A long table with nothing failed starts folded. */
	size_t counts[ASSAY_VERDICT_COUNT] = {0};
	for (size_t i = 0; i < r->ngates; i++)
		if ((unsigned)r->gates[i].verdict < ASSAY_VERDICT_COUNT)
			counts[r->gates[i].verdict]++;
	sbuf_addf(h->o, "<details%s><summary>", fail || r->ngates <= GATES_OPEN ? " open" : "");
	bool first = true;
	for (int v = 0; v < ASSAY_VERDICT_COUNT; v++)
		if (counts[v]) {
			sbuf_addf(h->o, "%s%zu %s", first ? "" : " · ", counts[v],
				  assay_report_verdict_name((enum assay_report_verdict)v));
			first = false;
		}
	sbuf_adds(h->o, "</summary>");
	gate_table_head(h, true);
	/* Failed gates first, then the rest, each in model order. */
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < r->ngates; i++)
			if ((r->gates[i].verdict == ASSAY_VERDICT_FAIL) == (pass == 0))
				gate_row(h, &r->gates[i], true);
	sbuf_adds(h->o, "</tbody></table></div></details></section>");
}

/* ---- EP ---- */

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

/* Label "backend precision" of a ladder into sb. */
static void ep_label(struct sbuf *sb, const struct assay_report_ep *ep)
{
	sbuf_reset(sb);
	sbuf_adds(sb, ep->backend && *ep->backend ? ep->backend : "?");
	if (ep->precision && *ep->precision)
		sbuf_addf(sb, " %s", ep->precision);
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
	sbuf_adds(h->o, "<div class=\"charts\"><figure>");
	svg_chart(h->o, &c1);
	sbuf_adds(h->o, "</figure><figure>");
	svg_chart(h->o, &c2);
	sbuf_adds(h->o, "</figure></div>");
	if (g->n > n)
		sbuf_addf(h->o,
			  "<p class=\"note\">%zu more ladder%s of this phase and group are in "
			  "the table below but not drawn.</p>",
			  g->n - n, g->n - n == 1 ? "" : "s");
	sbuf_release(&t1);
	sbuf_release(&t2);
	sbuf_release(&lab);
	strlist_clear(&labels);
	free(buf);
	free(lat);
	free(bw);
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
		  "<th class=\"num\">max_relative_error</th><th>Valid</th></tr></thead><tbody>");
	for (size_t k = 0; k < g->n; k++) {
		const struct assay_report_ep *ep = &r->ep[g->ladders[k]];
		for (size_t i = 0; i < ep->npoints; i++) {
			const struct assay_report_ep_point *p = &ep->points[i];
			sbuf_adds(h->o, "<tr><td>");
			case_ref(h, ep->case_id);
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
			case_ref(h, ep->case_id);
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

static void ep_section(struct html *h)
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

/* ---- training ---- */

static void xy_split(const struct assay_report_xy *v, size_t n, double **x, double **y)
{
	*x = xcalloc(n + 1, sizeof(double));
	*y = xcalloc(n + 1, sizeof(double));
	for (size_t i = 0; i < n; i++) {
		(*x)[i] = v[i].x;
		(*y)[i] = v[i].y;
	}
}

static double first_x(const struct assay_report_xy *v, size_t n)
{
	double m = INFINITY;
	for (size_t i = 0; i < n; i++)
		if (isfinite(v[i].x) && v[i].x < m)
			m = v[i].x;
	return m;
}

/* "Loss slope S per step (intercept I, fitted over steps A-B; warm-up ...)." */
static void train_fit(struct html *h, const struct assay_report_train *t)
{
	sbuf_adds(h->o, "<p class=\"fit\">Loss slope <b>");
	num(h, t->slope, 4);
	sbuf_adds(h->o, "</b> per step (intercept ");
	num(h, t->intercept, 5);
	sbuf_adds(h->o, ", fitted over steps ");
	num(h, t->fit_from, 6);
	sbuf_adds(h->o, "&ndash;");
	num(h, t->fit_to, 6);
	sbuf_adds(h->o, ")");
	if (t->warmup_steps > 0) {
		sbuf_adds(h->o, "; warm-up steps &le; ");
		num(h, t->warmup_steps, 6);
	}
	sbuf_adds(h->o, ".</p>");
}

/* A per-step series; markers and point titles only while there are few points. */
static struct svg_series train_series(const char *label, double *x, double *y, size_t n, int color,
				      enum svg_marker mark)
{
	return (struct svg_series){
	    label, x, y, n, color, n <= 60 ? mark : SVG_MARK_NONE, false, false, n <= 60, false};
}

/* The loss chart (with the fitted line) and the throughput chart, warm-up shaded. */
static void train_charts(struct html *h, const struct assay_report_train *t)
{
	double *lx, *ly, *tx, *ty;
	xy_split(t->loss, t->nloss, &lx, &ly);
	xy_split(t->throughput, t->nthroughput, &tx, &ty);
	char fit_label[96], warm_label[64], buf[48];
	snprintf(fit_label, sizeof(fit_label), "fit: slope %s per step",
		 rep_num(buf, sizeof(buf), t->slope, 3));
	snprintf(warm_label, sizeof(warm_label), "warm-up");
	double w0 = fmin(first_x(t->loss, t->nloss), first_x(t->throughput, t->nthroughput));
	struct svg_band band = {isfinite(w0) ? w0 - 0.5 : 0.5, t->warmup_steps + 0.5, warm_label};
	bool warm = t->warmup_steps > 0;
	struct svg_series ls = train_series("lm loss", lx, ly, t->nloss, 0, SVG_MARK_CIRCLE);
	struct svg_series ts =
	    train_series("throughput", tx, ty, t->nthroughput, 2, SVG_MARK_SQUARE);
	struct sbuf ytitle = SBUF_INIT;
	sbuf_addf(&ytitle, "throughput (%s)", t->throughput_unit ? t->throughput_unit : "per step");
	struct svg_chart c1 = {.title = "lm loss per step",
			       .x_title = "step",
			       .y_title = "lm loss",
			       .series = &ls,
			       .nseries = 1,
			       .bands = &band,
			       .nbands = warm,
			       .fit = t->has_fit,
			       .fit_slope = t->slope,
			       .fit_intercept = t->intercept,
			       .fit_from = t->fit_from,
			       .fit_to = t->fit_to,
			       .fit_label = fit_label,
			       .secrets = h->secrets};
	struct svg_chart c2 = {.title = "throughput per step",
			       .x_title = "step",
			       .y_title = ytitle.buf,
			       .series = &ts,
			       .nseries = 1,
			       .bands = &band,
			       .nbands = warm,
			       .secrets = h->secrets};
	sbuf_adds(h->o, "<div class=\"charts\"><figure>");
	svg_chart(h->o, &c1);
	sbuf_adds(h->o, "</figure><figure>");
	svg_chart(h->o, &c2);
	sbuf_adds(h->o, "</figure></div>");
	sbuf_release(&ytitle);
	free(lx);
	free(ly);
	free(tx);
	free(ty);
}

/* The threshold table: the gates of this combination's case. */
static void train_gates(struct html *h, const struct assay_report_train *t)
{
	const struct assay_report *r = h->r;
	bool any = false;
	for (size_t k = 0; k < r->ngates; k++) {
		const struct assay_report_gate *g = &r->gates[k];
		if (!g->case_id || !t->case_id || strcmp(g->case_id, t->case_id))
			continue;
		if (!any)
			gate_table_head(h, false);
		any = true;
		gate_row(h, g, false);
	}
	if (any)
		sbuf_adds(h->o, "</tbody></table></div>");
	else
		sbuf_adds(h->o, "<p class=\"note\">No thresholds for this combination.</p>");
}

static void train_section(struct html *h)
{
	const struct assay_report *r = h->r;
	if (!r->ntrain)
		return;
	sbuf_addf(h->o,
		  "<section id=\"training\"><h2>Training <small>%zu combination%s</small>"
		  "</h2>",
		  r->ntrain, r->ntrain == 1 ? "" : "s");
	for (size_t i = 0; i < r->ntrain; i++) {
		const struct assay_report_train *t = &r->train[i];
		sbuf_adds(h->o, "<h3>");
		esc(h, t->label && *t->label ? t->label : t->case_id);
		sbuf_adds(h->o, " <small>");
		case_ref(h, t->case_id);
		sbuf_adds(h->o, "</small></h3>");
		if (t->has_fit)
			train_fit(h, t);
		if (i < TRAIN_CHARTS)
			train_charts(h, t);
		else if (i == TRAIN_CHARTS)
			sbuf_addf(h->o,
				  "<p class=\"note\">Charts are drawn for the first %d "
				  "combinations only.</p>",
				  TRAIN_CHARTS);
		train_gates(h, t);
	}
	sbuf_adds(h->o, "</section>");
}

/* ---- collectives ---- */

/* One chart per operation: busbw against the message size (log-2 axis),
 * this run's curves, and fainter behind them the same curves at earlier
 * revisions (docs/report.md, "Collectives"). */
static void coll_chart(struct html *h, size_t from, size_t to)
{
	const struct assay_report *r = h->r;
	size_t n = to - from;
	struct svg_series *ser = xcalloc(n + 2, sizeof(*ser));
	double **xs = xcalloc(n + 1, sizeof(double *)), **ys = xcalloc(n + 1, sizeof(double *));
	struct strlist revs = STRLIST_INIT;
	size_t k = 0;
	/* Earlier revisions first, so this run's lines are drawn on top. */
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = from; i < to; i++) {
			const struct assay_report_coll *c = &r->coll[i];
			if (c->current != (pass == 1))
				continue;
			xy_split(c->points, c->npoints, &xs[k], &ys[k]);
			ser[k] =
			    (struct svg_series){c->current ? c->label : NULL,
						xs[k],
						ys[k],
						c->npoints,
						c->color,
						c->current ? (int)SVG_MARK_AUTO : SVG_MARK_NONE,
						false,
						false,
						c->current,
						!c->current};
			if (c->current)
				ser[k].marker = c->color % SVG_MARK_COUNT + 1;
			if (!c->current && c->revision && !strlist_has(&revs, c->revision))
				strlist_push(&revs, c->revision);
			k++;
		}
	struct sbuf legend = SBUF_INIT, title = SBUF_INIT;
	if (revs.n) {
		sbuf_adds(&legend, "earlier: ");
		for (size_t i = 0; i < revs.n; i++)
			sbuf_addf(&legend, "%s%.12s", i ? ", " : "", revs.v[i]);
		ser[k++] = (struct svg_series){legend.buf,    NULL,  NULL,  0,     SVG_COLOR_GREY,
					       SVG_MARK_NONE, false, false, false, true};
	}
	sbuf_addf(&title, "%s: bus bandwidth by message size", r->coll[from].operation);
	struct svg_chart chart = {.title = title.buf,
				  .x_title = "message size (bytes)",
				  .y_title = "busbw (GB/s)",
				  .x_log2 = true,
				  .y_zero = true,
				  .series = ser,
				  .nseries = k,
				  .secrets = h->secrets};
	sbuf_adds(h->o, "<figure>");
	svg_chart(h->o, &chart);
	sbuf_adds(h->o, "</figure>");
	for (size_t i = 0; i < n; i++) {
		free(xs[i]);
		free(ys[i]);
	}
	free(xs);
	free(ys);
	free(ser);
	strlist_clear(&revs);
	sbuf_release(&legend);
	sbuf_release(&title);
}

static void coll_section(struct html *h)
{
	const struct assay_report *r = h->r;
	if (!r->ncoll)
		return;
	size_t nops = 0;
	for (size_t i = 0; i < r->ncoll; i++)
		nops += !i || strcmp(r->coll[i].operation, r->coll[i - 1].operation);
	sbuf_addf(h->o,
		  "<section id=\"collectives\"><h2>Collectives <small>%zu operation%s</small>"
		  "</h2><div class=\"charts\">",
		  nops, nops == 1 ? "" : "s");
	for (size_t i = 0; i < r->ncoll;) {
		size_t j = i + 1;
		while (j < r->ncoll && !strcmp(r->coll[j].operation, r->coll[i].operation))
			j++;
		coll_chart(h, i, j);
		i = j;
	}
	sbuf_adds(h->o, "</div></section>");
}

/* ---- history ---- */

static void history_card(struct html *h, const struct assay_report_history *s)
{
	sbuf_addf(h->o, "<div class=\"card%s\"><h3><span>",
		  s->verdict == ASSAY_VERDICT_FAIL ? " fail" : "");
	esc(h, s->label);
	sbuf_adds(h->o, "</span>");
	badge_verdict(h, s->verdict);
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

static void history_section(struct html *h)
{
	const struct assay_report *r = h->r;
	if (!r->nhistory)
		return;
	size_t fail = 0;
	for (size_t i = 0; i < r->nhistory; i++)
		fail += r->history[i].verdict == ASSAY_VERDICT_FAIL;
	sbuf_addf(h->o,
		  "<section id=\"history\"><h2>History <small>%zu series, %zu "
		  "regression%s</small></h2><div class=\"charts\">",
		  r->nhistory, fail, fail == 1 ? "" : "s");
	size_t drawn = 0;
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < r->nhistory && drawn < HISTORY_CHARTS; i++)
			if ((r->history[i].verdict == ASSAY_VERDICT_FAIL) == (pass == 0)) {
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
				if ((s->verdict == ASSAY_VERDICT_FAIL) != (pass == 0))
					continue;
				if (seen++ < drawn)
					continue;
				sbuf_adds(h->o, "<tr><td>");
				esc(h, s->label);
				sbuf_addf(h->o, "</td><td class=\"num\">%zu</td><td>", s->npoints);
				badge_verdict(h, s->verdict);
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
				  "(%zu of them with a failed gate); <code>assay history</code> "
				  "shows any series from the store.</p>",
				  r->nhistory - shown, left_fail);
		}
	}
	sbuf_adds(h->o, "</section>");
}

void assay_report_html(const struct assay_report *r, struct sbuf *out)
{
	struct sbuf doc = SBUF_INIT;
	struct html h = {&doc, r, &r->secrets, NULL, 0};
	size_t with_reason = 0;
	for (size_t i = 0; i < r->ncases; i++)
		with_reason += r->cases[i].reason && *r->cases[i].reason;
	/* Long reasons share a budget, so the page stays small; logs have the rest. */
	h.reason_max = REASON_BUDGET / (with_reason ? with_reason : 1);
	h.reason_max = h.reason_max < 400 ? 400 : h.reason_max > 8000 ? 8000 : h.reason_max;
	h.case_order = xcalloc(r->ncases + 1, sizeof(size_t));
	for (size_t i = 0; i < r->ncases; i++)
		h.case_order[i] = i;
	qsort_r(h.case_order, r->ncases, sizeof(size_t), cmp_case, (void *)r);

	sbuf_grow(&doc, 64 * 1024 + r->ncases * 600);
	sbuf_adds(&doc,
		  "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
		  "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
		  "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
		  "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">"
		  "<meta name=\"generator\" content=\"assay ");
	sbuf_adds(&doc, assay_version_string);
	sbuf_adds(&doc, "\"><title>assay report: ");
	esc(&h, r->suite && *r->suite ? r->suite : "run");
	if (r->run_id && *r->run_id) {
		sbuf_adds(&doc, " ");
		esc(&h, r->run_id);
	}
	sbuf_adds(&doc, "</title><style>");
	sbuf_adds(&doc, assay_report_css);
	sbuf_adds(&doc, "</style></head><body>");
	header(&h);
	sbuf_adds(&doc, "<nav><a href=\"#cases\">Cases</a>");
	if (r->nprovenance)
		sbuf_adds(&doc, "<a href=\"#provenance\">Provenance</a>");
	if (r->ngates)
		sbuf_adds(&doc, "<a href=\"#gates\">Gates</a>");
	if (r->nep)
		sbuf_adds(&doc, "<a href=\"#ep\">EP</a>");
	if (r->ntrain)
		sbuf_adds(&doc, "<a href=\"#training\">Training</a>");
	if (r->ncoll)
		sbuf_adds(&doc, "<a href=\"#collectives\">Collectives</a>");
	if (r->nhistory)
		sbuf_adds(&doc, "<a href=\"#history\">History</a>");
	sbuf_adds(&doc, "</nav><main>");
	cases(&h);
	provenance_section(&h);
	gates(&h);
	ep_section(&h);
	train_section(&h);
	coll_section(&h);
	history_section(&h);
	sbuf_addf(&doc,
		  "</main><footer>Written by assay %s. This page is self-contained: it "
		  "loads nothing from anywhere.</footer><script>",
		  assay_version_string);
	sbuf_adds(&doc, assay_report_js);
	sbuf_adds(&doc, "</script></body></html>\n");
	rep_redact_all(&doc, REP_XML, &r->secrets);
	sbuf_add(out, doc.buf, doc.len);
	sbuf_release(&doc);
	free(h.case_order);
}
