/* report.html's gate table: failed gates first, folded when long and all
 * passed; its rows also make the threshold tables of the training section. */
#include <math.h>

#include "report/html_int.h"

void html_gate_row(struct html *h, const struct assay_report_gate *g, bool with_case)
{
	sbuf_adds(h->o, "<tr>");
	if (with_case) {
		sbuf_adds(h->o, "<td>");
		html_case_ref(h, g->case_id);
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

void html_gate_table_head(struct html *h, bool with_case)
{
	sbuf_adds(h->o, "<div class=\"scroll\"><table class=\"sortable\"><thead><tr>");
	if (with_case)
		sbuf_adds(h->o, "<th>Case</th>");
	sbuf_adds(h->o, "<th>Gate</th><th>Metric</th><th class=\"num\">Value</th><th>Spec</th>"
			"<th>Verdict</th><th>Message</th></tr></thead><tbody>");
}

void html_gates(struct html *h)
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
	html_gate_table_head(h, true);
	/* Failed gates first, then the rest, each in model order. */
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < r->ngates; i++)
			if ((r->gates[i].verdict == ASSAY_VERDICT_FAIL) == (pass == 0))
				html_gate_row(h, &r->gates[i], true);
	sbuf_adds(h->o, "</tbody></table></div></details></section>");
}
