/* The suite's gates applied to one case (docs/suite.md, "Gates"): run
 * health and the training gates on its training log, thresholds on its
 * rows, the regression gates against the stored history of each row's
 * series, and the ab gate against the baseline case of the same run. Every
 * gate's result is a verdict (include/assay/gate.h); a digest of them is
 * the case's reason. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/detect.h"
#include "assay/json.h"
#include "run_int.h"

static long case_index(const struct assay_suite *s, const char *id)
{
	for (size_t i = 0; i < s->n_cases; i++)
		if (!strcmp(s->cases[i].id, id))
			return (long)i;
	return -1;
}

static bool train_needed(const struct assay_suite *s, const char *id)
{
	const struct assay_suite_gates *g = &s->gates;
	return (g->scaling_on && !strcmp(g->scaling.baseline, id)) ||
	       (g->checkpoint_on && !strcmp(g->checkpoint.save, id));
}

void run_keep_train(struct run_ctx *rc, size_t index, struct assay_train_result *r)
{
	if (!train_needed(&rc->suite, rc->suite.cases[index].id)) {
		assay_train_result_release(r);
		return;
	}
	if (!rc->train)
		rc->train = xcalloc(rc->suite.n_cases, sizeof(*rc->train));
	if (rc->train[index]) {
		assay_train_result_release(rc->train[index]);
		free(rc->train[index]);
	}
	rc->train[index] = xmalloc(sizeof(**rc->train));
	*rc->train[index] = *r;
	memset(r, 0, sizeof(*r));
}

void run_train_release(struct run_ctx *rc)
{
	for (size_t i = 0; rc->train && i < rc->suite.n_cases; i++) {
		if (rc->train[i])
			assay_train_result_release(rc->train[i]);
		free(rc->train[i]);
	}
	free(rc->train);
	rc->train = NULL;
}

/* The training result of case i for a later case's gate: one that passed
 * (or only failed gates), from this attempt or parsed again from what an
 * earlier attempt left in its folder. NULL with why when there is none. */
static const struct assay_train_result *train_of(struct run_ctx *rc, long i, char *why, size_t n)
{
	const struct assay_suite_case *c = &rc->suite.cases[i];
	const struct assay_case_outcome *o = &rc->res->cases[i];
	if (o->outcome != ASSAY_OUTCOME_PASSED && o->outcome != ASSAY_OUTCOME_GATE_FAILED) {
		snprintf(why, n, "case %s is %s", c->id, assay_outcome_name(o->outcome));
		return NULL;
	}
	if (rc->train && rc->train[i])
		return rc->train[i];
	struct assay_train_result r;
	char *dir = o->dir ? xstrdup(o->dir) : xasprintf("%s/%s", rc->res->run_dir, c->id);
	assay_err err = run_read_training(rc, c, dir, &r, why, n);
	free(dir);
	if (err != ASSAY_OK) {
		assay_train_result_release(&r);
		return NULL;
	}
	run_keep_train(rc, (size_t)i, &r);
	return rc->train ? rc->train[i] : NULL;
}

/* A training gate on results that are not a training log (parser auto). */
static void not_training(struct assay_verdicts *out, const char *gate, const char *metric,
			 bool enforce)
{
	assay_verdicts_add(out, enforce ? ASSAY_VERDICT_FAIL : ASSAY_VERDICT_RECORD, gate, metric,
			   NAN, "", "", "missing: the results are not a training log");
}

