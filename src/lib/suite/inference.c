/* Suites of kind "inference": a command suite (combos are the cells, argv
 * the benchmark client) with a "server" block: the command assay starts
 * before the first case, the health URL it waits for, and how long it gives
 * the server to stop. The run side is src/lib/run/infer.c. Format:
 * docs/inference.md. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/json.h"
#include "suite_int.h"

#define COMMON_KEYS                                                                                \
	"kind", "name", "description", "launcher", "store", "output", "cluster", "revision",       \
	    "signatures", "secrets", "env", "timeout_s", "gates", "raw_artifacts", "container",    \
	    "variants", "repeat", "expect"

const char *const assay_suite_inference_keys[] = {
    COMMON_KEYS, "combos",  "runs",          "argv",     "cwd",    "parser",  "results",
    "logs",      "context", "gpus_per_node", "training", "server", "servers", NULL};

static const char *const server_keys[] = {"argv",         "cwd",   "health",     "health_timeout_s",
					  "stop_grace_s", "nodes", "first_host", NULL};
static const char *const role_keys[] = {
    "role",         "argv",  "cwd",        "health", "health_timeout_s",
    "stop_grace_s", "nodes", "first_host", NULL};
/* What a server template may name: the run's, not a case's. */
static const char *const server_vars[] = {"RUN_ID", "OUT", "HOST", "RUN_DIR", NULL};

/* Every template of the server fills from the run's built-ins alone. */
static int check_template(struct assay_cfg *c, const char *tmpl, const char *path)
{
	json_t *vars = json_object();
	for (size_t i = 0; server_vars[i]; i++)
		json_object_set_new(vars, server_vars[i], json_string("x"));
	struct sbuf sb = SBUF_INIT;
	char *missing = NULL;
	int rc = assay_template_expand(tmpl, vars, &sb, &missing);
	sbuf_release(&sb);
	json_decref(vars);
	if (rc == 0)
		return 0;
	assay_cfg_fail(c, path,
		       "placeholder {%s} has no value (the server is the run's: {RUN_ID}, "
		       "{OUT}, {HOST} and {RUN_DIR})",
		       missing);
	free(missing);
	return -1;
}

static int parse_seconds(struct assay_cfg *c, const json_t *sv, const char *base, const char *key,
			 double def, double *out)
{
	char path[96];
	assay_json_path_key(path, sizeof(path), base, key);
	const json_t *v = json_object_get(sv, key);
	*out = def;
	if (!v)
		return 0;
	if (!json_is_number(v) || !(json_number_value(v) > 0) || !isfinite(json_number_value(v)))
		return assay_cfg_expected(c, path, "a number of seconds > 0", v);
	*out = json_number_value(v);
	return 0;
}

/* $.server.argv: strings (repeats allowed: "--dtype auto --kv-cache-dtype
 * auto"), the program first and not empty, each filled from the run's
 * built-ins alone. */
static int parse_argv(struct assay_cfg *c, const json_t *sv, const char *base, struct strlist *argv)
{
	const json_t *a = json_object_get(sv, "argv");
	char apath[96];
	assay_json_path_key(apath, sizeof(apath), base, "argv");
	if (!a)
		return assay_cfg_fail(c, base, "missing key \"argv\"");
	if (!json_is_array(a))
		return assay_cfg_expected(c, apath, "an array of strings", a);
	if (!json_array_size(a) || !json_string_length(json_array_get(a, 0)))
		return assay_cfg_fail(c, apath, "expected at least the program");
	for (size_t i = 0; i < json_array_size(a); i++) {
		char path[128];
		const json_t *v = json_array_get(a, i);
		assay_json_path_index(path, sizeof(path), apath, i);
		if (!json_is_string(v))
			return assay_cfg_expected(c, path, "a string", v);
		if (check_template(c, json_string_value(v), path) < 0)
			return -1;
		strlist_push(argv, json_string_value(v));
	}
	return 0;
}

