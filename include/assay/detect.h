/* Change-point detection and regression gates (docs/detect.md).
 *
 * Change points: E-divisive means in the Otava flavour. Sliding windows of
 * window_len points (step half a window) are split recursively where the
 * energy divergence Q is largest over split and end points; a split is
 * accepted by a two-sided pooled Student t-test at a relaxed first-pass
 * p-value (10 x max_pvalue); the union of those weak change points is then
 * merged, weakest first, until every survivor has p < max_pvalue and a
 * relative magnitude > min_magnitude. The otava_compat flavour reproduces
 * Apache Otava's results exactly (tests use its Tigerbeetle rows); the assay
 * flavour fixes two of its quirks (the t-test uses sample standard
 * deviations; both neighbours of a removed point are re-tested) and drops
 * change points that bound segments shorter than min_segment points (single
 * spikes and short A->B->A excursions), except for the newest segment.
 *
 * Gates: a new result against the stored history of its series
 * (changepoint, rolling-mean) or against a baseline measured in the same
 * run (ab). Direction comes from the row; an `ack` annotation lets a known
 * change pass. */
#ifndef ASSAY_DETECT_H
#define ASSAY_DETECT_H

#include <stdbool.h>
#include <stddef.h>

#include "assay/error.h"
#include "assay/gate.h"
#include "assay/measure.h"
#include "assay/store.h"

/* ---- Student t ---- */

/* Regularized incomplete beta I_x(a, b); NaN for bad arguments. */
double assay_betainc(double a, double b, double x);
/* P(T <= t) and P(T > t) for Student's t with df degrees of freedom. */
double assay_t_cdf(double t, double df);
double assay_t_sf(double t, double df);
/* Two-sided p-value P(|T| >= |t|). */
double assay_t_two_sided(double t, double df);

/* ---- change points ---- */

struct assay_detect_opts {
	int window;           /* window_len, >= 2 */
	double max_pvalue;    /* in (0, 1] */
	double min_magnitude; /* relative change, >= 0 */
	bool otava_compat;    /* Apache Otava's exact behaviour */
	int min_segment;      /* assay flavour: shortest interior segment kept (1: keep all) */
};
/* CI defaults: window 50, max_pvalue 1e-4, min_magnitude 0, min_segment 3. */
void assay_detect_defaults(struct assay_detect_opts *o);
/* Otava's defaults with otava_compat: window 50, max_pvalue 0.001, min_magnitude 0. */
void assay_detect_otava_defaults(struct assay_detect_opts *o);
/* ASSAY_USAGE naming the bad option. */
assay_err assay_detect_check(const struct assay_detect_opts *o, struct assay_error *e);

struct assay_change {
	size_t index;             /* first point of the new regime */
	size_t n_before, n_after; /* points in the segments either side */
	double mean_before, mean_after;
	double std_before, std_after; /* population (compat) or sample (assay) */
	double pvalue;
	double rel_change; /* mean_after / mean_before - 1 (0 when mean_before is 0) */
	double magnitude;  /* max(|after/before - 1|, |before/after - 1|) */
};
struct assay_changes {
	struct assay_change *v;
	size_t n, alloc;
};
void assay_changes_release(struct assay_changes *c);

/* Change points of x[0..n) in index order. ASSAY_USAGE for a non-finite
 * value or bad options. */
assay_err assay_detect(const double *x, size_t n, const struct assay_detect_opts *o,
		       struct assay_changes *out, struct assay_error *e);

/* The search for the best split alone, exposed for tests: for every split
 * t in [1, len) of z[0..len), the largest energy divergence Q over the end
 * points, into best[t], computed in the named vector width ("c", "sse2",
 * "avx2"; NULL: the one the detector uses, see ASSAY_DETECT_SIMD in
 * docs/detect.md). false when the width is unknown or the CPU lacks it. */
bool assay_detect_split_scores(const double *z, size_t len, const char *width, double *best);

/* The series sorted as the detector sorts it, exposed for tests: x[0..n)
 * in ascending order into v, each value's position into pos (equal values
 * in the order of their positions). */
void assay_detect_sorted(const double *x, size_t n, double *v, unsigned *pos);

/* Read a series from CSV for `assay detect --input`: a header
 * "revision,value" or "revision,timestamp,value", then one point per line,
 * oldest first. ASSAY_USAGE naming file and line for anything else. */
