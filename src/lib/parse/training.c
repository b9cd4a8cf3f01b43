/* The training-run API over the three training formats: dispatch and
 * detection, the outcome (complete, NaN/Inf, no metrics), steady-state
 * statistics, measurement rows and the per-step JSON (docs/training.md). */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "assay/stats.h"
#include "train_scan.h"

/* Both from the format table (formats.c): its rows marked training. */
bool assay_train_format_known(const char *name)
{
	const struct assay_format *f = assay_format_find(name);
	return f && f->training;
}

const char *assay_train_detect(const char *data, size_t len)
{
	for (const struct assay_format *f = assay_formats; f->name; f++)
		if (f->training && f->detect && f->detect(data, len))
			return f->name;
	return NULL;
}

void assay_train_opts_init(struct assay_train_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->warmup_steps = -1;
	o->warmup_min = 2;
	o->warmup_percent = 10.0;
}

bool assay_train_warmup_parse(const char *text, struct assay_train_opts *o)
{
	const char *comma = strchr(text, ',');
	if (!comma)
		return assay_parse_long(text, &o->warmup_steps) && o->warmup_steps >= 0;
	char *min = xstrndup(text, (size_t)(comma - text)), *pct = xstrdup(comma + 1);
	size_t n = strlen(pct);
	if (n && pct[n - 1] == '%')
		pct[n - 1] = '\0';
	long long m;
	double p;
	bool ok = assay_parse_long(min, &m) && m >= 0 && assay_parse_double(pct, &p) && p >= 0 &&
		  p <= 100;
	if (ok) {
		o->warmup_steps = -1;
		o->warmup_min = m;
		o->warmup_percent = p;
	}
	free(min);
	free(pct);
	return ok;
}

#define READ_BLOCK (1u << 20)
#define GOLDEN_MAX (256u << 20)

static bool is_golden(const char *data, size_t len)
{
	return assay_detect_megatron_golden(data, len);
}

assay_err assay_train_parse(const char *format, const char *data, size_t len,
			    const struct assay_train_opts *o, const char *file,
			    struct assay_train_result *r, struct assay_error *e)
{
	struct assay_train_opts defaults;
	if (!o) {
		assay_train_opts_init(&defaults);
		o = &defaults;
	}
	if (!strcmp(format, "auto") && is_golden(data, len))
		format = "megatron-golden";
	if (!strcmp(format, "megatron-golden")) {
		train_result_init(r, "megatron-golden");
		assay_err rc = train_golden(data, len, file, r, e);
		if (rc != ASSAY_OK) {
			assay_train_result_release(r);
			train_result_init(r, "megatron-golden");
			return rc;
		}
		train_finish(r, o, 0);
		return ASSAY_OK;
	}
	if (strcmp(format, "megatron") && strcmp(format, "primus") && strcmp(format, "auto")) {
		train_result_init(r, "unknown");
		return assay_error_at(e, ASSAY_USAGE, file, NULL, 0,
				      "unknown training format \"%s\" (expected megatron, primus, "
				      "megatron-golden or auto)",
				      format);
	}
	struct assay_train_stream *st = assay_train_stream_new(format, o, r);
	assay_train_stream_feed(st, data, len);
	assay_err rc = assay_train_stream_end(st, file, e);
	if (rc != ASSAY_OK) {
		assay_train_result_release(r);
		train_result_init(r, "unknown");
	}
	return rc;
}

