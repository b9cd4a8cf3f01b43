/* Suite loading: the keys every suite has (launcher, store, output,
 * signatures, secrets, env, timeout, revision, cluster, expect), dispatch to the
 * kind ("ep" in ep.c, "command" in command.c, "collective" in collective.c), the
 * launcher's placement checks, the check that no secret's value is written in a
 * config file, and the release. Format: docs/suite.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "assay/json.h"
#include "assay/suite.h"
#include "suite_int.h"

#define COMMON_KEYS                                                                                \
	"kind", "name", "description", "launcher", "store", "output", "cluster", "revision",       \
	    "signatures", "secrets", "env", "timeout_s", "gates", "raw_artifacts", "container",    \
	    "variants", "repeat", "expect"

const char *const assay_suite_ep_keys[] = {COMMON_KEYS, "platforms", "sweep",
					   "filters",   "assay_ep",  NULL};
const char *const assay_suite_command_keys[] = {
    COMMON_KEYS, "combos", "runs",          "argv",     "cwd",    "parser",    "results", "logs",
    "context",   "nodes",  "gpus_per_node", "training", "stages", "madengine", NULL};

const char *const assay_suite_collective_keys[] = {
    COMMON_KEYS, "binary",     "backend", "operations", "dtypes", "sizes", "ranks",
    "nodes",     "iterations", "warmups", "check",      "args",   NULL};

static const char *const kinds[] = {"ep", "command", "collective", "inference", NULL};
static const char *const signature_keys[] = {"errors",  "benign", "disable",
					     "builtin", "tune",   NULL};
static const char *const tune_keys[] = {"settle_s", "settle_lines", "priority", NULL};
static const char *const revision_keys[] = {"git", NULL};

/* The suite's name when it gives none: its file's, less ".json". */
void suite_default_name(struct assay_suite *s)
{
	const char *base = strrchr(s->file, '/');
	base = base ? base + 1 : s->file;
	size_t n = strlen(base);
	if (assay_ends_with(base, ".json"))
		n -= 5;
	s->name = xstrndup(base, n);
}

bool suite_valid_name(const char *s)
{
	return assay_env_name_valid(s);
}

static int parse_patterns(struct assay_cfg *c, const json_t *sig, const char *key, bool benign,
			  struct assay_sigset *set)
{
	json_t *obj;
	char path[256];
	int rc =
	    assay_cfg_member(c, sig, "$.signatures", key, ASSAY_CFG_OPTIONAL, JSON_OBJECT, &obj);
	if (rc <= 0)
		return rc;
	assay_json_path_key(path, sizeof(path), "$.signatures", key);
	const char *name;
	json_t *v;
	json_object_foreach(obj, name, v)
	{
		char p[256];
		assay_json_path_key(p, sizeof(p), path, name);
		if (!*name)
			return assay_cfg_fail(c, p, "a signature needs a name");
		if (!json_is_string(v) || !json_string_length(v))
			return assay_cfg_expected(c, p, "a PCRE2 pattern", v);
		struct assay_error e2;
		if (assay_sigset_add(set, name, json_string_value(v), benign, &e2) != ASSAY_OK)
			return assay_cfg_fail(c, p, "%s", e2.message);
	}
	return 0;
}

/* "tune": {"NAME or FAMILY": {"settle_s": 5, "settle_lines": 100, "priority": 90}} */
static int parse_tune(struct assay_cfg *c, const json_t *sig, struct assay_sigset *set)
{
	json_t *obj;
	int rc =
	    assay_cfg_member(c, sig, "$.signatures", "tune", ASSAY_CFG_OPTIONAL, JSON_OBJECT, &obj);
	if (rc <= 0)
		return rc;
	const char *name;
	json_t *v;
	json_object_foreach(obj, name, v)
	{
		char p[256];
		assay_json_path_key(p, sizeof(p), "$.signatures.tune", name);
		double settle_s = ASSAY_SETTLE_S;
		long long lines = ASSAY_SETTLE_LINES, prio = -1;
		if (assay_cfg_object(c, v, p, tune_keys) < 0 ||
		    assay_cfg_number(c, v, p, "settle_s", ASSAY_CFG_OPTIONAL, 0, 3600, &settle_s) <
			0 ||
		    assay_cfg_int(c, v, p, "settle_lines", ASSAY_CFG_OPTIONAL, 0, 100000, &lines) <
			0 ||
		    assay_cfg_int(c, v, p, "priority", ASSAY_CFG_OPTIONAL, 1, 1000, &prio) < 0)
			return -1;
		if (!assay_sigset_tune(set, name, settle_s, (unsigned)lines, (int)prio))
			return assay_cfg_fail(c, p,
					      "unknown signature or family \"%s\" (see "
					      "docs/suite.md for the built-in signatures)",
					      name);
	}
	return 0;
}

