/* CVS threshold files (ROCm/cvs, input/config_file/training/megatron/
 * *_threshold.json, and inference/sglang/ threshold files) read as they are: top-level combo cells
 * of training.* metric specs, turned into the same thresholds model as assay's own format. Rules
 * and the metric table: docs/gate.md, "CVS threshold files". */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/gate.h"
#include "assay/json.h"

/* CVS metric -> assay metric and the statistics CVS's value is read from
 * (the summary line in the log's tail, else CVS's fallback mean, then
 * assay's own for rows without either: docs/gate.md); none: the one
 * statistic the rows have. */
#define CVS_STATS(own)                                                                             \
	{                                                                                          \
		"summary", "cvs_mean", own, NULL                                                   \
	}
static const struct {
	const char *cvs, *metric;
	const char *stats[5];
} metric_map[] = {
    {"training.throughput_per_gpu", "tflops_per_gpu", CVS_STATS("steady_mean")},
    {"training.elapsed_time_per_iteration", "elapsed_ms_per_iter", CVS_STATS("steady_mean")},
    {"training.tokens_per_gpu", "tokens_per_gpu", CVS_STATS("steady_mean")},
    {"training.mem_usage", "mem_usage_ratio", {"cvs_tail", "summary", "cvs_mean", "max", NULL}},
    {"training.scaling_efficiency_pct", "scaling_efficiency", {NULL}},
    {"training.steps_to_target", "steps_to_target", {NULL}},
    {"training.time_to_target_seconds", "time_to_target", {NULL}},
    /* TorchTitan (torchtitan_lib.py): its code's names, and the shipped
     * files' training.loss, read from format torchtitan's rows. */
    {"training.tokens_per_sec", "tokens_per_sec", {"cvs_mean", NULL}},
    {"training.loss", "loss", {"last", NULL}},
    {"training.mem_usage_gb", "mem_usage_gb", {"max", NULL}},
    /* MaxText (maxtext_parsing.py, TRAINING_METRICS): format maxtext's rows. */
    {"training.tflops_per_sec_per_gpu", "tflops_per_sec_per_gpu", {"cvs", NULL}},
    {"training.tokens_per_sec_per_gpu", "tokens_per_sec_per_gpu", {"cvs", NULL}},
    {"training.tokens_per_sec_total", "tokens_per_sec_total", {"cvs", NULL}},
    {"training.step_time_seconds", "step_time_seconds", {"cvs", NULL}},
    {"training.step_time_mean_ms", "step_time_mean_ms", {"cvs", NULL}},
    {"training.step_time_p50_ms", "step_time_p50_ms", {"cvs", NULL}},
    {"training.step_time_p95_ms", "step_time_p95_ms", {"cvs", NULL}},
    {"training.final_loss", "final_loss", {"cvs", NULL}},
    {"training.loss_decreased", "loss_decreased", {"cvs", NULL}},
    {"training.eval_loss", "eval_loss", {"cvs", NULL}},
    /* SGLang (cvs/lib/inference/sglang/sglang_common.py and sglang_parsing.py:
     * bare keys), read from the rows of format sglang (src/lib/parse/sglang.c). */
    {"output_throughput_per_sec", "output_throughput", {"value", NULL}},
    {"request_throughput_per_sec", "request_throughput", {"value", NULL}},
    {"output_throughput_per_gpu_per_sec", "output_throughput_per_gpu", {"value", NULL}},
    {"mean_ttft_ms", "ttft_ms", {"mean", NULL}},
    {"median_ttft_ms", "ttft_ms", {"median", NULL}},
    {"p99_ttft_ms", "ttft_ms", {"p99", NULL}},
    {"mean_tpot_ms", "tpot_ms", {"mean", NULL}},
    {"median_tpot_ms", "tpot_ms", {"median", NULL}},
    {"p99_tpot_ms", "tpot_ms", {"p99", NULL}},
    {"mean_itl_ms", "itl_ms", {"mean", NULL}},
    {"median_itl_ms", "itl_ms", {"median", NULL}},
    {"p99_itl_ms", "itl_ms", {"p99", NULL}},
    {"mean_e2e_latency_ms", "e2e_latency_ms", {"mean", NULL}},
    {"median_e2e_latency_ms", "e2e_latency_ms", {"median", NULL}},
    {"goodput", "goodput", {"ratio", NULL}},
    {"mfu", "mfu", {"ratio", NULL}},
    /* The SGLang files' accuracy cells (long-context pass rate, lm-eval),
     * which no assay format reads: a gate on them fails "missing". */
    {"pass_rate", "pass_rate", {NULL}},
    {"acc_norm,none", "acc_norm", {NULL}},
    {"exact_match,flexible-extract", "exact_match_flexible", {NULL}},
};
#undef CVS_STATS

