/* assay serve's overview: the series the URL's filters select, sorted and
 * cut into pages, so that a store of 10,000 series reads one page of rows
 * (and detects on those only). */
#include <stdlib.h>
#include <string.h>

#include "assay/report.h"
#include "serve/serve_int.h"

struct sorted {
	struct assay_series_info *si;
	char *label;
};

static int cmp_label(const void *a, const void *b)
{
	return strcmp(((const struct sorted *)a)->label, ((const struct sorted *)b)->label);
}

static int cmp_count(const void *a, const void *b)
{
	long long x = ((const struct sorted *)a)->si->count,
		  y = ((const struct sorted *)b)->si->count;
	return x < y ? 1 : x > y ? -1 : 0;
}

/* Newest last point first. */
static int cmp_last(const void *a, const void *b)
{
	const char *x = ((const struct sorted *)a)->si->last_timestamp;
	const char *y = ((const struct sorted *)b)->si->last_timestamp;
	return -strcmp(x ? x : "", y ? y : "");
}

/* The filter form, filled with the URL's values. */
static void filter_form(struct sbuf *o, const struct assay_serve_route *r)
{
	static const char *const sorts[] = {"key", "label", "count", "last"};
	sbuf_adds(o, "<form id=\"filter-form\" method=\"get\" action=\"/\"><label>Match "
		     "<input name=\"match\" placeholder=\"FIELD=VALUE\" value=\"");
	for (size_t i = 0; i < r->match.n && i < 1; i++)
		assay_report_escape(o, r->match.v[i]);
	sbuf_adds(o, "\"></label> <label>Since <input name=\"since\" placeholder=\"2026-11-01\" "
		     "value=\"");
	assay_report_escape(o, r->since ? r->since : "");
	sbuf_adds(o, "\"></label> <label>Sort <select name=\"sort\">");
	for (size_t i = 0; i < ARRAY_SIZE(sorts); i++)
		sbuf_addf(o, "<option%s>%s</option>", strcmp(r->sort, sorts[i]) ? "" : " selected",
			  sorts[i]);
	sbuf_adds(o, "</select></label> <button type=\"submit\">Filter</button></form>");
}

/* The query of this page with another page number. */
static void page_link(struct sbuf *o, const struct assay_serve_route *r, long long page,
		      const char *text)
{
	struct sbuf q = SBUF_INIT;
	sbuf_addf(&q, "/?page=%lld&per=%lld&sort=%s", page, r->per, r->sort);
	for (size_t i = 0; i < r->match.n; i++) {
		sbuf_adds(&q, "&match=");
		for (const char *p = r->match.v[i]; *p; p++)
			sbuf_addf(&q,
				  strchr("&#%+?= \"<>'", *p) || (unsigned char)*p >= 0x80 ? "%%%02X"
											  : "%c",
				  (unsigned char)*p);
	}
	if (r->since)
		sbuf_addf(&q, "&since=%s", r->since);
	if (r->until)
		sbuf_addf(&q, "&until=%s", r->until);
	sbuf_adds(o, " <a href=\"");
	assay_report_escape(o, q.buf);
	sbuf_addf(o, "\">%s</a>", text);
	sbuf_release(&q);
}