static int parse_signatures(struct assay_cfg *c, const json_t *doc, struct assay_suite *s)
{
	json_t *sig;
	bool builtin = true;
	int rc = assay_cfg_member(c, doc, "$", "signatures", ASSAY_CFG_OPTIONAL, JSON_OBJECT, &sig);
	if (rc < 0)
		return -1;
	if (rc &&
	    (assay_cfg_object(c, sig, "$.signatures", signature_keys) < 0 ||
	     assay_cfg_bool(c, sig, "$.signatures", "builtin", ASSAY_CFG_OPTIONAL, &builtin) < 0))
		return -1;
	if (builtin)
		assay_sigset_add_builtins(&s->signatures);
	if (!rc)
		return 0;
	json_t *dis = json_object_get(sig, "disable");
	if (dis) {
		struct strlist names = STRLIST_INIT;
		if (assay_cfg_string_list(c, sig, "$.signatures", "disable", ASSAY_CFG_REQUIRED,
					  NULL, &names) < 0)
			return -1;
		for (size_t i = 0; i < names.n; i++) {
			if (assay_sigset_disable(&s->signatures, names.v[i]))
				continue;
			char p[256];
			assay_json_path_index(p, sizeof(p), "$.signatures.disable", i);
			assay_cfg_fail(
			    c, p,
			    "unknown signature or family \"%s\" (see docs/suite.md for the "
			    "built-in signatures)",
			    names.v[i]);
			strlist_clear(&names);
			return -1;
		}
		strlist_clear(&names);
	}
	if (parse_patterns(c, sig, "errors", false, &s->signatures) < 0 ||
	    parse_patterns(c, sig, "benign", true, &s->signatures) < 0 ||
	    parse_tune(c, sig, &s->signatures) < 0)
		return -1;
	return 0;
}

/* A template value: string, number or boolean, as text. */
int suite_scalar_text(struct assay_cfg *c, const json_t *v, const char *path, struct sbuf *out)
{
	if (json_is_string(v))
		sbuf_add(out, json_string_value(v), json_string_length(v));
	else if (json_is_integer(v))
		sbuf_addf(out, "%lld", (long long)json_integer_value(v));
	else if (json_is_real(v))
		assay_json_write(out, v, 0);
	else if (json_is_boolean(v))
		sbuf_adds(out, json_is_true(v) ? "true" : "false");
	else
		return assay_cfg_expected(c, path, "a string, number or boolean", v);
	return 0;
}

static int parse_env(struct assay_cfg *c, const json_t *doc, struct assay_suite *s)
{
	json_t *env;
	int rc = assay_cfg_member(c, doc, "$", "env", ASSAY_CFG_OPTIONAL, JSON_OBJECT, &env);
	if (rc <= 0)
		return rc;
	const char *name;
	json_t *v;
	json_object_foreach(env, name, v)
	{
		char p[256];
		assay_json_path_key(p, sizeof(p), "$.env", name);
		if (!suite_valid_name(name))
			return assay_cfg_fail(c, p, "not a valid environment variable name");
		struct sbuf sb = SBUF_INIT;
		sbuf_addf(&sb, "%s=", name);
		if (suite_scalar_text(c, v, p, &sb) < 0) {
			sbuf_release(&sb);
			return -1;
		}
		strlist_push(&s->env, sbuf_str(&sb));
		sbuf_release(&sb);
	}
	return 0;
}

