/* Format "nccl-tests": the JSON that nccl-tests and rccl-tests write with -J
 * (version 2: args, config with devices, results per message size with
 * out_of_place and in_place time, alg_bw, bus_bw and nwrong, and the
 * average bus bandwidth; assay-coll adds a top-level "collective"). Scale comes from the devices
 * (hosts x ranks per host), precision from the data type. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "assay/cfg.h"
#include "assay/collective.h"
#include "assay/json.h"
#include "peer.h"

const char *const assay_nccl_tests_metrics[] = {
    "time_us/mean", "cpu_time_us/mean", "algbw/mean", "busbw/mean",
    "wrong/count",  "busbw/average",    NULL};

/* A number, or nccl-tests' "nan" for an unmeasured one: 1 number, 0 nan/null, -1 bad. */
static int num(struct assay_cfg *c, const json_t *o, const char *path, const char *k, double *out)
{
	const json_t *v = json_object_get(o, k);
	if (!v || json_is_null(v) || (json_is_string(v) && !strcmp(json_string_value(v), "nan")))
		return 0;
	if (assay_cfg_number(c, o, path, k, ASSAY_CFG_REQUIRED, -INFINITY, INFINITY, out) < 0)
		return -1;
	return 1;
}

/* The collective: "all_reduce" from args[0] ".../all_reduce_perf". */
static bool collective(const json_t *doc, char *out, size_t size)
{
	/* assay-coll names it at the top level (its args[0] is assay-coll). */
	const json_t *named = json_object_get(doc, "collective");
	if (json_is_string(named) && assay_coll_known(json_string_value(named))) {
		snprintf(out, size, "%s", json_string_value(named));
		return true;
	}
	const json_t *a0 = json_array_get(json_object_get(doc, "args"), 0);
	if (!json_is_string(a0) || !json_string_length(a0))
		return false;
	const char *p = json_string_value(a0), *slash = strrchr(p, '/');
	snprintf(out, size, "%s", slash ? slash + 1 : p);
	size_t n = strlen(out);
	if (n > 5 && !strcmp(out + n - 5, "_perf"))
		out[n - 5] = '\0';
	if (n > 8 && !strcmp(out + n - 8, "_perf_mpi"))
		out[n - 8] = '\0';
	return out[0] != '\0';
}

/* "HxR" from config.devices: distinct hosts x ranks per host. */
static int scale_from_devices(struct assay_cfg *c, const json_t *doc, char *out, size_t size)
{
	const json_t *devs = json_object_get(json_object_get(doc, "config"), "devices");
	if (!devs)
		return 0;
	if (!json_is_array(devs) || !json_array_size(devs))
		return assay_cfg_expected(c, "$.config.devices", "a non-empty list of devices",
					  devs);
	struct strlist hosts = STRLIST_INIT;
	size_t i;
	const json_t *d;
	json_array_foreach(devs, i, d)
	{
		const char *h;
		char path[64];
		assay_json_path_index(path, sizeof(path), "$.config.devices", i);
		if (!json_is_object(d) ||
		    assay_cfg_string(c, d, path, "hostname", ASSAY_CFG_REQUIRED, &h) < 0) {
			if (!json_is_object(d))
				assay_cfg_expected(c, path, "a device object", d);
			strlist_clear(&hosts);
			return -1;
		}
		if (!strlist_has(&hosts, h))
			strlist_push(&hosts, h);
	}
	size_t nodes = hosts.n, ranks = json_array_size(devs);
	strlist_clear(&hosts);
	snprintf(out, size, "%zux%zu", nodes, (ranks + nodes - 1) / nodes);
	return 1;
}

static void add_row(struct assay_rows *tmp, const json_t *series, const char *metric,
		    const char *statistic, double v, const char *unit, enum assay_direction dir,
		    long long samples, const char *ts)
{
	struct assay_row *r = assay_rows_add(tmp);
	assay_row_set(r, json_deep_copy(series), metric, statistic, v, unit, dir);
	r->samples = samples > 0 ? samples : 1;
	r->timestamp = ts[0] ? xstrdup(ts) : NULL;
}

