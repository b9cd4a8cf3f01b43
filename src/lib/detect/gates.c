/* Regression gates on a new result: changepoint (the newest point sits in
 * a regime that a regression change point started), rolling-mean (RCCL CI's
 * rule: the new value against the mean of the last 5 earlier points) and
 * ab (candidate against a baseline measured in the same run). Direction
 * comes from the row; an ack annotation lets a known change pass. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/detect.h"

void assay_gate_defaults(struct assay_gate_config *c)
{
	memset(c, 0, sizeof(*c));
	c->changepoint = true;
	c->rolling_mean = true;
	assay_detect_defaults(&c->detect);
	c->cp_threshold = 0.0;
	c->rm_train_threshold = 0.02;
	c->rm_infer_threshold = 0.05;
	c->rm_min_history = 3;
	c->rm_window = 5;
}

void assay_regressions_release(struct assay_regressions *v)
{
	free(v->v);
	memset(v, 0, sizeof(*v));
}

assay_err assay_regressions_outcome(const struct assay_regressions *v)
{
	for (size_t i = 0; i < v->n; i++)
		if (v->v[i].outcome == ASSAY_GATE_FAILED)
			return ASSAY_GATE_FAILED;
	return ASSAY_OK;
}

static bool contains_ci(const char *s, const char *w)
{
	return s && strcasestr(s, w) != NULL;
}

bool assay_series_is_inference(const json_t *series)
{
	static const char *const fields[] = {"task", "mode", "phase", "kind"};
	for (size_t i = 0; i < ARRAY_SIZE(fields); i++) {
		const char *v = json_string_value(json_object_get(series, fields[i]));
		if (v && (!strcasecmp(v, "inference") || !strcasecmp(v, "serving")))
			return true;
	}
	const char *w = json_string_value(json_object_get(series, "workload"));
	return contains_ci(w, "infer") || contains_ci(w, "serv");
}

/* The change of value against base, signed so that negative is worse. */
static double worse_is_negative(double value, double base, enum assay_direction dir)
{
	if (base == 0 || value == 0)
		return 0.0;
	return dir == ASSAY_DIR_LOWER ? base / value - 1.0 : value / base - 1.0;
}

static void verdict_init(struct assay_regression *v, const char *gate)
{
	memset(v, 0, sizeof(*v));
	snprintf(v->gate, sizeof(v->gate), "%s", gate);
	v->outcome = ASSAY_OK;
}

/* Detection over history plus the new value; false (message set) when there
 * is too little history or detection refused the data. */
static bool run_cp(const double *history, size_t n, double value, const struct assay_gate_config *c,
		   struct assay_changes *ch, struct assay_regression *out)
{
	if (n < 2) {
		out->insufficient = true;
		snprintf(out->message, sizeof(out->message),
			 "not enough history (needs 2 earlier points)");
		return false;
	}
	double *x = xmalloc((n + 1) * sizeof(*x));
	memcpy(x, history, n * sizeof(*x));
	x[n] = value;
	struct assay_error e;
	bool ok = assay_detect(x, n + 1, &c->detect, ch, &e) == ASSAY_OK;
	if (!ok)
		snprintf(out->message, sizeof(out->message), "%s", e.message);
	free(x);
	return ok;
}

/* Whether the newest regime (started by the last change point) is a
 * regression of at least the threshold. */
static const struct assay_change *newest_regression(const struct assay_changes *ch,
						    enum assay_direction dir,
						    const struct assay_gate_config *c)
{
	const struct assay_change *last = ch->n ? &ch->v[ch->n - 1] : NULL;
	if (last && assay_change_is_regression(last, dir) && last->magnitude >= c->cp_threshold)
		return last;
	return NULL;
}

static void cp_verdict(size_t n, const struct assay_changes *ch, enum assay_direction dir,
		       const struct assay_gate_config *c, bool acked, struct assay_regression *out)
{
	const struct assay_change *last = ch->n ? &ch->v[ch->n - 1] : NULL;
	if (!last) {
		snprintf(out->message, sizeof(out->message), "no change point in %zu points",
			 n + 1);
		return;
	}
	out->change = last->rel_change;
	if (!newest_regression(ch, dir, c)) {
		snprintf(out->message, sizeof(out->message), "newest regime %+.2f%% (%s)",
			 last->rel_change * 100,
			 assay_change_is_regression(last, dir) ? "below the threshold"
							       : "not a regression");
		return;
	}
	size_t back = n - last->index; /* 0: the change is at the new point */
	out->acked = acked;
	out->outcome = acked ? ASSAY_OK : ASSAY_GATE_FAILED;
	int len = snprintf(
	    out->message, sizeof(out->message), "regression %+.2f%% (mean %.6g -> %.6g, p=%.2g) ",
	    last->rel_change * 100, last->mean_before, last->mean_after, last->pvalue);
	if (back)
		len +=
		    snprintf(out->message + len, sizeof(out->message) - (size_t)len,
			     "started %zu point%s before the new one", back, back == 1 ? "" : "s");
	else
		len += snprintf(out->message + len, sizeof(out->message) - (size_t)len,
				"at the new point");
	if (acked)
		snprintf(out->message + len, sizeof(out->message) - (size_t)len, ", acknowledged");
}

