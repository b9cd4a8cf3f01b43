/* madengine records as measurement rows: model -> workload, performance and
 * metric -> value, metric name and unit; training_precision, nnodes x
 * gpus_per_node (or n_gpus), gpu_architecture, args, dataname and any extra
 * multiple_results columns -> series fields; git_commit -> revision. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "assay/json.h"
#include "madengine.h"
#include "peer.h"

const char *const madengine_columns[] = {
    "model",
    "n_gpus",
    "nnodes",
    "gpus_per_node",
    "training_precision",
    "pipeline",
    "args",
    "tags",
    "docker_file",
    "base_docker",
    "docker_sha",
    "docker_image",
    "git_commit",
    "machine_name",
    "deployment_type",
    "launcher",
    "gpu_architecture",
    "performance",
    "metric",
    "relative_change",
    "status",
    "build_duration",
    "test_duration",
    "dataname",
    "data_provider_type",
    "data_size",
    "data_download_duration",
    "build_number",
    "additional_docker_run_options",
    NULL,
};

bool madengine_is_column(const char *name)
{
	for (int i = 0; madengine_columns[i]; i++)
		if (!strcmp(madengine_columns[i], name))
			return true;
	return false;
}

/* Text of a field: strings as is, numbers printed, anything else "". */
static void text(const json_t *rec, const char *k, char *buf, size_t size)
{
	const json_t *v = json_object_get(rec, k);
	buf[0] = '\0';
	if (json_is_string(v)) {
		snprintf(buf, size, "%s", json_string_value(v));
	} else if (json_is_integer(v)) {
		snprintf(buf, size, "%lld", (long long)json_integer_value(v));
	} else if (json_is_real(v)) {
		json_t *s = peer_scalar(v);
		if (json_is_integer(s))
			snprintf(buf, size, "%lld", (long long)json_integer_value(s));
		else if (s)
			snprintf(buf, size, "%.17g", json_real_value(v));
		json_decref(s);
	}
	char *p = buf;
	while (*p == ' ')
		p++;
	memmove(buf, p, strlen(p) + 1);
	size_t n = strlen(buf);
	while (n && (buf[n - 1] == ' ' || buf[n - 1] == '\r'))
		buf[--n] = '\0';
}

/* Positive integer field, 0 when absent or not positive. */
static long positive(const json_t *rec, const char *k)
{
	char buf[64];
	long long v;
	text(rec, k, buf, sizeof(buf));
	return assay_parse_long(buf, &v) && v > 0 && v < 1000000 ? (long)v : 0;
}

static void set_str(json_t *series, const char *k, const char *v)
{
	if (v && *v)
		json_object_set_new(series, k, json_string(v));
}

/* The performance value: a number, or a string that reads as one. -1 with
 * a message when it is neither, else whether there is a finite value. */
static int record_value(const json_t *rec, const char *perf, double *value, char *why,
			size_t why_size, const char **bad_field)
{
	const json_t *pv = json_object_get(rec, "performance");
	bool bad = false, have = false;
	if (json_is_number(pv)) {
		*value = json_number_value(pv);
		have = isfinite(*value);
	} else if (!pv || json_is_null(pv) || json_is_string(pv)) {
		have = peer_number(perf, value, &bad);
	} else {
		bad = true;
	}
	if (bad) {
		char brief[80];
		*bad_field = "performance";
		if (json_is_string(pv) || !pv)
			snprintf(why, why_size, "expected a number, got \"%.60s\"", perf);
		else
			snprintf(why, why_size, "expected a number, got %s",
				 assay_json_brief(pv, brief, sizeof(brief)));
		return -1;
	}
	return have;
}

/* The series of the record's fixed fields: workload, precision, scale
 * (nodes x GPUs per node) and the identity fields. */
static json_t *record_series(const json_t *rec, const char *model)
{
	char buf[1024];
	json_t *series = json_object();
	json_object_set_new(series, "workload", json_string(model));
	text(rec, "training_precision", buf, sizeof(buf));
	if (buf[0]) {
		char p[64];
		peer_precision(buf, p, sizeof(p));
		json_object_set_new(series, "precision", json_string(p));
	}
	long nodes = positive(rec, "nnodes"), per = positive(rec, "gpus_per_node");
	long total = positive(rec, "n_gpus");
	if (!per && total)
		per = nodes > 1 && total % nodes == 0 ? total / nodes : total;
	if (per) {
		snprintf(buf, sizeof(buf), "%ldx%ld", nodes ? nodes : 1, per);
		json_object_set_new(series, "scale", json_string(buf));
	}
	static const char *const identity[] = {"gpu_architecture", "args", "dataname", NULL};
	for (int i = 0; identity[i]; i++) {
		text(rec, identity[i], buf, sizeof(buf));
		set_str(series, identity[i], buf);
	}
	return series;
}