static void gate_scaling(struct run_ctx *rc, const struct assay_suite_case *c,
			 const struct assay_train_result *train, struct assay_verdicts *out)
{
	const struct assay_suite_scaling *g = &rc->suite.gates.scaling;
	if (!strlist_has(&g->cases, c->id))
		return;
	if (!train) {
		not_training(out, "scaling", "scaling_efficiency", g->enforce);
		return;
	}
	char spec[64] = "", why[512];
	if (!isnan(g->min_efficiency))
		snprintf(spec, sizeof(spec), ">= %g%%", g->min_efficiency);
	long b = case_index(&rc->suite, g->baseline);
	const struct assay_suite_case *bc = &rc->suite.cases[b];
	const struct assay_train_result *base = train_of(rc, b, why, sizeof(why));
	double mean = NAN, median;
	long long gpus = bc->train.world_size > 0 ? bc->train.world_size
			 : base                   ? base->world_size
						  : 0;
	if (base && !assay_train_steady(base, ASSAY_TM_TOKENS, &mean, &median))
		snprintf(why, sizeof(why), "case %s has no steady-state tokens/s/GPU", bc->id);
	else if (base && gpus <= 0)
		snprintf(why, sizeof(why),
			 "the GPUs of case %s are unknown (set training.world_size)", bc->id);
	if (!base || isnan(mean) || gpus <= 0) {
		assay_verdicts_add(out, ASSAY_VERDICT_SKIPPED, "scaling", "scaling_efficiency", NAN,
				   "%", spec, "no baseline: %s", why);
		return;
	}
	struct assay_scaling_spec sp = {
	    c->nodes,          bc->nodes, c->train.world_size, mean * (double)gpus,
	    g->min_efficiency, g->enforce};
	assay_gate_scaling(&sp, train, out);
}

static void gate_checkpoint(struct run_ctx *rc, const struct assay_suite_case *c,
			    const struct assay_train_result *train, struct assay_verdicts *out)
{
	const struct assay_suite_checkpoint *g = &rc->suite.gates.checkpoint;
	if (strcmp(g->resume, c->id))
		return;
	if (!train) {
		not_training(out, "checkpoint", "resume_first_step", g->spec.enforce);
		return;
	}
	char why[512];
	const struct assay_train_result *save =
	    train_of(rc, case_index(&rc->suite, g->save), why, sizeof(why));
	if (!save) {
		assay_verdicts_add(out, ASSAY_VERDICT_SKIPPED, "checkpoint", "resume_first_step",
				   NAN, "step", "", "no saving run: %s", why);
		return;
	}
	assay_gate_checkpoint(&g->spec, save, train, out);
}

/* The rows a metrics list selects, as a view (free(view.v) only). */
static struct assay_rows select_rows(const struct assay_rows *rows, const struct strlist *metrics)
{
	struct assay_rows view = ASSAY_ROWS_INIT;
	view.v = xcalloc(rows->n + 1, sizeof(*view.v));
	for (size_t i = 0; i < rows->n; i++)
		if (assay_suite_metric_selected(metrics, &rows->v[i]))
			view.v[view.n++] = rows->v[i];
	view.alloc = rows->n + 1;
	return view;
}

/* Where a row sits among rows of the same metric and statistic: the series
 * fields whose values differ between them ("component=dispatch tokens=4"
 * for an EP case), "" when it is the only one. */
static void point_label(const struct assay_rows *view, const struct assay_row *r, char *buf,
			size_t n)
{
	struct sbuf sb = SBUF_INIT;
	const char *k;
	json_t *v;
	json_object_foreach(r->series, k, v)
	{
		bool varies = false;
		for (size_t i = 0; i < view->n && !varies; i++) {
			const struct assay_row *o = &view->v[i];
			varies = o != r && !strcmp(o->metric, r->metric) &&
				 !strcmp(o->statistic, r->statistic) &&
				 !json_equal(v, json_object_get(o->series, k));
		}
		if (!varies)
			continue;
		char *text =
		    json_is_string(v) ? xstrdup(json_string_value(v)) : assay_json_dumps(v, 0);
		sbuf_addf(&sb, "%s%s=%s", sb.len ? " " : "", k, text);
		free(text);
	}
	snprintf(buf, n, "%s", sbuf_str(&sb));
	sbuf_release(&sb);
}