/* TorchTitan's value of a name its shipped files share with Megatron
 * (format torchtitan's rows; docs/gate.md, "TorchTitan and MaxText"). */
static const struct {
	const char *cvs, *alt;
	const char *alt_stats[2];
} alt_map[] = {
    {"training.throughput_per_gpu", "tokens_per_sec", {"cvs_mean", NULL}},
    {"training.tokens_per_gpu", "tokens_per_sec_x_gbs", {"cvs_mean", NULL}},
};

/* The names only MaxText's files use (maxtext_parsing.py). */
static bool maxtext_name(const char *cvs)
{
	static const char *const names[] = {
	    "training.tflops_per_sec_per_gpu", "training.tokens_per_sec_per_gpu",
	    "training.tokens_per_sec_total",   "training.step_time_seconds",
	    "training.step_time_mean_ms",      "training.step_time_p50_ms",
	    "training.step_time_p95_ms",       "training.final_loss",
	    "training.loss_decreased",         "training.eval_loss",
	};
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(names[i], cvs))
			return true;
	return false;
}

/* CVS kind -> assay kind (cvs/lib/utils/verdict.py, _check_one), and one
 * of assay's own. */
static const struct {
	const char *name;
	enum assay_threshold_kind kind;
} kind_map[] = {
    {"min", ASSAY_TH_MIN},
    {"max", ASSAY_TH_MAX},
    {"max_ms", ASSAY_TH_MAX},
    {"min_tok_s", ASSAY_TH_MIN},
    {"within", ASSAY_TH_WITHIN},
    {"info", ASSAY_TH_INFO},
    {"min_ratio", ASSAY_TH_MIN_RATIO},
    /* assay's spelling of CVS's older library (megatron_training_lib.py,
     * verify_training_results): every match in the log's last 15 lines at
     * least value; not checked when none matched (docs/gate.md). */
    {"min_every_match", ASSAY_TH_MIN},
};

/* The rows min_every_match reads (assay_train_cvs_old_rows()). */
static const char *const every_stats[5] = {"cvs_tail_min", NULL};

static int metric_index(const char *cvs)
{
	for (size_t m = 0; m < ARRAY_SIZE(metric_map); m++)
		if (!strcmp(metric_map[m].cvs, cvs))
			return (int)m;
	return -1;
}

static void copy_stats(const char *dst[5], const char *const src[5])
{
	for (int i = 0; i < 5; i++)
		dst[i] = src[i];
}

static const char placeholder[] = "<changeme>";

bool assay_thresholds_cvs_detect(const json_t *doc)
{
	if (!json_is_object(doc) || json_object_get(doc, "cells"))
		return false;
	const char *key;
	json_t *v;
	json_object_foreach((json_t *)doc, key, v)
	{
		if (key[0] == '_' || strchr(key, '='))
			return true;
	}
	return false;
}

/* The first string (key or value) that still holds "<changeme>": its path
 * in out, and how many there are. */
static size_t find_placeholder(const json_t *v, const char *path, char *out, size_t size)
{
	size_t n = 0;
	if (json_is_string(v)) {
		if (strstr(json_string_value(v), placeholder)) {
			if (!*out)
				snprintf(out, size, "%s", path);
			n++;
		}
	} else if (json_is_object(v)) {
		const char *key;
		json_t *child;
		json_object_foreach((json_t *)v, key, child)
		{
			char kp[512];
			assay_json_path_key(kp, sizeof(kp), path, key);
			if (strstr(key, placeholder)) {
				if (!*out)
					snprintf(out, size, "%s", kp);
				n++;
			}
			n += find_placeholder(child, kp, out, size);
		}
	} else if (json_is_array(v)) {
		size_t i;
		json_t *child;
		json_array_foreach(v, i, child)
		{
			char ip[512];
			assay_json_path_index(ip, sizeof(ip), path, i);
			n += find_placeholder(child, ip, out, size);
		}
	}
	return n;
}

