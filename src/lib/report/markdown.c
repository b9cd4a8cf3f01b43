/* summary.md: a short GitHub-flavoured Markdown summary for a CI job page
 * (outcome counts, cases that did not pass, failed gates, regressions), each
 * list capped so the page stays short; report.html has the rest. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_internal.h"

#define ROWS_MAX 20 /* rows per table */
#define CELL_MAX 160

static void cell(struct sbuf *o, const char *s, const struct assay_report *r)
{
	sbuf_adds(o, " ");
	rep_text(o, REP_MD, s && *s ? s : "-", CELL_MAX, &r->secrets);
	sbuf_adds(o, " |");
}

static void cell_first_line(struct sbuf *o, const char *s, const struct assay_report *r)
{
	char *line = xstrndup(s ? s : "", rep_first_line(s));
	cell(o, line, r);
	free(line);
}

static void value_cell(struct sbuf *o, double v, const char *unit, const struct assay_report *r)
{
	char buf[64];
	struct sbuf t = SBUF_INIT;
	sbuf_adds(&t, rep_num(buf, sizeof(buf), v, 5));
	if (isfinite(v) && unit && *unit)
		sbuf_addf(&t, " %s", unit);
	cell(o, t.buf, r);
	sbuf_release(&t);
}

static void more(struct sbuf *o, size_t shown, size_t total)
{
	if (total > shown)
		sbuf_addf(o, "\n…and %zu more in report.html.\n", total - shown);
}

static bool not_passed(enum assay_report_outcome o)
{
	return o != ASSAY_REPORT_PASSED && o != ASSAY_REPORT_UNSUPPORTED &&
	       o != ASSAY_REPORT_SKIPPED;
}

/* "### assay: SUITE run ID: **outcome** (exit N)", then the run's notes. */
static void md_heading(struct sbuf *o, const struct assay_report *r)
{
	sbuf_adds(o, "### assay: ");
	rep_text(o, REP_MD, r->suite && *r->suite ? r->suite : "run", 0, &r->secrets);
	if (r->run_id && *r->run_id) {
		sbuf_adds(o, " run ");
		rep_text(o, REP_MD, r->run_id, 0, &r->secrets);
	}
	sbuf_addf(o, ": **%s** (exit %d)\n\n",
		  r->exit_code == ASSAY_OK ? "passed" : assay_strerror(r->exit_code),
		  (int)r->exit_code);
	for (size_t i = 0; i < r->notes.n; i++) {
		sbuf_adds(o, "> ");
		rep_text(o, REP_MD, r->notes.v[i], 0, &r->secrets);
		sbuf_adds(o, "\n\n");
	}
}

/* Cases that did not pass, at most ROWS_MAX of the bad ones. */
static void md_bad_cases(struct sbuf *o, const struct assay_report *r, size_t bad)
{
	sbuf_adds(o, "\n#### Cases that did not pass\n\n| case | outcome | reason |\n"
		     "|---|---|---|\n");
	size_t shown = 0;
	for (size_t i = 0; i < r->ncases && shown < ROWS_MAX; i++) {
		const struct assay_report_case *c = &r->cases[i];
		if (!not_passed(c->outcome))
			continue;
		sbuf_adds(o, "|");
		cell(o, c->id, r);
		cell(o, assay_report_outcome_name(c->outcome), r);
		cell_first_line(o, c->reason, r);
		sbuf_adds(o, "\n");
		shown++;
	}
	more(o, shown, bad);
}

static void md_failed_gates(struct sbuf *o, const struct assay_report *r, size_t failed)
{
	sbuf_adds(o, "\n#### Failed gates\n\n| case | gate | metric | value | expected | "
		     "message |\n|---|---|---|---:|---|---|\n");
	size_t shown = 0;
	for (size_t i = 0; i < r->ngates && shown < ROWS_MAX; i++) {
		const struct assay_report_gate *g = &r->gates[i];
		if (g->verdict != ASSAY_VERDICT_FAIL)
			continue;
		sbuf_adds(o, "|");
		cell(o, g->case_id ? g->case_id : "(run)", r);
		cell(o, g->name, r);
		cell(o, g->metric, r);
		value_cell(o, g->value, g->unit, r);
		cell(o, g->spec, r);
		cell_first_line(o, g->message, r);
		sbuf_adds(o, "\n");
		shown++;
	}
	more(o, shown, failed);
}

static void md_regressions(struct sbuf *o, const struct assay_report *r, size_t regress)
{
	sbuf_adds(o, "\n#### Regressions\n\n| series | this run | message |\n"
		     "|---|---:|---|\n");
	size_t shown = 0;
	for (size_t i = 0; i < r->nhistory && shown < ROWS_MAX; i++) {
		const struct assay_report_history *h = &r->history[i];
		if (assay_report_history_mark(h) != ASSAY_MARK_REGRESSION)
			continue;
		bool has = h->new_point >= 0 && (size_t)h->new_point < h->npoints;
		sbuf_adds(o, "|");
		cell(o, h->label, r);
		value_cell(o, has ? h->points[h->new_point].value : NAN, h->unit, r);
		cell_first_line(o, h->message, r);
		sbuf_adds(o, "\n");
		shown++;
	}
	more(o, shown, regress);
}

