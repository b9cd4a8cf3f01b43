/* Thresholds: the file of cells keyed by combo (MBS, GBS, PRECISION) or
 * "default", each a metric -> {kind, value, tolerance, optional, statistic}
 * spec, loaded strictly; and the gate that judges measurement rows by the
 * cell of a combo (docs/gate.md). */
#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/gate.h"
#include "assay/json.h"
#include "assay/training.h"

/* ---- combo keys ---- */

static bool combo_fail(struct assay_error *e, const char *text, const char *why)
{
	if (e)
		assay_error_set(e, ASSAY_USAGE,
				"expected MBS=<m>,GBS=<g>,PRECISION=<p>, got \"%s\"%s", text, why);
	return false;
}

/* A combo of other keys (CVS's inference cells, ISL=...,OSL=...,TP=...,
 * PP=...,CONC=...): KEY=VALUE pairs, keys upper-cased, values as written
 * (letters, digits, '.', '_', '-'), in the order written. */
static bool generic_combo(const char *text, char *out, size_t size, struct assay_error *e)
{
	struct sbuf sb = SBUF_INIT;
	const char *p = text;
	bool ok = *p != '\0';
	while (ok && *p) {
		const char *k = p;
		while (isalnum((unsigned char)*p) || *p == '_')
			p++;
		ok = p > k && !isdigit((unsigned char)*k) && *p == '=';
		const char *v = ok ? ++p : p;
		while (ok && (isalnum((unsigned char)*p) || strchr("._-", *p)) && *p)
			p++;
		ok = ok && p > v && (*p == ',' || !*p) && (*p != ',' || p[1]);
		for (const char *c = k; ok && c < v; c++)
			sbuf_addch(&sb, (char)toupper((unsigned char)*c));
		if (ok)
			sbuf_addf(&sb, "%.*s%s", (int)(p - v), v, *p ? "," : "");
		if (ok && *p)
			p++;
	}
	if (ok && sb.len < size)
		snprintf(out, size, "%s", sbuf_str(&sb));
	else if (e)
		assay_error_set(e, ASSAY_USAGE,
				"expected KEY=VALUE pairs separated by ',' (e.g. "
				"ISL=1024,OSL=1024,TP=8,PP=1,CONC=64), got \"%s\"",
				text);
	ok = ok && sb.len < size;
	sbuf_release(&sb);
	return ok;
}

/* Whether text starts with a key other than MBS, GBS and PRECISION. */
static bool other_keys(const char *text)
{
	const char *eq = strchr(text, '=');
	const char *comma = strchr(text, ',');
	if (!eq || (comma && comma < eq))
		return false;
	size_t n = (size_t)(eq - text);
	return !((n == 3 && (!strncasecmp(text, "MBS", 3) || !strncasecmp(text, "GBS", 3))) ||
		 (n == 9 && !strncasecmp(text, "PRECISION", 9)));
}

bool assay_combo_canonical(const char *text, char *out, size_t size, struct assay_error *e)
{
	if (assay_combo_is_infer(text)) /* CVS's inference cells (thresholds_infer.c) */
		return assay_combo_infer_canonical(text, out, size, e);
	if (other_keys(text))
		return generic_combo(text, out, size, e);
	static const char *const names[] = {"MBS", "GBS", "PRECISION"};
	char *vals[3] = {NULL, NULL, NULL};
	char *copy = xstrdup(text), *save = NULL;
	bool ok = true;
	for (char *part = strtok_r(copy, ",", &save); part && ok;
	     part = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(part, '=');
		int k = -1;
		if (eq) {
			*eq = '\0';
			for (int i = 0; i < 3; i++)
				if (!strcasecmp(part, names[i]))
					k = i;
		}
		if (k < 0 || vals[k] || !eq[1]) {
			ok = combo_fail(e, text, "");
			break;
		}
		vals[k] = eq + 1;
	}
	for (int i = 0; ok && i < 3; i++)
		if (!vals[i])
			ok = combo_fail(e, text, "");
	long long mbs = 0, gbs = 0;
	if (ok && (!assay_parse_long(vals[0], &mbs) || mbs <= 0))
		ok = combo_fail(e, text, " (MBS must be a positive integer)");
	if (ok && (!assay_parse_long(vals[1], &gbs) || gbs <= 0))
		ok = combo_fail(e, text, " (GBS must be a positive integer)");
	if (ok) {
		for (char *p = vals[2]; *p; p++) {
			if (!isalnum((unsigned char)*p) && *p != '_' && *p != '-') {
				ok = combo_fail(e, text,
						" (PRECISION takes letters, digits, _ and -)");
				break;
			}
			*p = (char)toupper((unsigned char)*p);
		}
	}
	if (ok)
		snprintf(out, size, "MBS=%lld,GBS=%lld,PRECISION=%s", mbs, gbs, vals[2]);
	free(copy);
	return ok;
}