/* One server at base ($.server or $.servers[i]), an object already. */
static int parse_server(struct assay_cfg *c, const json_t *sv, const char *base,
			struct assay_suite_infer *k)
{
	const char *str;
	char path[96];
	int rc;
	if (parse_argv(c, sv, base, &k->argv) < 0 ||
	    assay_cfg_string(c, sv, base, "health", ASSAY_CFG_REQUIRED, &str) < 0)
		return -1;
	assay_json_path_key(path, sizeof(path), base, "health");
	if (strncmp(str, "http://", 7))
		return assay_cfg_fail(
		    c, path, "expected an http:// URL (assay asks it with a plain GET), got \"%s\"",
		    str);
	k->health = xstrdup(str);
	if (check_template(c, k->health, path) < 0)
		return -1;
	if ((rc = assay_cfg_string(c, sv, base, "cwd", ASSAY_CFG_OPTIONAL, &str)) < 0)
		return -1;
	assay_json_path_key(path, sizeof(path), base, "cwd");
	if (rc) {
		k->cwd = xstrdup(str);
		if (check_template(c, k->cwd, path) < 0)
			return -1;
	}
	return parse_seconds(c, sv, base, "health_timeout_s", 600, &k->health_timeout_s) < 0 ||
		       parse_seconds(c, sv, base, "stop_grace_s", 30, &k->stop_grace_s) < 0
		   ? -1
		   : 0;
}

/* first_host: where on the launcher's hosts the server on nodes begins
 * (0-based); the launcher's check refuses one past its hosts. */
static int parse_first_host(struct assay_cfg *c, const json_t *sv, const char *base,
			    struct assay_suite_infer *k)
{
	const json_t *v = json_object_get(sv, "first_host");
	char path[96];
	assay_json_path_key(path, sizeof(path), base, "first_host");
	if (!v)
		return 0;
	if (!json_is_integer(v) || json_integer_value(v) < 0)
		return assay_cfg_expected(c, path, "an integer >= 0", v);
	k->first_host = json_integer_value(v);
	return 0;
}

/* nodes: the server on that many of the ssh launcher's hosts, one process
 * per node; its processes carry the label of a case named k->id ("server",
 * "server-<role>"), so no case may be named so. */
static int parse_nodes(struct assay_cfg *c, const json_t *sv, const char *base,
		       struct assay_suite *s, struct assay_suite_infer *k)
{
	const json_t *v = json_object_get(sv, "nodes");
	char path[96];
	assay_json_path_key(path, sizeof(path), base, v ? "nodes" : "first_host");
	if (!v && json_object_get(sv, "first_host"))
		return assay_cfg_fail(c, path,
				      "places a server on nodes, so \"nodes\" must be set too");
	if (!v)
		return 0;
	if (!json_is_integer(v) || json_integer_value(v) < 1)
		return assay_cfg_expected(c, path, "an integer >= 1", v);
	if (strcmp(s->launcher_name, "ssh"))
		return assay_cfg_fail(c, path,
				      "a server on nodes is started through the ssh launcher; "
				      "this suite's launcher is %s",
				      s->launcher_name);
	for (size_t i = 0; i < s->n_cases; i++)
		if (!strcmp(s->cases[i].id, k->id))
			return assay_cfg_fail(c, path,
					      "a case is named \"%s\", the name the "
					      "server's processes carry on the nodes: rename it",
					      k->id);
	k->nodes = json_integer_value(v);
	return parse_first_host(c, sv, base, k);
}

/* $.servers[i].role: a name for its folder and label, once in the list. */
static int parse_role(struct assay_cfg *c, const json_t *sv, const char *base,
		      const struct assay_suite *s, size_t i, struct assay_suite_infer *k)
{
	const char *role;
	char path[96];
	assay_json_path_key(path, sizeof(path), base, "role");
	if (assay_cfg_string(c, sv, base, "role", ASSAY_CFG_REQUIRED, &role) < 0)
		return -1;
	size_t n = strspn(role, "abcdefghijklmnopqrstuvwxyz0123456789_");
	if (!*role || role[n] || strlen(role) > 32)
		return assay_cfg_fail(c, path,
				      "expected a name of up to 32 lower-case letters, digits "
				      "and _ (it names the role's folder and label), got \"%s\"",
				      role);
	for (size_t j = 0; j < i; j++)
		if (!strcmp(s->infer[j].role, role))
			return assay_cfg_fail(c, path, "role \"%s\" is named twice", role);
	k->role = xstrdup(role);
	k->id = xasprintf("server-%s", role);
	return 0;
}