/* Say which point a verdict is about, before its message. */
static void label_verdict(struct assay_verdict *v, const struct assay_rows *view,
			  const struct assay_row *r)
{
	char label[256];
	point_label(view, r, label, sizeof(label));
	if (!label[0])
		return;
	char *m = xasprintf("%s: %s", label, v->message);
	free(v->message);
	v->message = m;
}

static const struct assay_row *row_of(const struct assay_rows *rows, const char *key)
{
	for (size_t i = 0; i < rows->n; i++)
		if (!strcmp(rows->v[i].series_key, key))
			return &rows->v[i];
	return NULL;
}

static assay_err gate_regression(struct run_ctx *rc, const struct assay_rows *rows,
				 struct assay_verdicts *out, struct assay_error *e)
{
	const struct assay_suite_regression *g = &rc->suite.gates.regression;
	struct assay_rows view = select_rows(rows, &g->metrics);
	struct assay_regressions regs = {0};
	assay_err err = assay_gate_history(rc->store, &view, &g->config, &regs, e);
	for (size_t i = 0; err == ASSAY_OK && i < regs.n; i++) {
		const struct assay_row *r = row_of(&view, regs.v[i].series_key);
		char spec[128];
		if (!r)
			continue;
		assay_regression_spec(regs.v[i].gate, &g->config, r, spec, sizeof(spec));
		label_verdict(assay_regression_verdict(&regs.v[i], r, spec, g->enforce, out), &view,
			      r);
	}
	assay_regressions_release(&regs);
	free(view.v);
	return err;
}

/* Whether two series are the same point but for the backend. */
static bool same_but_backend(const json_t *a, const json_t *b)
{
	json_t *x = json_deep_copy(a), *y = json_deep_copy(b);
	json_object_del(x, "backend");
	json_object_del(y, "backend");
	bool eq = json_equal(x, y);
	json_decref(x);
	json_decref(y);
	return eq;
}

static bool backend_is(const struct assay_suite_case *c, const char *backend)
{
	const char *b = json_string_value(json_object_get(c->factors, "backend"));
	return b && !strcmp(b, backend);
}

/* Is revision (NULL: none) acked or expected on series key? */
static assay_err revision_acked(struct run_ctx *rc, const char *series_key, const char *revision,
				bool *acked, struct assay_error *e)
{
	struct assay_annotations ann = {0};
	assay_err err = assay_store_annotations(rc->store, series_key, &ann, e);
	if (err != ASSAY_OK)
		return err;
	*acked = revision && (assay_annotations_has(&ann, revision, ASSAY_ANN_ACK) ||
			      assay_annotations_has(&ann, revision, ASSAY_ANN_EXPECTED));
	assay_annotations_release(&ann);
	return ASSAY_OK;
}