/* CVS reads a value with Python's float(): a number or a numeric string. */
static int read_value(struct assay_cfg *c, const json_t *spec, const char *path, const char *key,
		      double *out)
{
	char kp[512];
	json_t *v = json_object_get(spec, key);
	assay_json_path_key(kp, sizeof(kp), path, key);
	if (!v)
		return assay_cfg_fail(c, path, "missing key \"%s\"", key);
	if (json_is_number(v)) {
		*out = json_number_value(v);
		return 0;
	}
	if (json_is_string(v)) {
		const char *s = json_string_value(v);
		char *end = NULL;
		double d = strtod(s, &end);
		while (end && (*end == ' ' || *end == '\t'))
			end++;
		if (end != s && end && !*end && isfinite(d)) {
			*out = d;
			return 0;
		}
	}
	return assay_cfg_expected(c, kp, "a number", v);
}

/* min_ratio's "reference": a CVS metric of the same cell. */
static int parse_reference(struct assay_cfg *c, const json_t *v, const char *path,
			   struct assay_threshold *th)
{
	char rp[512];
	json_t *ref = json_object_get(v, "reference");
	assay_json_path_key(rp, sizeof(rp), path, "reference");
	if (!ref)
		return assay_cfg_fail(c, path, "missing key \"reference\" (kind \"min_ratio\")");
	if (!json_is_string(ref))
		return assay_cfg_expected(c, rp, "a string (a training.* metric)", ref);
	if (assay_cvs_infer_metric_name(json_string_value(ref))) {
		assay_cvs_infer_reference(json_string_value(ref), th);
		return 0;
	}
	int m = metric_index(json_string_value(ref));
	if (m < 0)
		return assay_cfg_fail(c, rp, "unknown CVS metric \"%s\"", json_string_value(ref));
	th->reference = xstrdup(metric_map[m].metric);
	copy_stats(th->ref_stats, metric_map[m].stats);
	return 0;
}

/* The spec's "kind": its row of kind_map, or -1 (with the error). */
static int parse_kind(struct assay_cfg *c, const json_t *v, const char *path)
{
	json_t *kv = json_object_get(v, "kind");
	char kp[512];
	assay_json_path_key(kp, sizeof(kp), path, "kind");
	if (!kv)
		return assay_cfg_fail(c, path, "missing key \"kind\"");
	if (!json_is_string(kv))
		return assay_cfg_expected(c, kp, "a string", kv);
	const char *kind = json_string_value(kv);
	for (size_t k = 0; k < ARRAY_SIZE(kind_map); k++)
		if (!strcmp(kind_map[k].name, kind))
			return (int)k;
	return assay_cfg_fail(c, kp,
			      "unknown kind \"%s\" (expected one of: min, max, max_ms, "
			      "min_tok_s, within, min_ratio, info, min_every_match)",
			      kind);
}

static int parse_spec(struct assay_cfg *c, const json_t *v, const char *path, int map,
		      struct assay_threshold *th)
{
	static const char *const keys[] = {"kind", "value", "tolerance_pct", "reference", NULL};
	memset(th, 0, sizeof(*th));
	snprintf(th->path, sizeof(th->path), "%s", path);
	if (!json_is_object(v))
		return assay_cfg_expected(c, path, "an object {\"kind\": ..., \"value\": ...}", v);
	int k = parse_kind(c, v, path);
	if (k < 0)
		return -1;
	const char *kind = kind_map[k].name;
	const char *key;
	json_t *child;
	json_object_foreach((json_t *)v, key, child)
	{
		bool ok = key[0] == '_';
		for (size_t i = 0; keys[i] && !ok; i++)
			ok = !strcmp(keys[i], key);
		if (!ok) {
			char up[512];
			assay_json_path_key(up, sizeof(up), path, key);
			return assay_cfg_fail(c, up,
					      "unknown key (expected one of: kind, value, "
					      "tolerance_pct, reference; keys starting with _ are "
					      "comments)");
		}
	}
	th->kind = kind_map[k].kind;
	if (th->kind == ASSAY_TH_INFO) {
		/* CVS keeps a value on info specs for later calibration and
		 * never reads it; a metric with no value is still required. */
		th->missing_fails = true;
	} else {
		if (read_value(c, v, path, "value", &th->value) < 0)
			return -1;
		if (th->kind == ASSAY_TH_WITHIN) {
			double pct;
			if (read_value(c, v, path, "tolerance_pct", &pct) < 0)
				return -1;
			char tp[512];
			assay_json_path_key(tp, sizeof(tp), path, "tolerance_pct");
			if (pct < 0)
				return assay_cfg_fail(c, tp, "expected a number >= 0, got %g", pct);
			if (th->value < 0)
				return assay_cfg_fail(
				    c, path,
				    "kind \"within\" needs a value >= 0 (CVS's band "
				    "value*(1 -/+ tolerance_pct/100) is empty for %g)",
				    th->value);
			th->tolerance = pct / 100;
		} else if (json_object_get(v, "tolerance_pct")) {
			char tp[512];
			assay_json_path_key(tp, sizeof(tp), path, "tolerance_pct");
			return assay_cfg_fail(c, tp, "only kind \"within\" takes a tolerance_pct");
		}
	}
	if (th->kind == ASSAY_TH_MIN_RATIO && parse_reference(c, v, path, th) < 0)
		return -1;
	if (th->kind != ASSAY_TH_MIN_RATIO && json_object_get(v, "reference")) {
		char rp[512];
		assay_json_path_key(rp, sizeof(rp), path, "reference");
		return assay_cfg_fail(c, rp, "only kind \"min_ratio\" takes a reference");
	}
	if (map < 0) { /* an inference metric: the caller fills it */
		if (!strcmp(kind, "min_every_match"))
			return assay_cfg_fail(c, path,
					      "kind \"min_every_match\" is for training.* metrics");
		return 0;
	}
	th->metric = xstrdup(metric_map[map].metric);
	th->every_match = !strcmp(kind, "min_every_match");
	copy_stats(th->cvs_stats, th->every_match ? every_stats : metric_map[map].stats);
	for (size_t i = 0; !th->every_match && i < ARRAY_SIZE(alt_map); i++)
		if (!strcmp(alt_map[i].cvs, metric_map[map].cvs)) {
			th->alt_metric = alt_map[i].alt;
			th->alt_stats[0] = alt_map[i].alt_stats[0];
		}
	return 0;
}

