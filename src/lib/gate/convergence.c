/* The convergence gate: the final loss (the last evaluation loss when the
 * log has one, else the last training loss, or as configured) must reach
 * target_value; also records the first step that reached it and the
 * training time to that step. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "assay/gate.h"

int assay_convergence_spec_parse(struct assay_cfg *c, const json_t *v, const char *path,
				 struct assay_convergence_spec *s)
{
	static const char *const keys[] = {"target_value", "source", "enforce", NULL};
	static const char *const sources[] = {"auto", "eval", "train", NULL};
	const char *src = "auto";
	memset(s, 0, sizeof(*s));
	s->enforce = true;
	if (assay_cfg_object(c, v, path, keys) < 0 ||
	    assay_cfg_number(c, v, path, "target_value", ASSAY_CFG_REQUIRED, -INFINITY, INFINITY,
			     &s->target_value) < 0 ||
	    assay_cfg_enum(c, v, path, "source", ASSAY_CFG_OPTIONAL, sources, &src) < 0 ||
	    assay_cfg_bool(c, v, path, "enforce", ASSAY_CFG_OPTIONAL, &s->enforce) < 0)
		return -1;
	s->source = !strcmp(src, "eval")    ? ASSAY_LOSS_EVAL
		    : !strcmp(src, "train") ? ASSAY_LOSS_TRAIN
					    : ASSAY_LOSS_AUTO;
	return 0;
}

/* Seconds of training from the start of the log to step index `upto`
 * (inclusive): elapsed ms per iteration times the iterations each logged step
 * covers. The first logged step covers as many as the gap to the second. */
static double seconds_to(const struct assay_train_result *r, size_t upto)
{
	if (!r->n_steps)
		return 0;
	long long prev = assay_train_loaded(r);
	if (prev < 0) {
		long long gap = r->n_steps > 1 ? r->steps[1].step - r->steps[0].step : 1;
		prev = r->steps[0].step - (gap > 0 ? gap : 1);
		if (prev < 0)
			prev = 0;
	}
	double ms = 0;
	for (size_t i = 0; i <= upto && i < r->n_steps; i++) {
		const struct assay_train_step *s = &r->steps[i];
		if ((s->has & (1u << ASSAY_TM_ELAPSED_MS)) && isfinite(s->v[ASSAY_TM_ELAPSED_MS]) &&
		    s->step > prev)
			ms += s->v[ASSAY_TM_ELAPSED_MS] * (double)(s->step - prev);
		if (s->step > prev)
			prev = s->step;
	}
	return ms / 1000.0;
}

void assay_gate_convergence(const struct assay_convergence_spec *s,
			    const struct assay_train_result *r, struct assay_verdicts *out)
{
	bool eval =
	    s->source == ASSAY_LOSS_EVAL || (s->source == ASSAY_LOSS_AUTO && r->n_evals > 0);
	const char *metric = eval ? "eval_lm_loss/final" : "lm_loss/final";
	char spec[64];
	snprintf(spec, sizeof(spec), "<= %g", s->target_value);
	double final = NAN;
	long long final_step = -1;
	if (eval) {
		for (size_t i = r->n_evals; i-- > 0;)
			if (isfinite(r->evals[i].loss)) {
				final = r->evals[i].loss;
				final_step = r->evals[i].step;
				break;
			}
	} else {
		assay_train_last(r, ASSAY_TM_LM_LOSS, &final, &final_step);
	}
	enum assay_verdict_status fail = s->enforce ? ASSAY_VERDICT_FAIL : ASSAY_VERDICT_RECORD;
	if (isnan(final)) {
		assay_verdicts_add(out, fail, "convergence", metric, NAN, "nats", spec,
				   "missing: no finite %s loss in the log",
				   eval ? "evaluation" : "lm");
	} else {
		bool pass = final <= s->target_value;
		char at[48] = "";
		if (final_step >= 0)
			snprintf(at, sizeof(at), " at step %lld", final_step);
		if (s->enforce)
			assay_verdicts_add(out, pass ? ASSAY_VERDICT_PASS : ASSAY_VERDICT_FAIL,
					   "convergence", metric, final, "nats", spec,
					   "final loss %g%s %s target %g", final, at,
					   pass ? "reached" : "missed", s->target_value);
		else
			assay_verdicts_add(out, ASSAY_VERDICT_RECORD, "convergence", metric, final,
					   "nats", spec, "not enforced: final loss %g%s would %s",
					   final, at, pass ? "pass" : "fail");
	}
	/* First step at or below the target, from the same source. */
	long long step = -1;
	size_t idx = 0;
	if (eval) {
		for (size_t i = 0; i < r->n_evals && step < 0; i++)
			if (isfinite(r->evals[i].loss) && r->evals[i].loss <= s->target_value) {
				/* The end-of-training evaluation counts at the last step. */
				step = r->evals[i].step;
				if (step < 0 && r->n_steps)
					step = r->steps[r->n_steps - 1].step;
				if (step < 0)
					break;
			}
		/* The training steps up to that evaluation give the time. */
		while (step >= 0 && idx + 1 < r->n_steps && r->steps[idx + 1].step <= step)
			idx++;
	} else {
		for (size_t i = 0; i < r->n_steps && step < 0; i++) {
			const struct assay_train_step *st = &r->steps[i];
			if ((st->has & (1u << ASSAY_TM_LM_LOSS)) &&
			    isfinite(st->v[ASSAY_TM_LM_LOSS]) &&
			    st->v[ASSAY_TM_LM_LOSS] <= s->target_value) {
				step = st->step;
				idx = i;
			}
		}
	}
	if (step < 0) {
		assay_verdicts_add(out, ASSAY_VERDICT_RECORD, "convergence", "steps_to_target", NAN,
				   "step", "", "the loss never reached %g", s->target_value);
		return;
	}
	assay_verdicts_add(out, ASSAY_VERDICT_RECORD, "convergence", "steps_to_target",
			   (double)step, "step", "", "first reached %g at step %lld",
			   s->target_value, step);
	double secs = r->n_steps ? seconds_to(r, idx) : NAN;
	assay_verdicts_add(out, ASSAY_VERDICT_RECORD, "convergence", "time_to_target", secs, "s",
			   "", "%.6g s of training to step %lld", secs, step);
}
