/* Per-size thresholds for collective benchmarks (nccl-tests, rccl-tests,
 * assay-coll): a file keyed by operation and message size with a minimum
 * busbw or a maximum time per size, in assay's shape or in ROCm/cvs's rccl
 * shape ({"all_reduce_perf": {"bus_bw": {"8589934592": "330.00"}}}), and
 * the gate that judges a case's rows with them. docs/collectives.md. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/collective.h"
#include "assay/gate.h"
#include "assay/json.h"

static const char *const placements[] = {"in-place", "out-of-place", NULL};

bool assay_coll_size_parse(const char *text, long long *out)
{
	if (!text || !isdigit((unsigned char)text[0]))
		return false;
	char *end;
	unsigned long long v = strtoull(text, &end, 10);
	long long mul = 1;
	if (*end == 'K' || *end == 'k')
		mul = 1LL << 10, end++;
	else if (*end == 'M' || *end == 'm')
		mul = 1LL << 20, end++;
	else if (*end == 'G' || *end == 'g')
		mul = 1LL << 30, end++;
	if (*end || v > (unsigned long long)(INT64_MAX / mul))
		return false;
	*out = (long long)v * mul;
	return true;
}

const char *assay_coll_judged_placement(const char *operation)
{
	/* CVS's check_bus_bw: alltoall's out-of-place rows, in-place otherwise. */
	return strstr(operation, "alltoall") ? "out-of-place" : "in-place";
}

/* A value as CVS reads it (Python's float()): a number or a numeric string. */
static int read_value(struct assay_cfg *c, const json_t *v, const char *path, bool time,
		      double *out)
{
	double d = NAN;
	if (json_is_number(v)) {
		d = json_number_value(v);
	} else if (json_is_string(v)) {
		const char *s = json_string_value(v);
		char *end = NULL;
		d = strtod(s, &end);
		while (end && (*end == ' ' || *end == '\t'))
			end++;
		if (end == s || !end || *end)
			d = NAN;
	}
	if (json_is_string(v) && strstr(json_string_value(v), "<changeme>"))
		return assay_cfg_fail(c, path,
				      "unfilled placeholder \"<changeme>\": replace it with a "
				      "calibrated value");
	if (!isfinite(d) || d < 0 || (time && d == 0))
		return assay_cfg_expected(
		    c, path,
		    time ? "a time in us > 0 (a number or a numeric string)"
			 : "a busbw in GB/s >= 0 (a number or a numeric string)",
		    v);
	*out = d;
	return 0;
}

static void add_limit(struct assay_coll_thresholds *t, const char *op, long long bytes, bool time,
		      double value, const char *placement, const char *path)
{
	struct assay_coll_threshold *th = &t->v[t->n++];
	th->operation = xstrdup(op);
	th->bytes = bytes;
	th->max_time = time;
	th->value = value;
	snprintf(th->placement, sizeof(th->placement), "%s", placement);
	snprintf(th->path, sizeof(th->path), "%s", path);
}

/* {"SIZE": value, ...} of one operation's metric. */
static int parse_sizes(struct assay_cfg *c, struct assay_coll_thresholds *t, const char *op,
		       const json_t *obj, const char *path, bool time, const char *placement)
{
	if (!json_is_object(obj))
		return assay_cfg_expected(c, path,
					  "an object of message sizes in bytes (\"1048576\" or "
					  "\"1M\") to values",
					  obj);
	const char *key;
	json_t *v;
	json_object_foreach((json_t *)obj, key, v)
	{
		char kp[512];
		assay_json_path_key(kp, sizeof(kp), path, key);
		if (key[0] == '_')
			continue;
		long long bytes;
		if (!assay_coll_size_parse(key, &bytes))
			return assay_cfg_fail(c, kp,
					      "expected a message size in bytes (\"1048576\", or "
					      "with K, M or G: \"1M\"), got \"%s\"",
					      key);
		for (size_t i = 0; i < t->n; i++) {
			const struct assay_coll_threshold *o = &t->v[i];
			if (o->bytes == bytes && o->max_time == time && !strcmp(o->operation, op) &&
			    !strcmp(o->placement, placement))
				return assay_cfg_fail(c, kp, "duplicate size: %lld B is also at %s",
						      bytes, o->path);
		}
		double value = 0;
		if (read_value(c, v, kp, time, &value) < 0)
			return -1;
		t->v = xrealloc(t->v, (t->n + 1) * sizeof(*t->v));
		add_limit(t, op, bytes, time, value, placement, kp);
	}
	return 0;
}