/* "raw_artifacts": ["*.pt", "ckpt-*"]: files of a case folder the
 * secret redaction after a case leaves alone. */
static int parse_raw_artifacts(struct assay_cfg *c, const json_t *doc, struct assay_suite *s)
{
	if (!json_object_get(doc, "raw_artifacts"))
		return 0;
	if (assay_cfg_string_list(c, doc, "$", "raw_artifacts", ASSAY_CFG_REQUIRED, NULL,
				  &s->raw_artifacts) < 0)
		return -1;
	for (size_t i = 0; i < s->raw_artifacts.n; i++) {
		const char *p = s->raw_artifacts.v[i];
		if (*p == '/' || !strcmp(p, "..") || !strncmp(p, "../", 3) || strstr(p, "/../")) {
			char path[256];
			assay_json_path_index(path, sizeof(path), "$.raw_artifacts", i);
			return assay_cfg_fail(c, path,
					      "expected a file name pattern relative to the case "
					      "folder, got \"%s\"",
					      p);
		}
	}
	return 0;
}

static int parse_secrets(struct assay_cfg *c, const json_t *doc, struct assay_suite *s)
{
	json_t *sec = json_object_get(doc, "secrets");
	if (!sec)
		return 0;
	if (!json_is_array(sec))
		return assay_cfg_expected(c, "$.secrets", "an array of environment variable names",
					  sec);
	for (size_t i = 0; i < json_array_size(sec); i++) {
		json_t *v = json_array_get(sec, i);
		char p[256];
		assay_json_path_index(p, sizeof(p), "$.secrets", i);
		if (!json_is_string(v) || !suite_valid_name(json_string_value(v)))
			return assay_cfg_expected(c, p, "an environment variable name", v);
		if (strlist_has(&s->secrets, json_string_value(v)))
			return assay_cfg_fail(c, p, "\"%s\" is listed twice", json_string_value(v));
		strlist_push(&s->secrets, json_string_value(v));
	}
	/* A secret must never also be given a value in the file. */
	for (size_t i = 0; i < s->secrets.n; i++) {
		for (size_t k = 0; k < s->env.n; k++) {
			size_t n = strlen(s->secrets.v[i]);
			if (!strncmp(s->env.v[k], s->secrets.v[i], n) && s->env.v[k][n] == '=') {
				char p[256];
				assay_json_path_key(p, sizeof(p), "$.env", s->secrets.v[i]);
				return assay_cfg_fail(
				    c, p,
				    "%s is a secret: it comes from assay's environment, "
				    "never from the suite file",
				    s->secrets.v[i]);
			}
		}
	}
	return 0;
}

static int parse_revision(struct assay_cfg *c, const json_t *doc, struct assay_suite *s)
{
	json_t *rev = json_object_get(doc, "revision");
	if (!rev)
		return 0;
	if (json_is_string(rev) && json_string_length(rev)) {
		s->revision = xstrdup(json_string_value(rev));
		return 0;
	}
	if (!json_is_object(rev))
		return assay_cfg_expected(c, "$.revision", "a label or {\"git\": DIR}", rev);
	const char *dir;
	if (assay_cfg_object(c, rev, "$.revision", revision_keys) < 0 ||
	    assay_cfg_string(c, rev, "$.revision", "git", ASSAY_CFG_REQUIRED, &dir) < 0)
		return -1;
	s->revision_git = xstrdup(dir);
	return 0;
}