static assay_err gate_ab(struct run_ctx *rc, const struct assay_suite_case *c,
			 const struct assay_rows *rows, struct assay_verdicts *out,
			 struct assay_error *e)
{
	const struct assay_suite_ab *g = &rc->suite.gates.ab;
	if (!backend_is(c, g->candidate))
		return ASSAY_OK;
	char spec[128];
	snprintf(spec, sizeof(spec), "worse by < %g%% vs %s", g->threshold * 100, g->baseline);
	if (c->ab_baseline < 0) {
		assay_verdicts_add(out, ASSAY_VERDICT_SKIPPED, "ab", "-", NAN, "", spec,
				   "no baseline: no case with backend %s at this point",
				   g->baseline);
		return ASSAY_OK;
	}
	const struct assay_suite_case *bc = &rc->suite.cases[c->ab_baseline];
	const struct assay_case_outcome *bo = &rc->res->cases[c->ab_baseline];
	struct assay_rows base = ASSAY_ROWS_INIT;
	struct assay_error se;
	assay_err err = assay_store_case_rows(rc->store, rc->res->run_id, bc->id, &base, &se);
	if (err == ASSAY_INFRA) {
		*e = se;
		return err;
	}
	struct assay_rows view = select_rows(rows, &g->metrics);
	for (size_t i = 0; i < view.n && err != ASSAY_INFRA; i++) {
		const struct assay_row *r = &view.v[i], *b = NULL;
		for (size_t k = 0; k < base.n && !b; k++)
			if (!strcmp(base.v[k].metric, r->metric) &&
			    !strcmp(base.v[k].statistic, r->statistic) &&
			    same_but_backend(base.v[k].series, r->series))
				b = &base.v[k];
		char metric[256];
		snprintf(metric, sizeof(metric), "%s/%s", r->metric, r->statistic);
		struct assay_verdict *v;
		if (!b) {
			v = assay_verdicts_add(out, ASSAY_VERDICT_SKIPPED, "ab", metric, r->value,
					       r->unit, spec, "no baseline row: case %s is %s",
					       bc->id, assay_outcome_name(bo->outcome));
			v->series_key = xstrdup(r->series_key);
			label_verdict(v, &view, r);
			continue;
		}
		bool acked;
		if ((err = revision_acked(rc, r->series_key, r->revision, &acked, e)) != ASSAY_OK)
			break;
		struct assay_regression ab;
		struct assay_error ge;
		if (assay_gate_ab(b, r, g->threshold, acked, &ab, &ge) != ASSAY_OK) {
			v = assay_verdicts_add(
			    out, g->enforce ? ASSAY_VERDICT_FAIL : ASSAY_VERDICT_RECORD, "ab",
			    metric, r->value, r->unit, spec, "cannot compare: %s", ge.message);
			v->series_key = xstrdup(r->series_key);
		} else {
			v = assay_regression_verdict(&ab, r, spec, g->enforce, out);
		}
		label_verdict(v, &view, r);
	}
	free(view.v);
	assay_rows_release(&base);
	return err == ASSAY_INFRA ? err : ASSAY_OK;
}

/* The identity of a row across variants: metric, statistic and series
 * but for the variant. */
static char *pair_key(const struct assay_row *r)
{
	json_t *x = json_deep_copy(r->series);
	json_object_del(x, "variant");
	char *fields = assay_json_dumps(x, ASSAY_JSON_SORT);
	json_decref(x);
	char *key = xasprintf("%s/%s %s", r->metric, r->statistic, fields);
	free(fields);
	return key;
}

static const struct assay_row *find_pair(const struct assay_rows *rows, const char *key)
{
	for (size_t i = 0; i < rows->n; i++) {
		char *k = pair_key(&rows->v[i]);
		bool eq = !strcmp(k, key);
		free(k);
		if (eq)
			return &rows->v[i];
	}
	return NULL;
}

/* The copy of case base that runs variant name in repeat rep, or -1. */
static long variant_case(const struct assay_suite *s, const char *base, const char *name,
			 long long rep)
{
	for (size_t i = 0; i < s->n_cases; i++) {
		const struct assay_suite_case *k = &s->cases[i];
		if (k->base && k->variant && !strcmp(k->base, base) &&
		    !strcmp(k->variant->name, name) && k->rep == rep)
			return (long)i;
	}
	return -1;
}

/* The stored rows of a case's variant copies, repeat by repeat: [0] the
 * baseline's, [1] the candidate's (but its last repeat: the case at hand). */
struct variant_rows {
	size_t n; /* repeats */
	const char *names[2];
	long *idx[2]; /* the copy's case index, -1: none */
	struct assay_rows *got[2];
};

/* Load them for case c; ASSAY_INFRA (e filled) when the store fails, the
 * rest then left empty. */