/* The operation of key: "all_reduce", or CVS's "all_reduce_perf". */
static void op_name(const char *key, char *out, size_t size)
{
	snprintf(out, size, "%s", key);
	size_t n = strlen(out);
	if (n > 5 && !strcmp(out + n - 5, "_perf"))
		out[n - 5] = '\0';
}

static int parse_op(struct assay_cfg *c, struct assay_coll_thresholds *t, const char *key,
		    const json_t *v, const char *path, bool cvs)
{
	char op[128];
	op_name(key, op, sizeof(op));
	/* CVS's config may list programs assay does not know: kept, they never
	 * match a case (gather_perf, scatter_perf, alltoallv_perf are known
	 * since assay-coll runs them). */
	if (!cvs && !assay_coll_known(op))
		return assay_cfg_fail(c, path,
				      "unknown operation \"%s\" (expected one of: all_reduce, "
				      "all_gather, reduce_scatter, alltoall, broadcast, reduce, "
				      "sendrecv, gather, scatter, hypercube, alltoallv; "
				      "\"_perf\" may follow)",
				      key);
	if (!json_is_object(v))
		return assay_cfg_expected(c, path, "an object {\"busbw\": {SIZE: GB/s}}", v);
	static const char *const keys[] = {"busbw", "bus_bw", "time_us", "placement", NULL};
	const char *k;
	json_t *child;
	json_object_foreach((json_t *)v, k, child)
	{
		bool ok = k[0] == '_';
		for (size_t i = 0; keys[i] && !ok; i++)
			ok = !strcmp(keys[i], k);
		if (!ok) {
			char kp[512];
			assay_json_path_key(kp, sizeof(kp), path, k);
			return assay_cfg_fail(c, kp,
					      "unknown key (expected one of: busbw (or bus_bw), "
					      "time_us, placement; keys starting with _ are "
					      "comments)");
		}
	}
	const char *placement = assay_coll_judged_placement(op);
	if (json_object_get(v, "placement") &&
	    assay_cfg_enum(c, v, path, "placement", ASSAY_CFG_REQUIRED, placements, &placement) < 0)
		return -1;
	if (json_object_get(v, "busbw") && json_object_get(v, "bus_bw"))
		return assay_cfg_fail(c, path, "both busbw and bus_bw: give one");
	bool any = false;
	static const char *const metrics[] = {"busbw", "bus_bw", "time_us"};
	for (size_t i = 0; i < ARRAY_SIZE(metrics); i++) {
		const json_t *m = json_object_get(v, metrics[i]);
		if (!m)
			continue;
		char mp[512];
		assay_json_path_key(mp, sizeof(mp), path, metrics[i]);
		if (parse_sizes(c, t, op, m, mp, i == 2, placement) < 0)
			return -1;
		any = true;
	}
	if (!any)
		return assay_cfg_fail(c, path, "expected busbw (or bus_bw) or time_us");
	return 0;
}

/* CVS: the rccl config ({"rccl": {..., "results": {...}}}), or its results
 * object alone (every key a program, "all_reduce_perf"). */
static bool cvs_shape(const json_t *doc)
{
	if (json_object_get(doc, "rccl"))
		return true;
	const char *k;
	json_t *v;
	bool any = false;
	json_object_foreach((json_t *)doc, k, v)
	{
		if (k[0] == '_')
			continue;
		size_t n = strlen(k);
		if (n <= 5 || strcmp(k + n - 5, "_perf"))
			return false;
		any = true;
	}
	return any;
}

/* A CVS switch: CVS tests re.search('True', value, re.I); def when absent. */
static int cvs_switch(struct assay_cfg *c, const json_t *params, const char *key, bool def,
		      bool *out)
{
	const json_t *v = params ? json_object_get(params, key) : NULL;
	char kp[512];
	assay_json_path_key(kp, sizeof(kp), "$.rccl.cvs_params", key);
	*out = def;
	if (!v)
		return 0;
	if (json_is_boolean(v)) {
		*out = json_is_true(v);
		return 0;
	}
	if (!json_is_string(v))
		return assay_cfg_expected(c, kp, "\"True\" or \"False\"", v);
	const char *s = json_string_value(v);
	*out = false;
	for (; *s && !*out; s++)
		*out = !strncasecmp(s, "true", 4);
	return 0;
}

