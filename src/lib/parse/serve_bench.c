/* The saved result of a serving benchmark client, read as ROCm CVS reads it
 * (ROCm/cvs dddd914: cvs/lib/inference/utils/vllm_parsing.py,
 * to_client_metrics; cvs/lib/inference/atom/atom_parsing.py). The keys are
 * vllm-project/vllm def9ce85 vllm/benchmarks/serve.py (main_async and
 * benchmark: date, endpoint_type, backend, label, model_id, tokenizer_id,
 * num_prompts, --metadata KEY=VALUE, request_rate, burstiness,
 * max_concurrency, duration, completed, failed, ..., mean/median/std/pNN of
 * ttft, tpot, itl, e2el in ms) and ROCm/ATOM b68d30d
 * atom/benchmarks/benchmark_serving.py (best_of, no failed, the key
 * "request_goodput:", the per-request arrays always kept). One object per
 * line (--append-result appends one per run), or one pretty-printed object.
 *
 * Rows: every numeric key as metric "client.<key>" (statistic "value"),
 * then CVS's derived metrics, which replace a key of the same name:
 * goodput (request_goodput), failed (num_prompts - completed, when the file
 * has none), per_gpu_throughput (total_token_throughput / (tp x pp); ATOM:
 * / tp), normalized_ttft_ms_per_tok (mean_ttft_ms / isl),
 * decode_latency_ratio (p99_itl_ms / p50_itl_ms), decode_throughput_p50
 * (1000 / median_tpot_ms), success_rate (completed / (completed + failed));
 * ATOM also output_tput_per_gpu (output_throughput / tp) and
 * scaling.efficiency_pct (output_throughput / (baseline x nnodes) x 100).
 * A derived metric CVS cannot compute (a divisor missing or 0) has no row.
 * tp, pp, isl, osl, nnodes and the baseline come from the parse context
 * (the suite, `--series`, `assay gate --combo`), else from the file's
 * --metadata keys. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/cfg.h"
#include "assay/json.h"
#include "peer.h"
#include "serve_bench.h"

/* A finite number of o (an integer or a real; not a boolean). */
static bool num(const json_t *o, const char *k, double *out)
{
	const json_t *v = json_object_get(o, k);
	if (!json_is_number(v))
		return false;
	*out = json_number_value(v);
	return isfinite(*out);
}

/* A number or a numeric string (--metadata values are strings). */
static bool num_or_text(const json_t *v, double *out)
{
	if (json_is_number(v)) {
		*out = json_number_value(v);
		return isfinite(*out);
	}
	if (!json_is_string(v))
		return false;
	const char *s = json_string_value(v);
	char *end = NULL;
	*out = strtod(s, &end);
	return end != s && !*end && isfinite(*out);
}

/* An out-of-band factor: the context's key, else the file's. */
static bool factor(const json_t *ctx, const json_t *o, const char *key, const char *alt,
		   double *out)
{
	if (ctx && num_or_text(json_object_get(ctx, key), out))
		return true;
	if (num_or_text(json_object_get(o, key), out))
		return true;
	return alt && num_or_text(json_object_get(o, alt), out);
}

/* CVS's _safe_div: no value when either is missing or the divisor is 0. */
static void put_div(json_t *m, const char *name, bool have_num, double n, bool have_den, double d)
{
	if (have_num && have_den && d != 0 && isfinite(n / d))
		json_object_set_new(m, name, json_real(n / d));
}

/* ATOM's per-GPU output throughput and scaling efficiency. */
static void derive_atom(const json_t *ctx, const json_t *o, json_t *m, bool have_tp, double tp)
{
	double out_tput, base, nnodes = 1;
	bool have_out = num(o, "output_throughput", &out_tput);
	put_div(m, "client.output_tput_per_gpu", have_out, out_tput, have_tp, tp);
	if (!factor(ctx, NULL, "scaling_baseline_output_throughput", NULL, &base))
		return;
	if (ctx && json_object_get(ctx, "nnodes"))
		num_or_text(json_object_get(ctx, "nnodes"), &nnodes);
	nnodes = floor(nnodes);
	if (nnodes >= 1 && base * nnodes > 0 && have_out)
		json_object_set_new(m, "scaling.efficiency_pct",
				    json_real(out_tput / (base * nnodes) * 100.0));
}