void assay_gate_changepoint(const double *history, size_t n, double value, enum assay_direction dir,
			    const struct assay_gate_config *c, bool acked,
			    struct assay_regression *out)
{
	verdict_init(out, "changepoint");
	struct assay_changes ch = {0};
	if (run_cp(history, n, value, c, &ch, out))
		cp_verdict(n, &ch, dir, c, acked, out);
	assay_changes_release(&ch);
}

void assay_gate_rolling_mean(const double *history, size_t n, double value,
			     enum assay_direction dir, double threshold,
			     const struct assay_gate_config *c, bool acked,
			     struct assay_regression *out)
{
	verdict_init(out, "rolling-mean");
	if (n < (size_t)c->rm_min_history) {
		out->insufficient = true;
		snprintf(out->message, sizeof(out->message),
			 "not enough history (%zu earlier points, needs %d)", n, c->rm_min_history);
		return;
	}
	size_t k = n < (size_t)c->rm_window ? n : (size_t)c->rm_window;
	double sum = 0;
	for (size_t i = n - k; i < n; i++)
		sum += history[i];
	double mean = sum / (double)k;
	double change = worse_is_negative(value, mean, dir);
	out->change = mean == 0 ? 0.0 : value / mean - 1.0;
	bool fail = change < -threshold;
	out->acked = fail && acked;
	out->outcome = fail && !acked ? ASSAY_GATE_FAILED : ASSAY_OK;
	snprintf(out->message, sizeof(out->message),
		 "%.6g vs mean %.6g of the last %zu: %+.2f%% (%s beyond -%.3g%%)%s", value, mean, k,
		 out->change * 100, fail ? "regression" : "not a regression", threshold * 100,
		 out->acked ? ", acknowledged" : "");
}

assay_err assay_gate_ab(const struct assay_row *baseline, const struct assay_row *candidate,
			double threshold, bool acked, struct assay_regression *out,
			struct assay_error *e)
{
	verdict_init(out, "ab");
	if (strcmp(baseline->metric, candidate->metric) ||
	    strcmp(baseline->unit, candidate->unit) || baseline->direction != candidate->direction)
		return assay_error_set(
		    e, ASSAY_USAGE,
		    "ab gate: baseline %s (%s) and candidate %s (%s) are not the "
		    "same measurement",
		    baseline->metric, baseline->unit, candidate->metric, candidate->unit);
	if (!(threshold >= 0))
		return assay_error_set(e, ASSAY_USAGE, "ab gate: threshold %g: expected >= 0",
				       threshold);
	snprintf(out->series_key, sizeof(out->series_key), "%s", candidate->series_key);
	double change = worse_is_negative(candidate->value, baseline->value, candidate->direction);
	out->change = baseline->value == 0 ? 0.0 : candidate->value / baseline->value - 1.0;
	bool fail = change < -threshold;
	out->acked = fail && acked;
	out->outcome = fail && !acked ? ASSAY_GATE_FAILED : ASSAY_OK;
	snprintf(out->message, sizeof(out->message),
		 "candidate %.6g vs baseline %.6g %s: %+.2f%% (%s beyond -%.3g%%)%s",
		 candidate->value, baseline->value, candidate->unit, change * 100,
		 fail ? "regression" : "not a regression", threshold * 100,
		 out->acked ? ", acknowledged" : "");
	return ASSAY_OK;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

assay_err assay_gate_ab_pairs(const double *baseline, const double *candidate, size_t n,
			      enum assay_direction dir, double threshold, bool acked,
			      struct assay_regression *out, struct assay_error *e)
{
	verdict_init(out, "ab");
	if (!n)
		return assay_error_set(e, ASSAY_USAGE, "ab gate: no pairs to compare");
	if (!(threshold >= 0))
		return assay_error_set(e, ASSAY_USAGE, "ab gate: threshold %g: expected >= 0",
				       threshold);
	double *ratio = xcalloc(n, sizeof(*ratio));
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(baseline[i]) || !isfinite(candidate[i]) || baseline[i] == 0) {
			free(ratio);
			return assay_error_set(e, ASSAY_USAGE,
					       "ab gate: pair %zu: baseline %g, candidate %g: "
					       "no finite ratio",
					       i + 1, baseline[i], candidate[i]);
		}
		ratio[i] = candidate[i] / baseline[i];
	}
	qsort(ratio, n, sizeof(*ratio), cmp_double);
	double med = n % 2 ? ratio[n / 2] : (ratio[n / 2 - 1] + ratio[n / 2]) / 2;
	out->ratio = med;
	out->ratio_min = ratio[0];
	out->ratio_max = ratio[n - 1];
	out->pairs = n;
	free(ratio);
	out->change = med - 1.0;
	double change = dir == ASSAY_DIR_LOWER ? (med == 0 ? 0.0 : 1.0 / med - 1.0) : med - 1.0;
	bool fail = change < -threshold;
	out->acked = fail && acked;
	out->outcome = fail && !acked ? ASSAY_GATE_FAILED : ASSAY_OK;
	snprintf(out->message, sizeof(out->message),
		 "candidate/baseline median %.4f over %zu pair%s (spread %.4f..%.4f): "
		 "%+.2f%% (%s beyond -%.3g%%)%s",
		 med, n, n == 1 ? "" : "s", out->ratio_min, out->ratio_max, change * 100,
		 fail ? "regression" : "not a regression", threshold * 100,
		 out->acked ? ", acknowledged" : "");
	return ASSAY_OK;
}

