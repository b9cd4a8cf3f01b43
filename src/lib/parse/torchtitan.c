/* Format "torchtitan": a TorchTitan training log (one node's
 * torchtitan-logs/out-node{i}/training.log), read line by line as ROCm/cvs
 * reads it (cvs/lib/training/torchtitan/torchtitan_lib.py at dddd914,
 * TRAINING_RESULT_PATTERNS): every "tps:" value (commas allowed), else every
 * "tok/s:" value; every "loss:"; every "memory: X GiB", else "mem: X GB";
 * each label in any case, anywhere in a line, then white space and the
 * number. The step lines come from TorchTitan's MetricsProcessor.log
 * ("step: N  loss: ...  memory: X.XXGiB(P%)  tps: N,NNN  tflops: ...").
 * Rules: docs/training.md, "TorchTitan and MaxText". */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "assay/json.h"
#include "assay/parse.h"

const char *const assay_torchtitan_metrics[] = {"tokens_per_sec/cvs_mean",
						"tokens_per_sec/last",
						"loss/last",
						"loss/first",
						"mem_usage_gb/max",
						"steps/max",
						"nonfinite/total",
						"unreadable/total",
						NULL};

/* The values of one pattern: count, first, last, sum, maximum. */
struct tt_vals {
	long long n;
	double first, last, sum, max;
};

struct tt {
	struct tt_vals tps, toks, loss, mem_gib, mem_gb;
	long long step, nonfinite, unreadable; /* step: the largest */
	bool any_step;
};

static void vals_add(struct tt_vals *v, double x)
{
	if (!v->n++) {
		v->first = x;
		v->max = x;
	}
	v->last = x;
	v->sum += x;
	if (x > v->max)
		v->max = x;
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\f' || c == '\v';
}

/* The label's next occurrence in [p, end), any case. */
static const char *find_ci(const char *p, const char *end, const char *label, size_t n)
{
	for (; (size_t)(end - p) >= n; p++)
		if (!strncasecmp(p, label, n))
			return p;
	return NULL;
}

/* A number CVS's float() reads from the characters [p, q) (commas dropped
 * when commas): false when it cannot (e.g. "1.2.3" or "."). */
static bool read_value(const char *p, const char *q, bool commas, double *out)
{
	char buf[64];
	size_t k = 0;
	for (; p < q; p++) {
		if (commas && *p == ',')
			continue;
		if (k + 1 >= sizeof(buf))
			return false;
		buf[k++] = *p;
	}
	buf[k] = '\0';
	char *stop = NULL;
	double v = strtod(buf, &stop);
	if (!k || *stop || !isfinite(v))
		return false;
	*out = v;
	return true;
}

/* Every "label<white space>value" of the line: values of the characters
 * digits, '.' (and ',' when commas), then the unit when one is asked for
 * (after optional white space when unit_space is 0, at least one when 1). */
static void scan_label(struct tt *t, const char *ls, const char *le, const char *label, bool commas,
		       const char *unit, int unit_space, struct tt_vals *v)
{
	size_t n = strlen(label);
	for (const char *h = ls; (h = find_ci(h, le, label, n)); h++) {
		const char *p = h + n, *q;
		if (p >= le || !is_space(*p))
			continue;
		while (p < le && is_space(*p))
			p++;
		for (q = p;
		     q < le && ((*q >= '0' && *q <= '9') || *q == '.' || (commas && *q == ','));
		     q++)
			;
		if (q == p)
			continue;
		if (unit) {
			const char *u = q;
			while (u < le && is_space(*u))
				u++;
			size_t un = strlen(unit);
			if ((unit_space && u == q) || (size_t)(le - u) < un ||
			    strncasecmp(u, unit, un))
				continue;
		}
		double x;
		if (read_value(p, q, commas, &x))
			vals_add(v, x);
		else
			t->unreadable++;
	}
}

/* "label<white space>NaN|Inf" (CVS's TRAINING_NAN_PATTERNS), any case. */
static bool nonfinite_after(const char *ls, const char *le, const char *label)
{
	size_t n = strlen(label);
	for (const char *h = ls; (h = find_ci(h, le, label, n)); h++) {
		const char *p = h + n;
		if (p >= le || !is_space(*p))
			continue;
		while (p < le && is_space(*p))
			p++;
		if ((size_t)(le - p) >= 3 &&
		    (!strncasecmp(p, "nan", 3) || !strncasecmp(p, "inf", 3)))
			return true;
	}
	return false;
}