static bool same_stat(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* SGLang's metrics, whose specs may be plain numbers (or objects without a
 * kind): sglang_common.py, normalize_sglang_threshold_spec. */
static bool sglang_metric(const char *cvs)
{
	int m = metric_index(cvs);
	return m >= 0 && strncmp(cvs, "training.", 9);
}

/* CVS's kind for a plain SGLang spec: max_ms when the name holds "ms" or
 * "latency"; min_tok_s when it holds "throughput"; min otherwise (goodput,
 * mfu and the rest). A new spec, or NULL when v already has a kind or is
 * not a number. */
static json_t *sglang_plain(const char *cvs, const json_t *v)
{
	if (!sglang_metric(cvs))
		return NULL;
	const json_t *val = v;
	if (json_is_object(v)) {
		if (json_object_get(v, "kind") || !json_object_get(v, "value"))
			return NULL;
		val = json_object_get(v, "value");
	} else if (!json_is_number(v) && !json_is_string(v)) {
		return NULL;
	}
	char low[128];
	size_t i = 0;
	for (; cvs[i] && i + 1 < sizeof(low); i++)
		low[i] = (char)((cvs[i] >= 'A' && cvs[i] <= 'Z') ? cvs[i] + 32 : cvs[i]);
	low[i] = '\0';
	const char *kind = strstr(low, "ms") || strstr(low, "latency") ? "max_ms"
			   : strstr(low, "throughput")                 ? "min_tok_s"
								       : "min";
	return json_pack("{s:s, s:O}", "kind", kind, "value", val);
}

static int parse_cell(struct assay_cfg *c, const json_t *v, const char *path, int flavor,
		      struct assay_threshold_cell *cell)
{
	if (!json_is_object(v) && !json_is_null(v))
		return assay_cfg_expected(c, path, "an object of training.* metric thresholds", v);
	cell->v = xcalloc(json_object_size(v) + 1, sizeof(*cell->v));
	const char *name;
	json_t *spec;
	json_object_foreach((json_t *)v, name, spec)
	{
		if (name[0] == '_')
			continue;
		char mp[512];
		assay_json_path_key(mp, sizeof(mp), path, name);
		int m = metric_index(name);
		if (m < 0 && assay_cvs_infer_metric_name(name)) {
			for (size_t i = 0; i < cell->n; i++)
				if (!strcmp(cell->v[i].metric, name))
					return assay_cfg_fail(c, mp, "duplicate metric");
			if (parse_spec(c, spec, mp, -1, &cell->v[cell->n]) < 0) {
				free(cell->v[cell->n].reference);
				return -1;
			}
			assay_cvs_infer_threshold(name, flavor, &cell->v[cell->n++]);
			continue;
		}
		if (m < 0) {
			struct sbuf sb = SBUF_INIT;
			/* The names of its family (training.*, or SGLang's bare keys). */
			bool training = !strncmp(name, "training.", 9);
			for (size_t i = 0; i < ARRAY_SIZE(metric_map); i++)
				if (training == !strncmp(metric_map[i].cvs, "training.", 9))
					sbuf_addf(&sb, "%s%s", sb.len ? ", " : "",
						  metric_map[i].cvs);
			assay_cfg_fail(c, mp, "unknown CVS metric (expected one of: %s)",
				       sbuf_str(&sb));
			sbuf_release(&sb);
			return -1;
		}
		for (size_t i = 0; i < cell->n; i++)
			if (!strcmp(cell->v[i].metric, metric_map[m].metric) &&
			    same_stat(cell->v[i].cvs_stats[0], metric_map[m].stats[0]))
				return assay_cfg_fail(c, mp, "duplicate metric");
		json_t *plain = sglang_plain(name, spec);
		int prc = parse_spec(c, plain ? plain : spec, mp, m, &cell->v[cell->n]);
		json_decref(plain);
		if (prc < 0) {
			free(cell->v[cell->n].reference);
			return -1;
		}
		cell->n++;
	}
	return 0;
}