/* ---- loading ---- */

static const char *const kinds[] = {"min", "max", "within", "info", NULL};

static int parse_spec(struct assay_cfg *c, const json_t *v, const char *path, const char *metric,
		      struct assay_threshold *th)
{
	static const char *const keys[] = {"kind",     "value",     "tolerance",
					   "optional", "statistic", NULL};
	const char *kind, *stat = NULL;
	memset(th, 0, sizeof(*th));
	snprintf(th->path, sizeof(th->path), "%s", path);
	if (assay_cfg_object(c, v, path, keys) < 0 ||
	    assay_cfg_enum(c, v, path, "kind", ASSAY_CFG_REQUIRED, kinds, &kind) < 0)
		return -1;
	for (int i = 0; kinds[i]; i++)
		if (!strcmp(kinds[i], kind))
			th->kind = (enum assay_threshold_kind)i;
	int info = th->kind == ASSAY_TH_INFO;
	char kp[256];
	if (info && (json_object_get(v, "value") || json_object_get(v, "tolerance"))) {
		assay_json_path_key(kp, sizeof(kp), path,
				    json_object_get(v, "value") ? "value" : "tolerance");
		return assay_cfg_fail(c, kp, "kind \"info\" takes no value or tolerance");
	}
	if (!info && assay_cfg_number(c, v, path, "value", ASSAY_CFG_REQUIRED, -INFINITY, INFINITY,
				      &th->value) < 0)
		return -1;
	int need_tol = th->kind == ASSAY_TH_WITHIN ? ASSAY_CFG_REQUIRED : ASSAY_CFG_OPTIONAL;
	if (!info &&
	    assay_cfg_number(c, v, path, "tolerance", need_tol, 0, INFINITY, &th->tolerance) < 0)
		return -1;
	if (assay_cfg_bool(c, v, path, "optional", ASSAY_CFG_OPTIONAL, &th->optional) < 0 ||
	    assay_cfg_string(c, v, path, "statistic", ASSAY_CFG_OPTIONAL, &stat) < 0)
		return -1;
	th->metric = xstrdup(metric);
	th->statistic = stat ? xstrdup(stat) : NULL;
	return 0;
}

static int parse_cell(struct assay_cfg *c, const json_t *v, const char *path,
		      struct assay_threshold_cell *cell)
{
	if (!json_is_object(v))
		return assay_cfg_expected(c, path, "an object of metric thresholds", v);
	cell->v = xcalloc(json_object_size(v) + 1, sizeof(*cell->v));
	const char *metric;
	json_t *spec;
	json_object_foreach((json_t *)v, metric, spec)
	{
		char mp[256];
		assay_json_path_key(mp, sizeof(mp), path, metric);
		if (!*metric)
			return assay_cfg_fail(c, mp, "expected a metric name, got \"\"");
		if (parse_spec(c, spec, mp, metric, &cell->v[cell->n]) < 0)
			return -1;
		cell->n++;
	}
	return 0;
}

