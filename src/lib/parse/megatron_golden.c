/* Format "megatron-golden": the golden-values JSON of Megatron-LM's
 * functional tests, {"lm loss": {"start_step", "end_step", "step_interval",
 * "values": {"1": 10.93, ...}}, "iteration-time": ..., ...}, where "nan"
 * marks a step the run did not record. Read strictly into a training result. */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "assay/cfg.h"
#include "assay/json.h"
#include "train_scan.h"

bool assay_detect_megatron_golden(const char *data, size_t len)
{
	size_t n = len < 4096 ? len : 4096, i = 0;
	while (i < n && (data[i] == ' ' || data[i] == '\n' || data[i] == '\r' || data[i] == '\t'))
		i++;
	return i < n && data[i] == '{' && memmem(data, n, "\"values\"", 8) &&
	       (memmem(data, n, "\"start_step\"", 12) || memmem(data, n, "\"end_step\"", 10));
}

/* Golden metrics read into steps: name, per-step metric (-1: the memory
 * maximum), scale to the step's unit. */
static const struct {
	const char *name;
	int metric;
	double scale;
} known[] = {
    {"lm loss", ASSAY_TM_LM_LOSS, 1.0},
    {"iteration-time", ASSAY_TM_ELAPSED_MS, 1000.0},  /* seconds */
    {"mem-max-allocated-bytes", -1, 1.0 / 1048576.0}, /* bytes -> MB */
};

/* Golden files have no counts, averages, summaries or checkpoints. */
const char *const assay_megatron_golden_metrics[] = {
    "lm_loss/last", "elapsed_ms_per_iter/steady_mean", "elapsed_ms_per_iter/steady_median",
    "mem_max_allocated_mb/max", NULL};

struct point {
	long long step;
	int metric;
	double value;
};

static int cmp_point(const void *a, const void *b)
{
	const struct point *x = a, *y = b;
	return x->step < y->step ? -1 : x->step > y->step;
}

/* Check one metric object and append its recorded values to pts. */
static int read_metric(struct assay_cfg *c, const json_t *obj, const char *path, int metric,
		       double scale, struct point **pts, size_t *n, size_t *alloc)
{
	static const char *const keys[] = {"start_step", "end_step", "step_interval", "values",
					   NULL};
	long long ignored;
	json_t *values;
	if (assay_cfg_object(c, obj, path, keys) < 0 ||
	    assay_cfg_int(c, obj, path, "start_step", ASSAY_CFG_OPTIONAL, 0, LLONG_MAX, &ignored) <
		0 ||
	    assay_cfg_int(c, obj, path, "end_step", ASSAY_CFG_OPTIONAL, 0, LLONG_MAX, &ignored) <
		0 ||
	    assay_cfg_int(c, obj, path, "step_interval", ASSAY_CFG_OPTIONAL, 1, LLONG_MAX,
			  &ignored) < 0 ||
	    assay_cfg_member(c, obj, path, "values", ASSAY_CFG_REQUIRED, JSON_OBJECT, &values) < 0)
		return -1;
	char vpath[256];
	assay_json_path_key(vpath, sizeof(vpath), path, "values");
	const char *k;
	json_t *v;
	json_object_foreach(values, k, v)
	{
		char kp[256];
		long long step;
		assay_json_path_key(kp, sizeof(kp), vpath, k);
		if (!assay_parse_long(k, &step) || step < 0)
			return assay_cfg_fail(c, kp,
					      "expected a step number as the key, got \"%s\"", k);
		if (json_is_string(v) && !strcmp(json_string_value(v), "nan"))
			continue;
		if (!json_is_number(v))
			return assay_cfg_expected(c, kp, "a number or \"nan\"", v);
		if (metric == -2)
			continue;
		double x = json_number_value(v) * scale;
		if (scale == 1000.0) /* seconds to ms without binary noise: 0.05519 s -> 55.19 ms */
			x = round(json_number_value(v) * 1e9) / 1e6;
		ALLOC_GROW(*pts, *n + 1, *alloc);
		(*pts)[(*n)++] = (struct point){step, metric, x};
	}
	return 0;
}

assay_err train_golden(const char *data, size_t len, const char *file, struct assay_train_result *r,
		       struct assay_error *e)
{
	json_t *doc = assay_json_loadb(data, len, file, e);
	if (!doc)
		return ASSAY_USAGE;
	struct assay_cfg c = {file, e};
	struct point *pts = NULL;
	size_t n = 0, alloc = 0;
	int rc = 0;
	if (!json_is_object(doc))
		rc = assay_cfg_expected(&c, "$", "an object of golden metrics", doc);
	const char *k;
	json_t *v;
	if (!rc)
		json_object_foreach(doc, k, v)
		{
			char path[256];
			int metric = -2;
			double scale = 1.0;
			for (size_t i = 0; i < ARRAY_SIZE(known); i++)
				if (!strcmp(known[i].name, k)) {
					metric = known[i].metric;
					scale = known[i].scale;
				}
			assay_json_path_key(path, sizeof(path), "$", k);
			if ((rc = read_metric(&c, v, path, metric, scale, &pts, &n, &alloc)) < 0)
				break;
		}
	json_decref(doc);
	if (rc < 0) {
		free(pts);
		return ASSAY_USAGE;
	}
	if (n)
		qsort(pts, n, sizeof(*pts), cmp_point);
	struct assay_train_step st;
	bool open = false;
	for (size_t i = 0; i < n; i++) {
		const struct point *p = &pts[i];
		if (p->metric < 0) {
			if (isnan(r->mem_max_allocated_mb) || p->value > r->mem_max_allocated_mb)
				r->mem_max_allocated_mb = p->value;
			continue;
		}
		if (!open || st.step != p->step) {
			if (open)
				train_push_step(r, &st);
			train_step_init(&st);
			st.step = p->step;
			open = true;
		}
		st.v[p->metric] = p->value;
		st.has |= 1u << p->metric;
	}
	if (open)
		train_push_step(r, &st);
	free(pts);
	/* A golden file records a finished run. */
	r->complete_iteration = r->n_steps > 0;
	return ASSAY_OK;
}

assay_err assay_parse_megatron_golden(const char *data, size_t len,
				      const struct assay_parse_opts *o, struct assay_rows *out,
				      struct assay_error *e)
{
	return train_table_parse("megatron-golden", data, len, o, out, e);
}
