/* assay publish --verify, the library half: re-check a publication folder
 * against its manifest (every file's SHA-256 and size, nothing missing or
 * extra, the manifest's own digest) and the schema of the manifest and of
 * every row (docs/publish.md, "Schema"). Never prints. */
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "assay/json.h"
#include "publish_int.h"

static bool is_hex64(const json_t *v)
{
	const char *s = json_string_value(v);
	if (!s || strlen(s) != 64)
		return false;
	for (int i = 0; i < 64; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return true;
}

/* What a key of an object must be. */
enum want { W_STR, W_STR_NULL, W_HEX, W_HEX_NULL, W_NUM, W_INT, W_OBJ, W_ARR };

static bool want_ok(const json_t *v, enum want w)
{
	switch (w) {
	case W_STR: return json_is_string(v);
	case W_STR_NULL: return json_is_string(v) || json_is_null(v);
	case W_HEX: return is_hex64(v);
	case W_HEX_NULL: return is_hex64(v) || json_is_null(v);
	case W_NUM: return json_is_number(v);
	case W_INT: return json_is_integer(v) && json_integer_value(v) >= 0;
	case W_OBJ: return json_is_object(v);
	case W_ARR: return json_is_array(v);
	}
	return false;
}

static const char *want_name(enum want w)
{
	static const char *const n[] = {
	    "a string", "a string or null",    "a SHA-256 in hex", "a SHA-256 or null",
	    "a number", "a whole number >= 0", "an object",        "an array"};
	return n[w];
}

struct key_want {
	const char *key;
	enum want w;
};

/* Every key of keys present with its type, and no other key. */
static bool check_keys(const json_t *o, const struct key_want *keys, const char *where,
		       struct assay_publish_result *res)
{
	if (!json_is_object(o))
		return pub_problem(res, "%s: expected an object", where);
	size_t n = 0;
	for (; keys[n].key; n++) {
		json_t *v = json_object_get(o, keys[n].key);
		if (!v)
			return pub_problem(res, "%s: no key %s", where, keys[n].key);
		if (!want_ok(v, keys[n].w))
			return pub_problem(res, "%s: %s: expected %s", where, keys[n].key,
					   want_name(keys[n].w));
	}
	if (json_object_size(o) != n)
		return pub_problem(res, "%s: keys other than the schema's", where);
	return true;
}

static const struct key_want manifest_keys[] = {{"schema", W_STR},
						{"status", W_STR},
						{"tag", W_STR_NULL},
						{"suite", W_STR},
						{"revision", W_STR_NULL},
						{"matrix_sha256", W_HEX_NULL},
						{"catalog_sha256", W_HEX_NULL},
						{"run_ids", W_ARR},
						{"series", W_INT},
						{"limits", W_OBJ},
						{"bootstrap", W_OBJ},
						{"assay_version", W_STR_NULL},
						{"files", W_OBJ},
						{"manifest_sha256", W_HEX},
						{NULL, 0}};
static const struct key_want limit_keys[] = {{"p50_spread", W_NUM},       {"p99_spread", W_NUM},
					     {"trial_drift", W_NUM},      {"mad_k", W_NUM},
					     {"outlier_fraction", W_NUM}, {NULL, 0}};
static const struct key_want boot_keys[] = {{"method", W_STR},    {"prng", W_STR},
					    {"resamples", W_INT}, {"level", W_NUM},
					    {"seed", W_INT},      {NULL, 0}};
static const struct key_want file_keys[] = {{"sha256", W_HEX}, {"bytes", W_INT}, {NULL, 0}};
static const struct key_want row_keys[] = {{"schema", W_STR},     {"series_key", W_HEX},
					   {"series", W_OBJ},     {"case_id", W_STR},
					   {"metric", W_STR},     {"statistic", W_STR},
					   {"unit", W_STR},       {"direction", W_STR},
					   {"value", W_NUM},      {"ci", W_OBJ},
					   {"run_values", W_ARR}, {"stability", W_OBJ},
					   {"provenance", W_OBJ}, {NULL, 0}};
static const struct key_want ci_keys[] = {{"method", W_STR}, {"level", W_NUM},     {"low", W_NUM},
					  {"high", W_NUM},   {"resamples", W_INT}, {"seed", W_INT},
					  {NULL, 0}};
static const struct key_want stab_keys[] = {{"spread", W_NUM},
					    {"spread_limit", W_NUM},
					    {"trial_drift", W_NUM},
					    {"trial_drift_limit", W_NUM},
					    {"trials", W_INT},
					    {"outliers", W_INT},
					    {"outlier_fraction", W_NUM},
					    {"outlier_limit", W_NUM},
					    {NULL, 0}};
static const struct key_want prov_keys[] = {{"suite", W_STR},
					    {"revision", W_STR_NULL},
					    {"matrix_sha256", W_HEX_NULL},
					    {"catalog_sha256", W_HEX_NULL},
					    {"run_ids", W_ARR},
					    {NULL, 0}};

/* The manifest: read, its own digest, its form and schema. */
static json_t *check_manifest(const char *dir, struct assay_publish_result *res)
{
	char *path = xasprintf("%s/manifest.json", dir);
	struct assay_error e;
	size_t len = 0;
	char *text = assay_read_file(path, &len, &e);
	free(path);
	if (!text) {
		pub_problem(res, "manifest.json: missing or unreadable");
		return NULL;
	}
	json_error_t je;
	json_t *m = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
	bool ok = m != NULL;
	if (!m)
		pub_problem(res, "manifest.json: line %d: not JSON: %s", je.line, je.text);
	if (ok)
		ok = check_keys(m, manifest_keys, "manifest.json", res) &&
		     check_keys(json_object_get(m, "limits"), limit_keys, "manifest.json: limits",
				res) &&
		     check_keys(json_object_get(m, "bootstrap"), boot_keys,
				"manifest.json: bootstrap", res);
	if (ok) {
		char stated[65], sha[65];
		snprintf(stated, sizeof(stated), "%s",
			 json_string_value(json_object_get(m, "manifest_sha256")));
		json_t *copy = json_deep_copy(m);
		char *want = pub_manifest_text(copy, sha);
		json_decref(copy);
		if (strcmp(stated, sha))
			ok = pub_problem(
			    res, "manifest.json: manifest_sha256 does not match its content");
		else if (strlen(want) != len || memcmp(want, text, len))
			ok = pub_problem(res, "manifest.json: not in canonical form (edited?)");
		free(want);
	}
	if (ok) {
		const char *st = json_string_value(json_object_get(m, "schema"));
		const char *status = json_string_value(json_object_get(m, "status"));
		if (strcmp(st, ASSAY_PUBLISH_MANIFEST_SCHEMA))
			ok = pub_problem(res, "manifest.json: schema %s, expected %s", st,
					 ASSAY_PUBLISH_MANIFEST_SCHEMA);
		else if (strcmp(status, "released") && strcmp(status, "unversioned"))
			ok = pub_problem(
			    res, "manifest.json: status %s, expected released or unversioned",
			    status);
		else if (!strcmp(status, "released") != json_is_string(json_object_get(m, "tag")))
			ok = pub_problem(
			    res,
			    "manifest.json: a tag goes with status released, and only with it");
	}
	if (ok) {
		json_t *ids = json_object_get(m, "run_ids");
		size_t i;
		json_t *v;
		if (json_array_size(ids) < 2)
			ok = pub_problem(res, "manifest.json: run_ids: expected 2 or more run ids");
		json_array_foreach(ids, i, v) if (ok && !json_is_string(v)) ok =
		    pub_problem(res, "manifest.json: run_ids[%zu]: expected a string", i);
	}
	free(text);
	if (!ok) {
		json_decref(m);
		return NULL;
	}
	return m;
}

/* One row's schema; false after one problem. */
static bool check_row(const json_t *row, const json_t *m, long line,
		      struct assay_publish_result *res)
{
	char where[64];
	snprintf(where, sizeof(where), "rows.ndjson: line %ld", line);
	if (!check_keys(row, row_keys, where, res))
		return false;
	if (strcmp(json_string_value(json_object_get(row, "schema")), ASSAY_PUBLISH_ROW_SCHEMA))
		return pub_problem(res, "%s: schema: expected %s", where, ASSAY_PUBLISH_ROW_SCHEMA);
	const char *dir = json_string_value(json_object_get(row, "direction"));
	if (strcmp(dir, "higher") && strcmp(dir, "lower"))
		return pub_problem(res, "%s: direction: expected higher or lower", where);
	char sub[96];
	snprintf(sub, sizeof(sub), "%s: ci", where);
	if (!check_keys(json_object_get(row, "ci"), ci_keys, sub, res))
		return false;
	snprintf(sub, sizeof(sub), "%s: stability", where);
	if (!check_keys(json_object_get(row, "stability"), stab_keys, sub, res))
		return false;
	snprintf(sub, sizeof(sub), "%s: provenance", where);
	const json_t *prov = json_object_get(row, "provenance");
	if (!check_keys(prov, prov_keys, sub, res))
		return false;
	const json_t *ids = json_object_get(m, "run_ids");
	if (!json_equal(json_object_get(prov, "run_ids"), (json_t *)ids))
		return pub_problem(res, "%s: provenance: run_ids differ from the manifest's",
				   where);
	static const char *const same[] = {"suite", "revision", "matrix_sha256", "catalog_sha256",
					   NULL};
	for (int i = 0; same[i]; i++)
		if (!json_equal(json_object_get(prov, same[i]), json_object_get(m, same[i])))
			return pub_problem(res, "%s: provenance: %s differs from the manifest's",
					   where, same[i]);
	const json_t *rv = json_object_get(row, "run_values");
	if (json_array_size(rv) != json_array_size(ids))
		return pub_problem(res, "%s: run_values: expected one value per run", where);
	size_t i;
	json_t *v;
	json_array_foreach(rv, i, v) if (!json_is_number(v)) return pub_problem(
	    res, "%s: run_values[%zu]: expected a number", where, i);
	return true;
}

static void check_rows(const char *text, size_t len, const json_t *m,
		       struct assay_publish_result *res)
{
	size_t pos = 0, n = 0;
	long line = 0;
	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		line++;
		if (!nl) {
			pub_problem(res, "rows.ndjson: line %ld: no newline at the end", line);
			return;
		}
		size_t ll = (size_t)(nl - (text + pos));
		json_error_t je;
		json_t *row = json_loadb(text + pos, ll, JSON_REJECT_DUPLICATES, &je);
		if (!row) {
			pub_problem(res, "rows.ndjson: line %ld: not JSON: %s", line, je.text);
			return;
		}
		char *canon = assay_json_canonical(row);
		bool ok = strlen(canon) == ll && !memcmp(canon, text + pos, ll);
		free(canon);
		if (!ok) {
			pub_problem(res, "rows.ndjson: line %ld: not in canonical form", line);
			json_decref(row);
			return;
		}
		ok = check_row(row, m, line, res);
		json_decref(row);
		if (!ok)
			return;
		n++;
		pos += ll + 1;
	}
	json_int_t want = json_integer_value(json_object_get(m, "series"));
	if ((json_int_t)n != want)
		pub_problem(res, "rows.ndjson: %zu rows, the manifest says %lld", n,
			    (long long)want);
}

