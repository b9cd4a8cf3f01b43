/* Format "rccl-ci": the JSONL performance history RCCL CI keeps, one run
 * per line: run_id, timestamp, commit, workload, scale, precision, cluster,
 * status and the numbers tflops_per_gpu, tokens_per_sec_per_gpu and
 * metric_value (each null or absent when not measured). Lines whose status
 * is not a pass are not measurements and are skipped. */
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
};

const char *const assay_rccl_ci_metrics[] = {"tflops_per_gpu/value", "tokens_per_sec_per_gpu/value",
					     "metric_value/value", NULL};

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

/* One line; adds 0 or more rows to tmp. -1 on error (e filled, no line yet). */
/* $.timestamp (RFC 3339 or Unix seconds) into ts, empty when absent. */
static int line_time(struct assay_cfg *c, const json_t *o, char ts[32])
{
	const json_t *t = json_object_get(o, "timestamp");
	int64_t secs;
	if (json_is_integer(t) || json_is_real(t)) {
		double d = json_number_value(t);
		if (!(d >= 0 && d < 253402300800.0))
			return assay_cfg_expected(c, "$.timestamp",
						  "an RFC 3339 time or Unix seconds", t);
		assay_time_rfc3339((int64_t)d, ts);
	} else if (t && !json_is_null(t)) {
		if (!json_is_string(t) || !assay_time_parse(json_string_value(t), &secs))
			return assay_cfg_expected(c, "$.timestamp",
						  "an RFC 3339 time or Unix seconds", t);
		assay_time_rfc3339(secs, ts);
	}
	return 0;
}

/* The line's series: workload, and cluster, precision and scale when given
 * (in the shared vocabulary). NULL on an error. */
static json_t *line_series(struct assay_cfg *c, const json_t *o, const char *workload)
{
	char buf[256];
	const char *s = NULL;
	json_t *series = json_object();
	json_object_set_new(series, "workload", json_string(workload));
	if (assay_cfg_string(c, o, "$", "cluster", ASSAY_CFG_OPTIONAL, &s) < 0)
		goto fail;
	if (s)
		json_object_set_new(series, "cluster", json_string(s));
	s = NULL;
	if (assay_cfg_string(c, o, "$", "precision", ASSAY_CFG_OPTIONAL, &s) < 0)
		goto fail;
	if (s) {
		peer_precision(s, buf, sizeof(buf));
		json_object_set_new(series, "precision", json_string(buf));
	}
	s = NULL;
	if (assay_cfg_string(c, o, "$", "scale", ASSAY_CFG_OPTIONAL, &s) < 0)
		goto fail;
	if (s) {
		if (!peer_scale(s, buf, sizeof(buf))) {
			assay_cfg_expected(c, "$.scale", "NODESxGPUS such as 2x8",
					   json_object_get(o, "scale"));
			goto fail;
		}
		json_object_set_new(series, "scale", json_string(buf));
	}
	return series;
fail:
	json_decref(series);
	return NULL;
}

static int parse_line(const json_t *o, struct assay_cfg *c, struct assay_rows *tmp)
{
	char run_id[128] = "", ts[32] = "";
	const char *workload, *commit = NULL, *status = NULL;
	if (!json_is_object(o))
		return assay_cfg_expected(c, "$", "an object", o);
	if (assay_cfg_string(c, o, "$", "workload", ASSAY_CFG_REQUIRED, &workload) < 0 ||
	    assay_cfg_string(c, o, "$", "status", ASSAY_CFG_OPTIONAL, &status) < 0 ||
	    assay_cfg_string(c, o, "$", "commit", ASSAY_CFG_OPTIONAL, &commit) < 0 ||
	    id_text(c, o, "run_id", run_id, sizeof(run_id)) < 0 || line_time(c, o, ts) < 0)
		return -1;
	json_t *series = line_series(c, o, workload);
	if (!series)
		return -1;
	double values[ARRAY_SIZE(rccl_metrics)];
	bool have[ARRAY_SIZE(rccl_metrics)], any = false;
	for (size_t i = 0; i < ARRAY_SIZE(rccl_metrics); i++) {
		const json_t *v = json_object_get(o, rccl_metrics[i].key);
		have[i] = false;
		if (!v || json_is_null(v))
			continue;
		if (assay_cfg_number(c, o, "$", rccl_metrics[i].key, ASSAY_CFG_REQUIRED, -INFINITY,
				     INFINITY, &values[i]) < 0)
			goto fail;
		have[i] = any = true;
	}
	if (status && !passed(status)) {
		json_decref(series);
		return 0;
	}
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
	while ((got = assay_ndjson_next(data, len, &pos, &line, o->file, &obj, e)) == 1) {
		int rc = parse_line(obj, &c, &tmp);
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