assay_err assay_thresholds_parse(const json_t *doc, const char *file, struct assay_thresholds *t,
				 struct assay_error *e)
{
	static const char *const keys[] = {"description", "enforce", "cells", NULL};
	struct assay_cfg c = {file, e};
	const char *desc;
	json_t *cells;
	if (assay_thresholds_cvs_detect(doc))
		return assay_thresholds_cvs_parse(doc, file, t, e);
	memset(t, 0, sizeof(*t));
	t->file = xstrdup(file);
	t->enforce = true;
	if (assay_cfg_object(&c, doc, "$", keys) < 0 ||
	    assay_cfg_string(&c, doc, "$", "description", ASSAY_CFG_OPTIONAL, &desc) < 0 ||
	    assay_cfg_bool(&c, doc, "$", "enforce", ASSAY_CFG_OPTIONAL, &t->enforce) < 0 ||
	    assay_cfg_member(&c, doc, "$", "cells", ASSAY_CFG_REQUIRED, JSON_OBJECT, &cells) < 0)
		goto fail;
	if (!json_object_size(cells)) {
		assay_cfg_fail(&c, "$.cells", "expected at least one cell");
		goto fail;
	}
	t->cells = xcalloc(json_object_size(cells), sizeof(*t->cells));
	const char *key;
	json_t *v;
	json_object_foreach(cells, key, v)
	{
		char cp[256], canon[256];
		struct assay_error why;
		assay_json_path_key(cp, sizeof(cp), "$.cells", key);
		if (!strcmp(key, "default")) {
			snprintf(canon, sizeof(canon), "default");
		} else if (!assay_combo_canonical(key, canon, sizeof(canon), &why)) {
			assay_cfg_fail(&c, cp, "expected \"default\" or a combo key: %s",
				       why.message);
			goto fail;
		}
		for (size_t i = 0; i < t->n_cells; i++)
			if (!strcmp(t->cells[i].key, canon)) {
				char other[256];
				assay_json_path_key(other, sizeof(other), "$.cells",
						    t->cells[i].key);
				assay_cfg_fail(&c, cp, "duplicate cell: the same combo as %s",
					       other);
				goto fail;
			}
		struct assay_threshold_cell *cell = &t->cells[t->n_cells++];
		cell->key = xstrdup(canon);
		if (parse_cell(&c, v, cp, cell) < 0)
			goto fail;
	}
	return ASSAY_OK;
fail:
	assay_thresholds_release(t);
	return ASSAY_USAGE;
}

assay_err assay_thresholds_load(const char *file, struct assay_thresholds *t, struct assay_error *e)
{
	json_t *doc = assay_json_load_file(file, e);
	if (!doc) {
		memset(t, 0, sizeof(*t));
		return ASSAY_USAGE;
	}
	assay_err rc = assay_thresholds_parse(doc, file, t, e);
	json_decref(doc);
	return rc;
}

void assay_thresholds_release(struct assay_thresholds *t)
{
	for (size_t i = 0; i < t->n_cells; i++) {
		struct assay_threshold_cell *cell = &t->cells[i];
		for (size_t j = 0; j < cell->n; j++) {
			free(cell->v[j].metric);
			free(cell->v[j].statistic);
			free(cell->v[j].reference);
		}
		free(cell->v);
		free(cell->key);
	}
	free(t->cells);
	free(t->file);
	memset(t, 0, sizeof(*t));
}

/* ---- cells and combos ---- */

/* Where the cells are: "$.cells", or the top level of a CVS file. */
static const char *cells_root(const struct assay_thresholds *t)
{
	return t->cvs ? "$" : "$.cells";
}

static const struct assay_threshold_cell *find_cell(const struct assay_thresholds *t,
						    const char *key)
{
	for (size_t i = 0; i < t->n_cells; i++)
		if (!strcmp(t->cells[i].key, key))
			return &t->cells[i];
	return NULL;
}

const struct assay_threshold_cell *assay_thresholds_cell(const struct assay_thresholds *t,
							 const char *combo)
{
	const struct assay_threshold_cell *cell = combo ? find_cell(t, combo) : NULL;
	return cell ? cell : find_cell(t, "default");
}

