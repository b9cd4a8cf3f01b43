/* Format "maxtext": a JAX MaxText training log (node 0's training.log),
 * read line by line as ROCm/cvs reads it (cvs/lib/training/jaxmaxtext/
 * utils/maxtext_parsing.py at dddd914, parse_training_log): the
 * "completed step: N, key: value, ..." lines MaxText's metric logger
 * prints (profiler steps left out), averages of TFLOP/s/device,
 * Tokens/s/device and seconds over the last 10 steps that carry
 * performance numbers, step-time mean/p50/p95 over all of them, the final
 * loss, whether it fell, the last eval loss; identity from MaxText's
 * "Config param KEY: VALUE" dump. Rules: docs/training.md. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "assay/json.h"
#include "assay/parse.h"
#include "train_scan.h"

#define MT_LAST 10 /* CVS's avg_last_n */

const char *const assay_maxtext_metrics[] = {"tflops_per_sec_per_gpu/cvs",
					     "tokens_per_sec_per_gpu/cvs",
					     "step_time_seconds/cvs",
					     "step_time_mean_ms/cvs",
					     "step_time_p50_ms/cvs",
					     "step_time_p95_ms/cvs",
					     "final_loss/cvs",
					     "loss_decreased/cvs",
					     "eval_loss/cvs",
					     "steps/max",
					     "steps/config",
					     "nonfinite/total",
					     NULL};

enum { K_TFLOPS, K_TOKENS, K_SECONDS, K_LOSS, K_COUNT };
static const char *const keys[K_COUNT] = {"TFLOP/s/device", "Tokens/s/device", "seconds", "loss"};

struct mt_step {
	double v[K_COUNT];
	unsigned has;
};

struct mt {
	struct mt_step tail[MT_LAST]; /* the last perf steps, a ring */
	size_t n_perf;
	double *secs; /* every perf step's seconds */
	size_t n_secs, cap_secs;
	double first_loss, last_loss, eval_loss;
	bool any_loss, any_eval, any_step;
	long long last_step, steps_cfg, nonfinite; /* last_step: the largest */
	bool have_steps_cfg;
	json_t *series;
	struct sbuf par; /* parallelism: "name=value" of each *_parallelism param not 1 */
};

static bool ws(char c)
{
	return c == ' ' || c == '\t' || c == '\f' || c == '\v';
}

