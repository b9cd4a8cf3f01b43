/* The training-run API over the three training formats: dispatch and
 * detection, the outcome (complete, NaN/Inf, no metrics), steady-state
 * statistics, measurement rows and the per-step JSON (docs/training.md). */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/stats.h"
#include "train_scan.h"

const char *const assay_train_formats[] = {"megatron", "primus", "megatron-golden", NULL};

bool assay_train_format_known(const char *name)
{
	for (size_t i = 0; assay_train_formats[i]; i++)
		if (!strcmp(assay_train_formats[i], name))
			return true;
	return false;
}

const char *assay_train_detect(const char *data, size_t len)
{
	if (assay_detect_megatron_golden(data, len))
		return "megatron-golden";
	if (assay_detect_primus(data, len))
		return "primus";
	if (assay_detect_megatron(data, len))
		return "megatron";
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

assay_err assay_train_parse(const char *format, const char *data, size_t len,
			    const struct assay_train_opts *o, const char *file,
			    struct assay_train_result *r, struct assay_error *e)
{
	struct assay_train_opts defaults;
	if (!o) {
		assay_train_opts_init(&defaults);
		o = &defaults;
	}
	if (!strcmp(format, "auto")) {
		format = assay_train_detect(data, len);
		if (!format) {
			train_result_init(r, "unknown");
			return assay_error_at(e, ASSAY_USAGE, file, NULL, 0,
					      "cannot tell the format: not a Megatron-LM or Primus "
					      "log, nor a golden-values file (use --format)");
		}
	}
	const struct train_dialect *d = NULL;
	if (!strcmp(format, "megatron"))
		d = &train_megatron;
	else if (!strcmp(format, "primus"))
		d = &train_primus;
	else if (strcmp(format, "megatron-golden")) {
		train_result_init(r, "unknown");
		return assay_error_at(e, ASSAY_USAGE, file, NULL, 0,
				      "unknown training format \"%s\" (expected megatron, primus, "
				      "megatron-golden or auto)",
				      format);
	}
	train_result_init(r, d ? d->name : "megatron-golden");
	long long log_world = 0;
	if (d) {
		log_world = train_scan(d, data, len, r);
	} else {
		assay_err rc = train_golden(data, len, file, r, e);
		if (rc != ASSAY_OK) {
			assay_train_result_release(r);
			train_result_init(r, "megatron-golden");
			return rc;
		}
	}
	train_finish(r, o, log_world);
	return ASSAY_OK;
}

void assay_train_result_release(struct assay_train_result *r)
{
	free(r->steps);
	free(r->ckpts);
	free(r->evals);
	train_result_init(r, r->format);
}

bool assay_train_incomplete(const struct assay_train_result *r)
{
	return !r->complete_iteration && !r->complete_marker;
}

assay_err assay_train_outcome(const struct assay_train_result *r)
{
	assay_err rc = ASSAY_OK;
	if (!r->n_steps)
		rc = assay_err_worst(rc, ASSAY_NO_METRICS);
	if (assay_train_incomplete(r) || r->n_nonfinite)
		rc = assay_err_worst(rc, ASSAY_WORKLOAD_FAILED);
	return rc;
}

const char *assay_train_outcome_text(const struct assay_train_result *r, char *buf, size_t size)
{
	struct sbuf sb = SBUF_INIT;
	if (assay_train_incomplete(r)) {
		if (r->n_steps) {
			const struct assay_train_step *last = &r->steps[r->n_steps - 1];
			sbuf_addf(&sb, "incomplete run: the last step is %lld", last->step);
			if (last->total > 0)
				sbuf_addf(&sb, " of %lld", last->total);
			sbuf_adds(&sb,
				  ", with no final \"iteration N/N\" line and no torchrun marker");
		} else {
			sbuf_adds(&sb,
				  "incomplete run: no iteration line and no completion marker");
		}
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
	if (!r->n_steps && !assay_train_incomplete(r))
		sbuf_adds(&sb, "no metrics: the log has no iteration line");
	snprintf(buf, size, "%s", sbuf_str(&sb));
	sbuf_release(&sb);
	return buf;
}

/* ---- statistics ---- */

size_t assay_train_steady_count(const struct assay_train_result *r)
{
	return r->n_steps - r->warmup;
}

size_t assay_train_steady(const struct assay_train_result *r, enum assay_train_metric m,
			  double *mean, double *median)
{
	size_t n = 0;
	long double sum = 0; /* extended precision: 8 x 360.025 sums to 2880.2 */
	double *v = xmalloc((assay_train_steady_count(r) + 1) * sizeof(*v));
	for (size_t i = r->warmup; i < r->n_steps; i++) {
		const struct assay_train_step *s = &r->steps[i];
		if ((s->has & (1u << m)) && isfinite(s->v[m])) {
			v[n++] = s->v[m];
			sum += s->v[m];
		}
	}
	if (n) {
		*mean = (double)(sum / (long double)n);
		*median = assay_median(v, n);
	}
	free(v);
	return n;
}

bool assay_train_running_avg(const struct assay_train_result *r, enum assay_train_metric m,
			     double *out)
{
	if ((int)m >= ASSAY_TM_AVG_COUNT)
		return false;
	for (size_t i = r->n_steps; i-- > 0;)
		if ((r->steps[i].has_avg & (1u << m)) && isfinite(r->steps[i].avg[m])) {
			*out = r->steps[i].avg[m];
			return true;
		}
	return false;
}

bool assay_train_last(const struct assay_train_result *r, enum assay_train_metric m, double *out,
		      long long *step)
{
	for (size_t i = r->n_steps; i-- > 0;)
		if ((r->steps[i].has & (1u << m)) && isfinite(r->steps[i].v[m])) {
			*out = r->steps[i].v[m];
			if (step)
				*step = r->steps[i].step;
			return true;
		}
	return false;
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
	long long skipped = 0, nans = 0;
	size_t ns = 0, nn = 0;
	for (size_t i = 0; i < r->n_steps; i++) {
		if (r->steps[i].skipped >= 0) {
			skipped += r->steps[i].skipped;
			ns++;
		}
		if (r->steps[i].nan_iters >= 0) {
			nans += r->steps[i].nan_iters;
			nn++;
		}
	}
	if (ns)
		add_row(out, "skipped_iterations", "total", (double)skipped, "iterations",
			ASSAY_DIR_LOWER, ns);
	if (nn)
		add_row(out, "nan_iterations", "total", (double)nans, "iterations", ASSAY_DIR_LOWER,
			nn);
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
	for (size_t i = 0; i < ARRAY_SIZE(mem); i++) {
		size_t n = 0;
		double max = 0;
		for (size_t j = 0; j < r->n_steps; j++) {
			const struct assay_train_step *s = &r->steps[j];
			if ((s->has & (1u << mem[i])) && isfinite(s->v[mem[i]])) {
				if (!n || s->v[mem[i]] > max)
					max = s->v[mem[i]];
				n++;
			}
		}
		if (n)
			add_metric_row(out, mem[i], "max", max, n);
	}
	if (!isnan(r->mem_max_allocated_mb))
		add_row(out, "mem_max_allocated_mb", "max", r->mem_max_allocated_mb, "MB",
			ASSAY_DIR_LOWER, r->n_mem_lines ? r->n_mem_lines : 1);
	if (!isnan(r->mem_max_reserved_mb))
		add_row(out, "mem_max_reserved_mb", "max", r->mem_max_reserved_mb, "MB",
			ASSAY_DIR_LOWER, r->n_mem_lines ? r->n_mem_lines : 1);
	ckpt_rows(r, ASSAY_CKPT_SAVE, out);
	ckpt_rows(r, ASSAY_CKPT_LOAD, out);
	count_rows(r, out);
	for (int m = 0; m < ASSAY_TM_COUNT; m++)
		if (r->summary_has & (1u << m))
			add_metric_row(out, m, "summary", r->summary[m], 1);
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
