/* The checkpoint-resume gate: the resumed run's first step follows the last
 * checkpoint the saving run wrote (last_checkpoint + 1, or the next logged
 * step), its loss exceeds the saved step's loss by at most loss_rtol
 * (relative), and on steps both runs logged the losses agree; save and load
 * durations from the timer lines are recorded. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "assay/gate.h"

int assay_checkpoint_spec_parse(struct assay_cfg *c, const json_t *v, const char *path,
				struct assay_checkpoint_spec *s)
{
	static const char *const keys[] = {"loss_rtol", "overlap_rtol", "last_checkpoint",
					   "enforce", NULL};
	memset(s, 0, sizeof(*s));
	s->overlap_rtol = NAN;
	s->last_checkpoint = -1;
	s->enforce = true;
	if (assay_cfg_object(c, v, path, keys) < 0 ||
	    assay_cfg_number(c, v, path, "loss_rtol", ASSAY_CFG_REQUIRED, 0, INFINITY,
			     &s->loss_rtol) < 0 ||
	    assay_cfg_number(c, v, path, "overlap_rtol", ASSAY_CFG_OPTIONAL, 0, INFINITY,
			     &s->overlap_rtol) < 0 ||
	    assay_cfg_int(c, v, path, "last_checkpoint", ASSAY_CFG_OPTIONAL, 0, LLONG_MAX,
			  &s->last_checkpoint) < 0 ||
	    assay_cfg_bool(c, v, path, "enforce", ASSAY_CFG_OPTIONAL, &s->enforce) < 0)
		return -1;
	return 0;
}

static bool loss_at(const struct assay_train_step *s, double *out)
{
	if (!(s->has & (1u << ASSAY_TM_LM_LOSS)) || !isfinite(s->v[ASSAY_TM_LM_LOSS]))
		return false;
	*out = s->v[ASSAY_TM_LM_LOSS];
	return true;
}

/* The smallest gap between consecutive logged steps (the log interval). */
static long long log_interval(const struct assay_train_result *r)
{
	long long best = 0;
	for (size_t i = 1; i < r->n_steps; i++) {
		long long d = r->steps[i].step - r->steps[i - 1].step;
		if (d > 0 && (!best || d < best))
			best = d;
	}
	return best ? best : 1;
}

/* The duration of the last checkpoint op with one, NAN when none. */
static double last_ms(const struct assay_train_result *r, enum assay_ckpt_op op)
{
	for (size_t i = r->n_ckpts; i-- > 0;)
		if (r->ckpts[i].op == op && isfinite(r->ckpts[i].ms))
			return r->ckpts[i].ms;
	return NAN;
}

static void judge(struct assay_verdicts *out, const struct assay_checkpoint_spec *s, bool pass,
		  const char *metric, double value, const char *unit, const char *spec,
		  const char *why)
{
	if (s->enforce)
		assay_verdicts_add(out, pass ? ASSAY_VERDICT_PASS : ASSAY_VERDICT_FAIL,
				   "checkpoint", metric, value, unit, spec, "%s", why);
	else
		assay_verdicts_add(out, ASSAY_VERDICT_RECORD, "checkpoint", metric, value, unit,
				   spec, "not enforced: would %s (%s)", pass ? "pass" : "fail",
				   why);
}

/* Largest relative loss difference on steps after the checkpoint that both
 * runs logged; returns how many steps were compared. */
static size_t overlap(const struct assay_train_result *save,
		      const struct assay_train_result *resume, long long after, double *max_rdiff,
		      long long *worst_step)
{
	size_t n = 0, j = 0;
	*max_rdiff = 0;
	for (size_t i = 0; i < resume->n_steps; i++) {
		const struct assay_train_step *b = &resume->steps[i];
		double lb, la;
		if (b->step <= after || !loss_at(b, &lb))
			continue;
		while (j < save->n_steps && save->steps[j].step < b->step)
			j++;
		if (j >= save->n_steps || save->steps[j].step != b->step ||
		    !loss_at(&save->steps[j], &la))
			continue;
		double rd = fabs(lb - la) / (la != 0 ? fabs(la) : 1.0);
		if (!n || rd > *max_rdiff) {
			*max_rdiff = rd;
			*worst_step = b->step;
		}
		n++;
	}
	return n;
}

/* The resumed run's first step follows checkpoint ckpt, and the checkpoint
 * it says it loaded (when it says) is ckpt. */
static void judge_resume_step(const struct assay_checkpoint_spec *s,
			      const struct assay_train_result *save,
			      const struct assay_train_result *resume, long long ckpt,
			      struct assay_verdicts *out)
{
	char spec[96], why[256];
	/* With a log interval L, the first logged step after checkpoint c is the
	 * next multiple of L (c + 1 when every step is logged). */
	long long every = log_interval(save);
	long long expect = (ckpt / every + 1) * every;
	const struct assay_train_step *first = &resume->steps[0];
	snprintf(spec, sizeof(spec), "== %lld", expect);
	snprintf(why, sizeof(why), "resumed at step %lld; last checkpoint %lld%s", first->step,
		 ckpt, every > 1 ? " (logged every few steps)" : "");
	judge(out, s, first->step == expect, "resume_first_step", (double)first->step, "step", spec,
	      why);
	long long loaded = assay_train_loaded(resume);
	if (loaded >= 0) {
		snprintf(spec, sizeof(spec), "== %lld", ckpt);
		snprintf(why, sizeof(why),
			 "the resumed run loaded the checkpoint of iteration %lld", loaded);
		judge(out, s, loaded == ckpt, "loaded_iteration", (double)loaded, "step", spec,
		      why);
	}
}

