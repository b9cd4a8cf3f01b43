/* Format "collectivex": one CollectiveX per-case result document
 * (SemiAnalysisAI/InferenceX at 843c625, experimental/CollectiveX: written by
 * bench/ep_harness.py, record_type "case-attempt", docs/methodology.md,
 * "Result Artifact"). Its series is its case id, the key CollectiveX's
 * matrix uses ({sku}-{backend}-{workload}-{mode}-{phase}-ep{ep}-{routing}-
 * {precision}), with the factors beside it; per measured point (tokens per
 * rank) the rows assay-ep gives for the same quantities: latency and
 * cross-rank-minimum percentiles per component, the token rate per
 * percentile, and the oracle's verdict and error. A row's identity is the
 * allocation's run id and attempt, the case id and attempt ordinal, the
 * source SHA and generated_at. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/cfg.h"
#include "assay/json.h"
#include "assay/parse.h"
#include "peer.h"

static const char *const pcts[] = {"p50", "p90", "p95", "p99"};

#define PCTS(m) m "/p50", m "/p90", m "/p95", m "/p99"
const char *const assay_collectivex_metrics[] = {
    PCTS("latency_us"),       PCTS("cross_rank_min_us"), PCTS("tokens_per_s"),
    "max_relative_error/max", "oracle_pass/all",         NULL,
};
#undef PCTS

/* The components CollectiveX times (rows[].components): isolated_sum is a
 * derived sum of the others and is not kept. */
static const char *const timed[] = {"dispatch", "combine", "roundtrip", "pair_period", "stage"};

struct cx {
	struct assay_cfg c;
	struct assay_rows *out;
	json_t *base;
	char run_id[160], case_id[288], ts[32];
	const char *revision;
};

static void add(struct cx *x, const json_t *ps, const char *component, const char *metric,
		const char *stat, double v, const char *unit, enum assay_direction dir,
		long long samples)
{
	json_t *s = json_deep_copy(ps);
	json_object_set_new(s, "component", json_string(component));
	struct assay_row *r = assay_rows_add(x->out);
	assay_row_set(r, s, metric, stat, v, unit, dir);
	r->samples = samples;
	r->run_id = x->run_id[0] ? xstrdup(x->run_id) : NULL;
	r->case_id = xstrdup(x->case_id);
	r->revision = x->revision ? xstrdup(x->revision) : NULL;
	r->timestamp = x->ts[0] ? xstrdup(x->ts) : NULL;
}

static int component(struct cx *x, const json_t *ps, const json_t *blk, const char *path,
		     const char *name, const char *metric)
{
	const json_t *pu = json_object_get(blk, "percentiles_us");
	if (!json_is_object(blk) || !pu || json_is_null(pu))
		return 0;
	char p[256];
	long long n = 0;
	assay_json_path_key(p, sizeof(p), path, "percentiles_us");
	if (!json_is_object(pu))
		return assay_cfg_expected(&x->c, p, "an object of percentiles or null", pu);
	if (json_object_get(blk, "sample_count") &&
	    assay_cfg_int(&x->c, blk, path, "sample_count", ASSAY_CFG_REQUIRED, 0, INT64_MAX, &n) <
		0)
		return -1;
	for (size_t i = 0; i < ARRAY_SIZE(pcts); i++) {
		double v;
		if (assay_cfg_number(&x->c, pu, p, pcts[i], ASSAY_CFG_REQUIRED, 0, INFINITY, &v) <
		    0)
			return -1;
		add(x, ps, name, metric, pcts[i], v, "us", ASSAY_DIR_LOWER, n > 0 ? n : 1);
	}
	return 0;
}

/* The family at row[key] ({component: block}); absent is none. */
static int family(struct cx *x, const json_t *ps, const json_t *row, const char *path,
		  const char *key, const char *metric)
{
	json_t *f = NULL;
	char p[256];
	if (assay_cfg_member(&x->c, row, path, key, ASSAY_CFG_OPTIONAL, JSON_OBJECT, &f) < 0)
		return -1;
	if (!f)
		return 0;
	assay_json_path_key(p, sizeof(p), path, key);
	for (size_t i = 0; i < ARRAY_SIZE(timed); i++) {
		char bp[320];
		assay_json_path_key(bp, sizeof(bp), p, timed[i]);
		if (component(x, ps, json_object_get(f, timed[i]), bp, timed[i], metric) < 0)
			return -1;
	}
	return 0;
}