assay_err assay_train_parse_fd(const char *format, int fd, int tee_fd,
			       const struct assay_train_opts *o, const char *file,
			       struct assay_train_result *r, struct assay_error *e)
{
	char *buf = xmalloc(READ_BLOCK);
	ssize_t n = assay_read_full(fd, buf, READ_BLOCK);
	assay_err rc = ASSAY_OK;
	if (n < 0) {
		train_result_init(r, "unknown");
		rc = assay_error_at(e, ASSAY_USAGE, file, NULL, 0, "cannot read: %s",
				    strerror(errno));
		goto out;
	}
	if (tee_fd >= 0 && !assay_write_full(tee_fd, buf, (size_t)n)) {
		train_result_init(r, "unknown");
		rc = assay_error_at(e, ASSAY_INFRA, file, NULL, 0, "cannot keep a copy: %s",
				    strerror(errno));
		goto out;
	}
	if (!strcmp(format, "megatron-golden") ||
	    (!strcmp(format, "auto") && is_golden(buf, (size_t)n))) {
		/* A golden-values file is a small JSON document: read it whole. */
		struct sbuf sb = SBUF_INIT;
		sbuf_add(&sb, buf, (size_t)n);
		while (n == READ_BLOCK && sb.len <= GOLDEN_MAX) {
			n = assay_read_full(fd, buf, READ_BLOCK);
			if (n < 0)
				break;
			sbuf_add(&sb, buf, (size_t)n);
		}
		if (n < 0 || sb.len > GOLDEN_MAX) {
			train_result_init(r, "unknown");
			rc = assay_error_at(e, ASSAY_USAGE, file, NULL, 0,
					    n < 0 ? "cannot read: %s"
						  : "a golden-values file larger than 256 MiB%s",
					    n < 0 ? strerror(errno) : "");
		} else {
			rc = assay_train_parse("megatron-golden", sb.buf ? sb.buf : "", sb.len, o,
					       file, r, e);
		}
		sbuf_release(&sb);
		goto out;
	}
	if (strcmp(format, "megatron") && strcmp(format, "primus") && strcmp(format, "auto")) {
		rc = assay_train_parse(format, "", 0, o, file, r, e);
		goto out;
	}
	struct assay_train_stream *st = assay_train_stream_new(format, o, r);
	while (n > 0) {
		assay_train_stream_feed(st, buf, (size_t)n);
		if (n < READ_BLOCK)
			break;
		n = assay_read_full(fd, buf, READ_BLOCK);
		if (n > 0 && tee_fd >= 0 && !assay_write_full(tee_fd, buf, (size_t)n))
			n = -2;
	}
	int err = errno;
	rc = assay_train_stream_end(st, file, e);
	if (rc == ASSAY_OK && n >= 0 && r->stride > 1)
		rc = assay_train_refine(r, tee_fd < 0 ? fd : -1, o, file, e);
	if (n < 0) {
		rc = assay_error_at(e, n == -1 ? ASSAY_USAGE : ASSAY_INFRA, file, NULL, 0,
				    n == -1 ? "cannot read: %s" : "cannot keep a copy: %s",
				    strerror(err));
	}
	if (rc != ASSAY_OK) {
		assay_train_result_release(r);
		train_result_init(r, "unknown");
	}
out:
	free(buf);
	return rc;
}

struct refine {
	struct assay_train_result *r;
	size_t w;
	bool done;
};

static void refine_step(const struct assay_train_step *s, void *arg)
{
	struct refine *f = arg;
	if ((size_t)s->index >= f->w) {
		f->done = true;
		return;
	}
	struct assay_train_result *r = f->r;
	for (int m = 0; m < ASSAY_TM_AVG_COUNT; m++)
		if ((s->has & (1u << m)) && isfinite(s->v[m])) {
			r->warm_sum[m] += s->v[m];
			r->warm_n[m]++;
			if (r->counts)
				train_counts_add(&((struct train_counts *)r->counts)[m], s->v[m],
						 -1);
		}
}

/* The warm-up as the rule gives it over all unique steps. */
size_t train_warmup_rule(const struct assay_train_opts *o, size_t n)
{
	size_t w;
	if (o->warmup_steps >= 0) {
		w = (size_t)o->warmup_steps;
	} else {
		double pct = ceil((double)n * o->warmup_percent / 100.0 - 1e-9);
		w = o->warmup_min > 0 ? (size_t)o->warmup_min : 0;
		if (pct > (double)w)
			w = (size_t)pct;
	}
	return w > n ? n : w;
}

/* The warm-up (its first w unique steps) is out of the sums and counts:
 * mark the result refined and the kept steps that belong to it. */
