/* The report model and its writers. The model holds everything report.html,
 * junit.xml and summary.md show, as plain structs with owned strings; the
 * reader of the store and the run's output folder fills it, and the writers
 * (src/lib/report/) only read it. Every writer passes all text through
 * secret redaction (include/assay/redact.h) with the model's secrets. */
#ifndef ASSAY_REPORT_H
#define ASSAY_REPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "assay/error.h"
#include "assay/gate.h"
#include "assay/redact.h"
#include "assay/util.h"

/* A case's outcome. Names are stable ("passed", "gate-failed", ...). */
enum assay_report_outcome {
	ASSAY_REPORT_PASSED = 0,
	ASSAY_REPORT_GATE_FAILED,
	ASSAY_REPORT_WORKLOAD_FAILED,
	ASSAY_REPORT_NO_METRICS,
	ASSAY_REPORT_INFRA,       /* launcher, store or file system failed */
	ASSAY_REPORT_UNSUPPORTED, /* the matrix or a backend cannot run this case */
	ASSAY_REPORT_SKIPPED,     /* not run (filtered, resumed past, stopped early) */
};
#define ASSAY_REPORT_OUTCOME_COUNT 7

const char *assay_report_outcome_name(enum assay_report_outcome o);
/* Accepts the names above and the exit-code names of assay_strerror() ("ok"
 * is passed, "infrastructure" is infra); -1 when unknown. */
int assay_report_outcome_parse(const char *name);
/* The exit code a case with this outcome contributes (unsupported and
 * skipped contribute ASSAY_OK). */
assay_err assay_report_outcome_exit(enum assay_report_outcome o);

/* A gate's verdict: the one verdict type of include/assay/gate.h
 * (ASSAY_VERDICT_PASS, _FAIL, _RECORD, _SKIPPED), which the gates produce
 * and the store keeps. */
#define assay_report_verdict assay_verdict_status
/* "PASS", "FAIL", "RECORD", "SKIPPED". */
const char *assay_report_verdict_name(enum assay_report_verdict v);
int assay_report_verdict_parse(const char *name); /* -1 when unknown; case-insensitive */

struct assay_report_kv {
	char *key;
	char *value;
};

/* A link to a file of the run's output folder. href is relative to the
 * folder the report is written to; absolute URLs are shown as text only. */
struct assay_report_link {
	char *label; /* "stdout", "stderr", "artifact", ... */
	char *href;
};

struct assay_report_case {
	char *id;
	struct assay_report_kv *factors; /* in display order */
	size_t nfactors, factors_alloc;
	enum assay_report_outcome outcome;
	double duration_s; /* NAN when unknown */
	double queue_s;    /* of duration_s, waiting in a queue (Slurm); 0 when none */
	/* Why it did not pass: the matched signature line, failed checks, gate
	 * failures; may hold several lines. NULL or "" when none. */
	char *reason;
	struct assay_report_link *links;
	size_t nlinks, links_alloc;
};

struct assay_report_gate {
	char *case_id; /* NULL for a run-level gate */
	char *name;    /* "threshold", "loss-slope", "regression", ... */
	char *metric;  /* "roundtrip_us p99", "lm_loss", ... */
	double value;  /* NAN when there is none */
	char *unit;
	char *spec; /* the rule, e.g. "<= 120", "slope < 0" */
	enum assay_report_verdict verdict;
	char *message;
	char *series_key; /* the series judged, NULL when none */
	/* What tells this gate's series apart from the other series of the
	 * same case, gate and metric ("tokens=8"); NULL when nothing does. */
	char *series;
};

/* One point of an EP ladder. NAN marks a missing number. */
struct assay_report_ep_point {
	double tokens;         /* tokens per rank */
	double p50_us, p99_us; /* latency */
	double bw_gbps;        /* bandwidth per rank, GB/s (1e9) */
	double max_rel_error;  /* combine oracle's max_relative_error */
	bool valid;            /* every oracle check passed */
	/* The routing's max / mean load per expert and per rank (docs/ep.md);
	 * NAN when the artifact did not record them. */
	double imbalance_expert, imbalance_rank;
};

