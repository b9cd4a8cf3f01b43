/* Typed, range-checked access to config members with errors that name the
 * file and JSON path (see include/assay/cfg.h). */
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/cfg.h"
#include "assay/json.h"

int assay_cfg_fail(struct assay_cfg *c, const char *path, const char *fmt, ...)
{
	char msg[900];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	assay_error_at(c->err, ASSAY_USAGE, c->file, path, 0, "%s", msg);
	return -1;
}

int assay_cfg_expected(struct assay_cfg *c, const char *path, const char *what, const json_t *v)
{
	char brief[80];
	return assay_cfg_fail(c, path, "expected %s, got %s", what,
			      assay_json_brief(v, brief, sizeof(brief)));
}

int assay_cfg_object(struct assay_cfg *c, const json_t *v, const char *path,
		     const char *const keys[])
{
	if (!json_is_object(v))
		return assay_cfg_expected(c, path, "an object", v);
	const char *k;
	json_t *child;
	json_object_foreach((json_t *)v, k, child)
	{
		bool ok = false;
		for (size_t i = 0; keys && keys[i]; i++)
			if (!strcmp(keys[i], k))
				ok = true;
		if (ok)
			continue;
		char p[256];
		assay_json_path_key(p, sizeof(p), path, k);
		struct sbuf sb = SBUF_INIT;
		for (size_t i = 0; keys && keys[i]; i++)
			sbuf_addf(&sb, "%s%s", i ? ", " : "", keys[i]);
		assay_cfg_fail(c, p, "unknown key (expected one of: %s)", sbuf_str(&sb));
		sbuf_release(&sb);
		return -1;
	}
	return 0;
}

/* Look up key; -1 on error (missing and required), 0 absent, 1 present. */
static int lookup(struct assay_cfg *c, const json_t *obj, const char *path, const char *key,
		  int flags, const char *what, char *kpath, size_t ksize, json_t **v)
{
	assay_json_path_key(kpath, ksize, path, key);
	*v = json_object_get(obj, key);
	if (*v)
		return 1;
	if (flags & ASSAY_CFG_REQUIRED)
		return assay_cfg_fail(c, kpath, "missing (expected %s)", what);
	return 0;
}

void assay_cfg_int_range_words(long long min, long long max, char *buf, size_t size)
{
	if (min == 1 && max == LLONG_MAX)
		snprintf(buf, size, "a positive integer");
	else if (min == 0 && max == LLONG_MAX)
		snprintf(buf, size, "a non-negative integer");
	else if (max == LLONG_MAX)
		snprintf(buf, size, "an integer >= %lld", min);
	else if (min == LLONG_MIN)
		snprintf(buf, size, "an integer <= %lld", max);
	else
		snprintf(buf, size, "an integer from %lld to %lld", min, max);
}

static int check_int(struct assay_cfg *c, const json_t *v, const char *path, long long min,
		     long long max, long long *out)
{
	char what[96];
	assay_cfg_int_range_words(min, max, what, sizeof(what));
	if (!json_is_integer(v))
		return assay_cfg_expected(c, path, what, v);
	long long x = json_integer_value(v);
	if (x < min || x > max)
		return assay_cfg_expected(c, path, what, v);
	*out = x;
	return 1;
}

int assay_cfg_int(struct assay_cfg *c, const json_t *obj, const char *path, const char *key,
		  int flags, long long min, long long max, long long *out)
{
	char what[96], kp[256];
	json_t *v;
	assay_cfg_int_range_words(min, max, what, sizeof(what));
	int rc = lookup(c, obj, path, key, flags, what, kp, sizeof(kp), &v);
	if (rc <= 0)
		return rc;
	return check_int(c, v, kp, min, max, out);
}

int assay_cfg_number(struct assay_cfg *c, const json_t *obj, const char *path, const char *key,
		     int flags, double min, double max, double *out)
{
	char what[128], kp[256];
	if (min == -INFINITY && max == INFINITY)
		snprintf(what, sizeof(what), "a number");
	else if (max == INFINITY)
		snprintf(what, sizeof(what), "a number >= %g", min);
	else if (min == -INFINITY)
		snprintf(what, sizeof(what), "a number <= %g", max);
	else
		snprintf(what, sizeof(what), "a number from %g to %g", min, max);
	json_t *v;
	int rc = lookup(c, obj, path, key, flags, what, kp, sizeof(kp), &v);
	if (rc <= 0)
		return rc;
	if (!json_is_number(v))
		return assay_cfg_expected(c, kp, what, v);
	double x = json_number_value(v);
	if (!(x >= min && x <= max))
		return assay_cfg_expected(c, kp, what, v);
	*out = x;
	return 1;
}

int assay_cfg_bool(struct assay_cfg *c, const json_t *obj, const char *path, const char *key,
		   int flags, bool *out)
{
	char kp[256];
	json_t *v;
	int rc = lookup(c, obj, path, key, flags, "true or false", kp, sizeof(kp), &v);
	if (rc <= 0)
		return rc;
	if (!json_is_boolean(v))
		return assay_cfg_expected(c, kp, "true or false", v);
	*out = json_is_true(v);
	return 1;
}