/* History values of a series, without revisions annotated `ignore`. */
static assay_err history(struct assay_store *s, const char *key, const struct assay_annotations *a,
			 double **vals, char ***revs, size_t *n, struct assay_error *e)
{
	struct assay_points pts = {0};
	*vals = NULL;
	*revs = NULL;
	*n = 0;
	assay_err rc = assay_store_series_values(s, key, NULL, &pts, e);
	if (rc == ASSAY_USAGE) /* a series not stored yet: no history */
		return ASSAY_OK;
	if (rc != ASSAY_OK)
		return rc;
	*vals = xmalloc((pts.n + 1) * sizeof(**vals));
	*revs = xcalloc(pts.n + 1, sizeof(**revs));
	for (size_t i = 0; i < pts.n; i++) {
		if (pts.v[i].revision &&
		    assay_annotations_has(a, pts.v[i].revision, ASSAY_ANN_IGNORE))
			continue;
		(*vals)[*n] = pts.v[i].value;
		(*revs)[*n] = pts.v[i].revision ? xstrdup(pts.v[i].revision) : NULL;
		(*n)++;
	}
	assay_points_release(&pts);
	return ASSAY_OK;
}

/* The position of the newest acked (or expected) point in [from, n), n when
 * the new revision itself is acked, -1 when none. */
static long acked_in(const struct assay_annotations *a, char **revs, size_t from, size_t n,
		     const char *new_rev)
{
	if (new_rev && (assay_annotations_has(a, new_rev, ASSAY_ANN_ACK) ||
			assay_annotations_has(a, new_rev, ASSAY_ANN_EXPECTED)))
		return (long)n;
	for (size_t i = n; i-- > from;)
		if (revs[i] && (assay_annotations_has(a, revs[i], ASSAY_ANN_ACK) ||
				assay_annotations_has(a, revs[i], ASSAY_ANN_EXPECTED)))
			return (long)i;
	return -1;
}

