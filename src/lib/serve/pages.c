/* assay serve's HTML pages: the overview (every series the filters select,
 * sorted and paged, with its latest value, a sparkline and the newest
 * change point) and a series page (the report's chart card, the points and
 * their notes, the annotations, the ack form). Every string from the store
 * goes through the report's escaping. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "assay/detect.h"
#include "assay/json.h"
#include "assay/report.h"
#include "serve/serve_int.h"

#define SPARK_POINTS 60 /* points of each overview row's sparkline and detection */

static void esc(struct sbuf *o, const char *s)
{
	assay_report_escape(o, s ? s : "");
}

void serve_page_open(struct sbuf *o, const char *title, const char *generation,
		     const char *store_name)
{
	sbuf_adds(o, "<!DOCTYPE html>\n<html lang=\"en\" data-generation=\"");
	esc(o, generation);
	sbuf_adds(o, "\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" "
		     "content=\"width=device-width, initial-scale=1\"><link rel=\"icon\" "
		     "href=\"data:,\"><title>");
	esc(o, title);
	sbuf_adds(o, "</title><link rel=\"stylesheet\" href=\"/assets/report.css\">"
		     "<script src=\"/assets/report.js\" defer></script>"
		     "<script src=\"/assets/serve.js\" defer></script></head><body>"
		     "<header class=\"top\"><div class=\"brand\">assay serve</div>"
		     "<div class=\"title\"><h1>");
	esc(o, title);
	sbuf_adds(o, "</h1></div><p class=\"hnote\" id=\"live\">store ");
	esc(o, store_name);
	sbuf_adds(o, "</p></header><nav><a href=\"/\">Overview</a>"
		     "<a href=\"/publications\">Publications</a>"
		     "<a href=\"/api/v1/series\">JSON</a></nav><main>");
}

void serve_href(struct sbuf *o, const char *path)
{
	for (const unsigned char *p = (const unsigned char *)path; *p; p++)
		if (isalnum(*p) || strchr("/-._~", *p))
			sbuf_addch(o, (char)*p);
		else
			sbuf_addf(o, "%%%02X", *p);
}

int serve_cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

void serve_page_close(struct sbuf *o)
{
	sbuf_adds(o, "</main><footer>Served by assay; the page refreshes when the store "
		     "changes.</footer></body></html>\n");
}

/* "metric statistic · field=value · ..." of a series' fields (the fields
 * other than metric and statistic in key order). */
void serve_series_label(const json_t *fields, struct sbuf *o)
{
	sbuf_reset(o);
	assay_json_text(o, json_object_get(fields, "metric"));
	const json_t *st = json_object_get(fields, "statistic");
	if (st) {
		sbuf_addch(o, ' ');
		assay_json_text(o, st);
	}
	const char *k;
	const json_t *v;
	json_object_foreach((json_t *)fields, k, v)
	{
		if (!strcmp(k, "metric") || !strcmp(k, "statistic"))
			continue;
		sbuf_addf(o, " · %s=", k);
		assay_json_text(o, v);
	}
}

/* The newest change point of h, as "regression +4.1% at REV" (or ""). */
static void change_state(struct sbuf *o, const struct assay_history *h, enum assay_direction dir)
{
	if (!h->ch.n) {
		sbuf_adds(o, "<td data-v=\"0\">-</td>");
		return;
	}
	const struct assay_change_point *cp = &h->ch.v[h->ch.n - 1];
	bool reg = assay_change_is_regression(&cp->c, dir);
	sbuf_addf(o, "<td data-v=\"%d\"><span class=\"b v-%s\">%s</span> %+.1f%% at ", reg ? 2 : 1,
		  reg ? "FAIL" : "PASS", reg ? "regression" : "improvement",
		  cp->c.rel_change * 100);
	esc(o, cp->revision ? cp->revision : "-");
	if (cp->annotation) {
		sbuf_adds(o, " (");
		esc(o, cp->annotation);
		sbuf_adds(o, ")");
	}
	sbuf_adds(o, "</td>");
}