/* The ladder of one EP case: a phase (decode, prefill) of one component
 * (roundtrip, dispatch, combine). */
struct assay_report_ep {
	char *case_id;
	char *backend;
	char *precision;
	char *phase;
	char *component; /* NULL when there is only one */
	char *mode;      /* the series' mode: "low-latency" ladders are their own series */
	/* Charts are drawn per (phase, component, group), one line per backend
	 * and precision: put the other factors here ("ep=8 · mi300x · normal");
	 * NULL is one group. */
	char *group;
	char *routing; /* the routing distribution ("uniform", "zipf:1.2"), NULL when unknown */
	struct assay_report_ep_point *points;
	size_t npoints, points_alloc;
};

/* A (step, value) pair of a training curve; NAN values are gaps. */
struct assay_report_xy {
	double x, y;
};

/* One training combination (model x parallelism x precision x ...). The
 * threshold table is the gates whose case_id is this case_id. */
struct assay_report_train {
	char *case_id;
	char *label;
	struct assay_report_xy *loss; /* lm loss per step */
	size_t nloss, loss_alloc;
	struct assay_report_xy *throughput; /* per step */
	size_t nthroughput, throughput_alloc;
	char *throughput_unit; /* "tokens/s/GPU" */
	double warmup_steps;   /* steps <= this are warm-up; 0 when none */
	bool has_fit;          /* loss ~ intercept + slope * step over [fit_from, fit_to] */
	double slope, intercept, fit_from, fit_to;
};

/* One busbw-vs-size curve of a collective chart (one chart per operation):
 * a series of rows that differ only in their message size, at one
 * revision. */
struct assay_report_coll {
	char *operation; /* the chart ("all_reduce") */
	char *label;     /* what tells the curve from the chart's others ("in-place") */
	char *revision;  /* measured at */
	bool current;    /* this run's; false: an earlier revision, drawn fainter */
	int color;       /* one colour per label, the same for its earlier revisions */
	struct assay_report_xy *points; /* bytes, busbw (GB/s); ascending bytes */
	size_t npoints, points_alloc;
};

/* One curve of an inference chart (docs/inference.md, "Report"): a value
 * of this run against the cells' concurrency, for one model and ISL/OSL
 * (the chart) and one statistic (the curve). */
struct assay_report_infer {
	char *chart;   /* "toy-llama · isl 128 · osl 64: output throughput" */
	char *y_title; /* "tok/s", "ms" */
	char *label;   /* "output_throughput", "mean", "p99" */
	int color;
	struct assay_report_xy *points; /* concurrency, value; ascending concurrency */
	size_t npoints, points_alloc;
};

struct assay_report_hpoint {
	char *revision;
	double value;
};

/* What the detector says of this run's point of a history series. */
enum assay_report_regime {
	ASSAY_REGIME_SAME,   /* no change point at this run's point */
	ASSAY_REGIME_WORSE,  /* this run starts a new regime, for the worse */
	ASSAY_REGIME_BETTER, /* this run starts a new regime, for the better */
};

/* How a history series is marked, in report.html and counted in summary.md
 * (assay_report_history_mark). */
enum assay_report_mark {
	ASSAY_MARK_REGRESSION,  /* a regression gate failed, or the run's regime is worse */
	ASSAY_MARK_IMPROVEMENT, /* the run's regime is better, no regression gate failed */
	ASSAY_MARK_EARLIER,     /* change points before this run's point only */
	ASSAY_MARK_NONE,        /* no change point, no failed gate */
	ASSAY_MARK_COUNT
};

