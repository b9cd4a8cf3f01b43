/* Format "sglang": the "Serving Benchmark Result" block that sglang's
 * bench_serving prints (sgl-project/sglang python/sglang/bench_serving.py at
 * 50a613687fe1ffc6f1bb630c684a24c428a54a74, benchmark(): one
 * "{:<40} {:<10}" line per figure between a "=" banner and "=" * 50), as
 * ROCm CVS reads it from benchmark_results.log (ROCm/cvs at dddd914,
 * cvs/lib/inference/sglang/sglang_common.py, parse_inference_bench_results;
 * sglang_single_lib.py, the MFU). The text is read line by line, never held
 * apart from the buffer: each label's first value counts, as CVS's
 * re.search takes the first match. Derived rows, as CVS computes them:
 * goodput = successful / total requests (total: "Total requests:", else
 * successful + "Failed requests:", else the context's num_prompts), and, when the context gives
 * them, output throughput per GPU (tp) and MFU = 6 * model_num_params * (input + generated tokens)
 * / (peak_gpu_tflops * 1e12 * tp * duration). Rules: docs/parse.md, docs/parity.md ("CVS SGLang").
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "assay/parse.h"
#include "peer.h"

/* The labels read, the row each gives (CVS's key in the comment). */
static const struct {
	const char *label;
	const char *metric, *statistic, *unit;
	enum assay_direction dir;
} labels[] = {
    {"Successful requests:", "successful_requests", "count", "requests", ASSAY_DIR_HIGHER},
    /* Newer versions' counts, which CVS reads for goodput only (no row). */
    {"Failed requests:", NULL, NULL, NULL, ASSAY_DIR_LOWER},
    {"Total requests:", NULL, NULL, NULL, ASSAY_DIR_HIGHER},
    {"Benchmark duration (s):", "benchmark_duration", "value", "s", ASSAY_DIR_LOWER},
    {"Total input tokens:", "total_input_tokens", "count", "tokens", ASSAY_DIR_HIGHER},
    {"Total generated tokens:", "total_generated_tokens", "count", "tokens", ASSAY_DIR_HIGHER},
    {"Request throughput (req/s):", "request_throughput", "value", "req/s", ASSAY_DIR_HIGHER},
    {"Input token throughput (tok/s):", "input_throughput", "value", "tok/s", ASSAY_DIR_HIGHER},
    {"Output token throughput (tok/s):", "output_throughput", "value", "tok/s", ASSAY_DIR_HIGHER},
    {"Mean E2E Latency (ms):", "e2e_latency_ms", "mean", "ms", ASSAY_DIR_LOWER},
    {"Median E2E Latency (ms):", "e2e_latency_ms", "median", "ms", ASSAY_DIR_LOWER},
    {"Mean TTFT (ms):", "ttft_ms", "mean", "ms", ASSAY_DIR_LOWER},
    {"Median TTFT (ms):", "ttft_ms", "median", "ms", ASSAY_DIR_LOWER},
    {"P99 TTFT (ms):", "ttft_ms", "p99", "ms", ASSAY_DIR_LOWER},
    {"Mean TPOT (ms):", "tpot_ms", "mean", "ms", ASSAY_DIR_LOWER},
    {"Median TPOT (ms):", "tpot_ms", "median", "ms", ASSAY_DIR_LOWER},
    {"P99 TPOT (ms):", "tpot_ms", "p99", "ms", ASSAY_DIR_LOWER},
    {"Mean ITL (ms):", "itl_ms", "mean", "ms", ASSAY_DIR_LOWER},
    {"Median ITL (ms):", "itl_ms", "median", "ms", ASSAY_DIR_LOWER},
    {"P99 ITL (ms):", "itl_ms", "p99", "ms", ASSAY_DIR_LOWER},
};
#define N_LABELS (sizeof(labels) / sizeof(labels[0]))
enum { L_SUCC = 0, L_FAILED = 1, L_TOTAL = 2, L_DUR = 3, L_IN = 4, L_GEN = 5, L_OUT_TPUT = 8 };

