/* Measurement rows: construction, validation, series keys and the NDJSON
 * line format. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "assay/cfg.h"
#include "assay/json.h"
#include "assay/measure.h"
#include "measure_int.h"

const char *assay_direction_name(enum assay_direction d)
{
	switch (d) {
	case ASSAY_DIR_HIGHER: return "higher";
	case ASSAY_DIR_LOWER: return "lower";
	default: return "none";
	}
}

int assay_direction_parse(const char *s)
{
	if (!strcmp(s, "higher"))
		return ASSAY_DIR_HIGHER;
	if (!strcmp(s, "lower"))
		return ASSAY_DIR_LOWER;
	return -1;
}

void assay_row_init(struct assay_row *r)
{
	memset(r, 0, sizeof(*r));
	r->samples = 1;
}

void assay_row_release(struct assay_row *r)
{
	free(r->run_id);
	free(r->case_id);
	json_decref(r->series);
	free(r->metric);
	free(r->statistic);
	free(r->unit);
	free(r->revision);
	free(r->timestamp);
	assay_row_init(r);
}

void assay_row_set(struct assay_row *r, json_t *series, const char *metric, const char *statistic,
		   double value, const char *unit, enum assay_direction dir)
{
	json_decref(r->series);
	r->series = series ? series : json_object();
	free(r->metric);
	free(r->statistic);
	free(r->unit);
	r->metric = xstrdup(metric);
	r->statistic = xstrdup(statistic);
	r->unit = xstrdup(unit);
	r->value = value;
	r->direction = dir;
	r->samples = 1;
}

assay_err assay_row_finish(struct assay_row *r, struct assay_error *e)
{
	if (!r->metric || !*r->metric || !r->statistic || !*r->statistic)
		return assay_error_set(e, ASSAY_USAGE,
				       "measurement row without metric or statistic");
	if (!r->unit || !*r->unit)
		return assay_error_set(e, ASSAY_USAGE, "%s/%s: measurement row without a unit",
				       r->metric, r->statistic);
	if (!isfinite(r->value))
		return assay_error_set(e, ASSAY_USAGE, "%s/%s: value is not finite", r->metric,
				       r->statistic);
	if (r->direction != ASSAY_DIR_HIGHER && r->direction != ASSAY_DIR_LOWER)
		return assay_error_set(e, ASSAY_USAGE, "%s/%s: direction must be higher or lower",
				       r->metric, r->statistic);
	if (r->samples < 1)
		return assay_error_set(e, ASSAY_USAGE, "%s/%s: samples must be at least 1",
				       r->metric, r->statistic);
	if (!r->series)
		r->series = json_object();
	if (!json_is_object(r->series))
		return assay_error_set(e, ASSAY_USAGE, "series must be an object");
	assay_row_own_series(r);
	assay_series_canonicalize(r->series);
	json_object_set_new(r->series, "metric", json_string(r->metric));
	json_object_set_new(r->series, "statistic", json_string(r->statistic));
	assay_json_sha256(r->series, r->series_key);
	return ASSAY_OK;
}

void assay_row_own_series(struct assay_row *r)
{
	/* jansson's json_t has its reference count in the open. */
	if (r->series && r->series->refcount > 1) {
		json_t *copy = json_deep_copy(r->series);
		json_decref(r->series);
		r->series = copy;
	}
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

void assay_row_copy(struct assay_row *dst, const struct assay_row *src)
{
	assay_row_init(dst);
	dst->run_id = dup_or_null(src->run_id);
	dst->case_id = dup_or_null(src->case_id);
	dst->series = src->series ? json_deep_copy(src->series) : NULL;
	memcpy(dst->series_key, src->series_key, sizeof(dst->series_key));
	dst->metric = dup_or_null(src->metric);
	dst->statistic = dup_or_null(src->statistic);
	dst->value = src->value;
	dst->unit = dup_or_null(src->unit);
	dst->direction = src->direction;
	dst->samples = src->samples;
	dst->revision = dup_or_null(src->revision);
	dst->timestamp = dup_or_null(src->timestamp);
	dst->line = src->line;
}