/* The oracle's verdict and error, and the token rate at each percentile. */
static int oracle_and_rate(struct cx *x, const json_t *ps, const json_t *row, const char *path,
			   bool passed)
{
	json_t *corr = json_object_get(row, "correctness");
	const json_t *err = json_object_get(corr, "max_relative_error");
	char p[256];
	if (json_is_number(err))
		add(x, ps, "oracle", "max_relative_error", "max", json_number_value(err), "ratio",
		    ASSAY_DIR_LOWER, 1);
	add(x, ps, "oracle", "oracle_pass", "all", passed ? 1 : 0, "bool", ASSAY_DIR_HIGHER, 1);
	json_t *rate = NULL;
	if (assay_cfg_member(&x->c, row, path, "token_rate_at_latency_percentile",
			     ASSAY_CFG_OPTIONAL, JSON_OBJECT, &rate) < 0)
		return -1;
	assay_json_path_key(p, sizeof(p), path, "token_rate_at_latency_percentile");
	for (size_t i = 0; rate && i < ARRAY_SIZE(pcts); i++) {
		double v;
		if (!json_object_get(rate, pcts[i]))
			continue;
		if (assay_cfg_number(&x->c, rate, p, pcts[i], ASSAY_CFG_REQUIRED, 0, INFINITY, &v) <
		    0)
			return -1;
		add(x, ps, "roundtrip", "tokens_per_s", pcts[i], v, "tokens/s", ASSAY_DIR_HIGHER,
		    1);
	}
	return 0;
}

static int point(struct cx *x, const json_t *row, const char *path)
{
	long long tokens;
	json_t *corr;
	bool passed = false;
	if (!json_is_object(row))
		return assay_cfg_expected(&x->c, path, "an object", row);
	if (assay_cfg_int(&x->c, row, path, "tokens_per_rank", ASSAY_CFG_REQUIRED, 1, INT64_MAX,
			  &tokens) < 0 ||
	    assay_cfg_member(&x->c, row, path, "correctness", ASSAY_CFG_REQUIRED, JSON_OBJECT,
			     &corr) < 0)
		return -1;
	char cp[256];
	assay_json_path_key(cp, sizeof(cp), path, "correctness");
	if (assay_cfg_bool(&x->c, corr, cp, "passed", ASSAY_CFG_REQUIRED, &passed) < 0)
		return -1;
	json_t *ps = json_deep_copy(x->base);
	json_object_set_new(ps, "tokens", json_integer(tokens));
	json_object_set_new(ps, "verdict", json_string(passed ? "valid" : "invalid"));
	int rc = family(x, ps, row, path, "components", "latency_us") < 0 ||
			 family(x, ps, row, path, "cross_rank_min_us", "cross_rank_min_us") < 0 ||
			 oracle_and_rate(x, ps, row, path, passed) < 0
		     ? -1
		     : 0;
	json_decref(ps);
	return rc;
}

/* A string or integer member as text into buf ("" when absent or null). */
static int text_of(struct cx *x, const json_t *o, const char *path, const char *k, char *buf,
		   size_t size)
{
	const json_t *v = json_object_get(o, k);
	const char *s;
	buf[0] = '\0';
	if (!v || json_is_null(v))
		return 0;
	if (json_is_integer(v)) {
		snprintf(buf, size, "%lld", (long long)json_integer_value(v));
		return 0;
	}
	if (assay_cfg_string(&x->c, o, path, k, ASSAY_CFG_REQUIRED, &s) < 0)
		return -1;
	snprintf(buf, size, "%s", s);
	return 0;
}

/* identity.case_factors.case: the factors of the case id. */
static int case_factors(struct cx *x, const json_t *ident)
{
	static const char *const strs[] = {"workload", "backend", "mode", "phase", "routing"};
	json_t *cf, *cs;
	const char *s;
	long long ep;
	char buf[64];
	if (assay_cfg_member(&x->c, ident, "$.identity", "case_factors", ASSAY_CFG_REQUIRED,
			     JSON_OBJECT, &cf) < 0 ||
	    assay_cfg_string(&x->c, cf, "$.identity.case_factors", "sku", ASSAY_CFG_REQUIRED, &s) <
		0 ||
	    assay_cfg_member(&x->c, cf, "$.identity.case_factors", "case", ASSAY_CFG_REQUIRED,
			     JSON_OBJECT, &cs) < 0)
		return -1;
	json_object_set_new(x->base, "cluster", json_string(s));
	const char *cp = "$.identity.case_factors.case";
	for (size_t i = 0; i < ARRAY_SIZE(strs); i++) {
		if (assay_cfg_string(&x->c, cs, cp, strs[i], ASSAY_CFG_REQUIRED, &s) < 0)
			return -1;
		json_object_set_new(x->base, strs[i], json_string(s));
	}
	if (assay_cfg_string(&x->c, cs, cp, "precision", ASSAY_CFG_REQUIRED, &s) < 0 ||
	    assay_cfg_int(&x->c, cs, cp, "ep", ASSAY_CFG_REQUIRED, 1, 1 << 20, &ep) < 0)
		return -1;
	peer_precision(s, buf, sizeof(buf));
	json_object_set_new(x->base, "precision", json_string(buf));
	json_object_set_new(x->base, "ep", json_integer(ep));
	return 0;
}