/* A file naming a MaxText metric is judged as CVS's MaxText tests judge
 * (jaxmaxtext _common.py, metric()): a metric without a value is N/A,
 * skipped, not failed. */
static void maxtext_optional(const json_t *doc, struct assay_thresholds *t)
{
	bool mt = false;
	const char *key, *name;
	json_t *v, *spec;
	json_object_foreach((json_t *)doc, key, v)
	{
		if (key[0] == '_' || !json_is_object(v))
			continue;
		json_object_foreach(v, name, spec)
		{
			mt = mt || maxtext_name(name);
		}
	}
	for (size_t c = 0; mt && c < t->n_cells; c++)
		for (size_t i = 0; i < t->cells[c].n; i++)
			t->cells[c].v[i].optional = true;
}

assay_err assay_thresholds_cvs_parse(const json_t *doc, const char *file,
				     struct assay_thresholds *t, struct assay_error *e)
{
	struct assay_cfg c = {file, e};
	struct strlist raw = STRLIST_INIT; /* the cells' keys as written */
	char where[512] = "";
	memset(t, 0, sizeof(*t));
	t->file = xstrdup(file);
	t->cvs = true;
	t->enforce = true; /* CVS's enforce_thresholds lives in the config; it defaults to true */
	size_t n = find_placeholder(doc, "$", where, sizeof(where));
	if (n) {
		if (n > 1)
			assay_cfg_fail(&c, where,
				       "unfilled placeholder \"<changeme>\" (and %zu more in the "
				       "file): replace each with a calibrated value",
				       n - 1);
		else
			assay_cfg_fail(&c, where,
				       "unfilled placeholder \"<changeme>\": replace it with a "
				       "calibrated value");
		goto fail;
	}
	t->cells = xcalloc(json_object_size(doc) + 1, sizeof(*t->cells));
	int flavor = assay_cvs_infer_is_atom(doc) ? ASSAY_CVS_INFER_ATOM : ASSAY_CVS_INFER_VLLM;
	const char *key;
	json_t *v;
	json_object_foreach((json_t *)doc, key, v)
	{
		/* CVS's accuracy block (lm-eval scores per task) is not a cell. */
		if (key[0] == '_' || (!strcmp(key, "accuracy") && json_is_object(v)))
			continue;
		char cp[512], canon[256];
		struct assay_error why;
		assay_json_path_key(cp, sizeof(cp), "$", key);
		if (!assay_combo_key(key, canon, sizeof(canon), &why)) {
			assay_cfg_fail(&c, cp,
				       "expected a combo key (a CVS file has one cell per sweep "
				       "combo and no default cell): %s",
				       why.message);
			goto fail;
		}
		for (size_t i = 0; i < t->n_cells; i++)
			if (!strcmp(t->cells[i].key, canon)) {
				assay_cfg_fail(&c, cp, "duplicate cell: the same combo as \"%s\"",
					       raw.v[i]);
				goto fail;
			}
		struct assay_threshold_cell *cell = &t->cells[t->n_cells++];
		cell->key = xstrdup(canon);
		strlist_push(&raw, key);
		if (assay_combo_is_infer(canon))
			t->cvs_infer = flavor;
		if (parse_cell(&c, v, cp, flavor, cell) < 0)
			goto fail;
	}
	maxtext_optional(doc, t);
	if (!t->n_cells) {
		assay_cfg_fail(&c, "$",
			       "expected at least one combo cell (MBS=<m>,GBS=<g>,"
			       "PRECISION=<p>)");
		goto fail;
	}
	strlist_clear(&raw);
	return ASSAY_OK;
fail:
	strlist_clear(&raw);
	assay_thresholds_release(t);
	return ASSAY_USAGE;
}
