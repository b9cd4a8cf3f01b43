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
    COMMON_KEYS, "combos",  "runs",          "argv",     "cwd",    "parser", "results",
    "logs",      "context", "gpus_per_node", "training", "server", NULL};

static const char *const server_keys[] = {"argv",         "cwd",   "health",     "health_timeout_s",
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

static int parse_seconds(struct assay_cfg *c, const json_t *sv, const char *key, double def,
			 double *out)
{
	char path[64];
	assay_json_path_key(path, sizeof(path), "$.server", key);
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
static int parse_argv(struct assay_cfg *c, const json_t *sv, struct strlist *argv)
{
	const json_t *a = json_object_get(sv, "argv");
	if (!a)
		return assay_cfg_fail(c, "$.server", "missing key \"argv\"");
	if (!json_is_array(a))
		return assay_cfg_expected(c, "$.server.argv", "an array of strings", a);
	if (!json_array_size(a) || !json_string_length(json_array_get(a, 0)))
		return assay_cfg_fail(c, "$.server.argv", "expected at least the program");
	for (size_t i = 0; i < json_array_size(a); i++) {
		char path[64];
		const json_t *v = json_array_get(a, i);
		assay_json_path_index(path, sizeof(path), "$.server.argv", i);
		if (!json_is_string(v))
			return assay_cfg_expected(c, path, "a string", v);
		if (check_template(c, json_string_value(v), path) < 0)
			return -1;
		strlist_push(argv, json_string_value(v));
	}
	return 0;
}

static int parse_server(struct assay_cfg *c, const json_t *doc, struct assay_suite_infer *k)
{
	json_t *sv;
	const char *str;
	int rc;
	if (assay_cfg_member(c, doc, "$", "server", ASSAY_CFG_REQUIRED, JSON_OBJECT, &sv) < 0 ||
	    assay_cfg_object(c, sv, "$.server", server_keys) < 0 || parse_argv(c, sv, &k->argv) < 0)
		return -1;
	if (assay_cfg_string(c, sv, "$.server", "health", ASSAY_CFG_REQUIRED, &str) < 0)
		return -1;
	if (strncmp(str, "http://", 7))
		return assay_cfg_fail(
		    c, "$.server.health",
		    "expected an http:// URL (assay asks it with a plain GET), got \"%s\"", str);
	k->health = xstrdup(str);
	if (check_template(c, k->health, "$.server.health") < 0)
		return -1;
	if ((rc = assay_cfg_string(c, sv, "$.server", "cwd", ASSAY_CFG_OPTIONAL, &str)) < 0)
		return -1;
	if (rc) {
		k->cwd = xstrdup(str);
		if (check_template(c, k->cwd, "$.server.cwd") < 0)
			return -1;
	}
	return parse_seconds(c, sv, "health_timeout_s", 600, &k->health_timeout_s) < 0 ||
		       parse_seconds(c, sv, "stop_grace_s", 30, &k->stop_grace_s) < 0
		   ? -1
		   : 0;
}

/* $.server.first_host: where on the launcher's hosts the server on nodes
 * begins (0-based); the launcher's check refuses one past its hosts. */
static int parse_first_host(struct assay_cfg *c, const json_t *doc, struct assay_suite *s)
{
	const json_t *v = json_object_get(json_object_get(doc, "server"), "first_host");
	if (!v)
		return 0;
	if (!json_is_integer(v) || json_integer_value(v) < 0)
		return assay_cfg_expected(c, "$.server.first_host", "an integer >= 0", v);
	s->infer->first_host = json_integer_value(v);
	return 0;
}

/* $.server.nodes: the server on that many of the ssh launcher's hosts, one
 * process per node; its processes carry the label of a case named
 * "server", so no case may be named so. */
static int parse_nodes(struct assay_cfg *c, const json_t *doc, struct assay_suite *s)
{
	const json_t *v = json_object_get(json_object_get(doc, "server"), "nodes");
	if (!v && json_object_get(json_object_get(doc, "server"), "first_host"))
		return assay_cfg_fail(c, "$.server.first_host",
				      "places a server on nodes, so \"nodes\" must be set too");
	if (!v)
		return 0;
	if (!json_is_integer(v) || json_integer_value(v) < 1)
		return assay_cfg_expected(c, "$.server.nodes", "an integer >= 1", v);
	if (strcmp(s->launcher_name, "ssh"))
		return assay_cfg_fail(c, "$.server.nodes",
				      "a server on nodes is started through the ssh launcher; "
				      "this suite's launcher is %s",
				      s->launcher_name);
	for (size_t i = 0; i < s->n_cases; i++)
		if (!strcmp(s->cases[i].id, "server"))
			return assay_cfg_fail(c, "$.server.nodes",
					      "a case is named \"server\", the name the "
					      "server's processes carry on the nodes: rename it");
	s->infer->nodes = json_integer_value(v);
	return parse_first_host(c, doc, s);
}

int suite_parse_inference(struct assay_cfg *c, const json_t *doc, struct assay_suite *s)
{
	s->infer = xcalloc(1, sizeof(*s->infer));
	if (parse_server(c, doc, s->infer) < 0)
		return -1;
	/* The cases, the client's argv and the results: the command kind's
	 * (the keys it reads and inference has not are refused above). */
	if (suite_parse_command(c, doc, s) < 0)
		return -1;
	return parse_nodes(c, doc, s);
}

void suite_plan_inference(const struct assay_suite *s, const json_t *vars,
			  struct assay_case_plan *p)
{
	(void)s;
	/* The server's output while the case runs is watched for the suite's
	 * signatures, and a copy kept in the case's logs/. */
	const char *case_dir = json_string_value(json_object_get(vars, "CASE_DIR"));
	const char *slash = case_dir ? strrchr(case_dir, '/') : NULL;
	if (!slash)
		return;
	char *log = xasprintf("%.*s/server/server.log", (int)(slash - case_dir), case_dir);
	strlist_push(&p->logs, log);
	free(log);
}

void suite_infer_release(struct assay_suite_infer *k)
{
	if (!k)
		return;
	strlist_clear(&k->argv);
	free(k->cwd);
	free(k->health);
	free(k);
}