/* The metrics CVS derives (to_client_metrics), into m. */
static void derive(const json_t *ctx, const json_t *o, bool atom, json_t *m)
{
	double tot, ttft, p99, p50, tpot, tp, pp = 1, isl, completed, failed, prompts;
	const json_t *good = json_object_get(o, "request_goodput");
	if (json_is_number(good))
		json_object_set_new(m, "client.goodput", json_real(json_number_value(good)));
	bool have_c = num(o, "completed", &completed), have_f = num(o, "failed", &failed);
	if (!have_f && have_c && num(o, "num_prompts", &prompts)) {
		failed = fmax(0, trunc(prompts) - trunc(completed));
		have_f = true;
		json_object_set_new(m, "client.failed", json_real(failed));
	}
	bool have_tp = factor(ctx, o, "tp", NULL, &tp);
	if (have_tp)
		tp = trunc(tp);
	if (!atom && factor(ctx, o, "pp", NULL, &pp))
		pp = trunc(pp);
	bool have_tot = num(o, "total_token_throughput", &tot);
	bool have_ttft = num(o, "mean_ttft_ms", &ttft);
	bool have_isl = factor(ctx, o, "isl", atom ? "random_input_len" : NULL, &isl);
	bool have_p99 = num(o, "p99_itl_ms", &p99), have_p50 = num(o, "p50_itl_ms", &p50);
	bool have_tpot = num(o, "median_tpot_ms", &tpot);
	put_div(m, "client.per_gpu_throughput", have_tot, tot, have_tp, tp * pp);
	put_div(m, "client.normalized_ttft_ms_per_tok", have_ttft, ttft, have_isl, isl);
	put_div(m, "client.decode_latency_ratio", have_p99, p99, have_p50, p50);
	put_div(m, "client.decode_throughput_p50", true, 1000.0, have_tpot, tpot);
	put_div(m, "client.success_rate", have_c, completed, have_c && have_f, completed + failed);
	if (atom)
		derive_atom(ctx, o, m, have_tp, tp);
}

static const struct {
	const char *name, *unit;
	enum assay_direction dir;
} fixed_units[] = {
    {"client.duration", "s", ASSAY_DIR_LOWER},
    {"client.failed", "requests", ASSAY_DIR_LOWER},
    {"client.completed", "requests", ASSAY_DIR_HIGHER},
    {"client.num_prompts", "requests", ASSAY_DIR_HIGHER},
    {"client.max_concurrency", "requests", ASSAY_DIR_HIGHER},
    {"client.max_concurrent_requests", "requests", ASSAY_DIR_HIGHER},
    {"client.request_throughput", "req/s", ASSAY_DIR_HIGHER},
    {"client.request_goodput", "req/s", ASSAY_DIR_HIGHER},
    {"client.request_goodput:", "req/s", ASSAY_DIR_HIGHER},
    {"client.goodput", "req/s", ASSAY_DIR_HIGHER},
    {"client.request_rate", "req/s", ASSAY_DIR_HIGHER},
    {"client.total_input_tokens", "tokens", ASSAY_DIR_HIGHER},
    {"client.total_output_tokens", "tokens", ASSAY_DIR_HIGHER},
    {"client.per_gpu_throughput", "tok/s/GPU", ASSAY_DIR_HIGHER},
    {"client.output_tput_per_gpu", "tok/s/GPU", ASSAY_DIR_HIGHER},
    {"client.normalized_ttft_ms_per_tok", "ms/tok", ASSAY_DIR_LOWER},
    {"client.decode_latency_ratio", "ratio", ASSAY_DIR_LOWER},
    {"client.success_rate", "ratio", ASSAY_DIR_HIGHER},
    {"scaling.efficiency_pct", "%", ASSAY_DIR_HIGHER},
};

/* A metric's unit and better direction: the table, then the name. */
static const char *unit_of(const char *name, enum assay_direction *dir)
{
	for (size_t i = 0; i < ARRAY_SIZE(fixed_units); i++)
		if (!strcmp(fixed_units[i].name, name)) {
			*dir = fixed_units[i].dir;
			return fixed_units[i].unit;
		}
	size_t n = strlen(name);
	*dir = ASSAY_DIR_HIGHER;
	if (n > 3 && !strcmp(name + n - 3, "_ms")) {
		*dir = ASSAY_DIR_LOWER;
		return "ms";
	}
	if (strstr(name, "throughput") || strstr(name, "tokens_per_s"))
		return "tok/s";
	return "value";
}

/* The identity of the object's rows: workload, model, backend,
 * concurrency, and the --metadata factors the context does not give. */
