/* The scaling-efficiency gate, from tokens per second (never TFLOP/s):
 * efficiency = (total / (nodes / baseline_nodes)) / baseline total * 100,
 * where total is the steady-state tokens/s/GPU times the GPUs of the run. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "assay/gate.h"

int assay_scaling_spec_parse(struct assay_cfg *c, const json_t *v, const char *path,
			     struct assay_scaling_spec *s)
{
	static const char *const keys[] = {
	    "nodes",          "baseline_nodes", "gpus", "baseline_tokens_per_s",
	    "min_efficiency", "enforce",        NULL};
	memset(s, 0, sizeof(*s));
	s->min_efficiency = NAN;
	s->enforce = true;
	if (assay_cfg_object(c, v, path, keys) < 0 ||
	    assay_cfg_int(c, v, path, "nodes", ASSAY_CFG_REQUIRED, 1, LLONG_MAX, &s->nodes) < 0 ||
	    assay_cfg_int(c, v, path, "baseline_nodes", ASSAY_CFG_REQUIRED, 1, LLONG_MAX,
			  &s->baseline_nodes) < 0 ||
	    assay_cfg_int(c, v, path, "gpus", ASSAY_CFG_OPTIONAL, 1, LLONG_MAX, &s->gpus) < 0 ||
	    assay_cfg_number(c, v, path, "baseline_tokens_per_s", ASSAY_CFG_REQUIRED, 0, INFINITY,
			     &s->baseline_tokens_per_s) < 0 ||
	    assay_cfg_number(c, v, path, "min_efficiency", ASSAY_CFG_OPTIONAL, 0, INFINITY,
			     &s->min_efficiency) < 0 ||
	    assay_cfg_bool(c, v, path, "enforce", ASSAY_CFG_OPTIONAL, &s->enforce) < 0)
		return -1;
	return 0;
}

double assay_scaling_efficiency(double total_tokens_per_s, long long nodes,
				long long baseline_nodes, double baseline_tokens_per_s)
{
	if (!(baseline_tokens_per_s > 0) || nodes <= 0 || baseline_nodes <= 0)
		return NAN;
	return total_tokens_per_s / ((double)nodes / (double)baseline_nodes) /
	       baseline_tokens_per_s * 100.0;
}

void assay_gate_scaling(const struct assay_scaling_spec *s, const struct assay_train_result *r,
			struct assay_verdicts *out)
{
	enum assay_verdict_status fail = s->enforce ? ASSAY_VERDICT_FAIL : ASSAY_VERDICT_RECORD;
	long long gpus = s->gpus > 0 ? s->gpus : r->world_size;
	double per_gpu, median;
	size_t n = assay_train_steady(r, ASSAY_TM_TOKENS, &per_gpu, &median);
	char spec[64] = "";
	if (!isnan(s->min_efficiency))
		snprintf(spec, sizeof(spec), ">= %g%%", s->min_efficiency);
	if (!n || gpus <= 0) {
		assay_verdicts_add(
		    out, fail, "scaling", "scaling_efficiency", NAN, "%", spec, "missing: %s",
		    n ? "the number of GPUs (set \"gpus\" or --world-size)"
		    : r->seq_len > 0 && r->world_size <= 0
			? "no steady-state tokens/s/GPU (deriving them from --seq-len "
			  "needs the world size: --world-size, or a log that states it)"
			: "no steady-state tokens/s/GPU (give --seq-len to derive "
			  "them)");
		return;
	}
	double total = per_gpu * (double)gpus;
	assay_verdicts_add(out, ASSAY_VERDICT_RECORD, "scaling", "total_tokens_per_s", total,
			   "tokens/s", "", "%g tokens/s/GPU x %lld GPUs", per_gpu, gpus);
	double eff =
	    assay_scaling_efficiency(total, s->nodes, s->baseline_nodes, s->baseline_tokens_per_s);
	if (isnan(eff)) {
		assay_verdicts_add(out, ASSAY_VERDICT_RECORD, "scaling", "scaling_efficiency", NAN,
				   "%", spec, "record only: the baseline is 0 tokens/s");
		return;
	}
	char why[200];
	snprintf(why, sizeof(why), "%.4g%% = %g tokens/s / (%lld / %lld nodes) / %g tokens/s", eff,
		 total, s->nodes, s->baseline_nodes, s->baseline_tokens_per_s);
	if (isnan(s->min_efficiency))
		assay_verdicts_add(out, ASSAY_VERDICT_RECORD, "scaling", "scaling_efficiency", eff,
				   "%", spec, "%s", why);
	else if (!s->enforce)
		assay_verdicts_add(out, ASSAY_VERDICT_RECORD, "scaling", "scaling_efficiency", eff,
				   "%", spec, "not enforced: would %s (%s)",
				   eff >= s->min_efficiency ? "pass" : "fail", why);
	else
		assay_verdicts_add(
		    out, eff >= s->min_efficiency ? ASSAY_VERDICT_PASS : ASSAY_VERDICT_FAIL,
		    "scaling", "scaling_efficiency", eff, "%", spec, "%s", why);
}