assay_err assay_thresholds_check_combos(const struct assay_thresholds *t, const char *const *combos,
					size_t n, struct assay_error *e)
{
	if (!t->enforce)
		return ASSAY_OK;
	for (size_t i = 0; i < n; i++)
		if (!assay_thresholds_cell(t, combos[i]))
			return assay_error_at(e, ASSAY_USAGE, t->file, cells_root(t), 0,
					      "no cell for combo \"%s\" and no \"default\" cell",
					      combos[i]);
	for (size_t i = 0; i < t->n_cells; i++) {
		/* CVS's SGLang accuracy cells (BENCH=lm_eval_*, ACC_ISL=…) are
		 * judged by lm-eval and long-context runs, which no suite cell is. */
		const char *key = t->cells[i].key;
		if (!strcmp(key, "default") ||
		    (t->cvs && (!strncmp(key, "BENCH=", 6) || !strncmp(key, "ACC_", 4))))
			continue;
		bool used = false;
		for (size_t j = 0; j < n && !used; j++)
			used = !strcmp(combos[j], t->cells[i].key);
		if (!used) {
			char cp[256];
			assay_json_path_key(cp, sizeof(cp), cells_root(t), t->cells[i].key);
			return assay_error_at(e, ASSAY_USAGE, t->file, cp, 0,
					      "orphan cell: no run uses this combo");
		}
	}
	return ASSAY_OK;
}

/* ---- judging ---- */

const char *assay_threshold_default_statistic(const char *metric)
{
	static const struct {
		const char *metric, *statistic;
	} table[] = {
	    {"elapsed_ms_per_iter", "steady_mean"},
	    {"tflops_per_gpu", "steady_mean"},
	    {"tokens_per_gpu", "steady_mean"},
	    {"lm_loss", "last"},
	    {"eval_lm_loss", "last"},
	    {"mem_usage_ratio", "max"},
	    {"mem_used_gb", "max"},
	    {"rocm_mem_usage_ratio", "max"},
	    {"rocm_mem_used_gb", "max"},
	    {"mem_max_allocated_mb", "max"},
	    {"mem_max_reserved_mb", "max"},
	    {"checkpoint_save_ms", "max"},
	    {"checkpoint_load_ms", "max"},
	    {"skipped_iterations", "total"},
	    {"nan_iterations", "total"},
	};
	for (size_t i = 0; i < ARRAY_SIZE(table); i++)
		if (!strcmp(table[i].metric, metric))
			return table[i].statistic;
	return NULL;
}

/* Judge x: fills spec text and the reason; true when it passes. */
static bool judge(const struct assay_threshold *th, double x, char *spec, size_t sn, char *why,
		  size_t wn)
{
	double tol = th->tolerance * fabs(th->value), pct = th->tolerance * 100;
	bool pass = true;
	switch (th->kind) {
	case ASSAY_TH_MIN:
		pass = x >= th->value - tol;
		if (tol > 0)
			snprintf(spec, sn, ">= %g (%g - %g%%)", th->value - tol, th->value, pct);
		else
			snprintf(spec, sn, ">= %g", th->value);
		snprintf(why, wn, "%g %s %g", x, pass ? ">=" : "<", th->value - tol);
		break;
	case ASSAY_TH_MAX:
		pass = x <= th->value + tol;
		if (tol > 0)
			snprintf(spec, sn, "<= %g (%g + %g%%)", th->value + tol, th->value, pct);
		else
			snprintf(spec, sn, "<= %g", th->value);
		snprintf(why, wn, "%g %s %g", x, pass ? "<=" : ">", th->value + tol);
		break;
	case ASSAY_TH_WITHIN:
		pass = fabs(x - th->value) <= tol;
		snprintf(spec, sn, "%g +/- %g%%", th->value, pct);
		snprintf(why, wn, "%g is %s [%g, %g]", x, pass ? "within" : "outside",
			 th->value - tol, th->value + tol);
		break;
	case ASSAY_TH_INFO:
		snprintf(spec, sn, "info");
		snprintf(why, wn, "recorded");
		break;
	case ASSAY_TH_MIN_RATIO: /* x is the ratio */
		pass = x >= th->value;
		snprintf(spec, sn, ">= %g x %s", th->value, th->reference);
		snprintf(why, wn, "ratio %.3f %s %g (vs %s)", x, pass ? ">=" : "<", th->value,
			 th->reference);
		break;
	}
	return pass;
}