static bool value_char(char c)
{
	return (c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-';
}

static bool word_char(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       c == '_';
}

static const char *find_ci(const char *p, const char *end, const char *s, size_t n)
{
	for (; (size_t)(end - p) >= n; p++)
		if (!strncasecmp(p, s, n))
			return p;
	return NULL;
}

/* Python's float() of [p, q) (value characters only): false when it fails. */
static bool py_float(const char *p, const char *q, double *out)
{
	char buf[64];
	size_t n = (size_t)(q - p);
	if (!n || n >= sizeof(buf))
		return false;
	memcpy(buf, p, n);
	buf[n] = '\0';
	char *stop = NULL;
	*out = strtod(buf, &stop);
	return stop && !*stop && stop != buf;
}

/* The "key: value" pairs of a step line as CVS's _METRIC_RE,
 * (\S+?):\s*([\d.eE+\-]+), finds them left to right. */
static void step_pairs(const char *p, const char *le, struct mt_step *st)
{
	while (p < le) {
		if (ws(*p)) {
			p++;
			continue;
		}
		const char *r = p;
		while (r < le && !ws(*r))
			r++;
		const char *next = r;
		for (const char *c = p + 1; c < r; c++) {
			if (*c != ':')
				continue;
			const char *v = c + 1, *w;
			while (v < le && ws(*v))
				v++;
			for (w = v; w < le && value_char(*w); w++)
				;
			if (w == v)
				continue;
			double x;
			for (int k = 0; k < K_COUNT; k++)
				if ((size_t)(c - p) == strlen(keys[k]) &&
				    !memcmp(p, keys[k], (size_t)(c - p)) && py_float(v, w, &x)) {
					st->v[k] = x;
					st->has |= 1u << k;
				}
			next = w;
			break;
		}
		p = next;
	}
}

static void push_secs(struct mt *m, double s)
{
	if (m->n_secs == m->cap_secs) {
		m->cap_secs = m->cap_secs ? 2 * m->cap_secs : 64;
		m->secs = xrealloc(m->secs, m->cap_secs * sizeof(*m->secs));
	}
	m->secs[m->n_secs++] = s;
}

/* "completed step: N, ..." (not a profiler step). */
static void step_line(struct mt *m, const char *ls, const char *h, const char *le)
{
	const char *p = h + 15; /* "completed step:" */
	while (p < le && (ws(*p) || *p == '\r'))
		p++;
	long long n = 0;
	int digits = 0;
	for (; p < le && *p >= '0' && *p <= '9' && digits < 18; p++, digits++)
		n = n * 10 + (*p - '0');
	if (!digits || find_ci(ls, le, "profiler", 8))
		return;
	struct mt_step st = {0};
	step_pairs(ls, le, &st);
	if (!m->any_step || n > m->last_step)
		m->last_step = n;
	m->any_step = true;
	if (st.has & (1u << K_LOSS)) {
		if (!m->any_loss)
			m->first_loss = st.v[K_LOSS];
		m->last_loss = st.v[K_LOSS];
		m->any_loss = true;
	}
	if (!(st.has & ((1u << K_TFLOPS) | (1u << K_TOKENS))))
		return;
	m->tail[m->n_perf++ % MT_LAST] = st;
	if (st.has & (1u << K_SECONDS))
		push_secs(m, st.v[K_SECONDS]);
}

/* "[:=]?\s*VALUE" at p (the tail of CVS's eval patterns): 1 with the
 * value, 0 when it does not match, -1 when float() cannot read the value. */
static int loss_value(const char *p, const char *le, double *out)
{
	for (int skip = 1; skip >= 0; skip--) {
		const char *v = p;
		if (skip) {
			if (v >= le || (*v != ':' && *v != '='))
				continue;
			v++;
		}
		while (v < le && ws(*v))
			v++;
		const char *w = v;
		while (w < le && value_char(*w))
			w++;
		if (w > v)
			return py_float(v, w, out) ? 1 : -1;
	}
	return 0;
}

/* An eval line (CVS's extract_eval_metrics): "eval" at a word start, not a
 * config dump, then "eval[_ ]?loss[:=]?\s*X" else "\bloss[:=]?\s*X", any
 * case; the first match of the pattern that matches. */
static void eval_line(struct mt *m, const char *ls, const char *le)
{
	const char *h = ls;
	while ((h = find_ci(h, le, "eval", 4)) && h > ls && word_char(h[-1]))
		h++;
	if (!h || find_ci(ls, le, "config param", 12) || find_ci(ls, le, "pyconfig", 8))
		return;
	double x;
	int got = 0;
	for (h = ls; !got && (h = find_ci(h, le, "eval", 4)); h++) {
		const char *p = h + 4;
		if (p < le && (*p == '_' || *p == ' ') && (size_t)(le - p) > 4 &&
		    !strncasecmp(p + 1, "loss", 4))
			got = loss_value(p + 5, le, &x);
		if (!got && (size_t)(le - p) >= 4 && !strncasecmp(p, "loss", 4))
			got = loss_value(p + 4, le, &x);
	}
	for (h = ls; !got && (h = find_ci(h, le, "loss", 4)); h++)
		if (h == ls || !word_char(h[-1]))
			got = loss_value(h + 4, le, &x);
	if (got > 0) {
		m->eval_loss = x;
		m->any_eval = true;
	}
}

/* "(TFLOP/s/device|Tokens/s/device):\s*(NaN|Inf|-Inf)", any case. */
static bool nonfinite_line(const char *ls, const char *le)
{
	for (int k = 0; k < 2; k++) {
		size_t n = strlen(keys[k]);
		for (const char *h = ls; (h = find_ci(h, le, keys[k], n)); h++) {
			const char *p = h + n;
			if (p >= le || *p != ':')
				continue;
			for (p++; p < le && ws(*p); p++)
				;
			if (p < le && *p == '-')
				p++;
			if ((size_t)(le - p) >= 3 &&
			    (!strncasecmp(p, "nan", 3) || !strncasecmp(p, "inf", 3)))
				return true;
		}
	}
	return false;
}

/* "Config param KEY: VALUE": the run's identity. */
static void config_line(struct mt *m, const char *h, const char *le)
{
	const char *k = h + 13, *c = k; /* "Config param " */
	while (c < le && *c != ':' && !ws(*c))
		c++;
	if (c >= le || *c != ':' || c == k)
		return;
	const char *v = c + 1, *ve = le;
	while (v < ve && ws(*v))
		v++;
	while (ve > v && (ws(ve[-1]) || ve[-1] == '\r'))
		ve--;
	char key[64], val[128];
	if ((size_t)(c - k) >= sizeof(key) || (size_t)(ve - v) >= sizeof(val))
		return;
	snprintf(key, sizeof(key), "%.*s", (int)(c - k), k);
	snprintf(val, sizeof(val), "%.*s", (int)(ve - v), v);
	size_t kn = strlen(key);
	if (!strcmp(key, "model_name") && val[0])
		json_object_set_new(m->series, "model", json_string(val));
	else if (!strcmp(key, "dtype") && val[0] && !json_object_get(m->series, "precision"))
		json_object_set_new(m->series, "precision", json_string(val));
	else if (!strcmp(key, "quantization") && val[0] && strcmp(val, "''"))
		json_object_set_new(m->series, "precision", json_string(val));
	else if (!strcmp(key, "per_device_batch_size") && val[0])
		json_object_set_new(m->series, "batch", json_string(val));
	else if (!strcmp(key, "steps") && val[0]) {
		char *end = NULL;
		long long s = strtoll(val, &end, 10);
		if (end && !*end && s > 0) {
			m->steps_cfg = s;
			m->have_steps_cfg = true;
		}
	} else if (kn > 12 && !strcmp(key + kn - 12, "_parallelism") && strcmp(val, "1"))
		sbuf_addf(&m->par, "%s%.*s=%s", m->par.len ? "," : "", (int)(kn - 12), key, val);
}

static void scan_line(struct mt *m, const char *ls, const char *le)
{
	const char *h = memmem(ls, (size_t)(le - ls), "completed step:", 15);
	if (h)
		step_line(m, ls, h, le);
	if (nonfinite_line(ls, le))
		m->nonfinite++;
	eval_line(m, ls, le);
	h = memmem(ls, (size_t)(le - ls), "Config param ", 13);
	if (h)
		config_line(m, h, le);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* numpy's default ("linear") percentile of the sorted xs (CVS's _percentile). */
static double percentile(const double *xs, size_t n, double q)
{
	if (n == 1)
		return xs[0];
	double rank = q / 100.0 * (double)(n - 1);
	size_t lo = (size_t)rank, hi = lo + 1 < n ? lo + 1 : n - 1;
	return xs[lo] + (xs[hi] - xs[lo]) * (rank - (double)lo);
}

static void add(struct mt *m, struct assay_rows *out, const char *metric, const char *stat,
		double v, long long samples, const char *unit, enum assay_direction dir)
{
	if (!isfinite(v))
		return; /* CVS: None, not checked */
	struct assay_row *r = assay_rows_add(out);
	assay_row_init(r);
	assay_row_set(r, json_deep_copy(m->series), metric, stat, v, unit, dir);
	r->samples = samples;
}

/* The mean of key k over the tail steps that have it (NAN: none). */
static double tail_mean(const struct mt *m, int k, long long *n)
{
	size_t have = m->n_perf < MT_LAST ? m->n_perf : MT_LAST;
	double sum = 0;
	*n = 0;
	for (size_t i = 0; i < have; i++)
		if (m->tail[i].has & (1u << k)) {
			sum += m->tail[i].v[k];
			(*n)++;
		}
	return *n ? sum / (double)*n : NAN;
}

static void perf_rows(struct mt *m, struct assay_rows *out)
{
	long long n;
	double v = tail_mean(m, K_TFLOPS, &n);
	add(m, out, "tflops_per_sec_per_gpu", "cvs", v, n, "TFLOP/s/GPU", ASSAY_DIR_HIGHER);
	v = tail_mean(m, K_TOKENS, &n);
	add(m, out, "tokens_per_sec_per_gpu", "cvs", v, n, "tokens/s/GPU", ASSAY_DIR_HIGHER);
	v = tail_mean(m, K_SECONDS, &n);
	add(m, out, "step_time_seconds", "cvs", v, n, "s", ASSAY_DIR_LOWER);
	if (!m->n_secs)
		return;
	double sum = 0;
	for (size_t i = 0; i < m->n_secs; i++)
		sum += m->secs[i];
	qsort(m->secs, m->n_secs, sizeof(*m->secs), cmp_double);
	long long ns = (long long)m->n_secs;
	add(m, out, "step_time_mean_ms", "cvs", sum / (double)m->n_secs * 1000.0, ns, "ms",
	    ASSAY_DIR_LOWER);
	add(m, out, "step_time_p50_ms", "cvs", percentile(m->secs, m->n_secs, 50) * 1000.0, ns,
	    "ms", ASSAY_DIR_LOWER);
	add(m, out, "step_time_p95_ms", "cvs", percentile(m->secs, m->n_secs, 95) * 1000.0, ns,
	    "ms", ASSAY_DIR_LOWER);
}

static void result_rows(struct mt *m, struct assay_rows *out)
{
	if (m->par.len)
		json_object_set_new(m->series, "parallelism", json_string(sbuf_str(&m->par)));
	perf_rows(m, out);
	if (m->any_loss) {
		add(m, out, "final_loss", "cvs", m->last_loss, 1, "nats", ASSAY_DIR_LOWER);
		add(m, out, "loss_decreased", "cvs", m->last_loss < m->first_loss ? 1 : 0, 1,
		    "bool", ASSAY_DIR_HIGHER);
	}
	if (m->any_eval)
		add(m, out, "eval_loss", "cvs", m->eval_loss, 1, "nats", ASSAY_DIR_LOWER);
	if (m->any_step)
		add(m, out, "steps", "max", (double)m->last_step, 1, "steps", ASSAY_DIR_HIGHER);
	if (m->have_steps_cfg)
		add(m, out, "steps", "config", (double)m->steps_cfg, 1, "steps", ASSAY_DIR_HIGHER);
	add(m, out, "nonfinite", "total", (double)m->nonfinite, 1, "lines", ASSAY_DIR_LOWER);
}

assay_err assay_parse_maxtext(const char *data, size_t len, const struct assay_parse_opts *o,
			      struct assay_rows *out, struct assay_error *e)
{
	struct mt m = {0};
	m.series = json_object();
	json_object_set_new(m.series, "workload", json_string("maxtext"));
	const char *p = data, *end = data + len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		const char *cr;
		/* Python's splitlines() also ends a line at \r. */
		while ((cr = memchr(p, '\r', (size_t)(le - p)))) {
			scan_line(&m, p, cr);
			p = cr + 1;
		}
		scan_line(&m, p, le);
		p = nl ? nl + 1 : end;
	}
	size_t from = out->n;
	result_rows(&m, out);
	json_decref(m.series);
	free(m.secs);
	sbuf_release(&m.par);
	assay_err rc = assay_parse_stamp(out, from, o, e);
	if (rc != ASSAY_OK)
		while (out->n > from)
			assay_row_release(&out->v[--out->n]);
	return rc;
}