/* One history series the run touched. */
struct assay_report_history {
	char *label; /* e.g. "roundtrip_us p99 · mpi bf16 · ep=8 · T=128" */
	char *unit;
	bool lower_is_better;
	struct assay_report_hpoint *points; /* oldest first */
	size_t npoints, points_alloc;
	char *strings;         /* the points' revisions in one block (owned), or NULL: each owned */
	size_t *change_points; /* indexes into points: first point of a new regime */
	size_t nchange_points, change_points_alloc;
	long new_point;                  /* index of this run's point; -1 when none */
	enum assay_report_regime regime; /* the detector's word on this run's point */
	enum assay_report_verdict verdict;
	char *message;
};

/* What a provenance expectation ("expect") matched on one node or rank of
 * a case (the store's provenance table). */
struct assay_report_prov {
	char *case_id, *name, *per, *unit;
	char *matched; /* NULL: nothing matched */
};

struct assay_report {
	/* The run header. */
	char *suite;
	char *run_id;
	char *revision;
	char *host;
	char *launcher;
	char *started; /* RFC 3339 UTC */
	char *ended;
	char *matrix_digest;  /* hex SHA-256 */
	char *catalog_digest; /* hex SHA-256 */
	char *image;          /* the container image (provenance), or NULL */
	char *image_digest;   /* what it resolved to, or NULL */
	assay_err exit_code;  /* the run's outcome */

	struct assay_report_case *cases;
	size_t ncases, cases_alloc;
	struct assay_report_gate *gates;
	size_t ngates, gates_alloc;
	struct assay_report_ep *ep;
	size_t nep, ep_alloc;
	struct assay_report_train *train;
	size_t ntrain, train_alloc;
	struct assay_report_history *history;
	size_t nhistory, history_alloc;
	struct assay_report_prov *provenance; /* by case, expectation, node or rank */
	size_t nprovenance;
	struct assay_report_coll *coll; /* collective curves, this run's first per chart */
	size_t ncoll, coll_alloc;
	struct assay_report_infer *infer; /* inference curves, grouped by chart */
	size_t ninfer, infer_alloc;

	/* Values replaced by "***" in everything written. */
	struct assay_redactor secrets;
	/* Lines shown under the header: what the report could not read or the
	 * reader should know (a run that has not ended, a missing run folder). */
	struct strlist notes;
};

void assay_report_init(struct assay_report *r);
void assay_report_release(struct assay_report *r);

/* Replace *field with a copy of value (NULL allowed). */
void assay_report_set(char **field, const char *value);

/* Append a zeroed element (numbers NAN where NAN means "unknown") and return
 * it; the pointer stays valid until the next add to the same array. */
struct assay_report_case *assay_report_add_case(struct assay_report *r, const char *id,
						enum assay_report_outcome outcome);
void assay_report_case_factor(struct assay_report_case *c, const char *key, const char *value);
void assay_report_case_link(struct assay_report_case *c, const char *label, const char *href);
struct assay_report_gate *assay_report_add_gate(struct assay_report *r, const char *case_id,
						const char *name, enum assay_report_verdict v);
struct assay_report_ep *assay_report_add_ep(struct assay_report *r, const char *case_id,
					    const char *backend, const char *precision,
					    const char *phase);
struct assay_report_ep_point *assay_report_ep_point(struct assay_report_ep *ep, double tokens);
struct assay_report_train *assay_report_add_train(struct assay_report *r, const char *case_id,
						  const char *label);
void assay_report_train_loss(struct assay_report_train *t, double step, double loss);
void assay_report_train_throughput(struct assay_report_train *t, double step, double value);
struct assay_report_coll *assay_report_add_coll(struct assay_report *r, const char *operation,
						const char *label, const char *revision,
						bool current);
/* Set the busbw at bytes (replacing an earlier value at the same size). */
void assay_report_coll_point(struct assay_report_coll *c, double bytes, double busbw);
/* The curve of chart and label (added, with y_title, when new), and a
 * point of it at x (replacing the value of a point already there). */
struct assay_report_infer *assay_report_infer_curve(struct assay_report *r, const char *chart,
						    const char *y_title, const char *label);