static json_t *object_series(const json_t *ctx, const json_t *o, bool atom)
{
	static const char *const keys[][2] = {
	    {"tp", "tp"},
	    {"pp", "pp"},
	    {"isl", "isl"},
	    {"isl", "random_input_len"},
	    {"osl", "osl"},
	    {"osl", "random_output_len"},
	    {"precision", "precision"},
	    {"precision", "dtype"},
	    {"nnodes", "nnodes"},
	};
	json_t *s = json_object();
	json_object_set_new(s, "workload", json_string(atom ? "atom" : "vllm"));
	const json_t *v = json_object_get(o, "model_id");
	if (json_is_string(v))
		json_object_set_new(s, "model", json_string(json_string_value(v)));
	if (json_is_string(v = json_object_get(o, "backend")))
		json_object_set_new(s, "backend", json_string(json_string_value(v)));
	if (json_is_integer(v = json_object_get(o, "max_concurrency")))
		json_object_set_new(s, "concurrency", json_integer(json_integer_value(v)));
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
		const char *k = keys[i][0];
		if ((ctx && json_object_get(ctx, k)) || json_object_get(s, k))
			continue;
		v = json_object_get(o, keys[i][1]);
		long long n;
		if (json_is_string(v) && assay_parse_long(json_string_value(v), &n))
			json_object_set_new(s, k, json_integer(n));
		else if (json_is_string(v) && *json_string_value(v))
			json_object_set_new(s, k, json_string(json_string_value(v)));
		else if (json_is_integer(v))
			json_object_set_new(s, k, json_integer(json_integer_value(v)));
	}
	return s;
}

/* One saved result into rows of tmp; -1 (e filled) when it is not one. */
static int one_result(const json_t *o, struct assay_cfg *c, const json_t *ctx, bool atom, long line,
		      struct assay_rows *tmp)
{
	if (!json_is_object(o))
		return assay_cfg_expected(c, "$", "an object (a saved benchmark result)", o);
	double d;
	if (assay_cfg_number(c, o, "$", "completed", ASSAY_CFG_REQUIRED, 0, INFINITY, &d) < 0 ||
	    assay_cfg_number(c, o, "$", "duration", ASSAY_CFG_REQUIRED, 0, INFINITY, &d) < 0)
		return -1;
	json_t *m = json_object();
	const char *key;
	json_t *v;
	json_object_foreach((json_t *)o, key, v)
	{
		if (!json_is_number(v) || !isfinite(json_number_value(v)))
			continue;
		char *name = xasprintf("client.%s", key);
		json_object_set(m, name, v);
		free(name);
	}
	derive(ctx, o, atom, m);
	json_t *series = object_series(ctx, o, atom);
	json_object_foreach(m, key, v)
	{
		enum assay_direction dir;
		const char *unit = unit_of(key, &dir);
		struct assay_row *r = assay_rows_add(tmp);
		assay_row_set(r, json_deep_copy(series), key, "value", json_number_value(v), unit,
			      dir);
		r->line = line;
	}
	json_decref(series);
	json_decref(m);
	return 0;
}

assay_err serve_bench_parse(const char *data, size_t len, const struct assay_parse_opts *o,
			    bool atom, struct assay_rows *out, struct assay_error *e)
{
	struct assay_rows tmp = ASSAY_ROWS_INIT;
	struct assay_cfg c = {o->file, e};
	struct assay_error scratch;
	json_t *whole = assay_json_loadb(data, len, o->file, &scratch);
	if (json_is_object(whole)) {
		int rc = one_result(whole, &c, o->context, atom, 1, &tmp);
		json_decref(whole);
		if (rc < 0)
			goto fail;
		return peer_finish(&tmp, o, out, e);
	}
	json_decref(whole);
	long line = 0;
	size_t pos = 0, n = 0;
	json_t *obj;
	int got;
	while ((got = assay_ndjson_next(data, len, &pos, &line, o->file, &obj, e)) == 1) {
		int rc = one_result(obj, &c, o->context, atom, line, &tmp);
		json_decref(obj);
		n++;
		if (rc < 0) {
			if (e)
				e->line = line;
			goto fail;
		}
	}
	if (got < 0)
		goto fail;
	if (!n) {
		assay_cfg_fail(&c, "$", "expected a saved benchmark result, got an empty file");
		goto fail;
	}
	return peer_finish(&tmp, o, out, e);
fail:
	assay_rows_release(&tmp);
	return ASSAY_USAGE;
}

bool serve_bench_detect(const char *data, size_t len, const char *mark)
{
	size_t i = 0;
	while (i < len && (data[i] == ' ' || data[i] == '\n' || data[i] == '\r' || data[i] == '\t'))
		i++;
	if (i >= len || data[i] != '{')
		return false;
	size_t n = len - i < 65536 ? len - i : 65536;
	const char *p = data + i;
	return memmem(p, n, "\"completed\"", 11) &&
	       memmem(p, n, "\"total_token_throughput\"", 24) && memmem(p, n, mark, strlen(mark));
}