assay_err assay_detect_read_csv(const char *data, size_t len, const char *file,
				struct assay_points *out, struct assay_error *e);

/* Whether a change is a regression for a metric of direction dir. */
bool assay_change_is_regression(const struct assay_change *c, enum assay_direction dir);

/* ---- change points of stored series ---- */

/* A change point as `assay detect` reports it: the change, its index the
 * point's position among all the series' points (those annotated ignore
 * included); the revision that starts the new regime and the last one of
 * the old (either may be NULL), the new regime's first timestamp, and
 * "ack" or "expected" when such an annotation covers its revision (else
 * NULL). The strings belong to the series' points. */
struct assay_change_point {
	struct assay_change c;
	const char *revision, *previous, *timestamp;
	const char *annotation;
};
struct assay_change_points {
	struct assay_change_point *v;
	size_t n, alloc;
	size_t points; /* points detected on: those annotated ignore left out */
};
void assay_change_points_release(struct assay_change_points *c);

/* Change points of one series' points (oldest first) into out (emptied
 * first), leaving out the points whose revision ann (may be NULL) annotates
 * ignore. ASSAY_USAGE for a non-finite value or bad options (out->points is
 * set all the same). */
assay_err assay_detect_points(const struct assay_points *pts, const struct assay_annotations *ann,
			      const struct assay_detect_opts *o, struct assay_change_points *out,
			      struct assay_error *e);

/* Called by assay_detect_store for each series in list order, on the
 * calling thread: si the listed series (assay_series_fields parses its
 * fields), cp its change points, valid during the call. A non-zero return
 * stops the detection and is returned as is. */
typedef int assay_detect_series_fn(void *ctx, struct assay_series_info *si,
				   const struct assay_change_points *cp);

/* Change points of every series of l (listed from s, say with a bare
 * filter), each read from the series index with the points range selects
 * (its since, until and last, include/assay/store.h; NULL: all), as of one
 * snapshot; a series without such points is
 * passed over. Every annotation of the store applies. Detection runs on
 * the util pool (include/assay/pool.h) a few hundred series ahead of fn, so
 * that only those are in memory. Returns store errors (e says which),
 * ASSAY_USAGE "KEY: message" when detection rejects a series, or fn's
 * non-zero return; nothing is handed over after an error. */
assay_err assay_detect_store(struct assay_store *s, struct assay_series_list *l,
			     const struct assay_series_filter *range,
			     const struct assay_detect_opts *o, assay_detect_series_fn *fn,
			     void *ctx, struct assay_error *e);

/* ---- regression gates ---- */

struct assay_gate_config {
	bool changepoint;  /* run the changepoint gate */
	bool rolling_mean; /* run the rolling-mean gate */
	struct assay_detect_opts detect;
	double cp_threshold;       /* changepoint: fail only at |change| >= this (default 0) */
	double rm_train_threshold; /* rolling-mean: 0.02 (fail beyond -2%) */
	double rm_infer_threshold; /* rolling-mean: 0.05 for inference series */
	int rm_min_history;        /* rolling-mean: earlier points needed (3) */
	int rm_window;             /* rolling-mean: mean of the last N earlier points (5) */
};
/* Both gates on, CI detection defaults, thresholds as documented. */
void assay_gate_defaults(struct assay_gate_config *c);

struct assay_regression {
	char series_key[65];
	char gate[16];     /* "changepoint", "rolling-mean" or "ab" */
	assay_err outcome; /* ASSAY_OK or ASSAY_GATE_FAILED */
	bool acked;        /* a regression let through by an ack annotation */
	bool insufficient; /* not enough history to judge: passes */
	double change;     /* relative change of the new value (after/before - 1) */
	/* Paired ab (assay_gate_ab_pairs): the median, least and greatest of
	 * the candidate/baseline ratios, and how many pairs. */
	double ratio, ratio_min, ratio_max;
	size_t pairs;
	char message[512]; /* one line for reports */
};
struct assay_regressions {
	struct assay_regression *v;
	size_t n, alloc;
};
void assay_regressions_release(struct assay_regressions *v);
/* ASSAY_GATE_FAILED when any verdict failed, else ASSAY_OK. */
assay_err assay_regressions_outcome(const struct assay_regressions *v);

