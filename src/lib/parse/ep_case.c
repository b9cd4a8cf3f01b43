/* Format "assay-ep": one assay-ep case artifact (schema assay.ep.case/1,
 * docs/ep.md) becomes measurement rows: per point the oracle verdict and
 * error, the routing's imbalance, and per timed component latency and
 * cross-rank-min percentiles, bandwidth and token rate. Every row's series
 * carries the point's verdict and the case's routing. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/cfg.h"
#include "assay/json.h"
#include "assay/parse.h"

static const char *const stat_names[] = {"p50", "p90", "p95", "p99", "min", "max"};

#define STATS6(m) m "/p50", m "/p90", m "/p95", m "/p99", m "/min", m "/max"
const char *const assay_ep_case_metrics[] = {
    STATS6("latency_us"),
    STATS6("cross_rank_min_us"),
    "gbps_per_rank/p50",
    "tokens_per_s/p50",
    "max_relative_error/max",
    "oracle_pass/all",
    "calc_diff/max",
    "imbalance_expert/max_over_mean",
    "imbalance_rank/max_over_mean",
    NULL,
};
#undef STATS6
static const char *const components[] = {"dispatch", "combine", "roundtrip", "pair_period"};

struct ep_ctx {
	struct assay_cfg c;
	struct assay_rows *out;
	json_t *base; /* the case's series fields */
	const char *timestamp;
};

static void add(struct ep_ctx *x, json_t *series, const char *metric, const char *stat, double v,
		const char *unit, enum assay_direction dir, long long samples)
{
	struct assay_row *r = assay_rows_add(x->out);
	assay_row_init(r);
	assay_row_set(r, series, metric, stat, v, unit, dir);
	r->samples = samples;
	if (x->timestamp)
		r->timestamp = xstrdup(x->timestamp);
}

static json_t *series_for(const json_t *point_series, const char *component)
{
	json_t *s = json_deep_copy(point_series);
	json_object_set_new(s, "component", json_string(component));
	return s;
}

/* The six statistics of obj[key]; -1 on error. */
static int stats(struct ep_ctx *x, const json_t *obj, const char *path, const char *key,
		 double v[6])
{
	json_t *o;
	char p[256];
	if (assay_cfg_member(&x->c, obj, path, key, ASSAY_CFG_REQUIRED, JSON_OBJECT, &o) < 0)
		return -1;
	assay_json_path_key(p, sizeof(p), path, key);
	for (size_t i = 0; i < 6; i++)
		if (assay_cfg_number(&x->c, o, p, stat_names[i], ASSAY_CFG_REQUIRED, 0, INFINITY,
				     &v[i]) < 0)
			return -1;
	return 0;
}

static int component(struct ep_ctx *x, const json_t *ps, const json_t *comps, const char *path,
		     const char *name)
{
	json_t *o;
	char p[256];
	int rc = assay_cfg_member(&x->c, comps, path, name, ASSAY_CFG_OPTIONAL, JSON_OBJECT, &o);
	if (rc <= 0)
		return rc;
	assay_json_path_key(p, sizeof(p), path, name);
	long long n;
	double lat[6], xmin[6], gbps, tps;
	if (assay_cfg_int(&x->c, o, p, "samples", ASSAY_CFG_REQUIRED, 1, INT64_MAX, &n) < 0 ||
	    stats(x, o, p, "latency_us", lat) < 0 ||
	    stats(x, o, p, "cross_rank_min_us", xmin) < 0 ||
	    assay_cfg_number(&x->c, o, p, "gbps_per_rank", ASSAY_CFG_REQUIRED, 0, INFINITY, &gbps) <
		0 ||
	    assay_cfg_number(&x->c, o, p, "tokens_per_s", ASSAY_CFG_REQUIRED, 0, INFINITY, &tps) <
		0)
		return -1;
	for (size_t i = 0; i < 6; i++) {
		add(x, series_for(ps, name), "latency_us", stat_names[i], lat[i], "us",
		    ASSAY_DIR_LOWER, n);
		add(x, series_for(ps, name), "cross_rank_min_us", stat_names[i], xmin[i], "us",
		    ASSAY_DIR_LOWER, n);
	}
	add(x, series_for(ps, name), "gbps_per_rank", "p50", gbps, "GB/s", ASSAY_DIR_HIGHER, n);
	add(x, series_for(ps, name), "tokens_per_s", "p50", tps, "tokens/s", ASSAY_DIR_HIGHER, n);
	return 1;
}