/* A "completed step: N, " line of MaxText's metric logger, or its config
 * dump, in the first MiB. */
bool assay_detect_maxtext(const char *data, size_t len)
{
	size_t n = len < (1u << 20) ? len : (1u << 20);
	return memmem(data, n, "completed step:", 15) ||
	       (memmem(data, n, "pyconfig.py", 11) && memmem(data, n, "Config param ", 13));
}

/* The steps of a MaxText log as a training result, for the loss-curve and
 * convergence gates: each completed step's loss (CVS's step_metrics). */
void assay_maxtext_train(const char *data, size_t len, struct assay_train_result *r)
{
	train_result_init(r, "maxtext");
	const char *p = data, *end = data + len;
	long line = 0;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		const char *h = memmem(p, (size_t)(le - p), "completed step:", 15);
		line++;
		if (h && !find_ci(p, le, "profiler", 8)) {
			const char *q = h + 15;
			while (q < le && ws(*q))
				q++;
			long long n = 0;
			int digits = 0;
			for (; q < le && *q >= '0' && *q <= '9' && digits < 18; q++, digits++)
				n = n * 10 + (*q - '0');
			struct mt_step st = {0};
			step_pairs(p, le, &st);
			if (digits && (st.has & (1u << K_LOSS))) {
				struct assay_train_step s;
				train_step_init(&s);
				s.step = n;
				s.line = line;
				s.v[ASSAY_TM_LM_LOSS] = st.v[K_LOSS];
				s.has = 1u << ASSAY_TM_LM_LOSS;
				train_push_step(r, &s);
			}
		}
		p = nl ? nl + 1 : end;
	}
}
