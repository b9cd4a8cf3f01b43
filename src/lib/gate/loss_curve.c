/* The loss-curve gate: the least-squares slope of lm loss against step over
 * the milestone steps plus every sample_every-th step must not exceed
 * max_slope (a falling loss has a negative slope). */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/gate.h"

int assay_loss_curve_spec_parse(struct assay_cfg *c, const json_t *v, const char *path,
				struct assay_loss_curve_spec *s)
{
	static const char *const keys[] = {"max_slope", "sample_every", "milestones", "enforce",
					   NULL};
	memset(s, 0, sizeof(*s));
	s->sample_every = 1;
	s->enforce = true;
	if (assay_cfg_object(c, v, path, keys) < 0 ||
	    assay_cfg_number(c, v, path, "max_slope", ASSAY_CFG_REQUIRED, -INFINITY, INFINITY,
			     &s->max_slope) < 0 ||
	    assay_cfg_int(c, v, path, "sample_every", ASSAY_CFG_OPTIONAL, 1, LLONG_MAX,
			  &s->sample_every) < 0 ||
	    assay_cfg_int_list(c, v, path, "milestones", ASSAY_CFG_OPTIONAL, 0, LLONG_MAX,
			       &s->milestones, &s->n_milestones) < 0 ||
	    assay_cfg_bool(c, v, path, "enforce", ASSAY_CFG_OPTIONAL, &s->enforce) < 0) {
		assay_loss_curve_spec_release(s);
		return -1;
	}
	return 0;
}

void assay_loss_curve_spec_release(struct assay_loss_curve_spec *s)
{
	free(s->milestones);
	s->milestones = NULL;
	s->n_milestones = 0;
}

bool assay_lsq_slope(const double *x, const double *y, size_t n, double *slope)
{
	if (n < 2)
		return false;
	double mx = 0, my = 0;
	for (size_t i = 0; i < n; i++) {
		mx += x[i];
		my += y[i];
	}
	mx /= (double)n;
	my /= (double)n;
	double sxy = 0, sxx = 0;
	for (size_t i = 0; i < n; i++) {
		sxy += (x[i] - mx) * (y[i] - my);
		sxx += (x[i] - mx) * (x[i] - mx);
	}
	if (!(sxx > 0))
		return false;
	*slope = sxy / sxx;
	return true;
}

static bool sampled(const struct assay_loss_curve_spec *s, long long step)
{
	for (size_t i = 0; i < s->n_milestones; i++)
		if (s->milestones[i] == step)
			return true;
	return s->sample_every > 0 && step % s->sample_every == 0;
}

void assay_gate_loss_curve(const struct assay_loss_curve_spec *s,
			   const struct assay_train_result *r, struct assay_verdicts *out)
{
	double *x = xmalloc((r->n_steps + 1) * sizeof(*x));
	double *y = xmalloc((r->n_steps + 1) * sizeof(*y));
	size_t n = 0;
	const uint32_t bit = 1u << ASSAY_TM_LM_LOSS;
	for (size_t i = 0; i < r->n_steps; i++) {
		const struct assay_train_step *st = &r->steps[i];
		if ((st->has & bit) && isfinite(st->v[ASSAY_TM_LM_LOSS]) && sampled(s, st->step)) {
			x[n] = (double)st->step;
			y[n++] = st->v[ASSAY_TM_LM_LOSS];
		}
	}
	char spec[64];
	snprintf(spec, sizeof(spec), "<= %g", s->max_slope);
	double slope;
	if (!assay_lsq_slope(x, y, n, &slope)) {
		assay_verdicts_add(out, s->enforce ? ASSAY_VERDICT_FAIL : ASSAY_VERDICT_RECORD,
				   "loss-curve", "lm_loss/slope", NAN, "nats/step", spec,
				   "missing: %zu sampled step%s with a finite lm loss, 2 needed%s",
				   n, n == 1 ? "" : "s", s->enforce ? "" : " (not enforced)");
	} else {
		bool pass = slope <= s->max_slope;
		char why[160];
		snprintf(why, sizeof(why), "slope %.6g %s %g over %zu samples (steps %.0f..%.0f)",
			 slope, pass ? "<=" : ">", s->max_slope, n, x[0], x[n - 1]);
		if (s->enforce)
			assay_verdicts_add(out, pass ? ASSAY_VERDICT_PASS : ASSAY_VERDICT_FAIL,
					   "loss-curve", "lm_loss/slope", slope, "nats/step", spec,
					   "%s", why);
		else
			assay_verdicts_add(out, ASSAY_VERDICT_RECORD, "loss-curve", "lm_loss/slope",
					   slope, "nats/step", spec, "not enforced: would %s (%s)",
					   pass ? "pass" : "fail", why);
	}
	free(x);
	free(y);
}