/* The newest gate verdict on the series: its status badge and the gate. */
static assay_err gate_state(struct assay_serve *srv, const char *key, struct sbuf *o,
			    struct assay_error *e)
{
	char *gate, *status;
	assay_err rc = assay_store_series_verdict(srv->store, key, &gate, &status, e);
	if (rc == ASSAY_OK && status) {
		bool known = !strcmp(status, "PASS") || !strcmp(status, "FAIL") ||
			     !strcmp(status, "RECORD") || !strcmp(status, "SKIPPED");
		sbuf_addf(o, "<td><span class=\"b v-%s\">", known ? status : "RECORD");
		esc(o, status);
		sbuf_adds(o, "</span> ");
		esc(o, gate);
		sbuf_adds(o, "</td>");
	} else {
		sbuf_adds(o, "<td>-</td>");
	}
	free(gate);
	free(status);
	return rc;
}

/* One overview row: the series' newest points read for its sparkline. */
assay_err serve_overview_row(struct assay_serve *srv, struct assay_series_info *si, struct sbuf *o,
			     struct assay_error *e)
{
	struct assay_series_filter range = {.last = SPARK_POINTS};
	struct assay_history h = {0};
	assay_err rc = assay_history_load(srv->store, si->key, &range, true, &h, e);
	if (rc != ASSAY_OK) {
		assay_history_release(&h);
		return rc;
	}
	struct sbuf label = SBUF_INIT;
	serve_series_label(assay_series_fields(si), &label);
	char num[64];
	sbuf_addf(o, "<tr><td><a href=\"/series/%s\">", si->key);
	esc(o, label.buf);
	sbuf_adds(o, "</a></td><td>");
	esc(o, si->unit);
	sbuf_addf(o, "</td><td class=\"num\" data-v=\"%lld\">%lld</td>", si->count, si->count);
	sbuf_addf(o, "<td class=\"num\">%s</td><td>",
		  assay_report_number(num, sizeof(num), si->last_value));
	esc(o, si->last_revision ? si->last_revision : "-");
	sbuf_adds(o, "</td><td>");
	esc(o, si->last_timestamp ? si->last_timestamp : "-");
	sbuf_adds(o, "</td><td>");
	esc(o, h.pts.n && h.pts.v[h.pts.n - 1].run_id ? h.pts.v[h.pts.n - 1].run_id : "-");
	sbuf_adds(o, "</td><td>");
	double *y = xcalloc(h.pts.n + 1, sizeof(double));
	size_t *cps = xcalloc(h.ch.n + 1, sizeof(size_t));
	for (size_t i = 0; i < h.pts.n; i++)
		y[i] = h.pts.v[i].value;
	for (size_t k = 0; k < h.ch.n; k++)
		cps[k] = h.ch.v[k].c.index;
	assay_report_sparkline(o, y, h.pts.n, cps, h.ch.n);
	sbuf_adds(o, "</td>");
	change_state(o, &h, si->direction);
	rc = gate_state(srv, si->key, o, e);
	sbuf_adds(o, "</tr>");
	free(y);
	free(cps);
	sbuf_release(&label);
	assay_history_release(&h);
	return rc;
}

/* The series page's chart: the report's card for the points shown. */
static void series_chart(struct sbuf *o, const char *label, const struct assay_series_info *si,
			 const struct assay_history *h)
{
	struct assay_report r;
	assay_report_init(&r);
	struct assay_report_history *rh = assay_report_add_history(&r, label, si->unit);
	rh->lower_is_better = si->direction == ASSAY_DIR_LOWER;
	for (size_t i = 0; i < h->pts.n; i++)
		assay_report_history_point(rh, h->pts.v[i].revision ? h->pts.v[i].revision : "-",
					   h->pts.v[i].value);
	for (size_t k = 0; k < h->ch.n; k++)
		assay_report_history_change(rh, h->ch.v[k].c.index);
	rh->new_point = -1;
	sbuf_adds(o, "<section id=\"chart\"><div class=\"charts\">");
	assay_report_history_card(rh, o);
	sbuf_adds(o, "</div></section>");
	assay_report_release(&r);
}