/* The whole CVS rccl config: its switches in rccl.cvs_params (verify_bus_bw
 * default off, the dip checks on, cvs/lib/rccl_lib.py), and its expected
 * results from cvs_params.results, where CVS's code reads them, else from
 * rccl.results, where CVS's shipped file puts them (docs/parity.md). */
static int parse_rccl(struct assay_cfg *c, struct assay_coll_thresholds *t, const json_t *r,
		      const json_t **ops, const char **base)
{
	if (!json_is_object(r))
		return assay_cfg_expected(c, "$.rccl", "an object (a CVS rccl config)", r);
	const json_t *params = json_object_get(r, "cvs_params");
	if (params && !json_is_object(params))
		return assay_cfg_expected(c, "$.rccl.cvs_params", "an object", params);
	if (cvs_switch(c, params, "verify_bus_bw", false, &t->enforce) < 0 ||
	    cvs_switch(c, params, "verify_bw_dip", true, &t->bw_dip) < 0 ||
	    cvs_switch(c, params, "verify_lat_dip", true, &t->lat_dip) < 0)
		return -1;
	*ops = params ? json_object_get(params, "results") : NULL;
	*base = "$.rccl.cvs_params.results";
	if (!*ops) {
		*ops = json_object_get(r, "results");
		*base = "$.rccl.results";
	}
	if (!json_is_object(*ops)) {
		if (*ops)
			return assay_cfg_expected(c, *base, "an object of rccl-tests programs",
						  *ops);
		return assay_cfg_fail(c, "$.rccl",
				      "missing key \"results\" (the expected bus bandwidth per "
				      "program and size, in cvs_params or beside it)");
	}
	return 0;
}

assay_err assay_coll_thresholds_parse(const json_t *doc, const char *file,
				      struct assay_coll_thresholds *t, struct assay_error *e)
{
	struct assay_cfg c = {file, e};
	memset(t, 0, sizeof(*t));
	t->file = xstrdup(file);
	t->enforce = true;
	const json_t *ops = doc;
	const char *base = "$";
	if (!json_is_object(doc)) {
		assay_cfg_expected(&c, "$", "an object of operations", doc);
		goto fail;
	}
	t->cvs = cvs_shape(doc);
	/* CVS's 5% tolerance and dip checks (its results object alone: its
	 * defaults, the dip checks on). */
	t->tolerance = t->cvs ? 0.95 : 1;
	t->bw_dip = t->lat_dip = t->cvs;
	if (json_object_get(doc, "rccl")) {
		if (parse_rccl(&c, t, json_object_get(doc, "rccl"), &ops, &base) < 0)
			goto fail;
	} else if (!t->cvs && json_object_get(doc, "enforce") &&
		   assay_cfg_bool(&c, doc, "$", "enforce", ASSAY_CFG_REQUIRED, &t->enforce) < 0) {
		goto fail;
	}
	t->v = xcalloc(1, sizeof(*t->v));
	const char *key;
	json_t *v;
	json_object_foreach((json_t *)ops, key, v)
	{
		if (key[0] == '_' || (ops == doc && !strcmp(key, "enforce")))
			continue;
		char p[512];
		assay_json_path_key(p, sizeof(p), base, key);
		if (parse_op(&c, t, key, v, p, t->cvs) < 0)
			goto fail;
	}
	if (!t->n) {
		assay_cfg_fail(&c, base,
			       "no threshold: expected operations with sizes, e.g. "
			       "{\"all_reduce\": {\"busbw\": {\"1048576\": 40}}}");
		goto fail;
	}
	return ASSAY_OK;
fail:
	assay_coll_thresholds_release(t);
	return ASSAY_USAGE;
}

assay_err assay_coll_thresholds_load(const char *file, struct assay_coll_thresholds *t,
				     struct assay_error *e)
{
	memset(t, 0, sizeof(*t));
	json_t *doc = assay_json_load_file(file, e);
	if (!doc)
		return ASSAY_USAGE;
	assay_err rc = assay_coll_thresholds_parse(doc, file, t, e);
	json_decref(doc);
	return rc;
}

void assay_coll_thresholds_release(struct assay_coll_thresholds *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->v[i].operation);
	free(t->v);
	free(t->file);
	memset(t, 0, sizeof(*t));
}

bool assay_coll_thresholds_has(const struct assay_coll_thresholds *t, const char *operation)
{
	for (size_t i = 0; t && i < t->n; i++)
		if (!strcmp(t->v[i].operation, operation))
			return true;
	return false;
}