static void refine_done(struct assay_train_result *r, size_t w)
{
	r->refined = true;
	r->warmup_logged = w;
	size_t k = 0;
	while (k < r->n_steps && (size_t)r->steps[k].index < w)
		k++;
	r->warmup = k;
	for (size_t i = 0; i < r->n_steps; i++)
		r->steps[i].warmup = i < k;
}

assay_err assay_train_refine(struct assay_train_result *r, int fd, const struct assay_train_opts *o,
			     const char *file, struct assay_error *e)
{
	if (r->stride <= 1 || r->refined || strcmp(r->format, "megatron-golden") == 0)
		return ASSAY_OK;
	struct assay_train_opts defaults;
	if (!o) {
		assay_train_opts_init(&defaults);
		o = &defaults;
	}
	struct refine f = {r, train_warmup_rule(o, r->n_logged), false};
	memset(r->warm_sum, 0, sizeof(r->warm_sum));
	memset(r->warm_n, 0, sizeof(r->warm_n));
	if (f.w <= r->n_warm_rec) {
		/* Recorded in the first pass: the same values a second read gives. */
		struct assay_train_step s;
		train_step_init(&s);
		for (size_t i = 0; i < f.w; i++) {
			s.index = (long long)i;
			s.has = 0;
			for (int m = 0; m < ASSAY_TM_AVG_COUNT; m++) {
				s.v[m] = r->warm_rec[i][m];
				if (!isnan(s.v[m]))
					s.has |= 1u << m;
			}
			refine_step(&s, &f);
		}
		refine_done(r, f.w);
		return ASSAY_OK;
	}
	struct stat sb;
	if (fd < 0 || fstat(fd, &sb) || !S_ISREG(sb.st_mode))
		return ASSAY_OK;
	struct assay_train_opts o2 = *o;
	o2.no_errors = true;
	o2.on_step = refine_step;
	o2.on_step_arg = &f;
	o2.keep_steps = r->keep; /* the same thinning, so the same repeats */
	struct assay_train_result tmp;
	struct assay_train_stream *st = assay_train_stream_new(r->format, &o2, &tmp);
	char *buf = xmalloc(READ_BLOCK);
	off_t off = 0;
	ssize_t n = 0;
	while (!f.done && f.w > 0) {
		n = pread(fd, buf, READ_BLOCK, off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		off += n;
		assay_train_stream_feed(st, buf, (size_t)n);
	}
	int err = errno;
	free(buf);
	assay_train_stream_end(st, file, NULL);
	assay_train_result_release(&tmp);
	if (n < 0)
		return assay_error_at(e, ASSAY_USAGE, file, NULL, 0, "cannot read again: %s",
				      strerror(err));
	refine_done(r, f.w);
	return ASSAY_OK;
}

void assay_train_result_release(struct assay_train_result *r)
{
	if (r->counts) {
		for (int m = 0; m < ASSAY_TM_AVG_COUNT; m++)
			train_counts_release(&((struct train_counts *)r->counts)[m]);
		free(r->counts);
	}
	free(r->steps);
	free(r->ckpts);
	free(r->evals);
	free(r->errors);
	free(r->warm_rec);
	train_result_init(r, r->format);
}

bool assay_train_incomplete(const struct assay_train_result *r)
{
	return !r->complete_iteration && !r->complete_marker &&
	       r->exit_kind == ASSAY_TRAIN_EXIT_NONE;
}

/* A run that logged no step and nothing went wrong in it has no metrics:
 * it did not start training, it did not fail it (issue 14). */
static bool failed(const struct assay_train_result *r)
{
	return (r->n_logged && assay_train_incomplete(r)) || r->n_nonfinite ||
	       r->nan_iters_total > 0 || r->n_errors;
}

assay_err assay_train_outcome(const struct assay_train_result *r)
{
	assay_err rc = ASSAY_OK;
	if (!r->n_logged)
		rc = assay_err_worst(rc, ASSAY_NO_METRICS);
	if (failed(r))
		rc = assay_err_worst(rc, ASSAY_WORKLOAD_FAILED);
	return rc;
}

const char *assay_train_outcome_text(const struct assay_train_result *r, char *buf, size_t size)
{
	struct sbuf sb = SBUF_INIT;
	if (r->n_logged && assay_train_incomplete(r)) {
		const struct assay_train_step *last = r->n_steps ? &r->steps[r->n_steps - 1] : NULL;
		long long step = r->agg_last_step[ASSAY_TM_ELAPSED_MS];
		long long total = -1;
		if (last) {
			step = last->step;
			total = last->total;
		}
		sbuf_addf(&sb, "incomplete run: the last step is %lld", step);
		if (total > 0)
			sbuf_addf(&sb, " of %lld", total);
		sbuf_adds(&sb, ", with no final \"iteration N/N\" line, no torchrun marker and no "
			       "Megatron exit line");
	}
	if (r->nan_iters_total > 0) {
		sbuf_addf(&sb,
			  "%snumber of nan iterations is %lld over the log, the first at step %lld "
			  "(line %ld)",
			  sb.len ? "; " : "", r->nan_iters_total, r->nan_first_step,
			  r->nan_first_line);
	}
	if (r->n_nonfinite) {
		sbuf_addf(&sb, "%s%s is %s", sb.len ? "; " : "", r->nonfinite_label,
			  r->nonfinite_text);
		if (r->nonfinite_step >= 0)
			sbuf_addf(&sb, " at step %lld", r->nonfinite_step);
		if (r->nonfinite_line > 0)
			sbuf_addf(&sb, " (line %ld)", r->nonfinite_line);
		if (r->n_nonfinite > 1)
			sbuf_addf(&sb, ", and %zu more NaN/Inf value%s", r->n_nonfinite - 1,
				  r->n_nonfinite > 2 ? "s" : "");
	}
	for (size_t i = 0; i < r->n_errors; i++) {
		const struct assay_train_error *x = &r->errors[i];
		sbuf_addf(&sb, "%serror signature %s (%s) at line %ld: %s", sb.len ? "; " : "",
			  x->signature, x->family, x->line, x->text);
		if (x->count > 1)
			sbuf_addf(&sb, " (%zu lines)", x->count);
	}
	if (!r->n_logged && !failed(r))
		sbuf_adds(&sb, "no metrics: the log has no iteration line");
	snprintf(buf, size, "%s", sbuf_str(&sb));
	sbuf_release(&sb);
	return buf;
}

const char *assay_train_exit_name(enum assay_train_exit k)
{
	switch (k) {
	case ASSAY_TRAIN_EXIT_DONE: return "after training is done";
	case ASSAY_TRAIN_EXIT_INTERVAL: return "exit interval";
	case ASSAY_TRAIN_EXIT_DURATION: return "exit duration";
	case ASSAY_TRAIN_EXIT_SIGNAL: return "exit signal";
	default: return "none";
	}
}

/* ---- statistics ---- */

size_t assay_train_steady_count(const struct assay_train_result *r)
{
	return r->n_logged - r->warmup_logged;
}

size_t assay_train_steady(const struct assay_train_result *r, enum assay_train_metric m,
			  double *mean, double *median)
{
	size_t n = 0;
	long double sum = 0; /* extended precision: 8 x 360.025 sums to 2880.2 */
	double *v = xmalloc((r->n_steps - r->warmup + 1) * sizeof(*v));
	for (size_t i = r->warmup; i < r->n_steps; i++) {
		const struct assay_train_step *s = &r->steps[i];
		if ((s->has & (1u << m)) && isfinite(s->v[m])) {
			v[n++] = s->v[m];
			sum += s->v[m];
		}
	}
	size_t count = n;
	if (r->refined && (int)m < ASSAY_TM_AVG_COUNT) {
		/* Thinned, warm-up read again: exact over every steady step. */
		count = (size_t)(r->agg_sum_n[m] - r->warm_n[m]);
		sum = r->agg_sum[m] - r->warm_sum[m];
		double med;
		size_t cn;
		if (r->counts &&
		    train_counts_median(&((const struct train_counts *)r->counts)[m], &med, &cn) &&
		    cn == count) {
			if (count) {
				*mean = (double)(sum / (long double)count);
				*median = med;
			}
			free(v);
			return count;
		}
	} else if (r->stride > 1 && (int)m < ASSAY_TM_AVG_COUNT && r->warmup < r->n_steps) {
		/* Thinned: the mean over every steady step from the running sums,
		 * the median over the kept ones (an evenly spaced sample). */
		const struct assay_train_step *w = &r->steps[r->warmup];
		bool own = (w->has & (1u << m)) && isfinite(w->v[m]);
		long double before = (long double)w->cum[m] - (own ? w->v[m] : 0);
		long long nb = w->cum_n[m] - (own ? 1 : 0);
		count = (size_t)(r->agg_sum_n[m] - nb);
		sum = r->agg_sum[m] - before;
	}
	if (n && count) {
		*mean = (double)(sum / (long double)count);
		*median = assay_median(v, n);
	} else {
		count = 0;
	}
	free(v);
	return count;
}

bool assay_train_running_avg(const struct assay_train_result *r, enum assay_train_metric m,
			     double *out)
{
	if ((int)m >= ASSAY_TM_AVG_COUNT || !(r->agg_has_avg & (1u << m)))
		return false;
	*out = r->agg_avg_last[m];
	return true;
}

bool assay_train_last(const struct assay_train_result *r, enum assay_train_metric m, double *out,
		      long long *step)
{
	if ((unsigned)m >= ASSAY_TM_COUNT || !r->agg_n[m])
		return false;
	*out = r->agg_last[m];
	if (step)
		*step = r->agg_last_step[m];
	return true;
}

static long long last_ckpt(const struct assay_train_result *r, enum assay_ckpt_op op)
{
	for (size_t i = r->n_ckpts; i-- > 0;)
		if (r->ckpts[i].op == op && r->ckpts[i].iteration >= 0)
			return r->ckpts[i].iteration;
	return -1;
}

long long assay_train_last_saved(const struct assay_train_result *r)
{
	return last_ckpt(r, ASSAY_CKPT_SAVE);
}

long long assay_train_loaded(const struct assay_train_result *r)
{
	return last_ckpt(r, ASSAY_CKPT_LOAD);
}

/* ---- names ---- */

static const struct {
	const char *name, *unit;
	enum assay_direction dir;
} metric_info[ASSAY_TM_COUNT] = {
    [ASSAY_TM_ELAPSED_MS] = {"elapsed_ms_per_iter", "ms", ASSAY_DIR_LOWER},
    [ASSAY_TM_TFLOPS] = {"tflops_per_gpu", "TFLOP/s/GPU", ASSAY_DIR_HIGHER},
    [ASSAY_TM_TOKENS] = {"tokens_per_gpu", "tokens/s/GPU", ASSAY_DIR_HIGHER},
    [ASSAY_TM_LM_LOSS] = {"lm_loss", "nats", ASSAY_DIR_LOWER},
    [ASSAY_TM_GRAD_NORM] = {"grad_norm", "1", ASSAY_DIR_LOWER},
    [ASSAY_TM_LR] = {"learning_rate", "1", ASSAY_DIR_LOWER},
    [ASSAY_TM_LOSS_SCALE] = {"loss_scale", "1", ASSAY_DIR_HIGHER},
    [ASSAY_TM_MEM_RATIO] = {"mem_usage_ratio", "ratio", ASSAY_DIR_LOWER},
    [ASSAY_TM_MEM_GB] = {"mem_used_gb", "GB", ASSAY_DIR_LOWER},
    [ASSAY_TM_ROCM_RATIO] = {"rocm_mem_usage_ratio", "ratio", ASSAY_DIR_LOWER},
    [ASSAY_TM_ROCM_GB] = {"rocm_mem_used_gb", "GB", ASSAY_DIR_LOWER},
};

const char *assay_train_metric_name(enum assay_train_metric m)
{
	return (unsigned)m < ASSAY_TM_COUNT ? metric_info[m].name : "unknown";
}

const char *assay_train_metric_unit(enum assay_train_metric m)
{
	return (unsigned)m < ASSAY_TM_COUNT ? metric_info[m].unit : "1";
}

enum assay_direction assay_train_metric_direction(enum assay_train_metric m)
{
	return (unsigned)m < ASSAY_TM_COUNT ? metric_info[m].dir : ASSAY_DIR_NONE;
}

/* ---- rows ---- */

static void add_row(struct assay_rows *out, const char *metric, const char *statistic, double v,
		    const char *unit, enum assay_direction dir, size_t samples)
{
	struct assay_row *row = assay_rows_add(out);
	assay_row_init(row);
	assay_row_set(row, json_object(), metric, statistic, v, unit, dir);
	row->samples = (int64_t)samples;
}

static void add_metric_row(struct assay_rows *out, enum assay_train_metric m, const char *statistic,
			   double v, size_t samples)
{
	add_row(out, metric_info[m].name, statistic, v, metric_info[m].unit, metric_info[m].dir,
		samples);
}

static void ckpt_rows(const struct assay_train_result *r, enum assay_ckpt_op op,
		      struct assay_rows *out)
{
	double max = 0, sum = 0;
	size_t n = 0;
	for (size_t i = 0; i < r->n_ckpts; i++)
		if (r->ckpts[i].op == op && isfinite(r->ckpts[i].ms)) {
			if (!n || r->ckpts[i].ms > max)
				max = r->ckpts[i].ms;
			sum += r->ckpts[i].ms;
			n++;
		}
	if (!n)
		return;
	const char *name = op == ASSAY_CKPT_SAVE ? "checkpoint_save_ms" : "checkpoint_load_ms";
	add_row(out, name, "max", max, "ms", ASSAY_DIR_LOWER, n);
	add_row(out, name, "mean", sum / (double)n, "ms", ASSAY_DIR_LOWER, n);
}

static void count_rows(const struct assay_train_result *r, struct assay_rows *out)
{
	if (r->skipped_lines)
		add_row(out, "skipped_iterations", "total", (double)r->skipped_total, "iterations",
			ASSAY_DIR_LOWER, r->skipped_lines);
	if (r->nan_lines)
		add_row(out, "nan_iterations", "total", (double)r->nan_iters_total, "iterations",
			ASSAY_DIR_LOWER, r->nan_lines);
}

assay_err assay_train_rows(const struct assay_train_result *r, const struct assay_parse_opts *o,
			   struct assay_rows *out, struct assay_error *e)
{
	size_t from = out->n;
	static const enum assay_train_metric perf[] = {ASSAY_TM_ELAPSED_MS, ASSAY_TM_TFLOPS,
						       ASSAY_TM_TOKENS};
	for (size_t i = 0; i < ARRAY_SIZE(perf); i++) {
		double mean, median, avg;
		size_t n = assay_train_steady(r, perf[i], &mean, &median);
		if (n) {
			add_metric_row(out, perf[i], "steady_mean", mean, n);
			add_metric_row(out, perf[i], "steady_median", median, n);
		}
		if (assay_train_running_avg(r, perf[i], &avg))
			add_metric_row(out, perf[i], "running_avg", avg, 1);
	}
	double v;
	if (assay_train_last(r, ASSAY_TM_LM_LOSS, &v, NULL))
		add_metric_row(out, ASSAY_TM_LM_LOSS, "last", v, 1);
	for (size_t i = r->n_evals; i-- > 0;)
		if (isfinite(r->evals[i].loss)) {
			add_row(out, "eval_lm_loss", "last", r->evals[i].loss, "nats",
				ASSAY_DIR_LOWER, 1);
			break;
		}
	static const enum assay_train_metric mem[] = {ASSAY_TM_MEM_RATIO, ASSAY_TM_MEM_GB,
						      ASSAY_TM_ROCM_RATIO, ASSAY_TM_ROCM_GB};
	for (size_t i = 0; i < ARRAY_SIZE(mem); i++)
		if (r->agg_n[mem[i]])
			add_metric_row(out, mem[i], "max", r->agg_max[mem[i]], r->agg_n[mem[i]]);
	if (!isnan(r->mem_max_allocated_mb))
		add_row(out, "mem_max_allocated_mb", "max", r->mem_max_allocated_mb, "MB",
			ASSAY_DIR_LOWER, r->n_mem_lines ? r->n_mem_lines : 1);
	if (!isnan(r->mem_max_reserved_mb))
		add_row(out, "mem_max_reserved_mb", "max", r->mem_max_reserved_mb, "MB",
			ASSAY_DIR_LOWER, r->n_mem_lines ? r->n_mem_lines : 1);
	ckpt_rows(r, ASSAY_CKPT_SAVE, out);
	ckpt_rows(r, ASSAY_CKPT_LOAD, out);
	count_rows(r, out);
	/* Summary lines count among the log's last lines only, as CVS reads
	 * them (train_cvs.c). */
	for (int m = 0; m < ASSAY_TM_COUNT; m++) {
		if ((r->summary_has & (1u << m)) && r->summary_line[m] > 0 &&
		    r->summary_line[m] > r->n_lines - ASSAY_CVS_TAIL_LINES)
			add_metric_row(out, m, "summary", r->summary[m], 1);
	}
	assay_err rc = assay_parse_stamp(out, from, o, e);
	if (rc != ASSAY_OK) {
		for (size_t i = from; i < out->n; i++)
			assay_row_release(&out->v[i]);
		out->n = from;
	}
	return rc;
}

assay_err train_table_parse(const char *format, const char *data, size_t len,
			    const struct assay_parse_opts *o, struct assay_rows *out,
			    struct assay_error *e)
{
	struct assay_train_result r;
	assay_err rc = assay_train_parse(format, data, len, NULL, o->file, &r, e);
	if (rc == ASSAY_OK)
		rc = assay_train_rows(&r, o, out, e);
	assay_train_result_release(&r);
	return rc;
}

/* ---- per-step JSON ---- */

static json_t *number(double v)
{
	if (isnan(v))
		return json_string("nan");
	if (isinf(v))
		return json_string(v > 0 ? "inf" : "-inf");
	return json_real(v);
}

json_t *assay_train_step_to_json(const struct assay_train_step *s)
{
	json_t *o = json_object();
	json_object_set_new(o, "step", json_integer(s->step));
	json_object_set_new(o, "total", s->total >= 0 ? json_integer(s->total) : json_null());
	if (s->line > 0)
		json_object_set_new(o, "line", json_integer(s->line));
	json_object_set_new(o, "warmup", json_boolean(s->warmup));
	if (s->consumed_samples >= 0)
		json_object_set_new(o, "consumed_samples", json_integer(s->consumed_samples));
	if (s->gbs >= 0)
		json_object_set_new(o, "global_batch_size", json_integer(s->gbs));
	if (s->skipped >= 0)
		json_object_set_new(o, "skipped_iterations", json_integer(s->skipped));
	if (s->nan_iters >= 0)
		json_object_set_new(o, "nan_iterations", json_integer(s->nan_iters));
	json_t *derived = json_array();
	for (int m = 0; m < ASSAY_TM_COUNT; m++) {
		if (!(s->has & (1u << m)))
			continue;
		json_object_set_new(o, metric_info[m].name, number(s->v[m]));
		if (m < ASSAY_TM_AVG_COUNT && (s->has_avg & (1u << m))) {
			char key[64];
			snprintf(key, sizeof(key), "%s_avg", metric_info[m].name);
			json_object_set_new(o, key, number(s->avg[m]));
		}
		if (s->derived & (1u << m))
			json_array_append_new(derived, json_string(metric_info[m].name));
	}
	if (json_array_size(derived))
		json_object_set_new(o, "derived", derived);
	else
		json_decref(derived);
	return o;
}
