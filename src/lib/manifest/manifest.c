/* assay manifest's generator: one platform of a registry and one combo of a
 * command suite's "madengine" block become a madengine build_manifest.json
 * in the shape madengine's run phase reads (docs/manifest.md), checked
 * against `assay lint --strict` before it is handed back. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/cfg.h"
#include "assay/config.h"
#include "assay/json.h"
#include "assay/lint.h"
#include "assay/manifest.h"
#include "assay/redact.h"
#include "assay/suite.h"

/* The launchers madengine accepts for a Slurm job (VALID_LAUNCHERS of
 * src/madengine/deployment/common.py) that need no further block. */
static const char *const launchers[] = {"torchrun", "torchtitan", "deepspeed", "megatron-lm",
					"primus",   "vllm",       "sglang",    NULL};
static const char *const block_keys[] = {
    "model", "docker_image", "dockerfile", "scripts", "args", "multiple_results",
    "tags",  "launcher",     "cred",       NULL};

/* Everything the document is made from. */
struct gen {
	const struct assay_manifest_request *rq;
	struct assay_error *e;
	struct assay_registry reg;
	const struct assay_platform *p;
	struct assay_suite s;
	json_t *doc;   /* the suite file as JSON */
	json_t *block; /* its "madengine" object (borrowed) */
	const struct assay_suite_case *c;
	long long gpus; /* GPUs per node of the case */
};

static assay_err fail(struct gen *g, const char *file, const char *path, const char *fmt, ...)
    ASSAY_PRINTF(4, 5);

static assay_err fail(struct gen *g, const char *file, const char *path, const char *fmt, ...)
{
	char msg[768];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return assay_error_at(g->e, ASSAY_USAGE, file, path, 0, "%s", msg);
}

static assay_err pick_platform(struct gen *g)
{
	if (!g->rq->platform && g->reg.n == 1) {
		g->p = &g->reg.v[0];
		return ASSAY_OK;
	}
	if (g->rq->platform && (g->p = assay_registry_find(&g->reg, g->rq->platform)))
		return ASSAY_OK;
	struct sbuf sb = SBUF_INIT;
	for (size_t i = 0; i < g->reg.n; i++)
		sbuf_addf(&sb, "%s%s", i ? ", " : "", g->reg.v[i].sku);
	if (g->rq->platform)
		fail(g, g->rq->platforms, "$.platforms", "no platform \"%s\" (it has: %s)",
		     g->rq->platform, sbuf_str(&sb));
	else
		fail(g, g->rq->platforms, "$.platforms",
		     "%zu platforms (%s); choose one with --platform", g->reg.n, sbuf_str(&sb));
	sbuf_release(&sb);
	return ASSAY_USAGE;
}

/* The suite's case of the combo; its "madengine" block. */
static assay_err pick_case(struct gen *g)
{
	const char *file = g->rq->suite;
	if (g->s.kind != ASSAY_SUITE_COMMAND)
		return fail(g, file, "$.kind",
			    "a madengine manifest is made from a \"command\" suite, not \"ep\"");
	json_t *combos = json_object_get(g->doc, "combos");
	if (!json_object_get(combos, g->rq->combo)) {
		struct sbuf sb = SBUF_INIT;
		const char *name;
		json_t *v;
		json_object_foreach(combos, name, v)
		    sbuf_addf(&sb, "%s%s", sb.len ? ", " : "", name);
		fail(g, file, "$.combos", "no combo \"%s\" (the suite has: %s)", g->rq->combo,
		     sbuf_str(&sb));
		sbuf_release(&sb);
		return ASSAY_USAGE;
	}
	for (size_t i = 0; i < g->s.n_cases && !g->c; i++) {
		const char *combo =
		    json_string_value(json_object_get(g->s.cases[i].factors, "combo"));
		if (combo && !strcmp(combo, g->rq->combo))
			g->c = &g->s.cases[i];
	}
	if (!g->c)
		return fail(g, file, "$.runs",
			    "combo \"%s\" is not run by the suite; add it to runs (or to a stage)",
			    g->rq->combo);
	g->block = json_object_get(g->doc, "madengine");
	if (!g->block)
		return fail(g, file, "$",
			    "no \"madengine\" block: a manifest needs its model, docker_image and "
			    "scripts (docs/manifest.md)");
	struct assay_cfg cfg = {file, g->e};
	if (assay_cfg_object(&cfg, g->block, "$.madengine", block_keys) < 0)
		return ASSAY_USAGE;
	g->gpus = g->s.gpus_given ? g->c->ranks_per_node : g->p->gpus_per_node;
	if (g->gpus > g->p->gpus_per_node) {
		return fail(g, file, "$.gpus_per_node",
			    "%lld GPUs per node, but platform %s has %lld", g->gpus, g->p->sku,
			    g->p->gpus_per_node);
	}
	return ASSAY_OK;
}