static void label(char *out, size_t n, const char *metric, const char *statistic)
{
	snprintf(out, n, "%s/%s", metric, statistic ? statistic : "*");
}

static bool rows_have(const struct assay_rows *rows, const char *metric, const char *statistic)
{
	for (size_t i = 0; i < rows->n; i++)
		if (!strcmp(rows->v[i].metric, metric) && !strcmp(rows->v[i].statistic, statistic))
			return true;
	return false;
}

/* A CVS threshold's statistic: the first of stats the rows have (assay's
 * own, the last, not with cvs_labels), else CVS's summary. */
static const char *cvs_statistic(const struct assay_thresholds *t, const char *const *stats,
				 const char *metric, const struct assay_rows *rows)
{
	for (size_t i = 0; stats[i]; i++) {
		if (t->cvs_labels && !stats[i + 1])
			break;
		if (rows_have(rows, metric, stats[i]))
			return stats[i];
	}
	for (size_t i = 0; stats[i]; i++)
		if (!strcmp(stats[i], "summary"))
			return stats[i];
	return stats[0];
}

/* The statistic a threshold reads: its own, the default, or the one
 * statistic its metric's rows have. -1 (with e) when ambiguous. */
static int pick_statistic(const struct assay_thresholds *t, const struct assay_threshold *th,
			  const struct assay_rows *rows, const char **out, struct assay_error *e)
{
	if (th->cvs_stats[0]) {
		*out = cvs_statistic(t, th->cvs_stats, th->metric, rows);
		return 0;
	}
	*out = th->statistic ? th->statistic : assay_threshold_default_statistic(th->metric);
	if (*out)
		return 0;
	for (size_t i = 0; i < rows->n; i++) {
		const struct assay_row *r = &rows->v[i];
		if (strcmp(r->metric, th->metric))
			continue;
		if (!*out) {
			*out = r->statistic;
		} else if (strcmp(*out, r->statistic)) {
			assay_error_at(e, ASSAY_USAGE, t->file, th->path, 0,
				       "the rows of %s have several statistics (%s, %s, ...): add "
				       "\"statistic\"",
				       th->metric, *out, r->statistic);
			return -1;
		}
	}
	return 0;
}

/* A verdict on one row names the row's series. */
static void set_series(struct assay_verdict *v, const struct assay_row *r)
{
	if (r->series_key[0])
		v->series_key = xstrdup(r->series_key);
}

/* min_ratio: the reference's value (the first row of its statistic), or
 * why there is none (CVS's messages). */
static const struct assay_row *reference_row(const struct assay_thresholds *t,
					     const struct assay_threshold *th,
					     const struct assay_rows *rows, char *why, size_t wn)
{
	const char *stat = th->ref_stats[0] ? cvs_statistic(t, th->ref_stats, th->reference, rows)
					    : assay_threshold_default_statistic(th->reference);
	for (size_t i = 0; stat && i < rows->n; i++) {
		const struct assay_row *r = &rows->v[i];
		if (strcmp(r->metric, th->reference) || strcmp(r->statistic, stat))
			continue;
		if (r->value == 0) {
			snprintf(why, wn, "reference %s is 0; cannot compute ratio", th->reference);
			return NULL;
		}
		return r;
	}
	snprintf(why, wn, "reference metric %s missing", th->reference);
	return NULL;
}

/* A min_ratio threshold without its reference: FAIL (recorded when not
 * enforced). */
static void no_reference(const struct assay_thresholds *t, const struct assay_threshold *th,
			 const struct assay_row *r, const char *why, struct assay_verdicts *out)
{
	char name[256], spec[128];
	label(name, sizeof(name), r->metric, r->statistic);
	snprintf(spec, sizeof(spec), ">= %g x %s", th->value, th->reference);
	set_series(assay_verdicts_add(out, t->enforce ? ASSAY_VERDICT_FAIL : ASSAY_VERDICT_RECORD,
				      "threshold", name, r->value, r->unit, spec, "%s", why),
		   r);
}