static assay_err overview_rows(struct assay_serve *srv, const struct assay_serve_route *r,
			       struct assay_series_list *l, struct sbuf *o, struct assay_error *e)
{
	struct sorted *v = xcalloc(l->n + 1, sizeof(*v));
	struct sbuf label = SBUF_INIT;
	for (size_t i = 0; i < l->n; i++) {
		v[i].si = &l->v[i];
		if (!strcmp(r->sort, "label")) {
			serve_series_label(assay_series_fields(&l->v[i]), &label);
			v[i].label = xstrdup(label.buf);
		}
	}
	if (!strcmp(r->sort, "label"))
		qsort(v, l->n, sizeof(*v), cmp_label);
	else if (!strcmp(r->sort, "count"))
		qsort(v, l->n, sizeof(*v), cmp_count);
	else if (!strcmp(r->sort, "last"))
		qsort(v, l->n, sizeof(*v), cmp_last);
	size_t from = (size_t)((r->page_no - 1) * r->per), to = from + (size_t)r->per;
	to = to > l->n ? l->n : to;
	sbuf_addf(o, "<p class=\"note\" id=\"shown\">%zu series; %zu to %zu shown.", l->n,
		  from < to ? from + 1 : 0, to);
	if (r->page_no > 1)
		page_link(o, r, r->page_no - 1, "previous page");
	if (to < l->n)
		page_link(o, r, r->page_no + 1, "next page");
	sbuf_adds(o, "</p><div class=\"scroll\"><table class=\"sortable\" id=\"series-table\">"
		     "<thead><tr><th>Series</th><th>Unit</th><th class=\"num\">Points</th>"
		     "<th class=\"num\">Latest</th><th>Revision</th><th>Last point</th>"
		     "<th>Run</th><th>Trend</th><th>Change</th><th>Gate</th></tr></thead><tbody>");
	assay_err rc = ASSAY_OK;
	for (size_t i = from; i < to && rc == ASSAY_OK; i++)
		rc = serve_overview_row(srv, v[i].si, o, e);
	sbuf_adds(o, "</tbody></table></div>");
	for (size_t i = 0; i < l->n; i++)
		free(v[i].label);
	free(v);
	sbuf_release(&label);
	return rc;
}

/* The newest runs, each linked to its page (its report). */
static assay_err recent_runs(struct assay_serve *srv, struct sbuf *o, struct assay_error *e)
{
	struct assay_run_list l = {0};
	assay_err rc = assay_store_runs(srv->store, 20, &l, e);
	if (rc == ASSAY_OK && l.n) {
		sbuf_adds(o,
			  "<section id=\"runs\"><h2>Runs <small>the newest 20</small></h2>"
			  "<div class=\"scroll\"><table class=\"sortable\" id=\"run-table\"><thead>"
			  "<tr><th>Run</th><th>Suite</th><th>Revision</th><th>Started</th>"
			  "<th>Outcome</th><th class=\"num\">Cases</th><th class=\"num\">Rows"
			  "</th></tr></thead><tbody>");
		for (size_t i = 0; i < l.n; i++) {
			const struct assay_run_summary *u = &l.v[i];
			sbuf_adds(o, "<tr><td><a href=\"/run/");
			serve_href(o, u->run_id);
			sbuf_adds(o, "/\">");
			assay_report_escape(o, u->run_id);
			sbuf_adds(o, "</a></td><td>");
			assay_report_escape(o, u->suite ? u->suite : "-");
			sbuf_adds(o, "</td><td>");
			assay_report_escape(o, u->revision ? u->revision : "-");
			sbuf_adds(o, "</td><td>");
			assay_report_escape(o, u->started ? u->started : "-");
			sbuf_addf(o,
				  "</td><td>%s</td><td class=\"num\">%lld</td><td class=\"num\">"
				  "%lld</td></tr>",
				  u->exit_code < 0 ? "running or killed"
						   : assay_strerror((assay_err)u->exit_code),
				  u->cases, u->rows);
		}
		sbuf_adds(o, "</tbody></table></div></section>");
	}
	assay_run_list_release(&l);
	return rc;
}

assay_err serve_overview(struct assay_serve *srv, const struct assay_serve_route *r,
			 const char *generation, struct sbuf *o, struct assay_error *e)
{
	struct assay_series_filter f = {.match = r->match, .since = r->since, .until = r->until};
	struct assay_series_list l = {0};
	assay_err rc = assay_store_series(srv->store, &f, &l, e);
	if (rc == ASSAY_OK) {
		serve_page_open(o, "Overview", generation, srv->store_name);
		sbuf_adds(o, "<section id=\"series\"><h2>Series</h2>");
		filter_form(o, r);
		rc = overview_rows(srv, r, &l, o, e);
		sbuf_adds(o, "</section>");
		if (rc == ASSAY_OK)
			rc = recent_runs(srv, o, e);
		serve_page_close(o);
	}
	assay_series_list_release(&l);
	return rc;
}