static assay_err load(struct gen *g)
{
	if (assay_registry_load(g->rq->platforms, &g->reg, g->e) != ASSAY_OK)
		return g->e->code;
	if (pick_platform(g) != ASSAY_OK)
		return ASSAY_USAGE;
	if (assay_suite_load(g->rq->suite, &g->s, g->e) != ASSAY_OK)
		return g->e->code;
	g->doc = assay_json_load_file(g->rq->suite, g->e);
	if (!g->doc)
		return g->e->code;
	return pick_case(g);
}

/* A string of the madengine block with the combo's values filled in; NULL
 * (and *rc ASSAY_OK) when absent and not required. */
static char *block_string(struct gen *g, const char *key, bool required, assay_err *rc)
{
	struct assay_cfg cfg = {g->rq->suite, g->e};
	const char *tmpl;
	*rc = ASSAY_OK;
	int r = assay_cfg_string(&cfg, g->block, "$.madengine", key,
				 required ? ASSAY_CFG_REQUIRED : ASSAY_CFG_OPTIONAL, &tmpl);
	if (r <= 0) {
		*rc = r < 0 ? ASSAY_USAGE : ASSAY_OK;
		return NULL;
	}
	struct sbuf sb = SBUF_INIT;
	char *missing, path[256];
	if (assay_template_expand(tmpl, g->c->vars, &sb, &missing) < 0) {
		assay_json_path_key(path, sizeof(path), "$.madengine", key);
		fail(g, g->rq->suite, path, "placeholder {%s} has no value in combo \"%s\"",
		     missing, g->rq->combo);
		free(missing);
		sbuf_release(&sb);
		*rc = ASSAY_USAGE;
		return NULL;
	}
	return sbuf_detach(&sb, NULL);
}

/* Set key of obj to the block's string (templated) when it has one. */
static assay_err put_string(struct gen *g, json_t *obj, const char *key, const char *as,
			    bool required)
{
	assay_err rc;
	char *v = block_string(g, key, required, &rc);
	if (v)
		json_object_set_new(obj, as ? as : key, json_string(v));
	free(v);
	return rc;
}

/* The image madengine runs must be pinned: a tag other than "latest", or a
 * digest (the image-tag rule, an error under --strict). */
static assay_err check_image(struct gen *g, const char *image)
{
	const char *slash = strrchr(image, '/');
	const char *last = slash ? slash + 1 : image;
	const char *colon = strchr(last, ':');
	if (strchr(image, '@') || (colon && strcmp(colon + 1, "latest") && colon[1]))
		return ASSAY_OK;
	return fail(g, g->rq->suite, "$.madengine.docker_image",
		    "docker_image \"%s\" %s: pin a version tag or a digest", image,
		    colon ? "uses the moving \"latest\" tag" : "has no tag");
}

/* The built_models entry: madengine's model card for the combo, the keys
 * its run phase reads, and the dockerfile that both of madengine's writers
 * keep there (and `assay lint` requires of a card: card-required). */