/* The case's series fields, and the identity of its rows. */
static int identity(struct cx *x, const json_t *doc)
{
	json_t *ident, *topo, *alloc = NULL;
	const char *s;
	long long attempt, nodes, world;
	char run[64] = "", try[32] = "";
	if (assay_cfg_member(&x->c, doc, "$", "identity", ASSAY_CFG_REQUIRED, JSON_OBJECT, &ident) <
		0 ||
	    assay_cfg_string(&x->c, ident, "$.identity", "case_id", ASSAY_CFG_REQUIRED, &s) < 0)
		return -1;
	json_object_set_new(x->base, "case_id", json_string(s));
	if (assay_cfg_int(&x->c, ident, "$.identity", "attempt_ordinal", ASSAY_CFG_REQUIRED, 1,
			  INT64_MAX, &attempt) < 0 ||
	    case_factors(x, ident) < 0)
		return -1;
	snprintf(x->case_id, sizeof(x->case_id), "%s#%lld", s, attempt);
	if (assay_cfg_member(&x->c, ident, "$.identity", "allocation_factors", ASSAY_CFG_OPTIONAL,
			     JSON_OBJECT, &alloc) < 0)
		return -1;
	const char *ap = "$.identity.allocation_factors";
	if (alloc && (text_of(x, alloc, ap, "run_id", run, sizeof(run)) < 0 ||
		      text_of(x, alloc, ap, "run_attempt", try, sizeof(try)) < 0 ||
		      assay_cfg_string(&x->c, alloc, ap, "source_sha", ASSAY_CFG_OPTIONAL,
				       &x->revision) < 0))
		return -1;
	if (run[0])
		snprintf(x->run_id, sizeof(x->run_id), "%s%s%s", run, try[0] ? "." : "", try);
	/* The scale: nodes x ranks per node of the realized topology. */
	if (assay_cfg_member(&x->c, doc, "$", "topology", ASSAY_CFG_REQUIRED, JSON_OBJECT, &topo) <
		0 ||
	    assay_cfg_int(&x->c, topo, "$.topology", "nodes", ASSAY_CFG_REQUIRED, 1, 1 << 20,
			  &nodes) < 0 ||
	    assay_cfg_int(&x->c, topo, "$.topology", "world_size", ASSAY_CFG_REQUIRED, 1, 1 << 24,
			  &world) < 0)
		return -1;
	if (world % nodes)
		return assay_cfg_fail(&x->c, "$.topology.world_size",
				      "world_size %lld is not a multiple of nodes %lld", world,
				      nodes);
	char scale[64];
	snprintf(scale, sizeof(scale), "%lldx%lld", nodes, world / nodes);
	json_object_set_new(x->base, "scale", json_string(scale));
	return 0;
}

static int document(struct cx *x, const json_t *doc)
{
	static const char *const record[] = {"case-attempt", NULL};
	static const char *const statuses[] = {"success", "invalid", NULL};
	const char *s;
	json_t *m, *rows, *outcome;
	if (!json_is_object(doc))
		return assay_cfg_expected(&x->c, "$", "a CollectiveX case-attempt object", doc);
	if (assay_cfg_enum(&x->c, doc, "$", "record_type", ASSAY_CFG_REQUIRED, record, &s) < 0 ||
	    identity(x, doc) < 0 ||
	    assay_cfg_string(&x->c, doc, "$", "generated_at", ASSAY_CFG_OPTIONAL, &s) < 0)
		return -1;
	if (s && !assay_time_canonical(s, x->ts))
		return assay_cfg_expected(&x->c, "$.generated_at", "an ISO 8601 time",
					  json_object_get(doc, "generated_at"));
	if (assay_cfg_member(&x->c, doc, "$", "outcome", ASSAY_CFG_REQUIRED, JSON_OBJECT,
			     &outcome) < 0 ||
	    assay_cfg_enum(&x->c, outcome, "$.outcome", "status", ASSAY_CFG_REQUIRED, statuses,
			   &s) < 0 ||
	    assay_cfg_member(&x->c, doc, "$", "measurement", ASSAY_CFG_REQUIRED, JSON_OBJECT, &m) <
		0 ||
	    assay_cfg_member(&x->c, m, "$.measurement", "rows", ASSAY_CFG_REQUIRED, JSON_ARRAY,
			     &rows) < 0)
		return -1;
	size_t i;
	json_t *row;
	json_array_foreach(rows, i, row)
	{
		char p[64];
		assay_json_path_index(p, sizeof(p), "$.measurement.rows", i);
		if (point(x, row, p) < 0)
			return -1;
	}
	return 0;
}

assay_err assay_parse_collectivex(const char *data, size_t len, const struct assay_parse_opts *o,
				  struct assay_rows *out, struct assay_error *e)
{
	const char *file = o->file ? o->file : "<result>";
	json_t *doc = assay_json_loadb(data, len, file, e);
	if (!doc)
		return ASSAY_USAGE;
	struct assay_rows tmp = ASSAY_ROWS_INIT;
	struct cx x = {.c = {file, e}, .out = &tmp, .base = json_object()};
	int rc = document(&x, doc);
	json_decref(x.base);
	json_decref(doc);
	if (rc < 0) {
		assay_rows_release(&tmp);
		return ASSAY_USAGE;
	}
	return peer_finish(&tmp, o, out, e);
}

bool assay_detect_collectivex(const char *data, size_t len)
{
	size_t n = len < 512 ? len : 512;
	return n && data[0] == '{' && memmem(data, n, "\"record_type\"", 13) &&
	       memmem(data, n, "\"case-attempt\"", 14);
}