/* The routing's imbalance rows (component "routing"), when the point has
 * them: artifacts before the routing distributions do not. */
static int imbalance(struct ep_ctx *x, const json_t *ps, const json_t *pt, const char *path)
{
	static const char *const keys[] = {"imbalance_expert", "imbalance_rank"};
	json_t *r;
	char p[256];
	int rc = assay_cfg_member(&x->c, pt, path, "routing", ASSAY_CFG_OPTIONAL, JSON_OBJECT, &r);
	if (rc <= 0)
		return rc;
	assay_json_path_key(p, sizeof(p), path, "routing");
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
		double v;
		rc = assay_cfg_number(&x->c, r, p, keys[i], ASSAY_CFG_OPTIONAL, 0, INFINITY, &v);
		if (rc < 0)
			return -1;
		if (rc > 0)
			add(x, series_for(ps, "routing"), keys[i], "max_over_mean", v, "ratio",
			    ASSAY_DIR_LOWER, 1);
	}
	return 0;
}

static int point(struct ep_ctx *x, const json_t *pt, const char *path)
{
	static const char *const verdicts[] = {"valid", "invalid", NULL};
	long long tokens;
	const char *verdict;
	json_t *corr, *comps;
	char cp[256];
	if (assay_cfg_int(&x->c, pt, path, "tokens", ASSAY_CFG_REQUIRED, 1, INT64_MAX, &tokens) <
		0 ||
	    assay_cfg_enum(&x->c, pt, path, "verdict", ASSAY_CFG_REQUIRED, verdicts, &verdict) <
		0 ||
	    assay_cfg_member(&x->c, pt, path, "correctness", ASSAY_CFG_REQUIRED, JSON_OBJECT,
			     &corr) < 0)
		return -1;
	json_t *ps = json_deep_copy(x->base);
	json_object_set_new(ps, "tokens", json_integer(tokens));
	json_object_set_new(ps, "verdict", json_string(verdict));

	assay_json_path_key(cp, sizeof(cp), path, "correctness");
	json_t *err = json_object_get(corr, "max_relative_error");
	double e = 0;
	if (!err || !json_is_null(err)) {
		if (assay_cfg_number(&x->c, corr, cp, "max_relative_error", ASSAY_CFG_REQUIRED, 0,
				     INFINITY, &e) < 0)
			goto fail;
		add(x, series_for(ps, "oracle"), "max_relative_error", "max", e, "ratio",
		    ASSAY_DIR_LOWER, 1);
	}
	/* The low-latency oracle's measure (DeepEP's calc_diff), when finite. */
	json_t *diff = json_object_get(corr, "max_diff");
	if (json_is_number(diff) && isfinite(json_number_value(diff)))
		add(x, series_for(ps, "oracle"), "calc_diff", "max", json_number_value(diff),
		    "ratio", ASSAY_DIR_LOWER, 1);
	add(x, series_for(ps, "oracle"), "oracle_pass", "all", !strcmp(verdict, "valid") ? 1 : 0,
	    "bool", ASSAY_DIR_HIGHER, 1);

	if (imbalance(x, ps, pt, path) < 0)
		goto fail;
	comps = json_object_get(pt, "components");
	if (comps && !json_is_null(comps)) {
		char p[256];
		if (assay_cfg_member(&x->c, pt, path, "components", ASSAY_CFG_REQUIRED, JSON_OBJECT,
				     &comps) < 0)
			goto fail;
		assay_json_path_key(p, sizeof(p), path, "components");
		for (size_t i = 0; i < ARRAY_SIZE(components); i++)
			if (component(x, ps, comps, p, components[i]) < 0)
				goto fail;
	}
	json_decref(ps);
	return 0;
fail:
	json_decref(ps);
	return -1;
}

