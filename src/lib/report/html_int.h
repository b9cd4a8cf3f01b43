/* Shared by the files of the HTML report (html*.c): the page's state, its
 * caps, the small writers every section uses, and one renderer per page
 * section, each writing its part of the page into h->o (the same sections
 * can make up other pages). Not a public header. */
#ifndef ASSAY_REPORT_HTML_INT_H
#define ASSAY_REPORT_HTML_INT_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>

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

static inline void esc(struct html *h, const char *s)
{
	rep_text(h->o, REP_XML, s, 0, h->secrets);
}

static inline void esc_max(struct html *h, const char *s, size_t max)
{
	rep_text(h->o, REP_XML, s, max, h->secrets);
}

static inline void num(struct html *h, double v, int sig)
{
	char buf[64];
	sbuf_adds(h->o, rep_num(buf, sizeof(buf), v, sig));
}

/* data-v="..." for sorting a numeric column ("" when unknown). */
static inline void data_v(struct html *h, double v)
{
	char buf[64];
	sbuf_addf(h->o, " data-v=\"%s\"", isfinite(v) ? rep_num(buf, sizeof(buf), v, 9) : "");
}

static inline void badge_outcome(struct html *h, enum assay_report_outcome o)
{
	const char *n = assay_report_outcome_name(o);
	sbuf_addf(h->o, "<span class=\"b o-%s\">%s</span>", n, n);
}

static inline void badge_verdict(struct html *h, enum assay_report_verdict v)
{
	const char *n = assay_report_verdict_name(v);
	sbuf_addf(h->o, "<span class=\"b v-%s\">%s</span>", n, n);
}

/* html.c: the case id as a link to its row in the case table (plain when
 * no case has it), and the x and y columns of points (n + 1 each, freed
 * by the caller). */
void html_case_ref(struct html *h, const char *id);
void html_xy_split(const struct assay_report_xy *v, size_t n, double **x, double **y);
/* html.c: two charts side by side. */
void html_chart_pair(struct html *h, const struct svg_chart *c1, const struct svg_chart *c2);

/* The page's sections, in page order; each writes nothing when the report
 * has none of its kind (but the cases, which says so). */
void html_summary(struct html *h);     /* html_summary.c: the run, its counts and notes */
void html_cases(struct html *h);       /* html_cases.c: the case table */
void html_provenance(struct html *h);  /* html_cases.c: what provenance matched */
void html_gates(struct html *h);       /* html_gates.c: the gate table */
void html_ep(struct html *h);          /* html_ep.c: EP ladders, charts and tables */
void html_training(struct html *h);    /* html_train.c: loss and throughput charts */
void html_collectives(struct html *h); /* html_coll.c: busbw by message size */
void html_inference(struct html *h);   /* html_infer.c: throughput and latency by concurrency */
void html_history(struct html *h);     /* html_history.c: series charts, change points */

/* html_gates.c: a gate table's head and rows (the case column optional). */
void html_gate_table_head(struct html *h, bool with_case);
void html_gate_row(struct html *h, const struct assay_report_gate *g, bool with_case);

#endif