static assay_err variant_rows_load(struct run_ctx *rc, const struct assay_suite_case *c,
				   struct variant_rows *vr, struct assay_error *e)
{
	const struct assay_suite *s = &rc->suite;
	size_t n = vr->n = (size_t)s->repeat;
	assay_err err = ASSAY_OK;
	vr->names[0] = s->gates.ab.baseline;
	vr->names[1] = s->gates.ab.candidate;
	for (int w = 0; w < 2; w++) {
		vr->idx[w] = xcalloc(n, sizeof(*vr->idx[w]));
		vr->got[w] = xcalloc(n, sizeof(*vr->got[w]));
	}
	for (int w = 0; w < 2; w++)
		for (size_t r = 0; r < n; r++) {
			long i = vr->idx[w][r] =
			    variant_case(s, c->base, vr->names[w], (long long)r + 1);
			vr->got[w][r] = (struct assay_rows)ASSAY_ROWS_INIT;
			if (i < 0 || (w == 1 && r + 1 == n) || err != ASSAY_OK)
				continue;
			struct assay_error se;
			if (assay_store_case_rows(rc->store, rc->res->run_id, s->cases[i].id,
						  &vr->got[w][r], &se) == ASSAY_INFRA) {
				*e = se;
				err = ASSAY_INFRA;
			}
		}
	return err;
}

static void variant_rows_release(struct variant_rows *vr)
{
	for (int w = 0; w < 2; w++) {
		for (size_t r = 0; r < vr->n; r++)
			assay_rows_release(&vr->got[w][r]);
		free(vr->got[w]);
		free(vr->idx[w]);
	}
}

/* The values of pair key in every repeat of both variants, into bv and cv
 * (mine: the case's own row of it); or in missing, which one a variant did
 * not produce. */
static void pair_values(const struct run_ctx *rc, const struct variant_rows *vr, const char *key,
			const struct assay_row *mine, const char *metric, double *bv, double *cv,
			char *missing, size_t size)
{
	for (size_t r = 0; r < vr->n; r++)
		for (int w = 0; w < 2; w++) {
			const struct assay_row *x =
			    w == 1 && r + 1 == vr->n ? mine : find_pair(&vr->got[w][r], key);
			if (x) {
				(w ? cv : bv)[r] = x->value;
				continue;
			}
			long i = vr->idx[w][r];
			snprintf(missing, size, "variant %s did not produce %s in case %s (%s)",
				 vr->names[w], metric, i >= 0 ? rc->suite.cases[i].id : "-",
				 i >= 0 ? assay_outcome_name(rc->res->cases[i].outcome)
					: "missing");
			return;
		}
}

/* The ab verdict on pair key, the case's rows in view and the baseline's
 * last repeat's in lastb; bv and cv: room for the values. */
static assay_err ab_pair(struct run_ctx *rc, const struct variant_rows *vr,
			 const struct assay_rows *view, const struct assay_rows *lastb,
			 const char *key, const char *spec, double *bv, double *cv,
			 struct assay_verdicts *out, struct assay_error *e)
{
	const struct assay_suite_ab *g = &rc->suite.gates.ab;
	const struct assay_row *mine = find_pair(view, key);
	const struct assay_row *any = mine ? mine : find_pair(lastb, key);
	char metric[256], missing[512] = "";
	snprintf(metric, sizeof(metric), "%s/%s", any->metric, any->statistic);
	pair_values(rc, vr, key, mine, metric, bv, cv, missing, sizeof(missing));
	struct assay_verdict *v;
	if (missing[0]) {
		v = assay_verdicts_add(out, ASSAY_VERDICT_FAIL, "ab", metric, NAN, "", spec, "%s",
				       missing);
	} else {
		bool acked;
		assay_err err = revision_acked(rc, any->series_key, any->revision, &acked, e);
		if (err != ASSAY_OK)
			return err;
		struct assay_regression ab;
		struct assay_error ge;
		if (assay_gate_ab_pairs(bv, cv, vr->n, any->direction, g->threshold, acked, &ab,
					&ge) != ASSAY_OK) {
			v = assay_verdicts_add(
			    out, g->enforce ? ASSAY_VERDICT_FAIL : ASSAY_VERDICT_RECORD, "ab",
			    metric, NAN, "", spec, "cannot compare: %s", ge.message);
		} else {
			v = assay_regression_verdict(&ab, any, spec, g->enforce, out);
			v->value = ab.ratio;
			free(v->unit);
			v->unit = xstrdup("ratio");
		}
	}
	if (mine) {
		free(v->series_key);
		v->series_key = xstrdup(mine->series_key);
		label_verdict(v, view, mine);
	}
	return ASSAY_OK;
}