static int parse_common(struct assay_cfg *c, const json_t *doc, struct assay_suite *s)
{
	const char *str;
	int rc;
	if ((rc = assay_cfg_string(c, doc, "$", "name", ASSAY_CFG_OPTIONAL, &str)) < 0)
		return -1;
	if (rc)
		s->name = xstrdup(str);
	if (assay_cfg_string(c, doc, "$", "description", ASSAY_CFG_OPTIONAL, &str) < 0)
		return -1;
	if (assay_launcher_parse(c, json_object_get(doc, "launcher"), "$.launcher", &s->launcher) <
	    0)
		return -1;
	s->launcher_name = xstrdup(s->launcher->ops->name);
	if ((rc = assay_cfg_string(c, doc, "$", "store", ASSAY_CFG_OPTIONAL, &str)) < 0)
		return -1;
	s->store = xstrdup(rc ? str : "assay.db");
	if ((rc = assay_cfg_string(c, doc, "$", "output", ASSAY_CFG_OPTIONAL, &str)) < 0)
		return -1;
	s->output = xstrdup(rc ? str : "out");
	if ((rc = assay_cfg_string(c, doc, "$", "cluster", ASSAY_CFG_OPTIONAL, &str)) < 0)
		return -1;
	if (rc)
		s->cluster = xstrdup(str);
	if (assay_cfg_number(c, doc, "$", "timeout_s", ASSAY_CFG_OPTIONAL, 0.001, 1e7,
			     &s->timeout_s) < 0)
		return -1;
	if (parse_revision(c, doc, s) < 0 || parse_signatures(c, doc, s) < 0 ||
	    parse_env(c, doc, s) < 0 || parse_secrets(c, doc, s) < 0 ||
	    parse_raw_artifacts(c, doc, s) < 0 ||
	    assay_container_parse(c, json_object_get(doc, "container"), "$.container",
				  &s->container) < 0 ||
	    suite_parse_variants(c, doc, s) < 0 || suite_parse_expect(c, doc, s) < 0)
		return -1;
	return 0;
}

void assay_suite_place(const struct assay_suite *s, const struct assay_suite_case *c,
		       struct assay_launch_spec *spec)
{
	spec->nodes = c->nodes;
	spec->ranks_per_node = c->ranks_per_node;
	spec->share = c->base;
	if (c->ep) {
		spec->group = c->ep->shard;
		spec->platform = assay_registry_find(&s->registry, c->ep->sku);
		spec->registry_file = s->registry.file;
		spec->gpus_per_node = c->ep->gpus_per_node;
	} else {
		spec->group = s->name;
		spec->gpus_per_node = c->ranks_per_node; /* the combo's gpus_per_node */
	}
}

/* With a launcher that shares an allocation within a group, each group's
 * cases run one after another, from where its first case is. */
static void group_cases(struct assay_suite *s)
{
	struct assay_suite_case *v = xcalloc(s->n_cases ? s->n_cases : 1, sizeof(*v));
	bool *taken = xcalloc(s->n_cases ? s->n_cases : 1, sizeof(*taken));
	size_t n = 0;
	for (size_t i = 0; i < s->n_cases; i++) {
		if (taken[i])
			continue;
		const struct assay_suite_case *c = &s->cases[i];
		const char *g = c->runnable && c->ep ? c->ep->shard : NULL;
		for (size_t k = i; k < s->n_cases; k++) {
			const struct assay_suite_case *o = &s->cases[k];
			if (k == i || (g && !taken[k] && o->runnable && o->ep && o->ep->shard &&
				       !strcmp(o->ep->shard, g))) {
				v[n++] = *o;
				taken[k] = true;
			}
		}
	}
	free(s->cases);
	free(taken);
	s->cases = v;
}

/* Before anything runs, the launcher checks where every runnable case would
 * run (e.g. Slurm node counts against the registry). */
static int check_placement(struct assay_suite *s, struct assay_error *e)
{
	const struct assay_launcher_ops *ops = s->launcher->ops;
	if (s->launcher->groups)
		group_cases(s);
	for (size_t i = 0; ops->check && i < s->n_cases; i++) {
		const struct assay_suite_case *c = &s->cases[i];
		if (!c->runnable)
			continue;
		struct assay_launch_spec spec = {0};
		spec.case_id = c->id;
		spec.mpi_ranks = c->ep ? c->ep->ep : 0;
		spec.timeout_s = s->timeout_s;
		spec.container = s->container.on ? &s->container : NULL;
		assay_suite_place(s, c, &spec);
		if (ops->check(s->launcher, &spec, e) != ASSAY_OK)
			return -1;
	}
	for (size_t i = 0; ops->check && i < s->n_infer; i++) {
		/* An inference suite's servers on nodes (docs/inference.md). */
		const struct assay_suite_infer *k = &s->infer[i];
		struct assay_launch_spec spec = {
		    .case_id = k->id, .nodes = k->nodes, .first_host = k->first_host};
		if (k->nodes > 0 && ops->check(s->launcher, &spec, e) != ASSAY_OK)
			return -1;
	}
	return 0;
}

