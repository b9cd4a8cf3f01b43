/* Training curves for the report: per case with a steps.ndjson in its
 * folder, lm loss and throughput per step, the warm-up, the loss-curve
 * gate's line, and labels from the factors that tell the cases apart. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/json.h"
#include "report/load_int.h"

/* A number of a step record ("nan" and "inf" strings are gaps). */
static double step_num(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);
	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* The loss-curve gate's line: its slope, through the case's loss points of
 * the steps it fitted ("... (steps A..B)" in its message). */
static void train_fit(const struct assay_report *r, struct assay_report_train *t)
{
	const struct assay_report_gate *lc = NULL;
	for (size_t i = 0; i < r->ngates; i++) {
		const struct assay_report_gate *g = &r->gates[i];
		if (g->case_id && !strcmp(g->case_id, t->case_id) &&
		    !strcmp(g->name, "loss-curve") && isfinite(g->value))
			lc = g;
	}
	if (!lc || !t->nloss)
		return;
	double from = -INFINITY, to = INFINITY;
	const char *steps = lc->message ? strstr(lc->message, "(steps ") : NULL;
	if (!steps || sscanf(steps, "(steps %lf%*[.]%lf", &from, &to) != 2)
		from = -INFINITY, to = INFINITY;
	double sum = 0, lo = INFINITY, hi = -INFINITY;
	size_t n = 0;
	for (size_t i = 0; i < t->nloss; i++) {
		const struct assay_report_xy *p = &t->loss[i];
		if (!isfinite(p->y) || p->x < from || p->x > to)
			continue;
		sum += p->y - lc->value * p->x;
		lo = fmin(lo, p->x);
		hi = fmax(hi, p->x);
		n++;
	}
	if (!n)
		return;
	t->has_fit = true;
	t->slope = lc->value;
	t->intercept = sum / (double)n;
	t->fit_from = lo;
	t->fit_to = hi;
}

/* Per training case (one with a steps.ndjson): loss and throughput per
 * step, the warm-up, and the loss-curve gate's line. */
/* One case's steps.ndjson into a training section: loss and throughput per
 * step, the warm-up; false when the case has no such file. */
static bool train_case(struct assay_report *r, const struct assay_report_case *c, const char *dir)
{
	char *path = xasprintf("%s/steps.ndjson", dir);
	struct assay_error e;
	size_t len;
	char *text = load_is_file(path) ? assay_read_file(path, &len, &e) : NULL;
	if (!text) {
		free(path);
		return false;
	}
	struct assay_report_train *t = assay_report_add_train(r, c->id, c->id);
	size_t pos = 0;
	long line = 0;
	json_t *o;
	int got;
	const char *tput = NULL;
	while ((got = assay_ndjson_next(text, len, &pos, &line, path, &o, &e)) == 1) {
		double step = step_num(o, "step");
		if (!tput)
			tput = json_object_get(o, "tokens_per_gpu")   ? "tokens_per_gpu"
			       : json_object_get(o, "tflops_per_gpu") ? "tflops_per_gpu"
								      : NULL;
		if (isfinite(step)) {
			if (json_object_get(o, "lm_loss"))
				assay_report_train_loss(t, step, step_num(o, "lm_loss"));
			if (tput && json_object_get(o, tput))
				assay_report_train_throughput(t, step, step_num(o, tput));
			if (json_is_true(json_object_get(o, "warmup")) && step > t->warmup_steps)
				t->warmup_steps = step;
		}
		json_decref(o);
	}
	if (got < 0)
		strlist_push(&r->notes, e.message); /* what was read is drawn */
	assay_report_set(&t->throughput_unit, !tput                             ? NULL
					      : !strcmp(tput, "tokens_per_gpu") ? "tokens/s/GPU"
										: "TFLOP/s/GPU");
	train_fit(r, t);
	free(text);
	free(path);
	return true;
}

static const struct assay_report_case *case_of(const struct assay_report *r, const char *id)
{
	for (size_t q = 0; q < r->ncases; q++)
		if (!strcmp(r->cases[q].id, id))
			return &r->cases[q];
	return NULL;
}

/* Does some training section's case lack factor f (or hold another value)? */
static bool factor_differs(const struct assay_report *r, const struct assay_report_kv *f)
{
	for (size_t m = 0; m < r->ntrain; m++) {
		const struct assay_report_case *o = case_of(r, r->train[m].case_id);
		bool same = false;
		for (size_t q = 0; o && q < o->nfactors && !same; q++)
			same = !strcmp(o->factors[q].key, f->key) &&
			       !strcmp(o->factors[q].value, f->value);
		if (!same)
			return true;
	}
	return false;
}

/* Labels: what tells the combinations apart (short factor values). */
static void train_labels(struct assay_report *r)
{
	struct strlist vary = STRLIST_INIT;
	for (size_t i = 0; i < r->ntrain; i++) {
		const struct assay_report_case *c = case_of(r, r->train[i].case_id);
		for (size_t k = 0; c && k < c->nfactors; k++) {
			const struct assay_report_kv *f = &c->factors[k];
			if (strlen(f->value) <= 32 && !strlist_has(&vary, f->key) &&
			    factor_differs(r, f))
				strlist_push(&vary, f->key);
		}
	}
	struct sbuf label = SBUF_INIT;
	for (size_t i = 0; i < r->ntrain && vary.n; i++) {
		const struct assay_report_case *c = case_of(r, r->train[i].case_id);
		sbuf_reset(&label);
		for (size_t k = 0; c && k < c->nfactors; k++)
			if (strlist_has(&vary, c->factors[k].key) &&
			    strlen(c->factors[k].value) <= 32)
				sbuf_addf(&label, "%s%s=%s", label.len ? " · " : "",
					  c->factors[k].key, c->factors[k].value);
		if (label.len)
			assay_report_set(&r->train[i].label, label.buf);
	}
	sbuf_release(&label);
	strlist_clear(&vary);
}

void load_training(struct loader *L, const struct assay_store_cases *sc)
{
	struct assay_report *r = L->r;
	for (size_t i = 0; i < r->ncases; i++) {
		const struct assay_report_case *c = &r->cases[i];
		const char *dir = NULL;
		for (size_t k = 0; k < sc->n && !dir; k++)
			if (!strcmp(sc->v[k].case_id, c->id))
				dir = sc->v[k].artifact_dir;
		if (dir)
			train_case(r, c, dir);
	}
	train_labels(r);
}
