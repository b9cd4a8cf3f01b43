/* The run-health gate: a training run that did not complete, logged NaN or
 * Inf, or logged no step fails here, whatever its thresholds say. */
#include <math.h>
#include <stdio.h>

#include "assay/gate.h"

static const char *completion_how(const struct assay_train_result *r)
{
	if (r->complete_iteration && r->complete_marker)
		return "iteration N/N and torchrun marker";
	return r->complete_iteration ? "iteration N/N" : "torchrun marker";
}

void assay_gate_run(const struct assay_train_result *r, struct assay_verdicts *out)
{
	const char *spec = "iteration N/N or torchrun marker";
	double last = r->n_steps ? (double)r->steps[r->n_steps - 1].step : NAN;
	if (assay_train_incomplete(r)) {
		/* Only the completion part: NaN/Inf has its own verdict below. */
		assay_verdicts_add(out, ASSAY_VERDICT_FAIL, "run", "completion", last, "step", spec,
				   "%s",
				   r->n_steps ? "incomplete run: no final \"iteration N/N\" line "
						"and no torchrun marker"
					      : "incomplete run: no iteration line and no "
						"completion marker");
	} else {
		assay_verdicts_add(out, ASSAY_VERDICT_PASS, "run", "completion", last, "step", spec,
				   "completed (%s)", completion_how(r));
	}
	if (r->n_nonfinite) {
		char where[96] = "";
		if (r->nonfinite_step >= 0 && r->nonfinite_line > 0)
			snprintf(where, sizeof(where), " at step %lld (line %ld)",
				 r->nonfinite_step, r->nonfinite_line);
		else if (r->nonfinite_line > 0)
			snprintf(where, sizeof(where), " (line %ld)", r->nonfinite_line);
		assay_verdicts_add(
		    out, ASSAY_VERDICT_FAIL, "run", "finite", (double)r->n_nonfinite, "values",
		    "no NaN or Inf", "%s is %s%s; %zu NaN/Inf value%s in all", r->nonfinite_label,
		    r->nonfinite_text, where, r->n_nonfinite, r->n_nonfinite > 1 ? "s" : "");
	} else {
		assay_verdicts_add(out, ASSAY_VERDICT_PASS, "run", "finite", 0, "values",
				   "no NaN or Inf", "every value is finite");
	}
	if (!r->n_steps)
		assay_verdicts_add(out, ASSAY_VERDICT_FAIL, "run", "steps", 0, "steps", ">= 1",
				   "no metrics: the log has no iteration line");
	else
		assay_verdicts_add(out, ASSAY_VERDICT_PASS, "run", "steps", (double)r->n_steps,
				   "steps", ">= 1", "%zu steps, the first %zu excluded as warm-up",
				   r->n_steps, r->warmup);
}