/* The measurements to pair: the candidate's (view) and the baseline's
 * last (lastb), each once. */
static void pair_keys(const struct assay_rows *view, const struct assay_rows *lastb,
		      struct strlist *keys)
{
	for (size_t i = 0; i < view->n + lastb->n; i++) {
		char *k = pair_key(i < view->n ? &view->v[i] : &lastb->v[i - view->n]);
		if (!strlist_has(keys, k))
			strlist_push(keys, k);
		free(k);
	}
}

/* The ab gate between variants: on the candidate's last repeat of a case,
 * every selected measurement against the baseline's, pair by pair (repeat
 * r of each ran side by side). A variant that did not produce a
 * measurement the other did fails. */
static assay_err gate_ab_variants(struct run_ctx *rc, const struct assay_suite_case *c,
				  const struct assay_rows *rows, struct assay_verdicts *out,
				  struct assay_error *e)
{
	const struct assay_suite *s = &rc->suite;
	const struct assay_suite_ab *g = &s->gates.ab;
	if (!c->variant || strcmp(c->variant->name, g->candidate) || c->rep != s->repeat)
		return ASSAY_OK;
	struct variant_rows vr;
	assay_err err = variant_rows_load(rc, c, &vr, e);
	size_t n = vr.n;
	struct assay_rows view = select_rows(rows, &g->metrics);
	struct assay_rows lastb = select_rows(&vr.got[0][n - 1], &g->metrics);
	struct strlist keys = STRLIST_INIT;
	pair_keys(&view, &lastb, &keys);
	char spec[160];
	snprintf(spec, sizeof(spec), "%s/%s median worse by < %g%%", g->candidate, g->baseline,
		 g->threshold * 100);
	if (!keys.n) {
		char *m = strlist_join(&g->metrics, ", ");
		assay_verdicts_add(out, ASSAY_VERDICT_FAIL, "ab", g->metrics.n ? m : "-", NAN, "",
				   spec,
				   "variants %s and %s produced no measurement to compare%s%s%s",
				   g->baseline, g->candidate, g->metrics.n ? " (metrics: " : "",
				   g->metrics.n ? m : "", g->metrics.n ? ")" : "");
		free(m);
	}
	double *bv = xcalloc(n, sizeof(*bv)), *cv = xcalloc(n, sizeof(*cv));
	for (size_t k = 0; k < keys.n && err == ASSAY_OK; k++)
		err = ab_pair(rc, &vr, &view, &lastb, keys.v[k], spec, bv, cv, out, e);
	free(bv);
	free(cv);
	strlist_clear(&keys);
	free(view.v);
	free(lastb.v);
	variant_rows_release(&vr);
	return err == ASSAY_INFRA ? err : ASSAY_OK;
}

/* CVS thresholds judge the values CVS reads (docs/gate.md): the case's rows
 * and, from its training log, CVS's fallback means. */
static void cvs_thresholds(const struct assay_thresholds *t, const struct assay_suite_case *c,
			   const struct assay_rows *rows, const struct assay_train_result *train,
			   struct assay_verdicts *out, struct assay_error *e)
{
	struct assay_rows all = ASSAY_ROWS_INIT;
	for (size_t i = 0; i < rows->n; i++)
		assay_row_copy(assay_rows_add(&all), &rows->v[i]);
	if (train)
		assay_train_cvs_rows(train, false, &all);
	if (train && assay_thresholds_every_match(t))
		assay_train_cvs_old_rows(train, &all);
	/* A TorchTitan or MaxText case: CVS's rows from the cell, its run checks. */
	assay_cvs_train_rows(c->cell, &all);
	assay_gate_cvs_train(c->cell, 0, &all, out);
	if (assay_gate_thresholds(t, c->cell, &all, out, e) != ASSAY_OK)
		assay_verdicts_add(out, ASSAY_VERDICT_FAIL, "threshold", "-", NAN, "", "",
				   "cannot judge: %s", e->message);
	assay_rows_release(&all);
}