static json_t *model_entry(struct gen *g, const char *model, const char *image, assay_err *rc)
{
	json_t *m = json_pack("{s:s, s:s}", "name", model, "docker_image", image);
	char n[32];
	snprintf(n, sizeof(n), "%lld", g->gpus);
	if (*rc == ASSAY_OK)
		*rc = put_string(g, m, "dockerfile", NULL, true);
	if (*rc == ASSAY_OK)
		*rc = put_string(g, m, "scripts", NULL, true);
	if (*rc == ASSAY_OK)
		*rc = put_string(g, m, "args", NULL, false);
	if (*rc == ASSAY_OK)
		*rc = put_string(g, m, "multiple_results", NULL, false);
	if (*rc == ASSAY_OK)
		*rc = put_string(g, m, "cred", NULL, false);
	json_object_set_new(m, "n_gpus", json_string(n));
	struct assay_cfg cfg = {g->rq->suite, g->e};
	struct strlist tags = STRLIST_INIT;
	if (*rc == ASSAY_OK && assay_cfg_string_list(&cfg, g->block, "$.madengine", "tags",
						     ASSAY_CFG_OPTIONAL, NULL, &tags) < 0)
		*rc = ASSAY_USAGE;
	if (tags.n) {
		json_t *t = json_array();
		for (size_t i = 0; i < tags.n; i++)
			json_array_append_new(t, json_string(tags.v[i]));
		json_object_set_new(m, "tags", t);
	}
	strlist_clear(&tags);
	return m;
}

/* built_images and built_models, one entry each under the model's name
 * (madengine joins them by key; a pre-built image is "local_image"). */
static assay_err add_models(struct gen *g, json_t *out)
{
	assay_err rc;
	char *model = block_string(g, "model", true, &rc);
	char *image = model ? block_string(g, "docker_image", true, &rc) : NULL;
	if (image)
		rc = check_image(g, image);
	if (rc == ASSAY_OK) {
		json_t *img = json_pack("{s:s, s:b}", "docker_image", image, "local_image", 1);
		rc = put_string(g, img, "dockerfile", NULL, true);
		json_t *m = model_entry(g, model, image, &rc);
		json_object_set_new(json_object_get(out, "built_images"), model, img);
		json_object_set_new(json_object_get(out, "built_models"), model, m);
		json_t *cred = json_object_get(m, "cred");
		if (cred)
			json_array_append(json_object_get(out, "credentials_required"), cred);
	}
	free(model);
	free(image);
	return rc;
}

/* NCCL's InfiniBand settings from the platform's network block (the
 * interface itself goes to slurm.network_interface, which madengine's job
 * script exports as NCCL_SOCKET_IFNAME and GLOO_SOCKET_IFNAME). */
static void network_env(const json_t *net, json_t *env)
{
	static const char *const ints[][2] = {{"ib_gid_index", "NCCL_IB_GID_INDEX"},
					      {"ib_traffic_class", "NCCL_IB_TC"},
					      {"ib_service_level", "NCCL_IB_SL"}};
	json_t *rdma = json_object_get(net, "rdma_devices");
	if (json_array_size(rdma)) {
		struct sbuf sb = SBUF_INIT;
		size_t i;
		json_t *v;
		json_array_foreach(rdma, i, v)
		    sbuf_addf(&sb, "%s%s", i ? "," : "", json_string_value(v));
		json_object_set_new(env, "NCCL_IB_HCA", json_string(sbuf_str(&sb)));
		sbuf_release(&sb);
	}
	for (size_t i = 0; i < ARRAY_SIZE(ints); i++) {
		json_t *v = json_object_get(net, ints[i][0]);
		if (json_is_integer(v)) {
			char n[32];
			snprintf(n, sizeof(n), "%lld", (long long)json_integer_value(v));
			json_object_set_new(env, ints[i][1], json_string(n));
		}
	}
}

/* context.docker_env_vars: the platform's NCCL settings, then the suite's
 * env with the combo's values (the suite wins). The suite loader refuses a
 * secret in env: secrets come from the environment at run time. */
static assay_err add_env(struct gen *g, json_t *env)
{
	network_env(g->p->network, env);
	for (size_t i = 0; i < g->s.env.n; i++) {
		const char *eq = strchr(g->s.env.v[i], '=');
		char *name = xstrndup(g->s.env.v[i], (size_t)(eq - g->s.env.v[i]));
		struct sbuf sb = SBUF_INIT;
		char *missing = NULL, path[256];
		assay_err rc = ASSAY_OK;
		if (assay_template_expand(eq + 1, g->c->vars, &sb, &missing) < 0) {
			assay_json_path_key(path, sizeof(path), "$.env", name);
			rc = fail(g, g->rq->suite, path,
				  "{%s} has no value in combo \"%s\" (a manifest has no run-time "
				  "placeholders)",
				  missing, g->rq->combo);
		} else {
			json_object_set_new(env, name, json_string(sbuf_str(&sb)));
		}
		free(missing);
		free(name);
		sbuf_release(&sb);
		if (rc != ASSAY_OK)
			return rc;
	}
	return ASSAY_OK;
}