static void set_opt_string(json_t *o, const char *k, const char *v)
{
	json_object_set_new(o, k, v ? json_string(v) : json_null());
}

json_t *assay_row_to_json(const struct assay_row *r)
{
	json_t *o = json_object();
	set_opt_string(o, "run_id", r->run_id);
	set_opt_string(o, "case_id", r->case_id);
	json_object_set(o, "series", r->series ? r->series : json_object());
	json_object_set_new(o, "series_key", json_string(r->series_key));
	json_object_set_new(o, "metric", json_string(r->metric ? r->metric : ""));
	json_object_set_new(o, "statistic", json_string(r->statistic ? r->statistic : ""));
	json_object_set_new(o, "value", json_real(r->value));
	json_object_set_new(o, "unit", json_string(r->unit ? r->unit : ""));
	json_object_set_new(o, "direction", json_string(assay_direction_name(r->direction)));
	json_object_set_new(o, "samples", json_integer(r->samples));
	set_opt_string(o, "revision", r->revision);
	set_opt_string(o, "timestamp", r->timestamp);
	return o;
}

static int opt_string(struct assay_cfg *c, const json_t *o, const char *key, char **out)
{
	json_t *v = json_object_get(o, key);
	if (!v || json_is_null(v))
		return 0;
	const char *s;
	if (assay_cfg_string(c, o, "$", key, ASSAY_CFG_REQUIRED, &s) < 0)
		return -1;
	*out = xstrdup(s);
	return 1;
}

assay_err assay_row_from_json(const json_t *obj, struct assay_row *r, const char *file, long line,
			      struct assay_error *e)
{
	static const char *const keys[] = {
	    "run_id", "case_id",   "series",  "series_key", "metric",    "statistic", "value",
	    "unit",   "direction", "samples", "revision",   "timestamp", NULL};
	static const char *const dirs[] = {"higher", "lower", NULL};
	struct assay_cfg c = {file, e};
	const char *metric, *statistic, *unit, *dir;
	double value;
	long long samples = 1;
	json_t *series = NULL;
	assay_row_init(r);
	if (assay_cfg_object(&c, obj, "$", keys) < 0 ||
	    assay_cfg_member(&c, obj, "$", "series", ASSAY_CFG_REQUIRED, JSON_OBJECT, &series) <
		0 ||
	    assay_cfg_string(&c, obj, "$", "metric", ASSAY_CFG_REQUIRED, &metric) < 0 ||
	    assay_cfg_string(&c, obj, "$", "statistic", ASSAY_CFG_REQUIRED, &statistic) < 0 ||
	    assay_cfg_number(&c, obj, "$", "value", ASSAY_CFG_REQUIRED, -INFINITY, INFINITY,
			     &value) < 0 ||
	    assay_cfg_string(&c, obj, "$", "unit", ASSAY_CFG_REQUIRED, &unit) < 0 ||
	    assay_cfg_enum(&c, obj, "$", "direction", ASSAY_CFG_REQUIRED, dirs, &dir) < 0 ||
	    assay_cfg_int(&c, obj, "$", "samples", ASSAY_CFG_OPTIONAL, 1, INT64_MAX, &samples) <
		0 ||
	    opt_string(&c, obj, "run_id", &r->run_id) < 0 ||
	    opt_string(&c, obj, "case_id", &r->case_id) < 0 ||
	    opt_string(&c, obj, "revision", &r->revision) < 0 ||
	    opt_string(&c, obj, "timestamp", &r->timestamp) < 0)
		goto fail;
	assay_row_set(r, json_deep_copy(series), metric, statistic, value, unit,
		      (enum assay_direction)assay_direction_parse(dir));
	r->samples = samples;
	if (assay_row_finish(r, e) != ASSAY_OK) {
		if (e) {
			e->line = line;
			snprintf(e->file, sizeof(e->file), "%s", file ? file : "");
		}
		goto fail;
	}
	/* A key written before the vocabulary canonicalised the series (an
	 * older export: "fp8") is the key of the series as written. */
	json_t *key = json_object_get(obj, "series_key"), *raw = json_deep_copy(series);
	char raw_key[65] = "";
	if (json_is_object(raw)) {
		json_object_set_new(raw, "metric", json_string(metric));
		json_object_set_new(raw, "statistic", json_string(statistic));
		assay_json_sha256(raw, raw_key);
	}
	json_decref(raw);
	if (key && (!json_is_string(key) || (strcmp(json_string_value(key), r->series_key) &&
					     strcmp(json_string_value(key), raw_key)))) {
		assay_error_at(e, ASSAY_USAGE, file, "$.series_key", line,
			       "does not match the series (expected %s)", r->series_key);
		goto fail;
	}
	r->line = line;
	return ASSAY_OK;
fail:
	if (e && line > 0)
		e->line = line;
	assay_row_release(r);
	return ASSAY_USAGE;
}

