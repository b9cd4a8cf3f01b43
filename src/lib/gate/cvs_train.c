/* ROCm/cvs's TorchTitan and MaxText judgement (dddd914): sweep-name cell
 * keys, TorchTitan's values of the names its shipped threshold files share
 * with Megatron, the rows CVS computes from the cell, and the run checks
 * CVS makes on those logs. Rules: docs/gate.md, "TorchTitan and MaxText". */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "assay/gate.h"
#include "assay/json.h"

/* Does text name MBS (a part "MBS=...")? */
static bool names_mbs(const char *text)
{
	for (const char *p = text; p; p = strchr(p, ',')) {
		if (*p == ',')
			p++;
		if (!strncasecmp(p, "MBS=", 4))
			return true;
	}
	return false;
}

/* NAME=VALUE[,NAME=VALUE...]: names of letters, digits and _, values of
 * printable characters other than ',' and white space. */
static bool sweep_name(const char *text)
{
	const char *p = text;
	do {
		const char *n = p;
		while (isalnum((unsigned char)*p) || *p == '_')
			p++;
		if (p == n || *p++ != '=')
			return false;
		const char *v = p;
		while (*p && *p != ',' && isgraph((unsigned char)*p))
			p++;
		if (p == v || (*p && *p != ','))
			return false;
	} while (*p && *++p);
	return p[-1] != ',';
}

bool assay_combo_key(const char *text, char *out, size_t size, struct assay_error *e)
{
	if (assay_combo_canonical(text, out, size, e))
		return true;
	if (assay_combo_is_infer(text)) /* an inference cell: its own rules' error */
		return false;
	if (names_mbs(text) || !sweep_name(text) || strlen(text) >= size)
		return false;
	snprintf(out, size, "%s", text);
	return true;
}

static bool rows_have_any(const struct assay_rows *rows, const char *metric,
			  const char *const *stats)
{
	for (size_t i = 0; i < rows->n; i++) {
		if (strcmp(rows->v[i].metric, metric))
			continue;
		for (size_t k = 0; stats[k]; k++)
			if (!strcmp(rows->v[i].statistic, stats[k]))
				return true;
	}
	return false;
}

const struct assay_threshold *assay_threshold_cvs_alt(const struct assay_threshold *th,
						      const struct assay_rows *rows,
						      struct assay_threshold *tmp)
{
	if (!th->alt_metric || rows_have_any(rows, th->metric, th->cvs_stats) ||
	    !rows_have_any(rows, th->alt_metric, th->alt_stats))
		return th;
	*tmp = *th;
	tmp->metric = (char *)th->alt_metric;
	for (int i = 0; i < 5; i++)
		tmp->cvs_stats[i] = th->alt_stats[i];
	return tmp;
}

/* The integer of NAME=N in a combo or sweep name; false when absent. */
static bool combo_int(const char *combo, const char *name, long long *out)
{
	size_t n = strlen(name);
	for (const char *p = combo; p; p = strchr(p, ',')) {
		if (*p == ',')
			p++;
		if (strncasecmp(p, name, n) || p[n] != '=')
			continue;
		char *end = NULL;
		long long v = strtoll(p + n + 1, &end, 10);
		if (end != p + n + 1 && (!*end || *end == ',') && v > 0) {
			*out = v;
			return true;
		}
	}
	return false;
}

static const char *workload(const struct assay_row *r)
{
	const json_t *w = r->series ? json_object_get(r->series, "workload") : NULL;
	return json_is_string(w) ? json_string_value(w) : "";
}

/* A row like r (its series) of metric/stat with value v. */
static void derive(struct assay_rows *rows, size_t i, const char *metric, double v,
		   const char *unit)
{
	struct assay_row *d = assay_rows_add(rows);
	const struct assay_row *r = &rows->v[i];
	assay_row_init(d);
	json_t *s = json_deep_copy(r->series);
	json_object_del(s, "metric");
	json_object_del(s, "statistic");
	assay_row_set(d, s, metric, r->statistic, v, unit, ASSAY_DIR_HIGHER);
	d->samples = r->samples;
	if (assay_row_finish(d, NULL) != ASSAY_OK)
		assay_row_release(&rows->v[--rows->n]);
}