/* The case's identity fields into x->base; -1 on error. */
static int case_series(struct ep_ctx *x, const json_t *doc)
{
	static const char *const strs[] = {"workload", "backend",   "mode",
					   "phase",    "precision", "routing"};
	static const char *const ints[] = {"ep",   "hidden", "experts",
					   "topk", "seed",   "scale_up_domain"};
	json_t *c, *t;
	const char *s;
	if (assay_cfg_member(&x->c, doc, "$", "case", ASSAY_CFG_REQUIRED, JSON_OBJECT, &c) < 0 ||
	    assay_cfg_member(&x->c, doc, "$", "timing", ASSAY_CFG_REQUIRED, JSON_OBJECT, &t) < 0 ||
	    assay_cfg_string(&x->c, t, "$.timing", "profile", ASSAY_CFG_REQUIRED, &s) < 0)
		return -1;
	json_object_set_new(x->base, "profile", json_string(s));
	for (size_t i = 0; i < ARRAY_SIZE(strs); i++) {
		if (assay_cfg_string(&x->c, c, "$.case", strs[i], ASSAY_CFG_REQUIRED, &s) < 0)
			return -1;
		json_object_set_new(x->base, strs[i], json_string(s));
	}
	for (size_t i = 0; i < ARRAY_SIZE(ints); i++) {
		long long v;
		if (assay_cfg_int(&x->c, c, "$.case", ints[i], ASSAY_CFG_REQUIRED, 0, INT64_MAX,
				  &v) < 0)
			return -1;
		json_object_set_new(x->base, ints[i], json_integer(v));
	}
	return 0;
}

assay_err assay_parse_ep_case(const char *data, size_t len, const struct assay_parse_opts *o,
			      struct assay_rows *out, struct assay_error *e)
{
	static const char *const outcomes[] = {"success", "invalid", "unsupported", NULL};
	static const char *const schema[] = {"assay.ep.case/1", NULL};
	const char *file = o->file ? o->file : "<artifact>";
	json_t *doc = assay_json_loadb(data, len, file, e);
	if (!doc)
		return ASSAY_USAGE;
	struct assay_rows tmp = ASSAY_ROWS_INIT;
	struct ep_ctx x = {{file, e}, &tmp, json_object(), NULL};
	const char *s;
	json_t *points;
	int rc = -1;
	if (!json_is_object(doc)) {
		assay_cfg_expected(&x.c, "$", "an assay.ep.case/1 object", doc);
		goto done;
	}
	if (assay_cfg_enum(&x.c, doc, "$", "schema", ASSAY_CFG_REQUIRED, schema, &s) < 0 ||
	    assay_cfg_enum(&x.c, doc, "$", "outcome", ASSAY_CFG_REQUIRED, outcomes, &s) < 0 ||
	    assay_cfg_string(&x.c, doc, "$", "finished_at", ASSAY_CFG_OPTIONAL, &x.timestamp) < 0 ||
	    case_series(&x, doc) < 0 ||
	    assay_cfg_member(&x.c, doc, "$", "points", ASSAY_CFG_REQUIRED, JSON_ARRAY, &points) < 0)
		goto done;
	size_t i;
	json_t *pt;
	json_array_foreach(points, i, pt)
	{
		char p[64];
		assay_json_path_index(p, sizeof(p), "$.points", i);
		if (!json_is_object(pt)) {
			assay_cfg_expected(&x.c, p, "an object", pt);
			goto done;
		}
		if (point(&x, pt, p) < 0)
			goto done;
	}
	rc = assay_parse_stamp(&tmp, 0, o, e) == ASSAY_OK ? 0 : -1;
done:
	json_decref(x.base);
	json_decref(doc);
	if (rc < 0) {
		assay_rows_release(&tmp);
		return ASSAY_USAGE;
	}
	for (size_t k = 0; k < tmp.n; k++)
		assay_rows_push(out, &tmp.v[k]);
	free(tmp.v);
	return ASSAY_OK;
}

bool assay_detect_ep_case(const char *data, size_t len)
{
	size_t n = len < 4096 ? len : 4096;
	return n && memmem(data, n, "\"assay.ep.case/1\"", 17) != NULL;
}