assay_err run_gates(struct run_ctx *rc, size_t index, const struct assay_suite_case *c,
		    const struct assay_rows *rows, const struct assay_train_result *train,
		    struct assay_verdicts *out, struct assay_error *e)
{
	(void)index;
	const struct assay_suite_gates *g = &rc->suite.gates;
	if (train)
		assay_gate_run(train, out);
	if (g->thresholds_on && g->thresholds.cvs) {
		struct assay_error ge;
		cvs_thresholds(&g->thresholds, c, rows, train, out, &ge);
	} else if (g->thresholds_on) {
		struct assay_error ge;
		/* A threshold that needs a statistic its rows do not settle shows
		 * only now: a failed verdict, not a crash or a silent pass. */
		if (assay_gate_thresholds(&g->thresholds, c->cell, rows, out, &ge) != ASSAY_OK)
			assay_verdicts_add(out, ASSAY_VERDICT_FAIL, "threshold", "-", NAN, "", "",
					   "cannot judge: %s", ge.message);
	}
	if (g->coll_thresholds_on)
		run_coll_gate(rc, c, rows, out);
	if (g->loss_curve_on) {
		if (train)
			assay_gate_loss_curve(&g->loss_curve, train, out);
		else
			not_training(out, "loss-curve", "lm_loss/slope", g->loss_curve.enforce);
	}
	if (g->convergence_on) {
		if (train)
			assay_gate_convergence(&g->convergence, train, out);
		else
			not_training(out, "convergence", "lm_loss/final", g->convergence.enforce);
	}
	if (g->scaling_on)
		gate_scaling(rc, c, train, out);
	if (g->checkpoint_on)
		gate_checkpoint(rc, c, train, out);
	assay_err err = ASSAY_OK;
	if (g->regression_on)
		err = gate_regression(rc, rows, out, e);
	if (err == ASSAY_OK && g->ab_on)
		err = g->ab.variants ? gate_ab_variants(rc, c, rows, out, e)
				     : gate_ab(rc, c, rows, out, e);
	return err;
}

void run_verdict_digest(const struct assay_verdicts *vs, struct sbuf *out)
{
	size_t n[ASSAY_VERDICT_COUNT], acked = 0, shown = 0;
	bool any = false;
	assay_verdicts_count(vs, n);
	for (size_t i = 0; i < vs->n; i++)
		acked += vs->v[i].acked;
	sbuf_adds(out, "gates:");
	if (n[ASSAY_VERDICT_FAIL]) {
		sbuf_addf(out, " %zu FAIL (", n[ASSAY_VERDICT_FAIL]);
		for (size_t i = 0; i < vs->n; i++) {
			const struct assay_verdict *v = &vs->v[i];
			if (v->status != ASSAY_VERDICT_FAIL)
				continue;
			if (shown++ == 3) {
				sbuf_adds(out, "; ...");
				break;
			}
			sbuf_addf(out, "%s%s %s: %.160s", shown > 1 ? "; " : "", v->gate, v->metric,
				  v->message);
		}
		sbuf_adds(out, ")");
		any = true;
	}
	static const enum assay_verdict_status rest[] = {ASSAY_VERDICT_PASS, ASSAY_VERDICT_RECORD,
							 ASSAY_VERDICT_SKIPPED};
	for (size_t k = 0; k < ARRAY_SIZE(rest); k++) {
		if (!n[rest[k]])
			continue;
		sbuf_addf(out, "%s %zu %s", any ? "," : "", n[rest[k]],
			  assay_verdict_status_name(rest[k]));
		any = true;
		if (rest[k] == ASSAY_VERDICT_PASS && acked)
			sbuf_addf(out, " (%zu acked)", acked);
	}
}