static assay_err plan_container(const struct assay_suite *s, const json_t *vars,
				struct assay_container *out, struct assay_error *e);

/* Every placeholder of the container block has a value for every case
 * (checked at load, like the other templates). */
static int check_container(struct assay_suite *s, struct assay_error *e)
{
	enum assay_ctr_runtime rt = s->container.runtime;
	bool slurm = !strcmp(s->launcher_name, "slurm");
	if (s->container.on && rt == ASSAY_CTR_PYXIS && !slurm) {
		/* Refused here, before a run or a dry run begins anything. */
		assay_error_at(e, ASSAY_USAGE, s->file, "$.container.runtime", 0,
			       "pyxis is a Slurm plugin and runs under the slurm launcher, not "
			       "%s; use \"launcher\": {\"type\": \"slurm\"}, or podman or docker",
			       s->launcher_name);
		return -1;
	}
	if (s->container.on && assay_container_is_local(&s->container) && slurm) {
		assay_error_at(e, ASSAY_USAGE, s->file, "$.container.runtime", 0,
			       "%s runs under the local launcher; on Slurm use pyxis, enroot or "
			       "apptainer",
			       assay_ctr_runtime_names[rt]);
		return -1;
	}
	for (size_t i = 0; s->container.on && i < s->n_cases; i++) {
		const struct assay_suite_case *c = &s->cases[i];
		if (!c->runnable)
			continue;
		json_t *vars = suite_builtin_vars(s, c, "RUN", "CASE_DIR");
		struct assay_container one;
		assay_err rc = plan_container(s, vars, &one, e);
		json_decref(vars);
		if (rc != ASSAY_OK)
			return -1;
		assay_container_release(&one);
	}
	return 0;
}

assay_err assay_suite_load(const char *file, struct assay_suite *s, struct assay_error *e)
{
	memset(s, 0, sizeof(*s));
	s->file = xstrdup(file);
	json_t *doc = assay_json_load_file(file, e);
	if (!doc) {
		assay_suite_release(s);
		return ASSAY_USAGE;
	}
	struct assay_cfg c = {file, e};
	const char *kind;
	int rc = -1;
	if (!json_is_object(doc)) {
		assay_cfg_expected(&c, "$", "a suite object", doc);
		goto out;
	}
	if (assay_cfg_enum(&c, doc, "$", "kind", ASSAY_CFG_REQUIRED, kinds, &kind) < 0)
		goto out;
	s->kind = !strcmp(kind, "ep")           ? ASSAY_SUITE_EP
		  : !strcmp(kind, "collective") ? ASSAY_SUITE_COLLECTIVE
						: ASSAY_SUITE_COMMAND;
	bool inference = !strcmp(kind, "inference"); /* a command suite with a server */
	if (assay_cfg_object(&c, doc, "$",
			     s->kind == ASSAY_SUITE_EP           ? assay_suite_ep_keys
			     : s->kind == ASSAY_SUITE_COLLECTIVE ? assay_suite_collective_keys
			     : inference                         ? assay_suite_inference_keys
								 : assay_suite_command_keys) < 0 ||
	    parse_common(&c, doc, s) < 0)
		goto out;
	rc = s->kind == ASSAY_SUITE_EP           ? suite_parse_ep(&c, doc, s)
	     : s->kind == ASSAY_SUITE_COLLECTIVE ? suite_parse_collective(&c, doc, s)
	     : inference                         ? suite_parse_inference(&c, doc, s)
						 : suite_parse_command(&c, doc, s);
	if (rc == 0)
		rc = suite_expand_variants(&c, s);
	if (rc == 0)
		rc = suite_parse_gates(&c, doc, s);
	if (rc == 0)
		rc = check_placement(s, e);
	if (rc == 0)
		rc = check_container(s, e);
	if (rc == 0 && suite_check_variants(s, e) != ASSAY_OK)
		rc = -1;
	if (rc == 0)
		rc = suite_check_expect(s, e);
	if (rc == 0) {
		json_t *all = json_pack("{s:O}", "suite", doc);
		if (s->kind == ASSAY_SUITE_EP)
			json_object_set_new(all, "inputs",
					    json_pack("{s:s, s:s}", "platforms", s->registry.sha256,
						      "sweep", s->sweep.sha256));
		if (s->gates.thresholds_on || s->gates.coll_thresholds_on)
			json_object_set_new(all, "thresholds",
					    json_string(s->gates.thresholds_sha256));
		assay_json_sha256(all, s->sha256);
		json_decref(all);
	}
out:
	json_decref(doc);
	if (rc < 0) {
		assay_suite_release(s);
		return ASSAY_USAGE;
	}
	return ASSAY_OK;
}