/* Gate each row of a new case (finished rows, not yet stored) against the
 * stored history of its series: history points in time order, leaving out
 * revisions annotated `ignore`, then the row's value as the newest point.
 * Appends one verdict per row and enabled gate. Call it before
 * assay_store_case_finish() and store the worst outcome with the rows.
 * Store errors are returned (ASSAY_INFRA); gate results go in out. */
assay_err assay_gate_history(struct assay_store *s, const struct assay_rows *rows,
			     const struct assay_gate_config *c, struct assay_regressions *out,
			     struct assay_error *e);

/* The same on plain values: history[0..n) oldest first, then the new value.
 * acked: an ack annotation covers this change. name labels the message. */
void assay_gate_changepoint(const double *history, size_t n, double value, enum assay_direction dir,
			    const struct assay_gate_config *c, bool acked,
			    struct assay_regression *out);
void assay_gate_rolling_mean(const double *history, size_t n, double value,
			     enum assay_direction dir, double threshold,
			     const struct assay_gate_config *c, bool acked,
			     struct assay_regression *out);
/* A/B in one run: fail when candidate/baseline - 1 (for lower-is-better,
 * baseline/candidate - 1) is below -threshold. The rows must share metric,
 * unit and direction (ASSAY_USAGE otherwise). */
assay_err assay_gate_ab(const struct assay_row *baseline, const struct assay_row *candidate,
			double threshold, bool acked, struct assay_regression *out,
			struct assay_error *e);
/* A/B of paired measurements in one run (variants: the pair r ran side by
 * side on the same nodes): the ratios candidate[r]/baseline[r], their
 * median and spread. Fails when the median ratio is worse than 1 by more
 * than threshold (for lower-is-better, 1/median - 1 < -threshold; e.g. 0.02:
 * at most 2% slower). ASSAY_USAGE when n is 0, a value is not finite, a
 * baseline is 0 or the threshold is negative. */
assay_err assay_gate_ab_pairs(const double *baseline, const double *candidate, size_t n,
			      enum assay_direction dir, double threshold, bool acked,
			      struct assay_regression *out, struct assay_error *e);
/* The regression gates' results as verdicts (include/assay/gate.h), the
 * one list reports and the store read: g on row becomes FAIL for a
 * regression, PASS otherwise (acked when an ack or expected annotation let a
 * regression through), SKIPPED when the history is too short to judge;
 * with enforce false, FAIL and PASS become RECORD. metric is
 * "metric/statistic", value and unit the row's, message g's. */
struct assay_verdict *assay_regression_verdict(const struct assay_regression *g,
					       const struct assay_row *row, const char *spec,
					       bool enforce, struct assay_verdicts *out);
/* What a history gate requires of row, for the verdict's spec:
 * "no regression step (p < 0.0001)", "worse by < 2% vs mean of last 5". */
void assay_regression_spec(const char *gate, const struct assay_gate_config *c,
			   const struct assay_row *row, char *buf, size_t size);
/* Whether a series is an inference one (rolling-mean threshold choice):
 * a field task, mode, phase or kind equal to inference or serving, or a
 * workload name containing "infer" or "serv". */
bool assay_series_is_inference(const json_t *series);

/* ---- one series' history, as `assay history` prints it (history.c) ---- */

/* A series' points in a range, its annotations and its change points (CI
 * defaults, ignored revisions left out): what `assay history` and the
 * server's series page and API show. */
struct assay_history {
	struct assay_points pts;
	struct assay_annotations ann;
	struct assay_change_points ch; /* indexes into pts; empty without detection */
};
/* Read series_key's points in range (NULL: all) and its annotations, and
 * detect when detect is set. ASSAY_USAGE for values detection refuses. */
assay_err assay_history_load(struct assay_store *s, const char *series_key,
			     const struct assay_series_filter *range, bool detect,
			     struct assay_history *h, struct assay_error *e);
/* The notes of point i into sb (emptied first): a change point starting
 * there, the annotations of its revision, its image digest. */
void assay_history_notes(const struct assay_history *h, size_t i, enum assay_direction dir,
			 struct sbuf *sb);
/* The document `assay history --format json` prints (new reference). */
json_t *assay_history_json(const struct assay_history *h, struct assay_series_info *si);
void assay_history_release(struct assay_history *h);

#endif
