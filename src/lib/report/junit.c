/* junit.xml: one <testsuite> per run, one <testcase> per case and per gate,
 * valid against tests/report/junit.xsd (what CI systems read of the Ant and
 * Jenkins formats). gate-failed, workload-failed and gate FAIL are <failure>;
 * no-metrics and infrastructure <error>; unsupported, skipped and gate
 * SKIPPED <skipped> (docs/report.md); type names assay's outcome. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_internal.h"

#define MESSAGE_MAX 240  /* bytes of the message attribute */
#define BODY_MAX    4000 /* bytes of the element text; the logs have the rest */

enum jkind { J_PASS, J_FAILURE, J_ERROR, J_SKIPPED };

static enum jkind case_kind(enum assay_report_outcome o)
{
	switch (o) {
	case ASSAY_REPORT_GATE_FAILED:
	case ASSAY_REPORT_WORKLOAD_FAILED: return J_FAILURE;
	case ASSAY_REPORT_NO_METRICS:
	case ASSAY_REPORT_INFRA: return J_ERROR;
	case ASSAY_REPORT_UNSUPPORTED:
	case ASSAY_REPORT_SKIPPED: return J_SKIPPED;
	default: return J_PASS;
	}
}

static enum jkind gate_kind(enum assay_report_verdict v)
{
	switch (v) {
	case ASSAY_VERDICT_FAIL: return J_FAILURE;
	case ASSAY_VERDICT_SKIPPED: return J_SKIPPED;
	default: return J_PASS;
	}
}

static void esc(struct sbuf *o, const char *s, size_t max, const struct assay_report *r)
{
	rep_text(o, REP_XML, s, max, &r->secrets);
}

/* name="value"; never empty (the schema wants names), "-" stands in. */
static void attr(struct sbuf *o, const char *name, const char *value, const struct assay_report *r)
{
	sbuf_addf(o, " %s=\"", name);
	size_t at = o->len;
	esc(o, value ? value : "", 0, r);
	if (o->len == at)
		sbuf_addch(o, '-');
	sbuf_addch(o, '"');
}

static void seconds(struct sbuf *o, double s)
{
	sbuf_addf(o, " time=\"%.3f\"", isfinite(s) && s > 0 ? s : 0.0);
}

/* The element for a testcase that did not pass: message is one line. */
static void outcome_element(struct sbuf *o, enum jkind k, const char *type, const char *message,
			    const char *body, const struct assay_report *r)
{
	static const char *const names[] = {"", "failure", "error", "skipped"};
	if (k == J_PASS)
		return;
	char *line = xstrndup(message ? message : "", rep_first_line(message));
	sbuf_addf(o, "<%s", names[k]);
	if (k != J_SKIPPED)
		attr(o, "type", type, r);
	sbuf_adds(o, " message=\"");
	esc(o, *line ? line : type, MESSAGE_MAX, r);
	sbuf_addch(o, '"');
	if (body && *body) {
		sbuf_addch(o, '>');
		esc(o, body, BODY_MAX, r);
		sbuf_addf(o, "</%s>", names[k]);
	} else {
		sbuf_adds(o, "/>");
	}
	free(line);
}

/* "RFC 3339 UTC" -> the xs:dateTime without zone that the Ant schema wants;
 * NULL when started is not of that shape. */
static bool timestamp(const char *t, char out[20])
{
	static const char shape[] = "dddd-dd-ddTdd:dd:dd";
	if (!t || strlen(t) < 19)
		return false;
	for (size_t i = 0; i < 19; i++) {
		bool digit = t[i] >= '0' && t[i] <= '9';
		if (shape[i] == 'd' ? !digit : t[i] != shape[i])
			return false;
	}
	memcpy(out, t, 19);
	out[19] = '\0';
	return true;
}

