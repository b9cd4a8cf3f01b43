/* report.html's case table (factors every case shares said once above it,
 * the outcome, the duration apart from the time queued, the reason folded
 * when long, links to the case's files) and the provenance table. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/html_int.h"

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

/* Factors every case shares are said once, above the table; their keys
 * into common. */
static void common_factors(struct html *h, struct strlist *common)
{
	const struct assay_report *r = h->r;
	const struct assay_report_case *c0 = &r->cases[0];
	for (size_t k = 0; k < c0->nfactors; k++)
		if (common_factor(r, &c0->factors[k])) {
			if (!common->n)
				sbuf_adds(h->o, "<p class=\"note factors\">Every case: ");
			factor(h, &c0->factors[k]);
			strlist_push(common, c0->factors[k].key);
		}
	if (common->n)
		sbuf_adds(h->o, "</p>");
}

/* The filter box and the outcome menu (the script shows them), then the
 * table's head. */
static void cases_head(struct html *h)
{
	sbuf_adds(h->o, "<div class=\"tools\" id=\"tools\" hidden><input id=\"filter\" "
			"type=\"search\" placeholder=\"Filter cases\" aria-label=\"Filter cases\">"
			"<select id=\"outcome\" aria-label=\"Outcome\"><option value=\"\">"
			"all outcomes</option>");
	size_t counts[ASSAY_REPORT_OUTCOME_COUNT];
	assay_report_count(h->r, counts);
	for (int i = 0; i < ASSAY_REPORT_OUTCOME_COUNT; i++)
		if (counts[i])
			sbuf_addf(h->o, "<option>%s</option>", assay_report_outcome_name(i));
	sbuf_adds(h->o,
		  "</select><span id=\"shown\"></span></div>"
		  "<div class=\"scroll\"><table class=\"sortable\" id=\"case-table\"><thead><tr>"
		  "<th>Case</th><th>Factors</th><th>Outcome</th><th class=\"num\">Duration</th>"
		  "<th>Reason</th><th>Files</th></tr></thead><tbody>");
}

static void case_duration(struct html *h, const struct assay_report_case *c)
{
	sbuf_adds(h->o, "<td class=\"num\"");
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
}

static void case_files(struct html *h, const struct assay_report_case *c)
{
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
	sbuf_adds(h->o, "</td>");
}

/* Case i's row; the factors in common left out. */
static void case_row(struct html *h, size_t i, const struct strlist *common)
{
	const struct assay_report_case *c = &h->r->cases[i];
	sbuf_addf(h->o, "<tr id=\"c%zu\" data-o=\"%s\"><td class=\"id\"><code>", i,
		  assay_report_outcome_name(c->outcome));
	esc(h, c->id);
	sbuf_adds(h->o, "</code></td><td class=\"factors\">");
	for (size_t k = 0; k < c->nfactors; k++)
		if (!strlist_has(common, c->factors[k].key))
			factor(h, &c->factors[k]);
	sbuf_adds(h->o, "</td><td>");
	badge_outcome(h, c->outcome);
	sbuf_adds(h->o, "</td>");
	case_duration(h, c);
	reason(h, c->reason);
	case_files(h, c);
	sbuf_adds(h->o, "</tr>");
}

void html_cases(struct html *h)
{
	const struct assay_report *r = h->r;
	sbuf_addf(h->o, "<section id=\"cases\"><h2>Cases <small>%zu</small></h2>", r->ncases);
	if (!r->ncases) {
		sbuf_adds(h->o, "<p class=\"note\">This run has no cases.</p></section>");
		return;
	}
	struct strlist common = STRLIST_INIT;
	common_factors(h, &common);
	cases_head(h);
	for (size_t i = 0; i < r->ncases; i++)
		case_row(h, i, &common);
	sbuf_adds(h->o, "</tbody></table></div></section>");
	strlist_clear(&common);
}

/* What the provenance expectations matched, per case and node or rank. */
void html_provenance(struct html *h)
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
