/* The loss-curve gate, as ROCm/cvs samples and judges it (dddd914,
 * cvs/lib/training/megatron/utils/loss_curve.py): the least-squares slope
 * of lm loss against step over the first and last steps with a loss, the
 * milestone steps and every sample_every-th step must be below max_slope (a
 * falling loss has a negative slope); under 2 points it is SKIPPED. */
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

static bool sampled(const struct assay_loss_curve_spec *s, long long step, long long first,
		    long long last)
{
	if (step == first || step == last)
		return true;
	for (size_t i = 0; i < s->n_milestones; i++)
		if (s->milestones[i] == step)
			return true;
	return s->sample_every > 0 && step % s->sample_every == 0;
}

static bool has_loss(const struct assay_train_step *st)
{
	return (st->has & (1u << ASSAY_TM_LM_LOSS)) && isfinite(st->v[ASSAY_TM_LM_LOSS]);
}

/* The verdict on a slope over n points (x, y). */
static void judge_slope(const struct assay_loss_curve_spec *s, const double *x, size_t n,
			double slope, struct assay_verdicts *out)
{
	char spec[64], why[160];
	snprintf(spec, sizeof(spec), "< %g", s->max_slope);
	bool pass = slope < s->max_slope;
	snprintf(why, sizeof(why), "slope %.6g %s %g over %zu samples (steps %.0f..%.0f)", slope,
		 pass ? "<" : ">=", s->max_slope, n, x[0], x[n - 1]);
	if (s->enforce)
		assay_verdicts_add(out, pass ? ASSAY_VERDICT_PASS : ASSAY_VERDICT_FAIL,
				   "loss-curve", "lm_loss/slope", slope, "nats/step", spec, "%s",
				   why);
	else
		assay_verdicts_add(out, ASSAY_VERDICT_RECORD, "loss-curve", "lm_loss/slope", slope,
				   "nats/step", spec, "not enforced: would %s (%s)",
				   pass ? "pass" : "fail", why);
}

void assay_gate_loss_curve(const struct assay_loss_curve_spec *s,
			   const struct assay_train_result *r, struct assay_verdicts *out)
{
	double *x = xmalloc((r->n_steps + 1) * sizeof(*x));
	double *y = xmalloc((r->n_steps + 1) * sizeof(*y));
	size_t n = 0;
	long long first = -1, last = -1;
	for (size_t i = 0; i < r->n_steps; i++)
		if (has_loss(&r->steps[i])) {
			if (first < 0)
				first = r->steps[i].step;
			last = r->steps[i].step;
		}
	for (size_t i = 0; i < r->n_steps; i++) {
		const struct assay_train_step *st = &r->steps[i];
		if (has_loss(st) && sampled(s, st->step, first, last)) {
			x[n] = (double)st->step;
			y[n++] = st->v[ASSAY_TM_LM_LOSS];
		}
	}
	double slope;
	if (assay_lsq_slope(x, y, n, &slope)) {
		judge_slope(s, x, n, slope, out);
	} else {
		char spec[64];
		snprintf(spec, sizeof(spec), "< %g", s->max_slope);
		assay_verdicts_add(out, ASSAY_VERDICT_SKIPPED, "loss-curve", "lm_loss/slope", NAN,
				   "nats/step", spec,
				   "%zu sampled step%s with a finite lm loss: 2 needed for a slope",
				   n, n == 1 ? "" : "s");
	}
	free(x);
	free(y);
}