static void series_points(struct sbuf *o, const struct assay_series_info *si,
			  const struct assay_history *h)
{
	struct sbuf note = SBUF_INIT;
	char num[64];
	sbuf_addf(o,
		  "<section id=\"points\"><h2>Points <small>%zu</small></h2><div "
		  "class=\"scroll\"><table class=\"sortable\" id=\"point-table\"><thead><tr>"
		  "<th class=\"num\">Point</th><th>Timestamp</th><th>Revision</th>"
		  "<th class=\"num\">Value</th><th>Run</th><th>Notes</th></tr></thead><tbody>",
		  h->pts.n);
	for (size_t i = h->pts.n; i-- > 0;) {
		const struct assay_point *pt = &h->pts.v[i];
		assay_history_notes(h, i, si->direction, &note);
		sbuf_addf(o, "<tr><td class=\"num\" data-v=\"%zu\">%zu</td><td>", i, i);
		esc(o, pt->timestamp);
		sbuf_adds(o, "</td><td>");
		esc(o, pt->revision ? pt->revision : "-");
		sbuf_addf(o, "</td><td class=\"num\">%s</td><td>",
			  assay_report_number(num, sizeof(num), pt->value));
		esc(o, pt->run_id ? pt->run_id : "-");
		sbuf_adds(o, "</td><td>");
		esc(o, note.buf);
		sbuf_adds(o, "</td></tr>");
	}
	sbuf_adds(o, "</tbody></table></div></section>");
	sbuf_release(&note);
}

static void series_annotations(struct sbuf *o, const struct assay_series_info *si,
			       const struct assay_history *h, bool writable)
{
	sbuf_addf(o, "<section id=\"annotations\"><h2>Annotations <small>%zu</small></h2>",
		  h->ann.n);
	if (h->ann.n)
		sbuf_adds(o, "<table><thead><tr><th>Kind</th><th>Revision</th><th>Note</th>"
			     "<th>When</th></tr></thead><tbody>");
	for (size_t k = 0; k < h->ann.n; k++) {
		const struct assay_annotation *a = &h->ann.v[k];
		sbuf_addf(o, "<tr class=\"ann\"><td>%s</td><td>",
			  assay_annotation_kind_name(a->kind));
		esc(o, a->revision);
		sbuf_adds(o, "</td><td>");
		esc(o, a->note ? a->note : "");
		sbuf_adds(o, "</td><td>");
		esc(o, a->created);
		sbuf_adds(o, "</td></tr>");
	}
	if (h->ann.n)
		sbuf_adds(o, "</tbody></table>");
	if (!writable) {
		sbuf_adds(o, "<p class=\"note\">This server is read-only: it was started "
			     "without write tokens.</p></section>");
		return;
	}
	sbuf_addf(o,
		  "<form id=\"ack\" data-series=\"%s\"><label>Revision <input name=\"revision\" "
		  "required></label> <label>Kind <select name=\"kind\"><option>ack</option>"
		  "<option>expected</option><option>ignore</option></select></label> "
		  "<label>Note <input name=\"note\"></label> <label>Token <input "
		  "name=\"token\" type=\"password\" autocomplete=\"off\" required></label> "
		  "<button type=\"submit\">Annotate</button> <output id=\"ack-result\">"
		  "</output></form></section>",
		  si->key);
}

void serve_series_page(struct assay_serve *srv, struct assay_series_info *si,
		       const struct assay_history *h, const char *generation, struct sbuf *o)
{
	struct sbuf label = SBUF_INIT;
	serve_series_label(assay_series_fields(si), &label);
	serve_page_open(o, label.buf, generation, srv->store_name);
	sbuf_addf(o, "<p class=\"factors\">series <code>%s</code>, %zu points shown, ", si->key,
		  h->pts.n);
	esc(o, si->unit);
	sbuf_addf(o, ", %s is better. <a href=\"/api/v1/series/%s\">JSON</a></p>",
		  si->direction == ASSAY_DIR_LOWER ? "lower" : "higher", si->key);
	series_chart(o, label.buf, si, h);
	series_points(o, si, h);
	bool writable = false;
	for (size_t i = 0; i < srv->tokens.n; i++)
		writable |= srv->tokens.v[i].write;
	series_annotations(o, si, h, writable);
	serve_page_close(o);
	sbuf_release(&label);
}