int assay_cfg_string(struct assay_cfg *c, const json_t *obj, const char *path, const char *key,
		     int flags, const char **out)
{
	char kp[256];
	json_t *v;
	int rc = lookup(c, obj, path, key, flags, "a non-empty string", kp, sizeof(kp), &v);
	if (rc <= 0)
		return rc;
	if (!json_is_string(v) || !json_string_length(v))
		return assay_cfg_expected(c, kp, "a non-empty string", v);
	if (strlen(json_string_value(v)) != json_string_length(v))
		return assay_cfg_fail(c, kp, "expected a string without NUL bytes");
	*out = json_string_value(v);
	return 1;
}

static void enum_words(const char *const values[], char *buf, size_t size)
{
	struct sbuf sb = SBUF_INIT;
	size_t n = 0;
	while (values[n])
		n++;
	sbuf_adds(&sb, n == 1 ? "" : "one of ");
	for (size_t i = 0; i < n; i++)
		sbuf_addf(&sb, "%s\"%s\"", i ? ", " : "", values[i]);
	snprintf(buf, size, "%s", sbuf_str(&sb));
	sbuf_release(&sb);
}

int assay_cfg_enum(struct assay_cfg *c, const json_t *obj, const char *path, const char *key,
		   int flags, const char *const values[], const char **out)
{
	char what[512], kp[256];
	json_t *v;
	enum_words(values, what, sizeof(what));
	int rc = lookup(c, obj, path, key, flags, what, kp, sizeof(kp), &v);
	if (rc <= 0)
		return rc;
	if (json_is_string(v))
		for (size_t i = 0; values[i]; i++)
			if (!strcmp(values[i], json_string_value(v))) {
				*out = values[i];
				return 1;
			}
	return assay_cfg_expected(c, kp, what, v);
}

static const char *type_words(json_type t)
{
	switch (t) {
	case JSON_OBJECT: return "an object";
	case JSON_ARRAY: return "an array";
	case JSON_STRING: return "a string";
	case JSON_INTEGER: return "an integer";
	case JSON_REAL: return "a number";
	case JSON_TRUE:
	case JSON_FALSE: return "true or false";
	case JSON_NULL: return "null";
	}
	return "a value";
}

int assay_cfg_member(struct assay_cfg *c, const json_t *obj, const char *path, const char *key,
		     int flags, json_type type, json_t **out)
{
	char kp[256];
	json_t *v;
	int rc = lookup(c, obj, path, key, flags, type_words(type), kp, sizeof(kp), &v);
	if (rc <= 0)
		return rc;
	bool ok = json_typeof(v) == type || (type == JSON_REAL && json_is_number(v)) ||
		  (type == JSON_TRUE && json_is_boolean(v));
	if (!ok)
		return assay_cfg_expected(c, kp, type_words(type), v);
	*out = v;
	return 1;
}

int assay_cfg_int_list(struct assay_cfg *c, const json_t *obj, const char *path, const char *key,
		       int flags, long long min, long long max, long long **out, size_t *n)
{
	char kp[256], what[128];
	json_t *v;
	assay_cfg_int_range_words(min, max, what, sizeof(what));
	int rc =
	    lookup(c, obj, path, key, flags, "a non-empty array of integers", kp, sizeof(kp), &v);
	if (rc <= 0)
		return rc;
	if (!json_is_array(v) || !json_array_size(v))
		return assay_cfg_expected(c, kp, "a non-empty array of integers", v);
	size_t count = json_array_size(v);
	long long *vals = xcalloc(count, sizeof(*vals));
	for (size_t i = 0; i < count; i++) {
		char ip[256];
		assay_json_path_index(ip, sizeof(ip), kp, i);
		if (check_int(c, json_array_get(v, i), ip, min, max, &vals[i]) < 0) {
			free(vals);
			return -1;
		}
		for (size_t j = 0; j < i; j++)
			if (vals[j] == vals[i]) {
				long long dup = vals[j];
				free(vals);
				return assay_cfg_fail(c, ip, "duplicate value %lld", dup);
			}
	}
	*out = vals;
	*n = count;
	return 1;
}

int assay_cfg_string_list(struct assay_cfg *c, const json_t *obj, const char *path, const char *key,
			  int flags, const char *const values[], struct strlist *out)
{
	char kp[256];
	json_t *v;
	int rc =
	    lookup(c, obj, path, key, flags, "a non-empty array of strings", kp, sizeof(kp), &v);
	if (rc <= 0)
		return rc;
	if (!json_is_array(v) || !json_array_size(v))
		return assay_cfg_expected(c, kp, "a non-empty array of strings", v);
	struct strlist seen = STRLIST_INIT;
	for (size_t i = 0; i < json_array_size(v); i++) {
		char ip[256], what[512];
		json_t *item = json_array_get(v, i);
		assay_json_path_index(ip, sizeof(ip), kp, i);
		if (!json_is_string(item) || !json_string_length(item)) {
			strlist_clear(&seen);
			return assay_cfg_expected(c, ip, "a non-empty string", item);
		}
		const char *s = json_string_value(item);
		if (values) {
			bool ok = false;
			for (size_t j = 0; values[j]; j++)
				if (!strcmp(values[j], s))
					ok = true;
			if (!ok) {
				strlist_clear(&seen);
				enum_words(values, what, sizeof(what));
				return assay_cfg_expected(c, ip, what, item);
			}
		}
		if (strlist_has(&seen, s)) {
			strlist_clear(&seen);
			return assay_cfg_fail(c, ip, "duplicate value \"%s\"", s);
		}
		strlist_push(&seen, s);
	}
	for (size_t i = 0; i < seen.n; i++)
		strlist_push(out, seen.v[i]);
	strlist_clear(&seen);
	return 1;
}
