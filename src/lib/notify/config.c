/* The targets file (docs/notify.md): read whole and checked before anything
 * runs; every error names the file and the JSON path. URLs and tokens are
 * read from the environment variables the file names, and no message ever
 * quotes their values. */
#include <stdlib.h>
#include <string.h>

#include "assay/json.h"
#include "notify_int.h"

static const char *const top_keys[] = {"version",    "timeout_s", "retries", "backoff_s",
				       "report_url", "revision",  "targets", NULL};
static const char *const kind_names[] = {"regression", "recovered", "gate-failed",
					 "infra",      "published", NULL};
static const char *const common_keys[] = {"name",   "type",  "url_env", "token_env",
					  "events", "match", "ca_file", NULL};

const char *assay_notify_kind_name(enum assay_notify_kind k)
{
	return (unsigned)k < ASSAY_NOTIFY_KINDS ? kind_names[k] : "unknown";
}

int assay_notify_kind_parse(const char *s)
{
	for (int i = 0; i < ASSAY_NOTIFY_KINDS; i++)
		if (!strcmp(s, kind_names[i]))
			return i;
	return -1;
}

bool notify_loopback(const char *url)
{
	const char *h = strstr(url, "://");
	if (!h)
		return false;
	h += 3;
	const char *const hosts[] = {"127.0.0.1", "[::1]", "localhost"};
	for (size_t i = 0; i < ARRAY_SIZE(hosts); i++) {
		size_t n = strlen(hosts[i]);
		if (!strncmp(h, hosts[i], n) && (h[n] == ':' || h[n] == '/' || !h[n]))
			return true;
	}
	return false;
}

int notify_env_value(struct assay_cfg *c, const json_t *o, const char *path, const char *key,
		     bool need, char **name, char **out)
{
	const char *var = NULL;
	char kp[256];
	int rc = assay_cfg_string(c, o, path, key, need, &var);
	if (rc <= 0)
		return rc;
	assay_json_path_key(kp, sizeof(kp), path, key);
	if (!assay_env_name_valid(var))
		return assay_cfg_fail(
		    c, kp, "expected the name of an environment variable, got \"%s\"", var);
	const char *v = getenv(var);
	if (!v || !*v)
		return assay_cfg_fail(c, kp, "environment variable %s is not set", var);
	*name = xstrdup(var);
	*out = xstrdup(v);
	return 1;
}

int notify_check_url(struct assay_cfg *c, const char *kp, const char *what, const char *url)
{
	if (assay_starts_with(url, "https://") ||
	    (assay_starts_with(url, "http://") && notify_loopback(url)))
		return 0;
	return assay_cfg_fail(c, kp,
			      "%s must start with https:// (http:// only to 127.0.0.1, [::1] or "
			      "localhost)",
			      what);
}

static int target_events(struct assay_cfg *c, const json_t *o, const char *path,
			 struct assay_notify_target *t)
{
	struct strlist ev = STRLIST_INIT;
	int rc = assay_cfg_string_list(c, o, path, "events", ASSAY_CFG_OPTIONAL, kind_names, &ev);
	t->events = rc == 0 ? (1u << ASSAY_NOTIFY_REGRESSION) | (1u << ASSAY_NOTIFY_RECOVERED) |
				  (1u << ASSAY_NOTIFY_GATE_FAILED) | (1u << ASSAY_NOTIFY_INFRA)
			    : 0;
	for (size_t i = 0; i < ev.n; i++)
		t->events |= 1u << assay_notify_kind_parse(ev.v[i]);
	strlist_clear(&ev);
	if (rc < 0)
		return -1;
	rc = assay_cfg_string_list(c, o, path, "match", ASSAY_CFG_OPTIONAL, NULL, &t->match.match);
	for (size_t i = 0; rc > 0 && i < t->match.match.n; i++) {
		const char *m = t->match.match.v[i], *eq = strchr(m, '=');
		char kp[256], ip[256];
		assay_json_path_key(kp, sizeof(kp), path, "match");
		assay_json_path_index(ip, sizeof(ip), kp, i);
		if (!eq || eq == m)
			return assay_cfg_fail(c, ip, "expected FIELD=VALUE, got \"%s\"", m);
	}
	return rc < 0 ? -1 : 0;
}

/* Common keys, then the type's own, of target o at path. */
static int target_parse(struct assay_cfg *c, const json_t *o, const char *path,
			struct assay_notify_target *t)
{
	const char *name = NULL, *type = NULL, *ca = NULL;
	char kp[256], names[128];
	if (!json_is_object(o))
		return assay_cfg_expected(c, path, "an object", o);
	if (assay_cfg_string(c, o, path, "name", ASSAY_CFG_REQUIRED, &name) < 0 ||
	    assay_cfg_string(c, o, path, "type", ASSAY_CFG_REQUIRED, &type) < 0)
		return -1;
	t->name = xstrdup(name);
	snprintf(t->path, sizeof(t->path), "%s", path);
	if (!(t->type = notify_type_find(type))) {
		notify_type_names(names, sizeof(names));
		assay_json_path_key(kp, sizeof(kp), path, "type");
		return assay_cfg_fail(c, kp, "unknown target type \"%s\" (expected %s)", type,
				      names);
	}
	const char *keys[32];
	size_t n = 0;
	for (size_t i = 0; common_keys[i]; i++)
		keys[n++] = common_keys[i];
	for (size_t i = 0; t->type->keys && t->type->keys[i] && n + 1 < ARRAY_SIZE(keys); i++)
		keys[n++] = t->type->keys[i];
	keys[n] = NULL;
	if (assay_cfg_object(c, o, path, keys) < 0 ||
	    notify_env_value(c, o, path, "url_env", t->type->url, &t->url_env, &t->url) < 0 ||
	    notify_env_value(c, o, path, "token_env", t->type->token, &t->token_env, &t->token) <
		0 ||
	    target_events(c, o, path, t) < 0 ||
	    assay_cfg_string(c, o, path, "ca_file", ASSAY_CFG_OPTIONAL, &ca) < 0)
		return -1;
	t->ca_file = ca ? xstrdup(ca) : NULL;
	assay_json_path_key(kp, sizeof(kp), path, "url_env");
	if (t->url && !t->type->smtp) {
		char what[128];
		snprintf(what, sizeof(what), "the URL in %s", t->url_env);
		if (notify_check_url(c, kp, what, t->url) < 0)
			return -1;
	}
	return t->type->parse ? t->type->parse(c, o, path, t) : 0;
}