/* An extra column's value as a series field (precision and scale
 * normalised); NULL when empty, or when a scale is malformed (then why). */
static json_t *extra_field(const char *k, const json_t *v, char *why, size_t why_size,
			   const char **bad_field)
{
	json_t *s = peer_scalar(v);
	if (!s && (json_is_object(v) || json_is_array(v)) &&
	    json_object_size(v) + json_array_size(v))
		s = json_deep_copy(v);
	if (!s || (json_is_string(s) && !json_string_length(s))) {
		json_decref(s);
		return NULL;
	}
	if ((!strcmp(k, "precision") || !strcmp(k, "scale")) && json_is_string(s)) {
		char norm[64];
		if (!strcmp(k, "precision"))
			peer_precision(json_string_value(s), norm, sizeof(norm));
		else if (!peer_scale(json_string_value(s), norm, sizeof(norm))) {
			*bad_field = "scale";
			snprintf(why, why_size, "expected NODESxGPUS such as 2x8, got \"%.60s\"",
				 json_string_value(s));
			json_decref(s);
			return NULL;
		}
		json_decref(s);
		s = json_string(norm);
	}
	return s;
}

/* The extra columns: numbers with metric-like names into metrics, the rest
 * into series. -1 with a message when one is malformed. */
static int record_extras(const json_t *extras, json_t *series, json_t *metrics, char *why,
			 size_t why_size, const char **bad_field)
{
	const char *k;
	const json_t *v;
	json_object_foreach((json_t *)extras, k, v)
	{
		if (!strcmp(k, "model") || !strcmp(k, "performance") || !strcmp(k, "metric") ||
		    !strcmp(k, "status"))
			continue;
		if (json_is_number(v) && peer_is_metric_name(k)) {
			json_object_set(metrics, k, (json_t *)v);
			continue;
		}
		const char *bad = NULL;
		json_t *s = extra_field(k, v, why, why_size, &bad);
		if (bad) {
			*bad_field = bad;
			return -1;
		}
		if (s)
			json_object_set_new(series, k, s);
	}
	return 0;
}

/* A field's value as the record's identity reads it: numbers by value
 * (madengine rewrites perf.csv through pandas each time, and a column that
 * gains an empty cell turns 8 into 8.0), text stripped, objects whole; NULL
 * for null and empty values (a column added later is empty in older rows). */
static json_t *identity_value(const json_t *v)
{
	if (json_is_object(v) || json_is_array(v))
		return json_deep_copy(v);
	json_t *cell =
	    json_is_string(v) ? peer_cell_value(json_string_value(v)) : json_incref((json_t *)v);
	json_t *out = peer_scalar(cell);
	json_decref(cell);
	if (json_is_string(out) && !*json_string_value(out)) {
		json_decref(out);
		out = NULL;
	}
	return out;
}

/* A record without a build number (empty, or madengine's "0" for an unset
 * BUILD_NUMBER, as under GitHub Actions): its run id is "row-" and 16 hex
 * digits of the digest of all its non-empty fields (git_commit, model and
 * the rest), so that the record found again in a cumulative perf.csv or
 * perf_super.json is the same row. */
static void record_identity(const json_t *rec, const json_t *extras, char *out, size_t size)
{
	const json_t *parts[] = {rec, extras};
	json_t *all = json_object();
	for (int i = 0; i < 2; i++) {
		const char *k;
		const json_t *v;
		json_object_foreach((json_t *)parts[i], k, v)
		{
			json_t *c = strcmp(k, "build_number") ? identity_value(v) : NULL;
			if (c)
				json_object_set_new(all, k, c);
		}
	}
	char hex[65];
	assay_json_sha256(all, hex);
	json_decref(all);
	snprintf(out, size, "row-%.16s", hex);
}

/* The rows: one per finite extra metric, then the performance row (which
 * takes series). Returns how many. */
static int record_rows(const json_t *rec, const json_t *extras, json_t *series,
		       const json_t *metrics, const char *metric, double value,
		       struct assay_rows *rows)
{
	char revision[256], build[128];
	text(rec, "git_commit", revision, sizeof(revision));
	text(rec, "build_number", build, sizeof(build));
	if (!build[0] || !strcmp(build, "0"))
		record_identity(rec, extras, build, sizeof(build));
	int added = 0;
	const char *k;
	const json_t *v;
	json_object_foreach((json_t *)metrics, k, v)
	{
		double x = json_number_value(v);
		if (!isfinite(x))
			continue;
		char unit[64];
		peer_unit_from_name(k, unit, sizeof(unit));
		struct assay_row *m = assay_rows_add(rows);
		assay_row_set(m, json_deep_copy(series), k, "value", x, unit, peer_direction(k));
		m->revision = revision[0] ? xstrdup(revision) : NULL;
		m->run_id = build[0] ? xstrdup(build) : NULL;
		added++;
	}
	struct assay_row *r = assay_rows_add(rows);
	assay_row_set(r, series, metric, "value", value, metric, peer_direction(metric));
	r->revision = revision[0] ? xstrdup(revision) : NULL;
	r->run_id = build[0] ? xstrdup(build) : NULL;
	return added + 1;
}

