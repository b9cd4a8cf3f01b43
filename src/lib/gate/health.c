/* The run-health gate: a training run that did not complete, logged NaN or
 * Inf, counted NaN iterations, matched an error signature or logged no step
 * fails here, whatever its thresholds say. */
#include <math.h>
#include <stdio.h>

#include "assay/gate.h"

static void completion_how(const struct assay_train_result *r, char *buf, size_t n)
{
	const char *how = r->complete_iteration && r->complete_marker
			      ? "iteration N/N and torchrun marker"
			  : r->complete_iteration ? "iteration N/N"
			  : r->complete_marker    ? "torchrun marker"
						  : NULL;
	if (r->exit_kind == ASSAY_TRAIN_EXIT_NONE)
		snprintf(buf, n, "%s", how ? how : "");
	else if (r->exit_kind == ASSAY_TRAIN_EXIT_INTERVAL)
		snprintf(buf, n, "%s%sexit interval at iteration %lld (line %ld)", how ? how : "",
			 how ? ", " : "", r->exit_iteration, r->exit_line);
	else
		snprintf(buf, n, "%s%s%s (line %ld)", how ? how : "", how ? ", " : "",
			 assay_train_exit_name(r->exit_kind), r->exit_line);
}

void assay_gate_run(const struct assay_train_result *r, struct assay_verdicts *out)
{
	const char *spec = "iteration N/N, torchrun marker or Megatron exit line";
	double last = r->n_steps ? (double)r->steps[r->n_steps - 1].step : NAN;
	if (!r->n_logged && assay_train_incomplete(r)) {
		/* Nothing started: no metrics (the steps verdict), not a failed finish. */
	} else if (assay_train_incomplete(r)) {
		/* Only the completion part: NaN/Inf has its own verdict below. */
		assay_verdicts_add(out, ASSAY_VERDICT_FAIL, "run", "completion", last, "step", spec,
				   "%s",
				   "incomplete run: no final \"iteration N/N\" line, no torchrun "
				   "marker and no Megatron exit line");
	} else {
		char how[160];
		completion_how(r, how, sizeof(how));
		assay_verdicts_add(out, ASSAY_VERDICT_PASS, "run", "completion", last, "step", spec,
				   "completed (%s)", how);
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
	if (r->nan_iters_total > 0)
		assay_verdicts_add(out, ASSAY_VERDICT_FAIL, "run", "nan_iterations",
				   (double)r->nan_iters_total, "iterations", "0",
				   "number of nan iterations is %lld, the first at step %lld "
				   "(line %ld)",
				   r->nan_iters_total, r->nan_first_step, r->nan_first_line);
	for (size_t i = 0; i < r->n_errors; i++) {
		const struct assay_train_error *x = &r->errors[i];
		assay_verdicts_add(out, ASSAY_VERDICT_FAIL, "run", "errors", (double)x->count,
				   "lines", "no error signature", "%s (%s) at line %ld: %s",
				   x->signature, x->family, x->line, x->text);
	}
	if (!r->n_logged)
		assay_verdicts_add(out, ASSAY_VERDICT_FAIL, "run", "steps", 0, "steps", ">= 1",
				   "no metrics: the log has no iteration line");
	else
		assay_verdicts_add(out, ASSAY_VERDICT_PASS, "run", "steps", (double)r->n_logged,
				   "steps", ">= 1", "%zu steps, the first %zu excluded as warm-up",
				   r->n_logged, r->warmup_logged);
}