static int unique_names(struct assay_cfg *c, const struct assay_notify_config *nc)
{
	for (size_t i = 0; i < nc->n; i++)
		for (size_t j = 0; j < i; j++)
			if (!strcmp(nc->v[i].name, nc->v[j].name)) {
				char kp[256];
				assay_json_path_key(kp, sizeof(kp), nc->v[i].path, "name");
				return assay_cfg_fail(c, kp,
						      "target name \"%s\" is already used by %s",
						      nc->v[i].name, nc->v[j].path);
			}
	return 0;
}

static int top_parse(struct assay_cfg *c, const json_t *doc, struct assay_notify_config *nc)
{
	long long version = 1, retries = 3;
	const char *report = NULL, *rev = NULL;
	json_t *targets = NULL;
	if (assay_cfg_object(c, doc, "$", top_keys) < 0 ||
	    assay_cfg_int(c, doc, "$", "version", ASSAY_CFG_OPTIONAL, 1, 1, &version) < 0 ||
	    assay_cfg_number(c, doc, "$", "timeout_s", ASSAY_CFG_OPTIONAL, 0.1, 600,
			     &nc->timeout_s) < 0 ||
	    assay_cfg_int(c, doc, "$", "retries", ASSAY_CFG_OPTIONAL, 0, 10, &retries) < 0 ||
	    assay_cfg_number(c, doc, "$", "backoff_s", ASSAY_CFG_OPTIONAL, 0, 60, &nc->backoff_s) <
		0 ||
	    assay_cfg_string(c, doc, "$", "report_url", ASSAY_CFG_OPTIONAL, &report) < 0 ||
	    assay_cfg_string(c, doc, "$", "revision", ASSAY_CFG_OPTIONAL, &rev) < 0 ||
	    assay_cfg_member(c, doc, "$", "targets", ASSAY_CFG_REQUIRED, JSON_ARRAY, &targets) < 0)
		return -1;
	nc->retries = (int)retries;
	nc->report_url = report ? xstrdup(report) : NULL;
	nc->revision = rev ? xstrdup(rev) : NULL;
	if (report && notify_check_url(c, "$.report_url", "report_url", report) < 0)
		return -1;
	if (!json_array_size(targets))
		return assay_cfg_expected(c, "$.targets", "a non-empty array of targets", targets);
	nc->v = xcalloc(json_array_size(targets), sizeof(*nc->v));
	for (size_t i = 0; i < json_array_size(targets); i++) {
		char p[64];
		assay_json_path_index(p, sizeof(p), "$.targets", i);
		nc->n = i + 1;
		if (target_parse(c, json_array_get(targets, i), p, &nc->v[i]) < 0)
			return -1;
	}
	return unique_names(c, nc);
}

assay_err assay_notify_load(const char *file, struct assay_notify_config *nc, struct assay_error *e)
{
	memset(nc, 0, sizeof(*nc));
	nc->timeout_s = 10;
	nc->backoff_s = 0.5;
	nc->file = xstrdup(file);
	json_t *doc = assay_json_load_file(file, e);
	if (!doc)
		return e ? e->code : ASSAY_USAGE;
	struct assay_cfg c = {file, e};
	int rc = top_parse(&c, doc, nc);
	json_decref(doc);
	if (rc < 0) {
		assay_notify_config_release(nc);
		return ASSAY_USAGE;
	}
	return ASSAY_OK;
}

/* Free a secret after overwriting it. */
static void wipe(char *s)
{
	if (s) {
		volatile char *p = s;
		while (*p)
			*p++ = 0;
		free(s);
	}
}

void assay_notify_config_release(struct assay_notify_config *nc)
{
	for (size_t i = 0; i < nc->n; i++) {
		struct assay_notify_target *t = &nc->v[i];
		free(t->name);
		wipe(t->url);
		wipe(t->token);
		free(t->url_env);
		free(t->token_env);
		assay_series_filter_release(&t->match);
		free(t->ca_file);
		free(t->repo);
		free(t->context);
		free(t->mode);
		free(t->api);
		free(t->sha);
		free(t->from);
		free(t->user);
		strlist_clear(&t->to);
	}
	free(nc->v);
	free(nc->file);
	free(nc->report_url);
	free(nc->revision);
	memset(nc, 0, sizeof(*nc));
}