assay_err assay_gate_history(struct assay_store *s, const struct assay_rows *rows,
			     const struct assay_gate_config *c, struct assay_regressions *out,
			     struct assay_error *e)
{
	assay_err rc = assay_detect_check(&c->detect, e);
	if (rc != ASSAY_OK)
		return rc;
	for (size_t i = 0; i < rows->n; i++) {
		const struct assay_row *r = &rows->v[i];
		struct assay_annotations ann = {0};
		double *vals;
		char **revs;
		size_t n;
		if ((rc = assay_store_annotations(s, r->series_key, &ann, e)) != ASSAY_OK)
			return rc;
		if ((rc = history(s, r->series_key, &ann, &vals, &revs, &n, e)) != ASSAY_OK) {
			assay_annotations_release(&ann);
			return rc;
		}
		if (c->changepoint) {
			ALLOC_GROW(out->v, out->n + 1, out->alloc);
			struct assay_regression *v = &out->v[out->n++];
			struct assay_changes ch = {0};
			verdict_init(v, "changepoint");
			if (run_cp(vals, n, r->value, c, &ch, v)) {
				/* An ack anywhere in the newest regime (or on the new revision)
				 * covers it. */
				const struct assay_change *reg =
				    newest_regression(&ch, r->direction, c);
				bool acked =
				    reg && acked_in(&ann, revs, reg->index, n, r->revision) >= 0;
				cp_verdict(n, &ch, r->direction, c, acked, v);
			}
			assay_changes_release(&ch);
			snprintf(v->series_key, sizeof(v->series_key), "%s", r->series_key);
		}
		if (c->rolling_mean) {
			ALLOC_GROW(out->v, out->n + 1, out->alloc);
			struct assay_regression *v = &out->v[out->n++];
			double thr = assay_series_is_inference(r->series) ? c->rm_infer_threshold
									  : c->rm_train_threshold;
			/* An ack re-bases the mean at the acknowledged point. */
			size_t k = n < (size_t)c->rm_window ? n : (size_t)c->rm_window;
			long at = acked_in(&ann, revs, n - k, n, r->revision);
			if (at == (long)n) {
				assay_gate_rolling_mean(vals, n, r->value, r->direction, thr, c,
							true, v);
				v->outcome = ASSAY_OK;
				v->acked = true;
				snprintf(v->message, sizeof(v->message),
					 "%.6g at an acknowledged revision", r->value);
			} else if (at >= 0) {
				struct assay_gate_config rc2 = *c;
				rc2.rm_min_history = 1;
				assay_gate_rolling_mean(vals + at, n - (size_t)at, r->value,
							r->direction, thr, &rc2, false, v);
				size_t len = strlen(v->message);
				snprintf(v->message + len, sizeof(v->message) - len,
					 " (re-based at acknowledged %s)", revs[at]);
			} else {
				assay_gate_rolling_mean(vals, n, r->value, r->direction, thr, c,
							false, v);
			}
			snprintf(v->series_key, sizeof(v->series_key), "%s", r->series_key);
		}
		for (size_t j = 0; j < n; j++)
			free(revs[j]);
		free(revs);
		free(vals);
		assay_annotations_release(&ann);
	}
	return ASSAY_OK;
}

struct assay_verdict *assay_regression_verdict(const struct assay_regression *g,
					       const struct assay_row *row, const char *spec,
					       bool enforce, struct assay_verdicts *out)
{
	enum assay_verdict_status st;
	if (g->insufficient)
		st = ASSAY_VERDICT_SKIPPED;
	else if (!enforce)
		st = ASSAY_VERDICT_RECORD;
	else
		st = g->outcome == ASSAY_GATE_FAILED ? ASSAY_VERDICT_FAIL : ASSAY_VERDICT_PASS;
	char metric[256];
	snprintf(metric, sizeof(metric), "%s/%s", row->metric, row->statistic);
	struct assay_verdict *v =
	    assay_verdicts_add(out, st, g->gate, metric, row->value, row->unit, spec, "%s%s",
			       !enforce && !g->insufficient
				   ? (g->outcome == ASSAY_GATE_FAILED ? "not enforced: would fail: "
								      : "not enforced: ")
				   : "",
			       g->message);
	v->series_key = xstrdup(row->series_key[0] ? row->series_key : g->series_key);
	if (strlen(v->series_key) != 64) {
		free(v->series_key);
		v->series_key = NULL;
	}
	v->acked = g->acked;
	return v;
}

void assay_regression_spec(const char *gate, const struct assay_gate_config *c,
			   const struct assay_row *row, char *buf, size_t size)
{
	if (!strcmp(gate, "changepoint")) {
		if (c->cp_threshold > 0)
			snprintf(buf, size, "no regression step >= %g%% (p < %g)",
				 c->cp_threshold * 100, c->detect.max_pvalue);
		else
			snprintf(buf, size, "no regression step (p < %g)", c->detect.max_pvalue);
	} else if (!strcmp(gate, "rolling-mean")) {
		double thr = assay_series_is_inference(row->series) ? c->rm_infer_threshold
								    : c->rm_train_threshold;
		snprintf(buf, size, "worse by < %g%% vs mean of last %d", thr * 100, c->rm_window);
	} else {
		snprintf(buf, size, "%s", gate);
	}
}