/* "step:<white space>N": the step number. */
static void scan_step(struct tt *t, const char *ls, const char *le)
{
	for (const char *h = ls; (h = find_ci(h, le, "step:", 5)); h++) {
		const char *p = h + 5;
		if (p >= le || !is_space(*p))
			continue;
		while (p < le && is_space(*p))
			p++;
		long long s = 0;
		int digits = 0;
		for (; p < le && *p >= '0' && *p <= '9' && digits < 18; p++, digits++)
			s = s * 10 + (*p - '0');
		if (digits && (!t->any_step || s > t->step)) {
			t->step = s;
			t->any_step = true;
		}
	}
}

static void scan_line(struct tt *t, const char *ls, const char *le)
{
	scan_step(t, ls, le);
	scan_label(t, ls, le, "tps:", true, NULL, 0, &t->tps);
	scan_label(t, ls, le, "tok/s:", false, NULL, 0, &t->toks);
	scan_label(t, ls, le, "loss:", false, NULL, 0, &t->loss);
	scan_label(t, ls, le, "memory:", false, "GiB", 0, &t->mem_gib);
	scan_label(t, ls, le, "mem:", false, "GB", 1, &t->mem_gb);
	if (nonfinite_after(ls, le, "tok/s:") || nonfinite_after(ls, le, "loss:"))
		t->nonfinite++;
}

static void add(struct assay_rows *out, const char *metric, const char *stat, double v,
		long long samples, const char *unit, enum assay_direction dir)
{
	struct assay_row *r = assay_rows_add(out);
	assay_row_init(r);
	json_t *s = json_object();
	json_object_set_new(s, "workload", json_string("torchtitan"));
	assay_row_set(r, s, metric, stat, v, unit, dir);
	r->samples = samples;
}

/* Tokens: "tps:" values, else "tok/s:" (CVS's fallback chain). The mean
 * leaves out the first value (the step that compiles and warms up) when
 * there are several. */
static void tokens_rows(const struct tt *t, struct assay_rows *out)
{
	const struct tt_vals *v = t->tps.n ? &t->tps : &t->toks;
	if (!v->n)
		return;
	double mean = v->n > 1 ? (v->sum - v->first) / (double)(v->n - 1) : v->first;
	add(out, "tokens_per_sec", "cvs_mean", mean, v->n > 1 ? v->n - 1 : 1, "tokens/s/GPU",
	    ASSAY_DIR_HIGHER);
	add(out, "tokens_per_sec", "last", v->last, 1, "tokens/s/GPU", ASSAY_DIR_HIGHER);
}

static void result_rows(const struct tt *t, struct assay_rows *out)
{
	tokens_rows(t, out);
	if (t->loss.n) {
		add(out, "loss", "last", t->loss.last, 1, "nats", ASSAY_DIR_LOWER);
		add(out, "loss", "first", t->loss.first, 1, "nats", ASSAY_DIR_LOWER);
	}
	if (t->mem_gib.n)
		add(out, "mem_usage_gb", "max", t->mem_gib.max, t->mem_gib.n, "GiB",
		    ASSAY_DIR_LOWER);
	else if (t->mem_gb.n)
		add(out, "mem_usage_gb", "max", t->mem_gb.max, t->mem_gb.n, "GB", ASSAY_DIR_LOWER);
	if (t->any_step)
		add(out, "steps", "max", (double)t->step, 1, "steps", ASSAY_DIR_HIGHER);
	add(out, "nonfinite", "total", (double)t->nonfinite, 1, "lines", ASSAY_DIR_LOWER);
	add(out, "unreadable", "total", (double)t->unreadable, 1, "values", ASSAY_DIR_LOWER);
}

assay_err assay_parse_torchtitan(const char *data, size_t len, const struct assay_parse_opts *o,
				 struct assay_rows *out, struct assay_error *e)
{
	struct tt t = {0};
	const char *p = data, *end = data + len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		scan_line(&t, p, le);
		p = nl ? nl + 1 : end;
	}
	size_t from = out->n;
	result_rows(&t, out);
	assay_err rc = assay_parse_stamp(out, from, o, e);
	if (rc != ASSAY_OK) {
		while (out->n > from)
			assay_row_release(&out->v[--out->n]);
	}
	return rc;
}

/* TorchTitan's own marks in its first MiB: the logger's "[titan]" prefix,
 * its module, or a step line with both "tps:" and "loss:". */
bool assay_detect_torchtitan(const char *data, size_t len)
{
	size_t n = len < (1u << 20) ? len : (1u << 20);
	if (memmem(data, n, "[titan]", 7) || memmem(data, n, "torchtitan.train", 16))
		return true;
	const char *p = data, *end = data + n;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		if (find_ci(p, le, "step:", 5) && find_ci(p, le, "loss:", 5) &&
		    (find_ci(p, le, "tps:", 4) || find_ci(p, le, "tok/s:", 6)))
			return true;
		p = nl ? nl + 1 : end;
	}
	return false;
}
