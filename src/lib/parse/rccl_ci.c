/* Format "rccl-ci": the JSONL performance history RCCL CI keeps
 * (projects/rccl/ci/scripts/test_madengine.py in ROCm/rocm-systems,
 * append_result: f1ac276 and 009e1cb), one record per line: run_id,
 * timestamp (Python's isoformat, microseconds kept), commit, workload,
 * scale, precision, the numbers tflops_per_gpu, tokens_per_sec_per_gpu and
 * metric_value, status, and extras: cluster, overlay_image, and since
 * 009e1cb nodelist, slurm_job_id, image, phase ("baseline" or "candidate")
 * and, on a candidate, ratio (candidate / baseline). A record whose status
 * is not a pass holds no measurement (a night without metrics writes
 * "precision": null and null numbers): it is skipped and counted, whatever
 * its other fields hold. A null or empty field is an absent one. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "assay/cfg.h"
#include "assay/json.h"
#include "peer.h"

static const struct {
	const char *key, *unit;
} rccl_metrics[] = {
    {"tflops_per_gpu", "TFLOP/s/GPU"},
    {"tokens_per_sec_per_gpu", "tokens/s/GPU"},
    {"metric_value", "value"},
    {"ratio", "ratio"}, /* 009e1cb: candidate / baseline, on the candidate */
};

const char *const assay_rccl_ci_metrics[] = {"tflops_per_gpu/value", "tokens_per_sec_per_gpu/value",
					     "metric_value/value", "ratio/value", NULL};

static bool passed(const char *status)
{
	static const char *const ok[] = {"pass",      "passed", "success",
					 "succeeded", "ok",     "completed"};
	for (size_t i = 0; i < ARRAY_SIZE(ok); i++)
		if (!strcasecmp(status, ok[i]))
			return true;
	return false;
}

/* A string or integer member as text (run ids are either); 0 absent, -1 bad. */
static int id_text(struct assay_cfg *c, const json_t *o, const char *k, char *buf, size_t size)
{
	const json_t *v = json_object_get(o, k);
	if (!v || json_is_null(v))
		return 0;
	if (json_is_integer(v)) {
		snprintf(buf, size, "%lld", (long long)json_integer_value(v));
		return 1;
	}
	const char *s;
	if (assay_cfg_string(c, o, "$", k, ASSAY_CFG_REQUIRED, &s) < 0)
		return -1;
	snprintf(buf, size, "%s", s);
	return 1;
}

/* $.timestamp (RFC 3339, its fraction of a second kept, or Unix seconds)
 * into ts, empty when absent. */
static int line_time(struct assay_cfg *c, const json_t *o, char ts[32])
{
	const json_t *t = json_object_get(o, "timestamp");
	if (json_is_integer(t) || json_is_real(t)) {
		double d = json_number_value(t);
		if (!(d >= 0 && d < 253402300800.0))
			return assay_cfg_expected(c, "$.timestamp",
						  "an RFC 3339 time or Unix seconds", t);
		assay_time_rfc3339((int64_t)d, ts);
	} else if (t && !json_is_null(t)) {
		if (!json_is_string(t) || !assay_time_canonical(json_string_value(t), ts))
			return assay_cfg_expected(c, "$.timestamp",
						  "an RFC 3339 time or Unix seconds", t);
	}
	return 0;
}

/* A string member, NULL when absent, null or empty; -1 when not a string. */
static int opt_text(struct assay_cfg *c, const json_t *o, const char *k, const char **out)
{
	const json_t *v = json_object_get(o, k);
	*out = NULL;
	if (!v || json_is_null(v))
		return 0;
	if (assay_cfg_string(c, o, "$", k, ASSAY_CFG_REQUIRED, out) < 0)
		return -1;
	if (!**out)
		*out = NULL;
	return 0;
}

/* The line's series: workload, and cluster, precision, scale and the A/B
 * phase when given (precision and scale in the shared vocabulary). NULL on
 * an error. */
static json_t *line_series(struct assay_cfg *c, const json_t *o, const char *workload)
{
	static const char *const keys[] = {"cluster", "precision", "scale", "phase"};
	char buf[256];
	json_t *series = json_object();
	json_object_set_new(series, "workload", json_string(workload));
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
		const char *s;
		if (opt_text(c, o, keys[i], &s) < 0)
			goto fail;
		if (!s)
			continue;
		if (i == 1) {
			peer_precision(s, buf, sizeof(buf));
			s = buf;
		} else if (i == 2 && !peer_scale(s, buf, sizeof(buf))) {
			assay_cfg_expected(c, "$.scale", "NODESxGPUS such as 2x8",
					   json_object_get(o, "scale"));
			goto fail;
		} else if (i == 2) {
			s = buf;
		}
		json_object_set_new(series, keys[i], json_string(s));
	}
	return series;