/* min_every_match: a match CVS's float() cannot read stops CVS with an
 * error, so the metric fails. true when there is one. */
static bool unreadable(const struct assay_thresholds *t, const struct assay_threshold *th,
		       const struct assay_rows *rows, bool *used, struct assay_verdicts *out)
{
	for (size_t i = 0; th->every_match && i < rows->n; i++) {
		const struct assay_row *r = &rows->v[i];
		if (strcmp(r->metric, th->metric) || strcmp(r->statistic, "cvs_tail_unreadable"))
			continue;
		for (size_t k = 0; k < rows->n; k++)
			if (!strcmp(rows->v[k].metric, th->metric) &&
			    !strcmp(rows->v[k].statistic, "cvs_tail_min"))
				used[k] = true;
		used[i] = true;
		char name[256], spec[64];
		label(name, sizeof(name), r->metric, r->statistic);
		snprintf(spec, sizeof(spec), ">= %g", th->value);
		set_series(assay_verdicts_add(
			       out, t->enforce ? ASSAY_VERDICT_FAIL : ASSAY_VERDICT_RECORD,
			       "threshold", name, r->value, r->unit, spec,
			       "%g match(es) in the log's last %d lines that Python's float() "
			       "cannot read: CVS stops with an error",
			       r->value, ASSAY_CVS_TAIL_LINES),
			   r);
		return true;
	}
	return false;
}

/* A spec CVS never judges: its rows RECORD, with the reason. */
static void record_only(const struct assay_threshold *th, const char *stat,
			const struct assay_rows *rows, bool *used, struct assay_verdicts *out)
{
	char name[256];
	label(name, sizeof(name), th->metric, stat);
	bool found = false;
	for (size_t i = 0; i < rows->n; i++) {
		const struct assay_row *r = &rows->v[i];
		if (strcmp(r->metric, th->metric) || !stat || strcmp(r->statistic, stat))
			continue;
		used[i] = found = true;
		set_series(assay_verdicts_add(out, ASSAY_VERDICT_RECORD, "threshold", name,
					      r->value, r->unit, "", "%s", th->record_why),
			   r);
	}
	if (!found)
		assay_verdicts_add(out, ASSAY_VERDICT_RECORD, "threshold", name, NAN, "", "",
				   "missing; %s", th->record_why);
}

static void judge_threshold(const struct assay_thresholds *t, const struct assay_threshold *th,
			    const char *stat, const struct assay_rows *rows, bool *used,
			    struct assay_verdicts *out)
{
	char name[256], spec[128], why[256];
	size_t found = 0;
	if (th->record_why) {
		record_only(th, stat, rows, used, out);
		return;
	}
	if (unreadable(t, th, rows, used, out))
		return;
	for (size_t i = 0; i < rows->n; i++) {
		const struct assay_row *r = &rows->v[i];
		if (strcmp(r->metric, th->metric) || !stat || strcmp(r->statistic, stat))
			continue;
		used[i] = true;
		found++;
		double x = r->value;
		if (th->kind == ASSAY_TH_MIN_RATIO) {
			const struct assay_row *ref = reference_row(t, th, rows, why, sizeof(why));
			if (!ref) {
				no_reference(t, th, r, why, out);
				continue;
			}
			x = r->value / ref->value;
		}
		label(name, sizeof(name), r->metric, r->statistic);
		bool pass = judge(th, x, spec, sizeof(spec), why, sizeof(why));
		struct assay_verdict *v;
		if (th->kind == ASSAY_TH_INFO)
			v = assay_verdicts_add(out, ASSAY_VERDICT_RECORD, "threshold", name,
					       r->value, r->unit, spec, "info: recorded");
		else if (!t->enforce)
			v = assay_verdicts_add(
			    out, ASSAY_VERDICT_RECORD, "threshold", name, r->value, r->unit, spec,
			    "not enforced: would %s (%s)", pass ? "pass" : "fail", why);
		else
			v = assay_verdicts_add(out, pass ? ASSAY_VERDICT_PASS : ASSAY_VERDICT_FAIL,
					       "threshold", name, r->value, r->unit, spec, "%s",
					       why);
		set_series(v, r);
	}
	if (found)
		return;
	label(name, sizeof(name), th->metric, stat);
	judge(th, 0, spec, sizeof(spec), why, sizeof(why));
	if (th->every_match)
		assay_verdicts_add(out, ASSAY_VERDICT_SKIPPED, "threshold", name, NAN, "", spec,
				   "no match in the log's last %d lines: not checked",
				   ASSAY_CVS_TAIL_LINES);
	else if (th->optional)
		assay_verdicts_add(out, ASSAY_VERDICT_SKIPPED, "threshold", name, NAN, "", spec,
				   "missing (%s)", th->missing_why ? th->missing_why : "optional");
	else if (t->enforce && (th->kind != ASSAY_TH_INFO || th->missing_fails))
		assay_verdicts_add(out, ASSAY_VERDICT_FAIL, "threshold", name, NAN, "", spec,
				   "missing: no row has this metric");
	else
		assay_verdicts_add(out, ASSAY_VERDICT_RECORD, "threshold", name, NAN, "", spec,
				   "missing (%s)", t->enforce ? "info" : "not enforced");
}