/* deployment_config.slurm: the case's shape, the platform's placement
 * (operator block) and its bootstrap interface. */
static json_t *slurm_block(struct gen *g)
{
	static const char *const placement[] = {"partition",   "account",  "qos",
						"reservation", "nodelist", "exclude",
						"constraint",  "time",     "exclusive"};
	json_t *slurm = json_object();
	for (size_t i = 0; i < ARRAY_SIZE(placement); i++) {
		json_t *v = json_object_get(g->p->op, placement[i]);
		if (v)
			json_object_set(slurm, placement[i], v);
	}
	json_object_set_new(slurm, "nodes", json_integer(g->c->nodes));
	json_object_set_new(slurm, "gpus_per_node", json_integer(g->gpus));
	json_t *ifname = json_object_get(g->p->network, "socket_ifname");
	if (ifname)
		json_object_set(slurm, "network_interface", ifname);
	return slurm;
}

/* deployment_config.env_vars: madengine (at ef87d05) merges its Slurm preset
 * under them (for more than one node NCCL_IB_DISABLE=1 and
 * NCCL_SOCKET_IFNAME=eth0, and NCCL_DEBUG=WARN), its job script exports
 * them, and its container runner copies these variables from the job's
 * environment into the container's over context.docker_env_vars. So each
 * one the container environment sets is set for the job too, and a
 * multi-node job gets RDMA (NCCL_IB_DISABLE=0) and the platform's interface
 * unless the suite says otherwise. NULL when there is nothing to set. */
static json_t *job_env(struct gen *g, const json_t *denv)
{
	static const char *const copied[] = {"NCCL_IB_DISABLE", "NCCL_SOCKET_IFNAME",
					     "GLOO_SOCKET_IFNAME", "NCCL_DEBUG",
					     "NCCL_NET_GDR_LEVEL"};
	json_t *env = json_object();
	for (size_t i = 0; i < ARRAY_SIZE(copied); i++) {
		json_t *v = json_object_get(denv, copied[i]);
		if (v)
			json_object_set(env, copied[i], v);
	}
	if (g->c->nodes > 1) {
		if (!json_object_get(env, "NCCL_IB_DISABLE"))
			json_object_set_new(env, "NCCL_IB_DISABLE", json_string("0"));
		if (!json_object_get(env, "NCCL_SOCKET_IFNAME"))
			json_object_set(env, "NCCL_SOCKET_IFNAME",
					json_object_get(g->p->network, "socket_ifname"));
	}
	if (!json_object_size(env)) {
		json_decref(env);
		return NULL;
	}
	return env;
}

/* deployment_config: madengine's run phase takes slurm and distributed from
 * it and infers the Slurm deployment from slurm being there
 * (run_orchestrator.py, _infer_deployment_target), so no "target". */
static assay_err add_deployment(struct gen *g, json_t *out)
{
	struct assay_cfg cfg = {g->rq->suite, g->e};
	const char *launcher = "torchrun";
	if (assay_cfg_enum(&cfg, g->block, "$.madengine", "launcher", ASSAY_CFG_OPTIONAL, launchers,
			   &launcher) < 0)
		return ASSAY_USAGE;
	if (g->c->nodes > 1 && !json_object_get(g->p->network, "socket_ifname")) {
		char path[256];
		assay_json_path_key(path, sizeof(path), "$.platforms", g->p->sku);
		return fail(g, g->rq->platforms, path,
			    "a %lld-node job needs network.socket_ifname, the interface NCCL and "
			    "Gloo bootstrap over (madengine's slurm.network_interface)",
			    g->c->nodes);
	}
	json_t *dist =
	    json_pack("{s:s, s:s, s:I, s:I}", "launcher", launcher, "backend", "nccl", "nnodes",
		      (json_int_t)g->c->nodes, "nproc_per_node", (json_int_t)g->gpus);
	json_t *port = json_object_get(g->p->network, "master_port");
	if (port)
		json_object_set(dist, "port", port);
	json_t *dc = json_pack("{s:o, s:o}", "slurm", slurm_block(g), "distributed", dist);
	json_t *env =
	    job_env(g, json_object_get(json_object_get(out, "context"), "docker_env_vars"));
	if (env)
		json_object_set_new(dc, "env_vars", env);
	json_object_set_new(out, "deployment_config", dc);
	return ASSAY_OK;
}

