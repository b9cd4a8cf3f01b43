/* CVS's inference threshold files (ROCm/cvs dddd914,
 * input/config_file/inference/{vllm_mi300x_workloads,atom}/
 * *_threshold.json): cells keyed ISL=…,OSL=…,TP=…[,PP=…][,DP=…][,NNODES=…],
 * CONC=… of client.*, gpu.*, prom.* and scaling.* specs, judged on the rows
 * of formats vllm-bench and atom-bench as CVS's suites judge them:
 * - vLLM (tests/inference/vllm/vllm.py, test_metric): a client.* metric of
 *   CLIENT_METRICS (utils/vllm_parsing.py) with a spec is judged, and a
 *   missing one fails (verdict.py, evaluate_all); other client.* specs are
 *   never read; gpu.* and prom.* come from amd-smi and /metrics, which the
 *   client's result does not hold: skipped as CVS skips a None.
 * - ATOM (tests/inference/atom/atom.py, test_cell_metrics): only the
 *   metrics of the tiers of atom_parsing.py are judged; a tier without a
 *   spec fails (the scaling tier is skipped on one node), a spec whose
 *   metric is missing is dropped, and a tier with none left fails.
 * A file is ATOM's when a cell names client.output_tput_per_gpu or
 * scaling.efficiency_pct, which only ATOM's vocabulary has. docs/gate.md. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "assay/gate.h"
#include "assay/json.h"

/* cvs/lib/inference/utils/vllm_parsing.py, CLIENT_METRICS. */
static const char *const vllm_client[] = {
    "max_concurrency",
    "max_concurrent_requests",
    "num_prompts",
    "completed",
    "failed",
    "success_rate",
    "duration",
    "request_throughput",
    "goodput",
    "output_throughput",
    "total_token_throughput",
    "per_gpu_throughput",
    "decode_throughput_p50",
    "max_output_tokens_per_s",
    "total_input_tokens",
    "total_output_tokens",
    "mean_ttft_ms",
    "median_ttft_ms",
    "p90_ttft_ms",
    "p95_ttft_ms",
    "p99_ttft_ms",
    "normalized_ttft_ms_per_tok",
    "mean_tpot_ms",
    "median_tpot_ms",
    "p90_tpot_ms",
    "p95_tpot_ms",
    "p99_tpot_ms",
    "mean_itl_ms",
    "median_itl_ms",
    "p95_itl_ms",
    "p99_itl_ms",
    "decode_latency_ratio",
    "mean_e2el_ms",
    "median_e2el_ms",
    "p90_e2el_ms",
    "p95_e2el_ms",
    "p99_e2el_ms",
    NULL,
};

/* cvs/lib/inference/atom/atom_parsing.py, METRIC_TIERS (full names). */
static const struct {
	const char *tier;
	const char *metrics[5];
} atom_tiers[] = {
    {"throughput",
     {"client.total_token_throughput", "client.output_throughput", "client.per_gpu_throughput",
      "client.output_tput_per_gpu", NULL}},
    {"ttft", {"client.mean_ttft_ms", "client.p99_ttft_ms", NULL}},
    {"tpot", {"client.mean_tpot_ms", "client.p99_tpot_ms", NULL}},
    {"health", {"client.success_rate", "client.failed", NULL}},
    {"scaling", {"scaling.efficiency_pct", NULL}},
};

static const char *const value_stats[5] = {"value", NULL};

static bool in_list(const char *const *list, const char *name)
{
	for (; *list; list++)
		if (!strcmp(*list, name))
			return true;
	return false;
}

static bool atom_tiered(const char *metric)
{
	for (size_t t = 0; t < ARRAY_SIZE(atom_tiers); t++)
		if (in_list(atom_tiers[t].metrics, metric))
			return true;
	return false;
}

bool assay_cvs_infer_metric_name(const char *name)
{
	static const char *const prefixes[] = {"client.", "gpu.", "prom.", "scaling."};
	for (size_t i = 0; i < ARRAY_SIZE(prefixes); i++) {
		size_t n = strlen(prefixes[i]);
		if (!strncmp(name, prefixes[i], n) && name[n])
			return true;
	}
	return false;
}

bool assay_cvs_infer_is_atom(const json_t *doc)
{
	const char *key;
	json_t *cell;
	json_object_foreach((json_t *)doc, key, cell)
	{
		if (key[0] != '_' && json_is_object(cell) &&
		    (json_object_get(cell, "client.output_tput_per_gpu") ||
		     json_object_get(cell, "scaling.efficiency_pct")))
			return true;
	}
	return false;
}

void assay_cvs_infer_threshold(const char *name, int flavor, struct assay_threshold *th)
{
	th->metric = xstrdup(name);
	for (int i = 0; i < 5; i++)
		th->cvs_stats[i] = value_stats[i];
	bool client = !strncmp(name, "client.", 7);
	if (flavor == ASSAY_CVS_INFER_ATOM) {
		if (atom_tiered(name)) {
			th->optional = true;
			th->missing_why = "CVS's ATOM suite drops a spec whose metric the "
					  "artifact lacks; its tier fails when none is left";
		} else {
			th->record_why = "CVS's ATOM suite records it without judging it "
					 "(atom_parsing.py: not in a gated tier)";
		}
		return;
	}
	if (client && in_list(vllm_client, name + 7)) {
		th->missing_fails = true;
	} else if (client || !strncmp(name, "scaling.", 8)) {
		th->record_why = "CVS's vLLM suite never reads this spec (not one of "
				 "vllm_parsing.py's CLIENT_METRICS)";
	} else {
		th->optional = true;
		th->missing_why = "not in the client's result: CVS skips gpu.* and prom.* "
				  "when amd-smi or /metrics gave no value";
	}
}