static long long row_bytes(const struct assay_row *r)
{
	const json_t *b = json_object_get(r->series, "bytes");
	return json_is_integer(b) ? (long long)json_integer_value(b) : -1;
}

static const char *row_str(const struct assay_row *r, const char *key)
{
	const char *s = json_string_value(json_object_get(r->series, key));
	return s ? s : "";
}

static bool row_is(const struct assay_row *r, const char *metric, const char *statistic)
{
	return !strcmp(r->metric, metric) && !strcmp(r->statistic, statistic);
}

size_t assay_gate_coll_correctness(const struct assay_rows *rows, struct assay_verdicts *out)
{
	size_t n = 0;
	for (size_t i = 0; i < rows->n; i++) {
		const struct assay_row *r = &rows->v[i];
		if (!row_is(r, "wrong", "count") || !(r->value > 0))
			continue;
		struct assay_verdict *v = assay_verdicts_add(
		    out, ASSAY_VERDICT_FAIL, "correctness", "wrong/count", r->value, r->unit,
		    "<= 0", "%s at %lld B, %s: %.0f wrong elements (#wrong)",
		    row_str(r, "collective"), row_bytes(r), row_str(r, "placement"), r->value);
		v->series_key = xstrdup(r->series_key);
		n++;
	}
	return n;
}

/* A row of another operation (a file with several tables) is not judged. */
static bool other_op(const struct assay_row *r, const char *operation)
{
	const char *op = json_string_value(json_object_get(r->series, "collective"));
	return op && strcmp(op, operation);
}

static bool swept(const long long *sizes, size_t n, long long bytes)
{
	if (!sizes)
		return true;
	for (size_t i = 0; i < n; i++)
		if (sizes[i] == bytes)
			return true;
	return false;
}

/* One size's row against its limit; CVS fails a busbw only below 0.95 x
 * the expected value (cvs/lib/rccl_lib.py, check_bus_bw). */
static void judge_size(const struct assay_coll_thresholds *t, const struct assay_coll_threshold *th,
		       const struct assay_row *hit, const char *operation,
		       struct assay_verdicts *out)
{
	const char *metric = th->max_time ? "time_us" : "busbw";
	const char *unit = th->max_time ? "us" : "GB/s";
	double limit = th->max_time ? th->value : th->value * t->tolerance;
	bool ok = th->max_time ? hit->value <= limit : hit->value >= limit;
	char spec[64], mname[32], lim[64];
	snprintf(mname, sizeof(mname), "%s/mean", metric);
	if (limit != th->value) {
		snprintf(spec, sizeof(spec), ">= %g (%g x %g)", limit, th->value, t->tolerance);
		snprintf(lim, sizeof(lim), "%g (%g x %g)", limit, th->value, t->tolerance);
	} else {
		snprintf(spec, sizeof(spec), "%s %g", th->max_time ? "<=" : ">=", th->value);
		snprintf(lim, sizeof(lim), "%g", th->value);
	}
	struct assay_verdict *v = assay_verdicts_add(
	    out,
	    ok ? (t->enforce ? ASSAY_VERDICT_PASS : ASSAY_VERDICT_RECORD)
	       : (t->enforce ? ASSAY_VERDICT_FAIL : ASSAY_VERDICT_RECORD),
	    "threshold", mname, hit->value, unit, spec, "%s at %lld B, %s: %s %g %s %s %s",
	    operation, th->bytes, th->placement, metric, hit->value, unit,
	    ok ? (th->max_time ? "<=" : ">=") : (th->max_time ? ">" : "<"), lim);
	v->series_key = xstrdup(hit->series_key);
}

/* Whether bytes is a size with a busbw reference for operation. */
static bool referenced(const struct assay_coll_thresholds *t, const char *operation,
		       long long bytes)
{
	for (size_t i = 0; i < t->n; i++)
		if (!t->v[i].max_time && t->v[i].bytes == bytes &&
		    !strcmp(t->v[i].operation, operation))
			return true;
	return false;
}

/* CVS's dip checks (cvs/lib/rccl_lib.py, check_bw_dip, check_lat_dip): over
 * the judged placement's rows at the sizes of the reference, in the order
 * the benchmark printed them, a busbw below 0.95 x the previous one, or a
 * time below 0.95 x the previous one, fails. */