void assay_suite_release(struct assay_suite *s)
{
	for (size_t i = 0; i < s->n_cases; i++) {
		struct assay_suite_case *k = &s->cases[i];
		free(k->id);
		free(k->reason);
		json_decref(k->factors);
		json_decref(k->vars);
		free(k->cell);
		free(k->stage);
		free(k->base);
		if (k->stage_argv)
			strlist_clear(k->stage_argv);
		free(k->stage_argv);
	}
	free(s->cases);
	free(s->file);
	free(s->name);
	assay_launcher_free(s->launcher);
	free(s->launcher_name);
	free(s->store);
	free(s->output);
	free(s->cluster);
	free(s->revision);
	free(s->revision_git);
	assay_sigset_release(&s->signatures);
	strlist_clear(&s->secrets);
	strlist_clear(&s->raw_artifacts);
	strlist_clear(&s->env);
	strlist_clear(&s->argv);
	free(s->cwd);
	free(s->parser);
	strlist_clear(&s->results);
	strlist_clear(&s->logs);
	json_decref(s->context);
	suite_gates_release(&s->gates);
	/* Each is zeroed when never loaded, and releases cleanly then. */
	assay_registry_release(&s->registry);
	assay_sweep_release(&s->sweep);
	assay_matrix_release(&s->matrix);
	free(s->assay_ep);
	suite_infer_release(s->infer, s->n_infer);
	assay_container_release(&s->container);
	suite_variants_release(s);
	suite_expect_release(s);
	suite_coll_release(s->coll);
	memset(s, 0, sizeof(*s));
}

const struct assay_suite_case *assay_suite_find_case(const struct assay_suite *s, const char *id)
{
	for (size_t i = 0; i < s->n_cases; i++)
		if (!strcmp(s->cases[i].id, id))
			return &s->cases[i];
	return NULL;
}

/* Where in doc (a string value or key) text occurs; path gets its JSON path. */
static bool find_in_json(const json_t *v, const char *path, const char *needle, char *out,
			 size_t size)
{
	if (json_is_string(v)) {
		if (strstr(json_string_value(v), needle)) {
			snprintf(out, size, "%s", path);
			return true;
		}
		return false;
	}
	if (json_is_object(v)) {
		const char *k;
		json_t *child;
		json_object_foreach((json_t *)v, k, child)
		{
			char p[256];
			assay_json_path_key(p, sizeof(p), path, k);
			if (strstr(k, needle)) {
				snprintf(out, size, "%s", p);
				return true;
			}
			if (find_in_json(child, p, needle, out, size))
				return true;
		}
	}
	if (json_is_array(v)) {
		for (size_t i = 0; i < json_array_size(v); i++) {
			char p[256];
			assay_json_path_index(p, sizeof(p), path, i);
			if (find_in_json(json_array_get(v, i), p, needle, out, size))
				return true;
		}
	}
	return false;
}