/* The resumed run's first loss against the saved step's loss: at the
 * checkpoint, or the last logged step before it. */
static void judge_resume_loss(const struct assay_checkpoint_spec *s,
			      const struct assay_train_result *save,
			      const struct assay_train_result *resume, long long ckpt,
			      struct assay_verdicts *out)
{
	enum assay_verdict_status fail = s->enforce ? ASSAY_VERDICT_FAIL : ASSAY_VERDICT_RECORD;
	const struct assay_train_step *first = &resume->steps[0];
	char spec[96], why[256];
	double saved = NAN, resumed;
	long long saved_step = -1;
	for (size_t i = 0; i < save->n_steps && save->steps[i].step <= ckpt; i++) {
		double l;
		if (loss_at(&save->steps[i], &l)) {
			saved = l;
			saved_step = save->steps[i].step;
		}
	}
	snprintf(spec, sizeof(spec), "<= %g", s->loss_rtol);
	if (isnan(saved) || !loss_at(first, &resumed)) {
		assay_verdicts_add(out, fail, "checkpoint", "resume_loss_rdiff", NAN, "ratio", spec,
				   "missing: no lm loss %s",
				   isnan(saved) ? "at or before the checkpoint in the saving run"
						: "on the resumed run's first step");
	} else {
		double rd = (resumed - saved) / (saved != 0 ? fabs(saved) : 1.0);
		snprintf(why, sizeof(why),
			 "loss %g at step %lld after %g at step %lld: %+.3g relative", resumed,
			 first->step, saved, saved_step, rd);
		judge(out, s, rd <= s->loss_rtol, "resume_loss_rdiff", rd, "ratio", spec, why);
	}
}

/* The losses on steps after checkpoint ckpt that both runs logged agree
 * (recorded when the spec gives no overlap_rtol). */
static void judge_overlap(const struct assay_checkpoint_spec *s,
			  const struct assay_train_result *save,
			  const struct assay_train_result *resume, long long ckpt,
			  struct assay_verdicts *out)
{
	char spec[96], why[256];
	double rdiff;
	long long worst = -1;
	size_t shared = overlap(save, resume, ckpt, &rdiff, &worst);
	if (shared) {
		snprintf(why, sizeof(why),
			 "%zu shared steps after the checkpoint; largest at step %lld", shared,
			 worst);
		if (isnan(s->overlap_rtol)) {
			assay_verdicts_add(out, ASSAY_VERDICT_RECORD, "checkpoint",
					   "overlap_loss_rdiff", rdiff, "ratio", "", "%s", why);
		} else {
			snprintf(spec, sizeof(spec), "<= %g", s->overlap_rtol);
			judge(out, s, rdiff <= s->overlap_rtol, "overlap_loss_rdiff", rdiff,
			      "ratio", spec, why);
		}
	} else if (!isnan(s->overlap_rtol)) {
		snprintf(spec, sizeof(spec), "<= %g", s->overlap_rtol);
		assay_verdicts_add(out, ASSAY_VERDICT_SKIPPED, "checkpoint", "overlap_loss_rdiff",
				   NAN, "ratio", spec, "no step after the checkpoint in both runs");
	}
}

void assay_gate_checkpoint(const struct assay_checkpoint_spec *s,
			   const struct assay_train_result *save,
			   const struct assay_train_result *resume, struct assay_verdicts *out)
{
	enum assay_verdict_status fail = s->enforce ? ASSAY_VERDICT_FAIL : ASSAY_VERDICT_RECORD;
	long long ckpt =
	    s->last_checkpoint >= 0 ? s->last_checkpoint : assay_train_last_saved(save);
	if (ckpt < 0) {
		assay_verdicts_add(
		    out, fail, "checkpoint", "resume_first_step", NAN, "step", "",
		    "missing: the saving run logged no saved checkpoint and the spec "
		    "gives no last_checkpoint");
		return;
	}
	if (!resume->n_steps) {
		assay_verdicts_add(out, fail, "checkpoint", "resume_first_step", NAN, "step", "",
				   "missing: the resumed run logged no step");
		return;
	}
	judge_resume_step(s, save, resume, ckpt, out);
	judge_resume_loss(s, save, resume, ckpt, out);
	judge_overlap(s, save, resume, ckpt, out);
	double ms = last_ms(save, ASSAY_CKPT_SAVE);
	if (!isnan(ms))
		assay_verdicts_add(out, ASSAY_VERDICT_RECORD, "checkpoint", "checkpoint_save_ms",
				   ms, "ms", "", "save-checkpoint timer of the saving run");
	ms = last_ms(resume, ASSAY_CKPT_LOAD);
	if (!isnan(ms))
		assay_verdicts_add(out, ASSAY_VERDICT_RECORD, "checkpoint", "checkpoint_load_ms",
				   ms, "ms", "", "load-checkpoint timer of the resumed run");
}