const char *const assay_sglang_metrics[] = {
    "successful_requests/count",
    "benchmark_duration/value",
    "total_input_tokens/count",
    "total_generated_tokens/count",
    "request_throughput/value",
    "input_throughput/value",
    "output_throughput/value",
    "e2e_latency_ms/mean",
    "e2e_latency_ms/median",
    "ttft_ms/mean",
    "ttft_ms/median",
    "ttft_ms/p99",
    "tpot_ms/mean",
    "tpot_ms/median",
    "tpot_ms/p99",
    "itl_ms/mean",
    "itl_ms/median",
    "itl_ms/p99",
    "goodput/ratio",
    "output_throughput_per_gpu/value",
    "mfu/ratio",
    NULL,
};

static const char banner[] = "Serving Benchmark Result";

struct sg_state {
	double v[N_LABELS];
	long line[N_LABELS]; /* 0: not seen */
	char backend[64];
	long banner_line;
};

/* CVS's value pattern [0-9.]+ after the label and spaces; the figure as
 * Python's float() reads that match, or false. */
static bool read_number(const char *p, const char *end, double *out)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	const char *s = p;
	while (p < end && ((*p >= '0' && *p <= '9') || *p == '.'))
		p++;
	if (p == s || p - s > 63)
		return false;
	char buf[64];
	memcpy(buf, s, (size_t)(p - s));
	buf[p - s] = '\0';
	char *stop;
	double d = strtod(buf, &stop);
	if (*stop || !isfinite(d))
		return false;
	*out = d;
	return true;
}

/* One line, after the banner: the first value of each label. */
static void read_line(struct sg_state *st, const char *l, const char *end, long line)
{
	size_t n = (size_t)(end - l);
	if (n > 8 && !strncmp(l, "Backend:", 8) && !st->backend[0]) {
		const char *p = l + 8;
		while (p < end && *p == ' ')
			p++;
		size_t k = 0;
		while (p < end && *p != ' ' && *p != '\r' && k + 1 < sizeof(st->backend))
			st->backend[k++] = *p++;
		st->backend[k] = '\0';
		return;
	}
	for (size_t i = 0; i < N_LABELS; i++) {
		size_t ln = strlen(labels[i].label);
		if (st->line[i] || n < ln || strncasecmp(l, labels[i].label, ln))
			continue;
		if (read_number(l + ln, end, &st->v[i]))
			st->line[i] = line;
		return;
	}
}

static double ctx_number(const struct assay_parse_opts *o, const char *key)
{
	const json_t *v = o->context ? json_object_get(o->context, key) : NULL;
	if (json_is_number(v))
		return json_number_value(v);
	if (json_is_string(v)) {
		char *stop;
		double d = strtod(json_string_value(v), &stop);
		if (stop != json_string_value(v) && !*stop && isfinite(d))
			return d;
	}
	return NAN;
}

static void add(struct assay_rows *tmp, const json_t *series, const char *metric,
		const char *statistic, double value, const char *unit, enum assay_direction dir,
		long line)
{
	struct assay_row *r = assay_rows_add(tmp);
	assay_row_set(r, json_deep_copy(series), metric, statistic, value, unit, dir);
	r->line = line;
}