/* Refuse when the value of a secret is written in file. */
static assay_err scan_file(const char *file, const struct assay_redactor *r, struct assay_error *e)
{
	size_t len;
	char *text = assay_read_file(file, &len, e);
	if (!text)
		return ASSAY_USAGE;
	size_t at;
	const char *name = assay_redactor_find(r, text, len, &at);
	if (!name) {
		free(text);
		return ASSAY_OK;
	}
	const char *value = NULL;
	for (size_t i = 0; i < r->n; i++)
		if (!strcmp(r->v[i].name, name))
			value = r->v[i].value;
	char path[256] = "";
	struct assay_error ignore;
	json_t *doc = assay_json_loadb(text, len, file, &ignore);
	if (doc)
		find_in_json(doc, "$", value, path, sizeof(path));
	json_decref(doc);
	long line = 1;
	for (size_t i = 0; i < at; i++)
		line += text[i] == '\n';
	free(text);
	return assay_error_at(e, ASSAY_USAGE, file, path[0] ? path : NULL, path[0] ? 0 : line,
			      "holds the value of secret %s; secrets reach workloads only through "
			      "assay's environment, remove it from the file",
			      name);
}

assay_err assay_suite_secrets(const struct assay_suite *s, bool allow_unset,
			      struct assay_redactor *r, struct assay_error *e)
{
	for (size_t i = 0; i < s->secrets.n; i++) {
		if (!assay_redactor_add_env(r, s->secrets.v[i]) && !allow_unset) {
			char p[256];
			assay_json_path_index(p, sizeof(p), "$.secrets", i);
			return assay_error_at(e, ASSAY_USAGE, s->file, p, 0,
					      "secret %s is not set in the environment",
					      s->secrets.v[i]);
		}
	}
	if (assay_redactor_empty(r))
		return ASSAY_OK;
	if (scan_file(s->file, r, e) != ASSAY_OK)
		return ASSAY_USAGE;
	if (s->kind == ASSAY_SUITE_EP) {
		if (scan_file(s->registry.file, r, e) != ASSAY_OK)
			return ASSAY_USAGE;
		if (strcmp(s->sweep.file, s->file) && scan_file(s->sweep.file, r, e) != ASSAY_OK)
			return ASSAY_USAGE;
	}
	if (s->gates.thresholds_on && scan_file(s->gates.thresholds.file, r, e) != ASSAY_OK)
		return ASSAY_USAGE;
	if (s->gates.coll_thresholds_on &&
	    scan_file(s->gates.coll_thresholds.file, r, e) != ASSAY_OK)
		return ASSAY_USAGE;
	return ASSAY_OK;
}

void assay_case_plan_release(struct assay_case_plan *p)
{
	strlist_clear(&p->argv);
	strlist_clear(&p->env);
	free(p->cwd);
	strlist_clear(&p->results);
	strlist_clear(&p->logs);
	free(p->artifact);
	free(p->timing_file);
	json_decref(p->timing);
	json_decref(p->context);
	assay_container_release(&p->container);
	memset(p, 0, sizeof(*p));
}

void suite_short_hostname(char *buf, size_t size)
{
	if (gethostname(buf, size) != 0 || !buf[0])
		snprintf(buf, size, "localhost");
	buf[size - 1] = '\0';
	char *dot = strchr(buf, '.');
	if (dot)
		*dot = '\0';
}

json_t *suite_builtin_vars(const struct assay_suite *s, const struct assay_suite_case *c,
			   const char *run_id, const char *case_dir)
{
	char host[256];
	suite_short_hostname(host, sizeof(host));
	json_t *vars = c->vars ? json_deep_copy(c->vars) : json_object();
	json_object_set_new(vars, "RUN_ID", json_string(run_id));
	json_object_set_new(vars, "CASE_ID", json_string(c->id));
	json_object_set_new(vars, "CASE_DIR", json_string(case_dir));
	json_object_set_new(vars, "OUT", json_string(s->output));
	json_object_set_new(vars, "NODE", json_string("0"));
	json_object_set_new(vars, "HOST", json_string(host));
	return vars;
}

assay_err suite_expand(const char *tmpl, const json_t *vars, const char *file, const char *path,
		       struct sbuf *out, struct assay_error *e)
{
	char *missing;
	if (assay_template_expand(tmpl, vars, out, &missing) == 0)
		return ASSAY_OK;
	assay_error_at(e, ASSAY_USAGE, file, path, 0, "placeholder {%s} has no value", missing);
	free(missing);
	return ASSAY_USAGE;
}