void assay_cvs_train_rows(const char *combo, struct assay_rows *rows)
{
	long long gbs, nodes;
	size_t n = rows->n;
	for (size_t i = 0; combo && i < n; i++) {
		const struct assay_row *r = &rows->v[i];
		const char *w = workload(r);
		if (!strcmp(w, "torchtitan") && !strcmp(r->metric, "tokens_per_sec") &&
		    !strcmp(r->statistic, "cvs_mean") && combo_int(combo, "GBS", &gbs))
			derive(rows, i, "tokens_per_sec_x_gbs", r->value * (double)gbs,
			       "tokens/s/GPU x GBS");
		else if (!strcmp(w, "maxtext") && !strcmp(r->metric, "tokens_per_sec_per_gpu") &&
			 !strcmp(r->statistic, "cvs") && combo_int(combo, "NNODES", &nodes))
			derive(rows, i, "tokens_per_sec_total", r->value * (double)nodes * 8,
			       "tokens/s");
	}
}

/* The value of metric/stat among the rows of workload w; false when none. */
static bool row_value(const struct assay_rows *rows, const char *w, const char *metric,
		      const char *stat, double *v)
{
	for (size_t i = 0; i < rows->n; i++) {
		const struct assay_row *r = &rows->v[i];
		if (!strcmp(workload(r), w) && !strcmp(r->metric, metric) &&
		    !strcmp(r->statistic, stat)) {
			*v = r->value;
			return true;
		}
	}
	return false;
}

/* A count that CVS fails on when it is not 0. */
static bool count_check(const struct assay_rows *rows, const char *w, const char *metric,
			const char *what, struct assay_verdicts *out)
{
	double v;
	char name[64];
	if (!row_value(rows, w, metric, "total", &v))
		return false;
	snprintf(name, sizeof(name), "%s/total", metric);
	if (v > 0)
		assay_verdicts_add(out, ASSAY_VERDICT_FAIL, "run", name, v, "", "0",
				   "%s: CVS's %s test fails the run", what,
				   !strcmp(w, "torchtitan") ? "TorchTitan" : "MaxText");
	else
		assay_verdicts_add(out, ASSAY_VERDICT_PASS, "run", name, v, "", "0", "none: %s",
				   what);
	return v > 0;
}

/* Complete when the step want was logged: MaxText's "completed step:
 * STEPS-1,", TorchTitan's "step: N" (the largest step at least it). true
 * when incomplete. */
static bool complete(const struct assay_rows *rows, const char *w, long long want,
		     const char *label, struct assay_verdicts *out)
{
	double last;
	if (!row_value(rows, w, "nonfinite", "total", &last))
		return false; /* no log of this format */
	char spec[64];
	snprintf(spec, sizeof(spec), "%s %lld", label, want);
	if (!row_value(rows, w, "steps", "max", &last)) {
		assay_verdicts_add(out, ASSAY_VERDICT_FAIL, "run", "completion", NAN, "step", spec,
				   "incomplete: no step logged");
		return true;
	}
	bool done = last >= (double)want;
	assay_verdicts_add(out, done ? ASSAY_VERDICT_PASS : ASSAY_VERDICT_FAIL, "run", "completion",
			   last, "step", spec, "%s (last step %.0f)",
			   done ? "completed" : "incomplete", last);
	return !done;
}

bool assay_gate_cvs_train(const char *combo, long long final_step, const struct assay_rows *rows,
			  struct assay_verdicts *out)
{
	long long steps;
	bool failed = false;
	if (combo && combo_int(combo, "STEPS", &steps))
		failed |= complete(rows, "maxtext", steps - 1, "completed step:", out);
	if (final_step > 0)
		failed |= complete(rows, "torchtitan", final_step, "step:", out);
	failed |= count_check(rows, "torchtitan", "nonfinite",
			      "lines with tok/s: or loss: NaN or Inf", out);
	failed |= count_check(rows, "torchtitan", "unreadable", "values float() cannot read", out);
	failed |= count_check(rows, "maxtext", "nonfinite",
			      "lines with TFLOP/s/device: or Tokens/s/device: NaN or Inf", out);
	return failed;
}