static void gate_body(struct sbuf *sb, const struct assay_report_gate *g)
{
	char v[64];
	sbuf_reset(sb);
	sbuf_addf(sb, "%s: %s", g->metric ? g->metric : "?", rep_num(v, sizeof(v), g->value, 6));
	if (isfinite(g->value) && g->unit && *g->unit)
		sbuf_addf(sb, " %s", g->unit);
	if (g->spec && *g->spec)
		sbuf_addf(sb, ", expected %s", g->spec);
	if (g->message && *g->message)
		sbuf_addf(sb, ": %s", g->message);
}

/* The testcase names, cases first, then gates: a case is its id, a gate
 * "case / gate / metric / series label" (the label only where the case has
 * several series for that gate and metric; "(run)" for a run-level gate).
 * They depend only on the suite's cases and series, so they are the same
 * from run to run, and CI keys its per-test history on them. A name that
 * would still repeat (two verdicts on one series) gets " #2", " #3", ... */
static void testcase_names(const struct assay_report *r, struct strlist *out)
{
	struct sbuf sb = SBUF_INIT;
	for (size_t i = 0; i < r->ncases; i++)
		strlist_push(out, r->cases[i].id ? r->cases[i].id : "-");
	for (size_t i = 0; i < r->ngates; i++) {
		const struct assay_report_gate *g = &r->gates[i];
		sbuf_reset(&sb);
		sbuf_addf(&sb, "%s / %s", g->case_id ? g->case_id : "(run)",
			  g->name ? g->name : "gate");
		if (g->metric && *g->metric)
			sbuf_addf(&sb, " / %s", g->metric);
		if (g->series && *g->series)
			sbuf_addf(&sb, " / %s", g->series);
		strlist_push(out, sb.buf);
	}
	for (size_t i = 1; i < out->n; i++) {
		bool repeated = false;
		for (size_t j = 0; j < i && !repeated; j++)
			repeated = !strcmp(out->v[i], out->v[j]);
		if (!repeated)
			continue;
		/* The first keeps the name; later ones are numbered, skipping a
		 * number some name already uses. */
		for (unsigned k = 2;; k++) {
			sbuf_reset(&sb);
			sbuf_addf(&sb, "%s #%u", out->v[i], k);
			if (!strlist_has(out, sb.buf))
				break;
		}
		free(out->v[i]);
		out->v[i] = xstrdup(sb.buf);
	}
	sbuf_release(&sb);
}

/* The run's facts as <properties>. */
static void properties(struct sbuf *o, const struct assay_report *r)
{
	sbuf_adds(o, ">\n    <properties>\n");
	const char *props[][2] = {
	    {"run_id", r->run_id},
	    {"revision", r->revision},
	    {"launcher", r->launcher},
	    {"started", r->started},
	    {"ended", r->ended},
	    {"matrix_digest", r->matrix_digest},
	    {"catalog_digest", r->catalog_digest},
	};
	char code[16];
	snprintf(code, sizeof(code), "%d", (int)r->exit_code);
	for (size_t i = 0; i < ARRAY_SIZE(props); i++) {
		if (!props[i][1] || !*props[i][1])
			continue;
		sbuf_adds(o, "      <property");
		attr(o, "name", props[i][0], r);
		attr(o, "value", props[i][1], r);
		sbuf_adds(o, "/>\n");
	}
	sbuf_adds(o, "      <property name=\"exit_code\"");
	attr(o, "value", code, r);
	sbuf_adds(o, "/>\n      <property name=\"outcome\"");
	attr(o, "value", assay_strerror(r->exit_code), r);
	sbuf_adds(o, "/>\n    </properties>\n");
}

