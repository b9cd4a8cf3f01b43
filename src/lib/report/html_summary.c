/* report.html's summary at the top: the suite, the run and its outcome,
 * where and when it ran, the count of cases by outcome and of failed gates,
 * and the notes. */
#include <string.h>

#include "report/html_int.h"

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

void html_summary(struct html *h)
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
			  "<span class=\"total gates\">%zu gate%s</span>"
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