/* goodput, per-GPU throughput and MFU, as CVS derives them. */
static void derive(const struct sg_state *st, const struct assay_parse_opts *o,
		   const json_t *series, struct assay_rows *tmp)
{
	double total = NAN;
	if (st->line[L_TOTAL])
		total = st->v[L_TOTAL];
	else if (st->line[L_SUCC] && st->line[L_FAILED])
		total = st->v[L_SUCC] + st->v[L_FAILED];
	else if (st->line[L_SUCC])
		total = ctx_number(o, "num_prompts"); /* CVS: the config's num_prompts */
	if (st->line[L_SUCC] && st->v[L_SUCC] > 0 && total > 0)
		add(tmp, series, "goodput", "ratio", st->v[L_SUCC] / total, "ratio",
		    ASSAY_DIR_HIGHER, st->line[L_SUCC]);
	double tp = ctx_number(o, "tp");
	if (isnan(tp))
		tp = 1; /* CVS: tensor_parallelism, default 1 */
	if (st->line[L_OUT_TPUT] && tp > 0 && !isnan(ctx_number(o, "tp")))
		add(tmp, series, "output_throughput_per_gpu", "value", st->v[L_OUT_TPUT] / tp,
		    "tok/s/GPU", ASSAY_DIR_HIGHER, st->line[L_OUT_TPUT]);
	double params = ctx_number(o, "model_num_params");
	double peak = ctx_number(o, "peak_gpu_tflops");
	double dur = st->line[L_DUR] ? st->v[L_DUR] : 0;
	if (!(params > 0) || !(peak > 0) || !(dur > 0) || !(tp > 0))
		return;
	double in = st->line[L_IN] ? st->v[L_IN] : 0, gen = st->line[L_GEN] ? st->v[L_GEN] : 0;
	double mfu = 6.0 * params * (in + gen) / (peak * 1e12 * tp * dur);
	if (isfinite(mfu))
		add(tmp, series, "mfu", "ratio", mfu, "ratio", ASSAY_DIR_HIGHER, st->line[L_DUR]);
}

/* Walk the lines; the figures count from the first banner on. */
static void scan(const char *data, size_t len, struct sg_state *st)
{
	long line = 0;
	for (size_t pos = 0; pos < len;) {
		const char *l = data + pos;
		const char *nl = memchr(l, '\n', len - pos);
		const char *end = nl ? nl : data + len;
		pos = (size_t)(end - data) + (nl ? 1 : 0);
		line++;
		if (!st->banner_line) {
			if (memmem(l, (size_t)(end - l), banner, sizeof(banner) - 1))
				st->banner_line = line;
			continue;
		}
		read_line(st, l, end, line);
	}
}

assay_err assay_parse_sglang(const char *data, size_t len, const struct assay_parse_opts *o,
			     struct assay_rows *out, struct assay_error *e)
{
	struct sg_state st;
	memset(&st, 0, sizeof(st));
	scan(data, len, &st);
	if (!st.banner_line)
		return assay_error_at(e, ASSAY_USAGE, o->file, NULL, 0,
				      "no \"%s\" block (sglang bench_serving's summary)", banner);
	json_t *series = json_pack("{s:s}", "benchmark", "sglang-bench-serving");
	if (st.backend[0])
		json_object_set_new(series, "backend", json_string(st.backend));
	struct assay_rows tmp = ASSAY_ROWS_INIT;
	for (size_t i = 0; i < N_LABELS; i++)
		if (st.line[i] && labels[i].metric)
			add(&tmp, series, labels[i].metric, labels[i].statistic, st.v[i],
			    labels[i].unit, labels[i].dir, st.line[i]);
	derive(&st, o, series, &tmp);
	json_decref(series);
	if (!tmp.n)
		return assay_error_at(e, ASSAY_USAGE, o->file, NULL, st.banner_line,
				      "the \"%s\" block has no figure (expected lines such as "
				      "\"Output token throughput (tok/s): 123.45\")",
				      banner);
	return peer_finish(&tmp, o, out, e);
}

bool assay_detect_sglang(const char *data, size_t len)
{
	/* The banner, then one of bench_serving's own labels after it. */
	const char *b = memmem(data, len, banner, sizeof(banner) - 1);
	if (!b)
		return false;
	size_t rest = len - (size_t)(b - data);
	return memmem(b, rest, "Output token throughput (tok/s):", 32) ||
	       memmem(b, rest, "Successful requests:", 20);
}