/* One case's container: the block with its placeholders filled. */
static assay_err plan_container(const struct assay_suite *s, const json_t *vars,
				struct assay_container *out, struct assay_error *e)
{
	memset(out, 0, sizeof(*out));
	if (!s->container.on)
		return ASSAY_OK;
	assay_container_copy(out, &s->container);
	struct sbuf sb = SBUF_INIT;
	assay_err rc = suite_expand(s->container.image, vars, s->file, "$.container.image", &sb, e);
	if (rc == ASSAY_OK) {
		free(out->image);
		out->image = sbuf_detach(&sb, NULL);
	}
	if (rc == ASSAY_OK && s->container.workdir) {
		rc = suite_expand(s->container.workdir, vars, s->file, "$.container.workdir", &sb,
				  e);
		if (rc == ASSAY_OK) {
			free(out->workdir);
			out->workdir = sbuf_detach(&sb, NULL);
		}
	}
	struct {
		const char *key;
		const struct strlist *from;
		struct strlist *to;
	} lists[] = {{"mounts", &s->container.mounts, &out->mounts},
		     {"options", &s->container.options, &out->options}};
	for (size_t l = 0; l < 2 && rc == ASSAY_OK; l++) {
		strlist_clear(lists[l].to);
		for (size_t i = 0; i < lists[l].from->n && rc == ASSAY_OK; i++) {
			char kp[64], ip[96];
			snprintf(kp, sizeof(kp), "$.container.%s", lists[l].key);
			assay_json_path_index(ip, sizeof(ip), kp, i);
			sbuf_reset(&sb);
			rc = suite_expand(lists[l].from->v[i], vars, s->file, ip, &sb, e);
			if (rc == ASSAY_OK)
				strlist_push(lists[l].to, sbuf_str(&sb));
		}
	}
	sbuf_release(&sb);
	if (rc != ASSAY_OK)
		assay_container_release(out);
	return rc;
}

assay_err assay_suite_plan(const struct assay_suite *s, const struct assay_suite_case *c,
			   const char *run_id, const char *case_dir, const char *assay_ep,
			   struct assay_case_plan *p, struct assay_error *e)
{
	memset(p, 0, sizeof(*p));
	/* In a container the case folder is mounted at its absolute path, and
	 * {CASE_DIR} must name it there too. */
	char *abs_dir = NULL;
	if (s->container.on && case_dir && case_dir[0] != '/') {
		char cwd[4096];
		if (getcwd(cwd, sizeof(cwd)))
			case_dir = abs_dir = xasprintf("%s/%s", cwd, case_dir);
	}
	json_t *vars = suite_builtin_vars(s, c, run_id, case_dir);
	assay_err rc = ASSAY_OK;
	for (size_t i = 0; i < s->env.n && rc == ASSAY_OK; i++) {
		struct sbuf sb = SBUF_INIT;
		char path[256];
		const char *eq = strchr(s->env.v[i], '=');
		char *name = xstrndup(s->env.v[i], (size_t)(eq - s->env.v[i]));
		assay_json_path_key(path, sizeof(path), "$.env", name);
		sbuf_addf(&sb, "%s=", name);
		rc = suite_expand(eq + 1, vars, s->file, path, &sb, e);
		if (rc == ASSAY_OK)
			strlist_push(&p->env, sbuf_str(&sb));
		else if (c->stage_argv)
			rc = ASSAY_OK; /* a command stage has no combo: left out */
		sbuf_release(&sb);
		free(name);
	}
	if (rc == ASSAY_OK)
		rc = s->kind == ASSAY_SUITE_EP           ? suite_plan_ep(s, c, vars, assay_ep, p, e)
		     : s->kind == ASSAY_SUITE_COLLECTIVE ? suite_plan_collective(s, c, vars, p, e)
							 : suite_plan_command(s, c, vars, p, e);
	if (rc == ASSAY_OK && s->infer)
		suite_plan_inference(s, vars, p);
	if (rc == ASSAY_OK)
		rc = plan_container(s, vars, &p->container, e);
	if (rc == ASSAY_OK)
		rc = suite_variant_apply(s, c, vars, p, e);
	json_decref(vars);
	free(abs_dir);
	if (rc != ASSAY_OK)
		assay_case_plan_release(p);
	return rc;
}