void assay_cvs_infer_reference(const char *name, struct assay_threshold *th)
{
	th->reference = xstrdup(name);
	for (int i = 0; i < 5; i++)
		th->ref_stats[i] = value_stats[i];
}

/* ---- cell keys ---- */

static const char *const combo_keys[] = {"ISL", "OSL", "TP", "PP", "DP", "NNODES", "CONC"};

static bool infer_fail(struct assay_error *e, const char *text, const char *why)
{
	if (e)
		assay_error_set(e, ASSAY_USAGE,
				"expected ISL=<i>,OSL=<o>,TP=<t>[,PP=<p>][,DP=<d>][,NNODES=<n>],"
				"CONC=<c>, got \"%s\"%s",
				text, why);
	return false;
}

bool assay_combo_is_infer(const char *text)
{
	return !strncasecmp(text, "ISL=", 4) || strcasestr(text, ",ISL=");
}

/* One KEY=VALUE part into vals; false (with e) when it is not one. */
static bool infer_part(char *part, const char *text, long long vals[7], struct assay_error *e)
{
	char *eq = strchr(part, '=');
	int k = -1;
	if (eq) {
		*eq = '\0';
		for (int i = 0; i < 7; i++)
			if (!strcasecmp(part, combo_keys[i]))
				k = i;
	}
	if (k < 0 || vals[k])
		return infer_fail(e, text, "");
	long long n;
	if (!assay_parse_long(eq + 1, &n) || n <= 0) {
		char why[64];
		snprintf(why, sizeof(why), " (%s must be a positive integer)", combo_keys[k]);
		return infer_fail(e, text, why);
	}
	vals[k] = n;
	return true;
}

bool assay_combo_infer_canonical(const char *text, char *out, size_t size, struct assay_error *e)
{
	long long vals[7] = {0};
	char *copy = xstrdup(text), *save = NULL;
	bool ok = true;
	for (char *part = strtok_r(copy, ",", &save); part && ok; part = strtok_r(NULL, ",", &save))
		ok = infer_part(part, text, vals, e);
	free(copy);
	if (ok && (!vals[0] || !vals[1] || !vals[2] || !vals[6]))
		ok = infer_fail(e, text, " (ISL, OSL, TP and CONC are required)");
	if (!ok)
		return false;
	struct sbuf sb = SBUF_INIT;
	for (int i = 0; i < 7; i++)
		if (vals[i])
			sbuf_addf(&sb, "%s%s=%lld", sb.len ? "," : "", combo_keys[i], vals[i]);
	snprintf(out, size, "%s", sbuf_str(&sb));
	sbuf_release(&sb);
	return true;
}

json_t *assay_combo_infer_context(const char *canon)
{
	static const char *const names[] = {"isl", "osl", "tp", "pp", "dp", "nnodes", NULL};
	json_t *ctx = json_object();
	for (int i = 0; names[i]; i++) {
		char pat[16];
		snprintf(pat, sizeof(pat), "%s=", combo_keys[i]);
		for (const char *p = strstr(canon, pat); p; p = strstr(p + 1, pat))
			if (p == canon || p[-1] == ',') {
				json_object_set_new(
				    ctx, names[i],
				    json_integer(strtoll(p + strlen(pat), NULL, 10)));
				break;
			}
	}
	return ctx;
}

/* ---- ATOM's tiers ---- */

static bool rows_have_metric(const struct assay_rows *rows, const char *metric)
{
	for (size_t i = 0; i < rows->n; i++)
		if (!strcmp(rows->v[i].metric, metric))
			return true;
	return false;
}

/* The cell's node count (NNODES=, else 1). */
static long long cell_nodes(const char *key)
{
	const char *p = strstr(key, "NNODES=");
	return p ? strtoll(p + 7, NULL, 10) : 1;
}

void assay_gate_cvs_atom_tiers(const struct assay_thresholds *t,
			       const struct assay_threshold_cell *cell,
			       const struct assay_rows *rows, struct assay_verdicts *out)
{
	enum assay_verdict_status fail = t->enforce ? ASSAY_VERDICT_FAIL : ASSAY_VERDICT_RECORD;
	for (size_t k = 0; k < ARRAY_SIZE(atom_tiers); k++) {
		size_t specs = 0, present = 0;
		for (size_t i = 0; i < cell->n; i++) {
			if (!in_list(atom_tiers[k].metrics, cell->v[i].metric))
				continue;
			specs++;
			present += rows_have_metric(rows, cell->v[i].metric);
		}
		char name[64];
		snprintf(name, sizeof(name), "tier/%s", atom_tiers[k].tier);
		if (!specs && !strcmp(atom_tiers[k].tier, "scaling") && cell_nodes(cell->key) <= 1)
			assay_verdicts_add(out, ASSAY_VERDICT_SKIPPED, "threshold", name, NAN, "",
					   "", "scaling tier not configured for single-node runs");
		else if (!specs)
			assay_verdicts_add(out, fail, "threshold", name, NAN, "", "a spec",
					   "no threshold specs for tier %s in cell %s",
					   atom_tiers[k].tier, cell->key);
		else if (!present)
			assay_verdicts_add(out, fail, "threshold", name, NAN, "", "a spec",
					   "no assertable threshold specs for tier %s in cell %s "
					   "(metrics missing from the benchmark artifact)",
					   atom_tiers[k].tier, cell->key);
	}
}