void assay_report_infer_point(struct assay_report_infer *c, double x, double y);
struct assay_report_history *assay_report_add_history(struct assay_report *r, const char *label,
						      const char *unit);
void assay_report_history_point(struct assay_report_history *h, const char *revision, double value);
void assay_report_history_change(struct assay_report_history *h, size_t index);

/* The mark of a history series; the history marks counted into counts. */
enum assay_report_mark assay_report_history_mark(const struct assay_report_history *h);
void assay_report_count_marks(const struct assay_report *r, size_t counts[ASSAY_MARK_COUNT]);

/* Number of cases per outcome. */
void assay_report_count(const struct assay_report *r, size_t counts[ASSAY_REPORT_OUTCOME_COUNT]);

/* The writers append to out. They do not fail: the model is trusted input
 * (text is redacted, made valid UTF-8 and escaped; non-finite numbers are
 * shown as "-"). */
void assay_report_html(const struct assay_report *r, struct sbuf *out);
/* The same page for assay serve: the style sheet and scripts linked from
 * /assets/ (its policy forbids inline ones), no inline policy. */
void assay_report_html_served(const struct assay_report *r, struct sbuf *out);
void assay_report_junit(const struct assay_report *r, struct sbuf *out);
void assay_report_markdown(const struct assay_report *r, struct sbuf *out);

/* Pieces of report.html that other pages (assay serve) are made of, so that
 * both show the same things the same way (html_page.c): the style sheet and
 * script of the page, text escaped as the report escapes it, a history
 * series' chart card, and a sparkline of values (change points marked). */
const char *assay_report_style(void);
const char *assay_report_script(void);
void assay_report_escape(struct sbuf *out, const char *s);
void assay_report_history_card(const struct assay_report_history *s, struct sbuf *out);
void assay_report_sparkline(struct sbuf *out, const double *y, size_t n, const size_t *changes,
			    size_t nchanges);
/* A number as the report prints it (4 significant digits; "-" when not finite). */
const char *assay_report_number(char *buf, size_t size, double v);

/* Write report.html, junit.xml and summary.md into dir (created when
 * missing), each atomically. ASSAY_INFRA on a file system error. */
assay_err assay_report_write(const struct assay_report *r, const char *dir, struct assay_error *e);

/* ---- filling the model from a run (src/lib/report/load*.c) ---- */

struct assay_report_source {
	const char *store;   /* the store file; opened read-only */
	const char *run;     /* a run id or "last" */
	const char *run_dir; /* the run's output folder; NULL: where the store says its cases ran */
	const char *out_dir; /* where the files will be written (links are relative to it);
			      * NULL: the run folder */
	/* The run's secrets as assay run read them; NULL: the values, from this
	 * environment, of the names the run recorded (assay report). */
	const struct assay_redactor *redact;
};

/* What the loader found out besides the model. */
struct assay_report_found {
	char *run_id;                 /* the run's id ("last" resolved) */
	char *run_dir;                /* the run folder read, NULL when there is none */
	char *out_dir;                /* where to write the files */
	struct strlist unset_secrets; /* secret names of the run not set in this environment */
};
void assay_report_found_release(struct assay_report_found *f);

/* Fill r (initialized, empty) from the store and the run's output folder
 * only: the run header, every case (outcome, factors, duration, reason,
 * links to its files), EP ladders of the cases' rows, and the history of
 * every series the run touched (see docs/report.md for what is followed),
 * with change points at the CI detection defaults. The secrets are
 * src->redact's, or else the values, from the environment, of the names the
 * run recorded in its summary.json. ASSAY_USAGE for an unknown run or store, a missing run
 * folder (unless out_dir is given: then the report says so), or a
 * summary.json of another run; ASSAY_INFRA when the store fails. */
assay_err assay_report_load(const struct assay_report_source *src, struct assay_report *r,
			    struct assay_report_found *found, struct assay_error *e);

#endif