/* Where the value at manifest path mp came from: the file and JSON path of
 * the input to change. */
static const char *origin(struct gen *g, const char *mp, char *path, size_t size)
{
	static const char env[] = "$.context.docker_env_vars.";
	const char *name = !strncmp(mp, env, sizeof(env) - 1) ? mp + sizeof(env) - 1 : NULL;
	if (name && json_object_get(json_object_get(g->doc, "env"), name)) {
		assay_json_path_key(path, size, "$.env", name);
		return g->rq->suite;
	}
	if (name || !strncmp(mp, "$.deployment_config", 19)) {
		assay_json_path_key(path, size, "$.platforms", g->p->sku);
		return g->rq->platforms;
	}
	const char *end = strstr(mp, "\"]");
	if (!strncmp(mp, "$.built_", 8) && end)
		snprintf(path, size, "$.madengine%s", end + 2);
	else
		snprintf(path, size, "$.madengine");
	return g->rq->suite;
}

/* No secret's value (the suite's secrets, from this environment) is in the
 * document: the suite file is checked as `assay run` checks it, and the
 * document itself (the registry is the only other source). And by
 * construction the document lints clean under --strict; this says so
 * before anything is written, naming the first finding and its origin. */
static assay_err check_lint(struct gen *g, const json_t *out)
{
	struct assay_lint_options o;
	assay_lint_options_init(&o);
	assay_lint_options_strict(&o);
	o.kind = ASSAY_LINT_MANIFEST;
	char *text = assay_json_dumps(out, ASSAY_JSON_PRETTY);
	struct assay_redactor red = ASSAY_REDACTOR_INIT;
	assay_err rc = assay_suite_secrets(&g->s, true, &red, g->e);
	const char *secret =
	    rc == ASSAY_OK ? assay_redactor_find(&red, text, strlen(text), NULL) : NULL;
	if (secret)
		rc = fail(g, g->rq->platforms, "$",
			  "the manifest would hold the value of secret %s (set in the environment)",
			  secret);
	assay_redactor_release(&red);
	if (rc != ASSAY_OK) {
		free(text);
		return rc;
	}
	struct assay_lint_result r = {0};
	struct assay_error le;
	rc = assay_lint_buffer(text, strlen(text), "build_manifest.json", &o, NULL, &r, &le);
	if (rc != ASSAY_OK)
		assay_error_at(g->e, rc, g->rq->suite, NULL, 0, "%s", le.message);
	for (size_t i = 0; rc == ASSAY_OK && i < r.n; i++) {
		const struct assay_lint_finding *f = &r.v[i];
		char path[256];
		const char *file = origin(g, f->path, path, sizeof(path));
		rc = fail(
		    g, file, path,
		    "the manifest of combo \"%s\" would fail `assay lint --strict` at %s: %s: %s",
		    g->rq->combo, f->path, f->rule->id, f->message);
	}
	assay_lint_result_release(&r);
	free(text);
	return rc;
}

static void gen_release(struct gen *g)
{
	assay_registry_release(&g->reg);
	assay_suite_release(&g->s);
	json_decref(g->doc);
}

assay_err assay_manifest_build(const struct assay_manifest_request *rq, json_t **out,
			       struct assay_error *e)
{
	struct gen g = {.rq = rq, .e = e};
	*out = NULL;
	assay_error_clear(e);
	assay_err rc = load(&g);
	json_t *m = json_pack("{s:{}, s:{}, s:{s:{}}, s:[]}", "built_images", "built_models",
			      "context", "docker_env_vars", "credentials_required");
	if (rc == ASSAY_OK)
		rc = add_models(&g, m);
	if (rc == ASSAY_OK)
		rc = add_env(&g, json_object_get(json_object_get(m, "context"), "docker_env_vars"));
	if (rc == ASSAY_OK)
		rc = add_deployment(&g, m);
	if (rc == ASSAY_OK)
		rc = check_lint(&g, m);
	if (rc == ASSAY_OK)
		*out = m;
	else
		json_decref(m);
	gen_release(&g);
	return rc;
}
