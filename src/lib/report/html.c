/* report.html: one self-contained page (inline CSS and SVG, a Content
 * Security Policy that forbids every external request, readable without
 * JavaScript; a little inline script sorts and filters the tables): its
 * frame (head, navigation, footer) and the helpers its sections share; the
 * sections are in html_*.c. */
#include <stdlib.h>
#include <string.h>

#include "assay/version.h"
#include "report/html_int.h"

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
void html_case_ref(struct html *h, const char *id)
{
	long k = find_case(h, id);
	if (k >= 0)
		sbuf_addf(h->o, "<a href=\"#c%ld\"><code>", k);
	else
		sbuf_adds(h->o, "<code>");
	esc(h, id ? id : "(run)");
	sbuf_adds(h->o, k >= 0 ? "</code></a>" : "</code>");
}

void html_chart_pair(struct html *h, const struct svg_chart *c1, const struct svg_chart *c2)
{
	sbuf_adds(h->o, "<div class=\"charts\"><figure>");
	svg_chart(h->o, c1);
	sbuf_adds(h->o, "</figure><figure>");
	svg_chart(h->o, c2);
	sbuf_adds(h->o, "</figure></div>");
}

void html_xy_split(const struct assay_report_xy *v, size_t n, double **x, double **y)
{
	*x = xcalloc(n + 1, sizeof(double));
	*y = xcalloc(n + 1, sizeof(double));
	for (size_t i = 0; i < n; i++) {
		(*x)[i] = v[i].x;
		(*y)[i] = v[i].y;
	}
}

/* The case indexes sorted by id (for links) and the share of the reasons'
 * budget of each reason, into h. */
static void page_prepare(struct html *h)
{
	const struct assay_report *r = h->r;
	size_t with_reason = 0;
	for (size_t i = 0; i < r->ncases; i++)
		with_reason += r->cases[i].reason && *r->cases[i].reason;
	/* Long reasons share a budget, so the page stays small; logs have the rest. */
	h->reason_max = REASON_BUDGET / (with_reason ? with_reason : 1);
	h->reason_max = h->reason_max < 400 ? 400 : h->reason_max > 8000 ? 8000 : h->reason_max;
	h->case_order = xcalloc(r->ncases + 1, sizeof(size_t));
	for (size_t i = 0; i < r->ncases; i++)
		h->case_order[i] = i;
	qsort_r(h->case_order, r->ncases, sizeof(size_t), cmp_case, (void *)r);
}

/* From the doctype to <body>: the policy that forbids every external
 * request, the title and the style sheet (inline; linked from the server
 * that serves the page, whose own policy forbids inline style and script). */
static void page_head(struct html *h, bool linked)
{
	const struct assay_report *r = h->r;
	sbuf_adds(h->o, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
			"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">");
	if (!linked)
		sbuf_adds(h->o,
			  "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src "
			  "'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; "
			  "img-src data:\">");
	else
		sbuf_adds(h->o, "<link rel=\"icon\" href=\"data:,\">");
	sbuf_adds(h->o, "<meta name=\"generator\" content=\"assay ");
	sbuf_adds(h->o, assay_version_string);
	sbuf_adds(h->o, "\"><title>assay report: ");
	esc(h, r->suite && *r->suite ? r->suite : "run");
	if (r->run_id && *r->run_id) {
		sbuf_adds(h->o, " ");
		esc(h, r->run_id);
	}
	if (linked) {
		sbuf_adds(h->o, "</title><link rel=\"stylesheet\" href=\"/assets/report.css\">"
				"<script src=\"/assets/report.js\" defer></script>"
				"<script src=\"/assets/serve.js\" defer></script></head><body>");
		return;
	}
	sbuf_adds(h->o, "</title><style>");
	sbuf_adds(h->o, assay_report_css);
	sbuf_adds(h->o, "</style></head><body>");
}

/* Links to the sections the page has. */
static void page_nav(struct html *h)
{
	const struct assay_report *r = h->r;
	sbuf_adds(h->o, "<nav><a href=\"#cases\">Cases</a>");
	if (r->nprovenance)
		sbuf_adds(h->o, "<a href=\"#provenance\">Provenance</a>");
	if (r->ngates)
		sbuf_adds(h->o, "<a href=\"#gates\">Gates</a>");
	if (r->nep)
		sbuf_adds(h->o, "<a href=\"#ep\">EP</a>");
	if (r->ntrain)
		sbuf_adds(h->o, "<a href=\"#training\">Training</a>");
	if (r->ncoll)
		sbuf_adds(h->o, "<a href=\"#collectives\">Collectives</a>");
	if (r->ninfer)
		sbuf_adds(h->o, "<a href=\"#inference\">Inference</a>");
	if (r->nhistory)
		sbuf_adds(h->o, "<a href=\"#history\">History</a>");
	sbuf_adds(h->o, "</nav>");
}

static void page(const struct assay_report *r, bool linked, struct sbuf *out)
{
	struct sbuf doc = SBUF_INIT;
	struct html h = {&doc, r, &r->secrets, NULL, 0};
	page_prepare(&h);
	sbuf_grow(&doc, 64 * 1024 + r->ncases * 600);
	page_head(&h, linked);
	html_summary(&h);
	page_nav(&h);
	sbuf_adds(&doc, "<main>");
	html_cases(&h);
	html_provenance(&h);
	html_gates(&h);
	html_ep(&h);
	html_training(&h);
	html_collectives(&h);
	html_inference(&h);
	html_history(&h);
	if (linked) {
		sbuf_addf(&doc, "</main><footer>Served by assay %s.</footer></body></html>\n",
			  assay_version_string);
	} else {
		sbuf_addf(&doc,
			  "</main><footer>Written by assay %s. This page is self-contained: it "
			  "loads nothing from anywhere.</footer><script>",
			  assay_version_string);
		sbuf_adds(&doc, assay_report_js);
		sbuf_adds(&doc, "</script></body></html>\n");
	}
	rep_redact_all(&doc, REP_XML, &r->secrets);
	sbuf_add(out, doc.buf, doc.len);
	sbuf_release(&doc);
	free(h.case_order);
}

void assay_report_html(const struct assay_report *r, struct sbuf *out)
{
	page(r, false, out);
}

void assay_report_html_served(const struct assay_report *r, struct sbuf *out)
{
	page(r, true, out);
}