struct assay_row *assay_rows_add(struct assay_rows *rows)
{
	ALLOC_GROW(rows->v, rows->n + 1, rows->alloc);
	struct assay_row *r = &rows->v[rows->n++];
	assay_row_init(r);
	return r;
}

void assay_rows_push(struct assay_rows *rows, struct assay_row *r)
{
	ALLOC_GROW(rows->v, rows->n + 1, rows->alloc);
	rows->v[rows->n++] = *r;
	assay_row_init(r);
}

void assay_rows_release(struct assay_rows *rows)
{
	for (size_t i = 0; i < rows->n; i++)
		assay_row_release(&rows->v[i]);
	free(rows->v);
	rows->v = NULL;
	rows->n = rows->alloc = 0;
}

void assay_rows_ndjson(const struct assay_rows *rows, struct sbuf *sb)
{
	for (size_t i = 0; i < rows->n; i++) {
		json_t *o = assay_row_to_json(&rows->v[i]);
		assay_json_write(sb, o, ASSAY_JSON_SORT);
		sbuf_addch(sb, '\n');
		json_decref(o);
	}
}

assay_err assay_rows_parse_ndjson(const char *text, size_t len, const char *file,
				  struct assay_rows *out, struct assay_error *e)
{
	struct assay_rows tmp = ASSAY_ROWS_INIT;
	struct row_memo *memo = row_memo_new();
	long line = 0;
	size_t pos = 0;
	assay_err rc = ASSAY_OK;
	while (pos < len) {
		/* Lines of the plain shape are read without a JSON document
		 * (rows_fast.c); any other goes to the general reader. */
		const char *start = text + pos;
		const char *nl = memchr(start, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - start) : len - pos;
		struct assay_row r;
		if (row_parse_fast(memo, start, n, &r)) {
			pos += n + (nl ? 1 : 0);
			r.line = ++line;
			assay_rows_push(&tmp, &r);
			continue;
		}
		json_t *o;
		int got = assay_ndjson_next(text, len, &pos, &line, file, &o, e);
		if (got == 0)
			break;
		if (got < 0) {
			rc = ASSAY_USAGE;
			break;
		}
		rc = assay_row_from_json(o, &r, file, line, e);
		json_decref(o);
		if (rc != ASSAY_OK)
			break;
		assay_rows_push(&tmp, &r);
	}
	row_memo_free(memo);
	if (rc != ASSAY_OK) {
		assay_rows_release(&tmp);
		return rc;
	}
	for (size_t i = 0; i < tmp.n; i++)
		assay_rows_push(out, &tmp.v[i]);
	free(tmp.v);
	return ASSAY_OK;
}