int madengine_record(const json_t *rec, const json_t *extras, struct assay_rows *rows, char *why,
		     size_t why_size, const char **bad_field)
{
	char model[512], metric[256], perf[128], status[64];
	text(rec, "model", model, sizeof(model));
	text(rec, "metric", metric, sizeof(metric));
	text(rec, "performance", perf, sizeof(perf));
	text(rec, "status", status, sizeof(status));
	double value;
	int have = record_value(rec, perf, &value, why, why_size, bad_field);
	if (have < 0)
		return -1;
	if (status[0] && strcasecmp(status, "SUCCESS"))
		return 0;
	if (!have)
		return 0;
	if (!model[0]) {
		*bad_field = "model";
		snprintf(why, why_size, "expected a model name, got an empty value");
		return -1;
	}
	if (!metric[0]) {
		*bad_field = "metric";
		snprintf(why, why_size, "expected a metric name, got an empty value");
		return -1;
	}
	json_t *series = record_series(rec, model);
	json_t *metrics = json_object(); /* extra columns that are measurements */
	if (record_extras(extras, series, metrics, why, why_size, bad_field) < 0) {
		json_decref(series);
		json_decref(metrics);
		return -1;
	}
	int n = record_rows(rec, extras, series, metrics, metric, value, rows);
	json_decref(metrics);
	return n;
}

assay_err madengine_parse_csv(const char *data, size_t len, const struct assay_parse_opts *o,
			      struct assay_rows *out, bool fixed, struct assay_error *e)
{
	static const char *const required[] = {"model", "performance", "metric", NULL};
	struct csv_reader r;
	struct csv_header h;
	struct assay_rows tmp = ASSAY_ROWS_INIT;
	csv_init(&r, data, len, o->file);
	assay_err rc = csv_header_read(&r, &h, required, e);
	if (rc != ASSAY_OK) {
		csv_release(&r);
		return rc;
	}
	int step;
	while ((step = csv_next(&r, e)) == 1) {
		if ((rc = csv_check_width(&r, &h, e)) != ASSAY_OK)
			break;
		json_t *rec = json_object(), *extras = json_object();
		for (size_t i = 0; i < h.names.n; i++) {
			const char *name = h.names.v[i], *cell = r.fields.v[i];
			bool core = !strcmp(name, "model") || !strcmp(name, "performance") ||
				    !strcmp(name, "metric") || !strcmp(name, "status");
			if (core || (fixed && madengine_is_column(name)))
				json_object_set_new(rec, name, json_string(cell));
			else if (*cell)
				json_object_set_new(extras, name, peer_cell_value(cell));
		}
		char why[256];
		const char *field = "";
		size_t before = tmp.n;
		int n = madengine_record(rec, extras, &tmp, why, sizeof(why), &field);
		json_decref(rec);
		json_decref(extras);
		for (size_t k = before; k < tmp.n; k++)
			tmp.v[k].line = r.line;
		if (n < 0) {
			rc = assay_error_at(e, ASSAY_USAGE, o->file, NULL, r.line,
					    "column \"%s\": %s", field, why);
			break;
		}
	}
	if (step < 0)
		rc = ASSAY_USAGE;
	csv_header_release(&h);
	csv_release(&r);
	if (rc != ASSAY_OK) {
		assay_rows_release(&tmp);
		return rc;
	}
	return peer_finish(&tmp, o, out, e);
}

bool madengine_csv_header_has(const char *data, size_t len, bool fixed)
{
	const char *nl = memchr(data, '\n', len);
	size_t n = nl ? (size_t)(nl - data) : len;
	if (n >= 3 && !memcmp(data, "\xEF\xBB\xBF", 3)) {
		data += 3;
		n -= 3;
	}
	bool core = memmem(data, n, "model", 5) && memmem(data, n, "performance", 11) &&
		    memmem(data, n, "metric", 6) && data[0] != '{' && data[0] != '[';
	bool perf_csv = memmem(data, n, "n_gpus", 6) && memmem(data, n, "training_precision", 18);
	return core && (fixed ? perf_csv : !perf_csv);
}