static void coll_dips(const struct assay_coll_thresholds *t, const char *operation,
		      const struct assay_rows *rows, bool lat, struct assay_verdicts *out)
{
	const char *metric = lat ? "time_us" : "busbw",
		   *judged = assay_coll_judged_placement(operation);
	const struct assay_row *last = NULL;
	char mname[32];
	snprintf(mname, sizeof(mname), "%s/mean", metric);
	for (size_t k = 0; k < rows->n; k++) {
		const struct assay_row *r = &rows->v[k];
		if (!row_is(r, metric, "mean") || strcmp(row_str(r, "placement"), judged) ||
		    other_op(r, operation) || !referenced(t, operation, row_bytes(r)))
			continue;
		if (last && last->value > 0) {
			double floor = last->value * 0.95;
			bool ok = !(r->value < floor);
			struct assay_verdict *v = assay_verdicts_add(
			    out, ok ? ASSAY_VERDICT_PASS : ASSAY_VERDICT_FAIL,
			    lat ? "lat-dip" : "bw-dip", mname, r->value, r->unit, "",
			    "%s at %lld B: %s %g %s %g (0.95 x %g at %lld B)", operation,
			    row_bytes(r), metric, r->value, ok ? ">=" : "<", floor, last->value,
			    row_bytes(last));
			v->series_key = xstrdup(r->series_key);
		}
		last = r;
	}
}

void assay_gate_coll_thresholds(const struct assay_coll_thresholds *t, const char *operation,
				const long long *sizes, size_t n, const struct assay_rows *rows,
				struct assay_verdicts *out)
{
	assay_gate_coll_correctness(rows, out);
	if (!t)
		return;
	const enum assay_verdict_status fail =
	    t->enforce ? ASSAY_VERDICT_FAIL : ASSAY_VERDICT_RECORD;
	for (size_t i = 0; i < t->n; i++) {
		const struct assay_coll_threshold *th = &t->v[i];
		if (strcmp(th->operation, operation))
			continue;
		const char *metric = th->max_time ? "time_us" : "busbw";
		const char *unit = th->max_time ? "us" : "GB/s";
		char spec[64], mname[32];
		snprintf(spec, sizeof(spec), "%s %g", th->max_time ? "<=" : ">=", th->value);
		snprintf(mname, sizeof(mname), "%s/mean", metric);
		const struct assay_row *hit = NULL;
		for (size_t k = 0; k < rows->n && !hit; k++) {
			const struct assay_row *r = &rows->v[k];
			if (row_is(r, metric, "mean") && row_bytes(r) == th->bytes &&
			    !other_op(r, operation) &&
			    !strcmp(row_str(r, "placement"), th->placement))
				hit = r;
		}
		if (!hit) {
			if (!swept(sizes, n, th->bytes))
				assay_verdicts_add(out, ASSAY_VERDICT_SKIPPED, "threshold", mname,
						   NAN, unit, spec,
						   "%s at %lld B, %s: not a size this case sweeps",
						   operation, th->bytes, th->placement);
			else
				assay_verdicts_add(out, fail, "threshold", mname, NAN, unit, spec,
						   "%s at %lld B, %s: missing (no row for the size "
						   "in the results)",
						   operation, th->bytes, th->placement);
			continue;
		}
		judge_size(t, th, hit, operation, out);
	}
	if (t->bw_dip)
		coll_dips(t, operation, rows, false, out);
	if (t->lat_dip)
		coll_dips(t, operation, rows, true, out);
	/* The judged placement's busbw at sizes no threshold names: recorded. */
	const char *judged = assay_coll_judged_placement(operation);
	for (size_t k = 0; k < rows->n; k++) {
		const struct assay_row *r = &rows->v[k];
		if (!row_is(r, "busbw", "mean") || strcmp(row_str(r, "placement"), judged) ||
		    other_op(r, operation))
			continue;
		bool named = false;
		for (size_t i = 0; i < t->n && !named; i++)
			named = !t->v[i].max_time && t->v[i].bytes == row_bytes(r) &&
				!strcmp(t->v[i].operation, operation) &&
				!strcmp(t->v[i].placement, judged);
		if (named)
			continue;
		struct assay_verdict *v = assay_verdicts_add(
		    out, ASSAY_VERDICT_RECORD, "threshold", "busbw/mean", r->value, r->unit, "",
		    "%s at %lld B, %s: no threshold for the size", operation, row_bytes(r), judged);
		v->series_key = xstrdup(r->series_key);
	}
}