static int parse_result(struct assay_cfg *c, const json_t *res, const char *path,
			const json_t *base, const char *ts, struct assay_rows *tmp)
{
	static const char *const placements[][2] = {{"out_of_place", "out-of-place"},
						    {"in_place", "in-place"}};
	long long size, iters = 0;
	const char *type, *redop = NULL;
	char prec[64], kp[128];
	if (!json_is_object(res))
		return assay_cfg_expected(c, path, "a result object", res);
	if (assay_cfg_int(c, res, path, "size", ASSAY_CFG_REQUIRED, 0, INT64_MAX, &size) < 0 ||
	    assay_cfg_string(c, res, path, "type", ASSAY_CFG_REQUIRED, &type) < 0 ||
	    assay_cfg_string(c, res, path, "redop", ASSAY_CFG_OPTIONAL, &redop) < 0 ||
	    assay_cfg_int(c, res, path, "actual_iterations", ASSAY_CFG_OPTIONAL, 0, INT64_MAX,
			  &iters) < 0)
		return -1;
	json_t *series = json_deep_copy(base);
	peer_precision(type, prec, sizeof(prec));
	json_object_set_new(series, "precision", json_string(prec));
	json_object_set_new(series, "bytes", json_integer(size));
	if (redop && strcmp(redop, "none"))
		json_object_set_new(series, "redop", json_string(redop));
	const json_t *root = json_object_get(res, "root");
	long long rv;
	if (json_is_string(root)) {
		char *t = xstrdup(json_string_value(root));
		char *p = t;
		while (*p == ' ')
			p++;
		if (assay_parse_long(p, &rv) && rv >= 0)
			json_object_set_new(series, "root", json_integer(rv));
		free(t);
	} else if (json_is_integer(root) && json_integer_value(root) >= 0) {
		json_object_set_new(series, "root", json_integer(json_integer_value(root)));
	}
	for (size_t i = 0; i < ARRAY_SIZE(placements); i++) {
		const json_t *pl = json_object_get(res, placements[i][0]);
		if (!pl || json_is_null(pl))
			continue;
		assay_json_path_key(kp, sizeof(kp), path, placements[i][0]);
		if (!json_is_object(pl)) {
			assay_cfg_expected(c, kp, "an object or null", pl);
			goto fail;
		}
		json_t *s = json_deep_copy(series);
		json_object_set_new(s, "placement", json_string(placements[i][1]));
		double v;
		int rc;
		bool cpu = json_object_get(pl, "cpu_time") != NULL;
		if ((rc = num(c, pl, kp, cpu ? "cpu_time" : "time", &v)) < 0)
			goto fail_s;
		if (rc)
			add_row(tmp, s, cpu ? "cpu_time_us" : "time_us", "mean", v, "us",
				ASSAY_DIR_LOWER, iters, ts);
		if ((rc = num(c, pl, kp, "alg_bw", &v)) < 0)
			goto fail_s;
		if (rc)
			add_row(tmp, s, "algbw", "mean", v, "GB/s", ASSAY_DIR_HIGHER, iters, ts);
		if ((rc = num(c, pl, kp, "bus_bw", &v)) < 0)
			goto fail_s;
		if (rc)
			add_row(tmp, s, "busbw", "mean", v, "GB/s", ASSAY_DIR_HIGHER, iters, ts);
		if ((rc = num(c, pl, kp, "nwrong", &v)) < 0)
			goto fail_s;
		if (rc)
			add_row(tmp, s, "wrong", "count", v, "elements", ASSAY_DIR_LOWER, 1, ts);
		json_decref(s);
		continue;
	fail_s:
		json_decref(s);
		goto fail;
	}
	json_decref(series);
	return 0;
fail:
	json_decref(series);
	return -1;
}

assay_err assay_parse_nccl_tests(const char *data, size_t len, const struct assay_parse_opts *o,
				 struct assay_rows *out, struct assay_error *e)
{
	struct assay_cfg c = {o->file, e};
	struct assay_rows tmp = ASSAY_ROWS_INIT;
	json_t *doc = assay_json_loadb(data, len, o->file, e);
	if (!doc)
		return ASSAY_USAGE;
	char coll[128], scale[64], ts[32] = "";
	json_t *results, *base = json_object();
	int rc = -1;
	if (!json_is_object(doc)) {
		assay_cfg_expected(&c, "$", "an nccl-tests JSON object", doc);
		goto done;
	}
	if (!collective(doc, coll, sizeof(coll))) {
		assay_cfg_fail(&c, "$.args",
			       "expected the test program (e.g. all_reduce_perf) first");
		goto done;
	}
	if (assay_cfg_member(&c, doc, "$", "results", ASSAY_CFG_REQUIRED, JSON_ARRAY, &results) < 0)
		goto done;
	json_object_set_new(base, "workload", json_string("nccl-tests"));
	json_object_set_new(base, "collective", json_string(coll));
	const json_t *be = json_object_get(doc, "backend"); /* assay-coll's */
	if (json_is_string(be) && json_string_length(be) && json_string_length(be) < 32)
		json_object_set_new(base, "backend", json_string(json_string_value(be)));
	int sc = scale_from_devices(&c, doc, scale, sizeof(scale));
	if (sc < 0)
		goto done;
	if (sc)
		json_object_set_new(base, "scale", json_string(scale));
	const json_t *st = json_object_get(doc, "start_time");
	int64_t secs;
	/* nccl-tests writes local time without a zone; it is read as UTC. */
	if (json_is_string(st) && assay_time_parse(json_string_value(st), &secs))
		assay_time_rfc3339(secs, ts);
	size_t i;
	const json_t *res;
	rc = 0;
	json_array_foreach(results, i, res)
	{
		char path[64];
		assay_json_path_index(path, sizeof(path), "$.results", i);
		if ((rc = parse_result(&c, res, path, base, ts, &tmp)) < 0)
			break;
	}
	if (rc == 0) {
		const json_t *avg = json_object_get(doc, "average_bus_bandwidth");
		double v;
		int n = json_is_object(avg)
			    ? num(&c, avg, "$.average_bus_bandwidth", "bandwidth", &v)
			    : 0;
		/* The average is over every row: -d all's is under "all". */
		const json_t *first = json_array_get(results, 0);
		const char *type = json_string_value(json_object_get(first, "type"));
		for (size_t k = 1; type && k < json_array_size(results); k++) {
			const char *tk =
			    json_string_value(json_object_get(json_array_get(results, k), "type"));
			if (tk && strcmp(tk, type))
				type = "all";
		}
		if (n < 0) {
			rc = -1;
		} else if (n && type) {
			char prec[64];
			peer_precision(type, prec, sizeof(prec));
			json_object_set_new(base, "precision", json_string(prec));
			add_row(&tmp, base, "busbw", "average", v, "GB/s", ASSAY_DIR_HIGHER, 1, ts);
		}
	}
done:
	json_decref(base);
	json_decref(doc);
	if (rc < 0) {
		assay_rows_release(&tmp);
		return ASSAY_USAGE;
	}
	return peer_finish(&tmp, o, out, e);
}

bool assay_detect_nccl_tests(const char *data, size_t len)
{
	return len && data[0] == '{' && memmem(data, len, "\"nccl_version\"", 14) &&
	       memmem(data, len, "\"results\"", 9);
}