fail:
	json_decref(series);
	return NULL;
}

/* Whether the record holds a measurement: no status (older files), or a
 * passing one. -1 when status is not a string or null. */
static int measured(struct assay_cfg *c, const json_t *o)
{
	const json_t *v = json_object_get(o, "status");
	const char *status;
	if (!v)
		return 1;
	if (json_is_null(v))
		return 0;
	if (assay_cfg_string(c, o, "$", "status", ASSAY_CFG_REQUIRED, &status) < 0)
		return -1;
	return passed(status);
}

/* The record's numbers into values/have; -1 on a bad one, else how many. */
static int line_values(struct assay_cfg *c, const json_t *o, double values[], bool have[])
{
	int n = 0;
	for (size_t i = 0; i < ARRAY_SIZE(rccl_metrics); i++) {
		const json_t *v = json_object_get(o, rccl_metrics[i].key);
		have[i] = false;
		if (!v || json_is_null(v))
			continue;
		if (assay_cfg_number(c, o, "$", rccl_metrics[i].key, ASSAY_CFG_REQUIRED, -INFINITY,
				     INFINITY, &values[i]) < 0)
			return -1;
		have[i] = true;
		n++;
	}
	return n;
}

/* One line; adds 0 or more rows to tmp (0: a fail record, counted in
 * *skipped). -1 on error (e filled, no line yet). */
static int parse_line(const json_t *o, struct assay_cfg *c, struct assay_rows *tmp, size_t *skipped)
{
	char run_id[128] = "", ts[32] = "";
	const char *workload, *commit = NULL;
	if (!json_is_object(o))
		return assay_cfg_expected(c, "$", "an object", o);
	int m = measured(c, o);
	if (m <= 0) {
		*skipped += m == 0;
		return m;
	}
	if (assay_cfg_string(c, o, "$", "workload", ASSAY_CFG_REQUIRED, &workload) < 0 ||
	    opt_text(c, o, "commit", &commit) < 0 ||
	    id_text(c, o, "run_id", run_id, sizeof(run_id)) < 0 || line_time(c, o, ts) < 0)
		return -1;
	json_t *series = line_series(c, o, workload);
	if (!series)
		return -1;
	double values[ARRAY_SIZE(rccl_metrics)];
	bool have[ARRAY_SIZE(rccl_metrics)];
	int any = line_values(c, o, values, have);
	if (any < 0)
		goto fail;
	if (!any) {
		assay_cfg_fail(c, "$",
			       "a passing run with none of tflops_per_gpu, "
			       "tokens_per_sec_per_gpu, metric_value");
		goto fail;
	}
	int added = 0;
	for (size_t i = 0; i < ARRAY_SIZE(rccl_metrics); i++) {
		if (!have[i])
			continue;
		struct assay_row *r = assay_rows_add(tmp);
		assay_row_set(r, json_deep_copy(series), rccl_metrics[i].key, "value", values[i],
			      rccl_metrics[i].unit, ASSAY_DIR_HIGHER);
		r->run_id = run_id[0] ? xstrdup(run_id) : NULL;
		r->revision = commit ? xstrdup(commit) : NULL;
		r->timestamp = ts[0] ? xstrdup(ts) : NULL;
		added++;
	}
	json_decref(series);
	return added;
fail:
	json_decref(series);
	return -1;
}

assay_err assay_parse_rccl_ci(const char *data, size_t len, const struct assay_parse_opts *o,
			      struct assay_rows *out, struct assay_error *e)
{
	struct assay_rows tmp = ASSAY_ROWS_INIT;
	struct assay_cfg c = {o->file, e};
	long line = 0;
	size_t pos = 0;
	json_t *obj;
	int got;
	size_t skipped = 0;
	while ((got = assay_ndjson_next(data, len, &pos, &line, o->file, &obj, e)) == 1) {
		int rc = parse_line(obj, &c, &tmp, &skipped);
		json_decref(obj);
		if (rc < 0) {
			if (e)
				e->line = line;
			got = -1;
			break;
		}
	}
	if (got < 0) {
		assay_rows_release(&tmp);
		return ASSAY_USAGE;
	}
	if (o->not_measured)
		*o->not_measured += skipped;
	return peer_finish(&tmp, o, out, e);
}

bool assay_detect_rccl_ci(const char *data, size_t len)
{
	const char *nl = memchr(data, '\n', len);
	size_t n = nl ? (size_t)(nl - data) : len;
	return n && data[0] == '{' && memmem(data, n, "\"workload\"", 10) &&
	       (memmem(data, n, "\"tokens_per_sec_per_gpu\"", 24) ||
		memmem(data, n, "\"tflops_per_gpu\"", 16) ||
		memmem(data, n, "\"metric_value\"", 14));
}