/* <testsuites> and <testsuite> opened with their counts, then the properties. */
static void suite_open(struct sbuf *o, const struct assay_report *r, const char *suite)
{
	size_t n[4] = {0};
	double total = 0;
	for (size_t i = 0; i < r->ncases; i++) {
		n[case_kind(r->cases[i].outcome)]++;
		if (isfinite(r->cases[i].duration_s) && r->cases[i].duration_s > 0)
			total += r->cases[i].duration_s;
	}
	for (size_t i = 0; i < r->ngates; i++)
		n[gate_kind(r->gates[i].verdict)]++;
	size_t tests = r->ncases + r->ngates;
	sbuf_adds(o, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites");
	attr(o, "name", suite, r);
	sbuf_addf(o, " tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" skipped=\"%zu\"", tests,
		  n[J_FAILURE], n[J_ERROR], n[J_SKIPPED]);
	seconds(o, total);
	sbuf_adds(o, ">\n  <testsuite");
	attr(o, "name", suite, r);
	sbuf_adds(o, " id=\"0\"");
	char *package = xasprintf("assay.%s", suite);
	attr(o, "package", package, r);
	free(package);
	sbuf_addf(o, " tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" skipped=\"%zu\"", tests,
		  n[J_FAILURE], n[J_ERROR], n[J_SKIPPED]);
	seconds(o, total);
	char ts[20];
	if (timestamp(r->started, ts))
		sbuf_addf(o, " timestamp=\"%s\"", ts);
	if (r->host && *r->host)
		attr(o, "hostname", r->host, r);
	properties(o, r);
}

/* One <testcase>: empty when it passed, else with its outcome element. */
static void testcase(struct sbuf *o, const struct assay_report *r, const char *name,
		     const char *cls, double seconds_, enum jkind k, const char *type,
		     const char *message, const char *body)
{
	sbuf_adds(o, "    <testcase");
	attr(o, "name", name, r);
	attr(o, "classname", cls, r);
	seconds(o, seconds_);
	if (k == J_PASS) {
		sbuf_adds(o, "/>\n");
		return;
	}
	sbuf_adds(o, ">");
	outcome_element(o, k, type, message, body, r);
	sbuf_adds(o, "</testcase>\n");
}

void assay_report_junit(const struct assay_report *r, struct sbuf *out)
{
	const char *suite = r->suite && *r->suite ? r->suite : "assay";
	struct sbuf o = SBUF_INIT, tmp = SBUF_INIT;
	sbuf_grow(&o, 4096 + (r->ncases + r->ngates) * 200);
	suite_open(&o, r, suite);
	struct strlist names = STRLIST_INIT;
	testcase_names(r, &names);
	char *cls = xasprintf("%s.cases", suite);
	for (size_t i = 0; i < r->ncases; i++) {
		const struct assay_report_case *c = &r->cases[i];
		const char *type = assay_report_outcome_name(c->outcome);
		testcase(&o, r, names.v[i], cls, c->duration_s, case_kind(c->outcome), type,
			 c->reason && *c->reason ? c->reason : type, c->reason);
	}
	free(cls);
	cls = xasprintf("%s.gates", suite);
	for (size_t i = 0; i < r->ngates; i++) {
		const struct assay_report_gate *g = &r->gates[i];
		enum jkind k = gate_kind(g->verdict);
		if (k != J_PASS)
			gate_body(&tmp, g);
		testcase(&o, r, names.v[r->ncases + i], cls, 0, k, "gate", tmp.buf, tmp.buf);
	}
	free(cls);
	sbuf_adds(&o, "    <system-out>");
	sbuf_reset(&tmp);
	sbuf_addf(&tmp, "assay run %s: %s (exit %d); charts and logs: report.html",
		  r->run_id && *r->run_id ? r->run_id : "-", assay_strerror(r->exit_code),
		  (int)r->exit_code);
	esc(&o, tmp.buf, 0, r);
	sbuf_adds(&o, "</system-out>\n    <system-err/>\n  </testsuite>\n</testsuites>\n");
	rep_redact_all(&o, REP_XML, &r->secrets);
	sbuf_add(out, o.buf, o.len);
	strlist_clear(&names);
	sbuf_release(&o);
	sbuf_release(&tmp);
}