bool assay_thresholds_every_match(const struct assay_thresholds *t)
{
	for (size_t c = 0; c < t->n_cells; c++)
		for (size_t i = 0; i < t->cells[c].n; i++)
			if (t->cells[c].v[i].every_match)
				return true;
	return false;
}

assay_err assay_gate_thresholds(const struct assay_thresholds *t, const char *combo,
				const struct assay_rows *rows, struct assay_verdicts *out,
				struct assay_error *e)
{
	char canon[256];
	if (combo && strcmp(combo, "default")) {
		if (!assay_combo_key(combo, canon, sizeof(canon), e))
			return ASSAY_USAGE;
		combo = canon;
	}
	const struct assay_threshold_cell *cell = assay_thresholds_cell(t, combo);
	if (!cell && t->enforce)
		return assay_error_at(e, ASSAY_USAGE, t->file, cells_root(t), 0,
				      t->cvs
					  ? "no cell for combo \"%s\" (a CVS file has no default "
					    "cell: give --combo)"
					  : "no cell for combo \"%s\" and no \"default\" cell",
				      combo ? combo : "default");
	const char **stats = xcalloc(cell ? cell->n + 1 : 1, sizeof(*stats));
	/* CVS files: TorchTitan's value where it has one (cvs_train.c). */
	struct assay_threshold *tmp = xcalloc(cell ? cell->n + 1 : 1, sizeof(*tmp));
	const struct assay_threshold **use = xcalloc(cell ? cell->n + 1 : 1, sizeof(*use));
	for (size_t i = 0; cell && i < cell->n; i++)
		use[i] = assay_threshold_cvs_alt(&cell->v[i], rows, &tmp[i]);
	for (size_t i = 0; cell && i < cell->n; i++)
		if (pick_statistic(t, use[i], rows, &stats[i], e) < 0) {
			free(stats);
			free(tmp);
			free(use);
			return ASSAY_USAGE;
		}
	bool *used = xcalloc(rows->n + 1, sizeof(*used));
	if (cell && t->cvs_infer == ASSAY_CVS_INFER_ATOM)
		assay_gate_cvs_atom_tiers(t, cell, rows, out);
	for (size_t i = 0; cell && i < cell->n; i++)
		judge_threshold(t, use[i], stats[i], rows, used, out);
	free(tmp);
	free(use);
	for (size_t i = 0; i < rows->n; i++) {
		if (used[i])
			continue;
		char name[256];
		const struct assay_row *r = &rows->v[i];
		label(name, sizeof(name), r->metric, r->statistic);
		set_series(assay_verdicts_add(
			       out, ASSAY_VERDICT_RECORD, "threshold", name, r->value, r->unit, "",
			       cell ? "no threshold" : "no cell for this combo (not enforced)"),
			   r);
	}
	free(used);
	free(stats);
	return ASSAY_OK;
}