/* $.server (one server) or $.servers (role servers, started in order):
 * exactly one of them. */
static int parse_servers(struct assay_cfg *c, const json_t *doc, struct assay_suite *s)
{
	json_t *one = json_object_get(doc, "server"), *list = json_object_get(doc, "servers");
	if (one && list)
		return assay_cfg_fail(c, "$.servers",
				      "a suite has \"server\" (one server) or \"servers\" (role "
				      "servers), not both");
	if (!list) {
		s->infer = xcalloc(1, sizeof(*s->infer));
		s->n_infer = 1;
		s->infer->id = xstrdup("server");
		return assay_cfg_member(c, doc, "$", "server", ASSAY_CFG_REQUIRED, JSON_OBJECT,
					&one) < 0 ||
			       assay_cfg_object(c, one, "$.server", server_keys) < 0 ||
			       parse_server(c, one, "$.server", s->infer) < 0
			   ? -1
			   : 0;
	}
	if (!json_is_array(list) || !json_array_size(list))
		return assay_cfg_expected(c, "$.servers", "a non-empty array of role servers",
					  list);
	s->n_infer = json_array_size(list);
	s->infer = xcalloc(s->n_infer, sizeof(*s->infer));
	for (size_t i = 0; i < s->n_infer; i++) {
		char base[64];
		const json_t *sv = json_array_get(list, i);
		assay_json_path_index(base, sizeof(base), "$.servers", i);
		if (!json_is_object(sv))
			return assay_cfg_expected(c, base, "an object", sv);
		if (assay_cfg_object(c, sv, base, role_keys) < 0 ||
		    parse_role(c, sv, base, s, i, &s->infer[i]) < 0 ||
		    parse_server(c, sv, base, &s->infer[i]) < 0)
			return -1;
	}
	return 0;
}

int suite_parse_inference(struct assay_cfg *c, const json_t *doc, struct assay_suite *s)
{
	if (parse_servers(c, doc, s) < 0)
		return -1;
	/* The cases, the client's argv and the results: the command kind's
	 * (the keys it reads and inference has not are refused above). */
	if (suite_parse_command(c, doc, s) < 0)
		return -1;
	const json_t *list = json_object_get(doc, "servers");
	for (size_t i = 0; i < s->n_infer; i++) {
		char base[64];
		const json_t *sv = list ? json_array_get(list, i) : json_object_get(doc, "server");
		if (list)
			assay_json_path_index(base, sizeof(base), "$.servers", i);
		else
			snprintf(base, sizeof(base), "$.server");
		if (parse_nodes(c, sv, base, s, &s->infer[i]) < 0)
			return -1;
	}
	return 0;
}

void suite_plan_inference(const struct assay_suite *s, const json_t *vars,
			  struct assay_case_plan *p)
{
	/* Each server's output while the case runs is watched for the suite's
	 * signatures, and a copy kept in the case's logs/. */
	const char *case_dir = json_string_value(json_object_get(vars, "CASE_DIR"));
	const char *slash = case_dir ? strrchr(case_dir, '/') : NULL;
	if (!slash)
		return;
	for (size_t i = 0; i < s->n_infer; i++) {
		char *log = xasprintf("%.*s/%s/server.log", (int)(slash - case_dir), case_dir,
				      s->infer[i].id);
		strlist_push(&p->logs, log);
		free(log);
	}
}

void suite_infer_release(struct assay_suite_infer *k, size_t n)
{
	if (!k)
		return;
	for (size_t i = 0; i < n; i++) {
		strlist_clear(&k[i].argv);
		free(k[i].cwd);
		free(k[i].health);
		free(k[i].role);
		free(k[i].id);
	}
	free(k);
}