/* ", N regressions, N improvements, N with earlier change points" as
 * report.html marks the history series (assay_report_history_mark). */
static void md_marks(struct sbuf *o, const size_t marks[ASSAY_MARK_COUNT])
{
	size_t reg = marks[ASSAY_MARK_REGRESSION], imp = marks[ASSAY_MARK_IMPROVEMENT];
	sbuf_addf(o, ", %zu regression%s, %zu improvement%s", reg, reg == 1 ? "" : "s", imp,
		  imp == 1 ? "" : "s");
	if (marks[ASSAY_MARK_EARLIER])
		sbuf_addf(o, ", %zu with change points before this run only",
			  marks[ASSAY_MARK_EARLIER]);
}

/* What the provenance expectations matched, per case and node or rank. */
static void md_provenance(struct sbuf *o, const struct assay_report *r)
{
	sbuf_adds(o, "\n#### Provenance\n\n| case | expectation | node or rank | matched |\n"
		     "|---|---|---|---|\n");
	size_t shown = 0;
	for (size_t i = 0; i < r->nprovenance && shown < ROWS_MAX; i++, shown++) {
		const struct assay_report_prov *p = &r->provenance[i];
		char *unit = xasprintf("%s %s", p->per, p->unit);
		sbuf_adds(o, "|");
		cell(o, p->case_id, r);
		cell(o, p->name, r);
		cell(o, unit, r);
		cell(o, p->matched ? p->matched : "(no match)", r);
		sbuf_adds(o, "\n");
		free(unit);
	}
	more(o, shown, r->nprovenance);
}

/* The closing line: revision, host, launcher and times, and the other files. */
static void md_facts(struct sbuf *o, const struct assay_report *r)
{
	sbuf_adds(o, "\n");
	const char *facts[][2] = {{"revision", r->revision},
				  {"host", r->host},
				  {"launcher", r->launcher},
				  {"image", r->image},
				  {"image digest", r->image_digest},
				  {"started", r->started},
				  {"ended", r->ended}};
	bool first = true;
	for (size_t i = 0; i < ARRAY_SIZE(facts); i++) {
		if (!facts[i][1] || !*facts[i][1])
			continue;
		sbuf_addf(o, "%s%s ", first ? "" : " · ", facts[i][0]);
		rep_text(o, REP_MD, facts[i][1], 80, &r->secrets);
		first = false;
	}
	sbuf_addf(o, "%sFull report with charts: `report.html`; JUnit: `junit.xml`.\n",
		  first ? "" : ". ");
}

void assay_report_markdown(const struct assay_report *r, struct sbuf *out)
{
	struct sbuf o = SBUF_INIT;
	size_t counts[ASSAY_REPORT_OUTCOME_COUNT];
	assay_report_count(r, counts);
	md_heading(&o, r);
	sbuf_adds(&o, "| outcome | cases |\n|---|---:|\n");
	for (int i = 0; i < ASSAY_REPORT_OUTCOME_COUNT; i++)
		if (counts[i])
			sbuf_addf(&o, "| %s | %zu |\n", assay_report_outcome_name(i), counts[i]);
	sbuf_addf(&o, "| **total** | **%zu** |\n", r->ncases);

	size_t gate_fail = 0, bad = 0, marks[ASSAY_MARK_COUNT];
	for (size_t i = 0; i < r->ngates; i++)
		gate_fail += r->gates[i].verdict == ASSAY_VERDICT_FAIL;
	assay_report_count_marks(r, marks);
	size_t regress = marks[ASSAY_MARK_REGRESSION];
	for (size_t i = 0; i < r->ncases; i++)
		bad += not_passed(r->cases[i].outcome);
	if (r->ngates || r->nhistory) {
		sbuf_addf(&o, "\nGates: %zu evaluated, %zu failed. History: %zu series", r->ngates,
			  gate_fail, r->nhistory);
		md_marks(&o, marks);
		sbuf_adds(&o, ".\n");
	}
	if (bad)
		md_bad_cases(&o, r, bad);
	if (gate_fail)
		md_failed_gates(&o, r, gate_fail);
	if (regress)
		md_regressions(&o, r, regress);
	if (r->nprovenance)
		md_provenance(&o, r);
	md_facts(&o, r);
	rep_redact_all(&o, REP_MD, &r->secrets);
	sbuf_add(out, o.buf, o.len);
	sbuf_release(&o);
}