/* Every file the manifest lists: digest, size, schema; none extra. */
static void check_files(const char *dir, const json_t *m, struct assay_publish_result *res)
{
	const json_t *files = json_object_get(m, "files");
	const char *name;
	json_t *f;
	bool released = !strcmp(json_string_value(json_object_get(m, "status")), "released");
	if (!json_object_get(files, "rows.ndjson"))
		pub_problem(res, "manifest.json: files: rows.ndjson is not listed");
	if (released != (json_object_get(files, "RELEASE") != NULL))
		pub_problem(res,
			    "manifest.json: files: a RELEASE marker goes with status released, "
			    "and only with it");
	json_object_foreach((json_t *)files, name, f)
	{
		char where[300];
		snprintf(where, sizeof(where), "manifest.json: files: %s", name);
		if (!check_keys(f, file_keys, where, res))
			continue;
		if (strchr(name, '/') || !strcmp(name, "manifest.json") || name[0] == '.') {
			pub_problem(res, "%s: not a file of the folder", where);
			continue;
		}
		char *path = xasprintf("%s/%s", dir, name);
		struct assay_error e;
		size_t len = 0;
		char *text = assay_read_file(path, &len, &e);
		free(path);
		if (!text) {
			pub_problem(res, "%s: missing", name);
			continue;
		}
		char sha[65];
		assay_sha256_hex(text, len, sha);
		if ((json_int_t)len != json_integer_value(json_object_get(f, "bytes")) ||
		    strcmp(sha, json_string_value(json_object_get(f, "sha256"))))
			pub_problem(res, "%s: SHA-256 or size differs from the manifest", name);
		else if (!strcmp(name, "rows.ndjson"))
			check_rows(text, len, m, res);
		else if (!strcmp(name, "RELEASE")) {
			json_t *rel = json_loadb(text, len, 0, NULL);
			if (!rel ||
			    !json_equal(json_object_get(rel, "tag"), json_object_get(m, "tag")) ||
			    !json_equal(json_object_get(rel, "matrix_sha256"),
					json_object_get(m, "matrix_sha256")))
				pub_problem(
				    res, "RELEASE: tag or matrix digest differs from the manifest");
			json_decref(rel);
		}
		free(text);
	}
	DIR *d = opendir(dir);
	struct dirent *de;
	while (d && (de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..") &&
		    strcmp(de->d_name, "manifest.json") && !json_object_get(files, de->d_name))
			pub_problem(res, "%s: not in the manifest", de->d_name);
	if (d)
		closedir(d);
}

assay_err assay_publish_verify(const char *dir, struct assay_publish_result *res,
			       struct assay_error *e)
{
	memset(res, 0, sizeof(*res));
	struct stat sb;
	if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode))
		return assay_error_set(e, ASSAY_USAGE, "%s: not a folder", dir);
	json_t *m = check_manifest(dir, res);
	if (m) {
		check_files(dir, m, res);
		snprintf(res->manifest_sha256, sizeof(res->manifest_sha256), "%s",
			 json_string_value(json_object_get(m, "manifest_sha256")));
		res->series = (size_t)json_integer_value(json_object_get(m, "series"));
		res->released =
		    !strcmp(json_string_value(json_object_get(m, "status")), "released");
		size_t i;
		json_t *v;
		json_array_foreach(json_object_get(m, "run_ids"), i, v)
		    strlist_push(&res->run_ids, json_string_value(v));
		json_decref(m);
	}
	if (res->problems.n)
		return assay_error_set(e, ASSAY_GATE_FAILED, "%s: %zu problem%s found", dir,
				       res->problems.n, res->problems.n == 1 ? "" : "s");
	return ASSAY_OK;
}
