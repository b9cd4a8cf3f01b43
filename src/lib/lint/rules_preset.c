/* The environment a madengine Slurm job really gets. madengine (ROCm/madengine
 * at ef87d05) deep-merges its Slurm presets under the user's configuration
 * (deployment/config_loader.py, load_slurm_config: presets/slurm/defaults.json,
 * then profiles/multi-node.json when slurm.nodes > 1, else
 * profiles/single-node.json, then the user's, whose deployment_config
 * keys the run orchestrator copied in); its job template exports env_vars and
 * then slurm.network_interface as NCCL_SOCKET_IFNAME and GLOO_SOCKET_IFNAME
 * (deployment/templates/slurm/job.sh.j2); its container runner copies a list
 * of variables from the job's environment into the container's
 * (execution/container_runner.py). So a manifest that sets NCCL_IB_DISABLE
 * only in context.docker_env_vars still runs with the preset's 1. */
#include <stdlib.h>
#include <string.h>

#include "lint_int.h"

static const struct assay_lint_rule rules[] = {
    {"preset-env", "preset", ASSAY_LINT_WARNING, true, KIND(MANIFEST) | KIND(CONTEXT),
     "a container variable that madengine's Slurm preset and container runner replace with "
     "another value"},
};
#define R_PRESET (&rules[0])

/* The env_vars of madengine's Slurm presets at ef87d05. */
struct preset_var {
	const char *name, *value;
};
static const struct preset_var defaults_env[] = {
    {"OMP_NUM_THREADS", "8"},
    {"MIOPEN_FIND_MODE", "1"},
    {"MIOPEN_USER_DB_PATH", "/tmp/.miopen"},
};
static const struct preset_var multi_node_env[] = {
    {"NCCL_DEBUG", "WARN"},
    {"NCCL_DEBUG_SUBSYS", "INIT,NET"},
    {"NCCL_IB_DISABLE", "1"},
    {"NCCL_SOCKET_IFNAME", "eth0"},
    {"TORCH_NCCL_HIGH_PRIORITY", "1"},
    {"GPU_MAX_HW_QUEUES", "2"},
    {"TORCH_NCCL_ASYNC_ERROR_HANDLING", "1"},
    {"NCCL_TIMEOUT", "600"},
    {"HSA_ENABLE_SDMA", "0"},
    {"HSA_FORCE_FINE_GRAIN_PCIE", "1"},
    {"RCCL_ENABLE_HIPGRAPH", "0"},
};
static const struct preset_var single_node_env[] = {
    {"NCCL_DEBUG", "WARN"},
};

/* What the container runner copies from the job's environment into the
 * container's (container_runner.py, slurm_env_vars). */
static const char *const copied[] = {
    "MASTER_ADDR",
    "MASTER_PORT",
    "WORLD_SIZE",
    "RANK",
    "NODE_RANK",
    "NNODES",
    "NPROC_PER_NODE",
    "MAD_MULTI_NODE_RUNNER",
    "MAD_COLLECT_METRICS",
    "NCCL_SOCKET_IFNAME",
    "GLOO_SOCKET_IFNAME",
    "NCCL_DEBUG",
    "NCCL_IB_DISABLE",
    "NCCL_NET_GDR_LEVEL",
    "PRIMUS_CONFIG_PATH",
    "PRIMUS_CLI_EXTRA",
    "TORCH_ELASTIC_RDZV_TIMEOUT",
    "HIP_VISIBLE_DEVICES",
    "ROCR_VISIBLE_DEVICES",
    "CUDA_VISIBLE_DEVICES",
};

bool lint_container_copies(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(copied); i++)
		if (!strcmp(copied[i], name))
			return true;
	return false;
}

bool lint_slurm_job(const json_t *doc, long long *nodes)
{
	const json_t *dc = json_object_get(doc, "deployment_config");
	/* With k8s (or kubernetes) as well, madengine deploys to Kubernetes. */
	if (!json_is_object(json_object_get(dc, "slurm")) || json_object_get(dc, "k8s") ||
	    json_object_get(dc, "kubernetes"))
		return false;
	const json_t *n = lint_get(doc, "deployment_config.slurm.nodes");
	*nodes = json_is_integer(n) ? json_integer_value(n) : 1;
	return true;
}

/* A value as the job template writes it ("{{ value }}": Python's str). */
static const char *job_text(const json_t *v, char *buf, size_t size)
{
	if (json_is_string(v))
		return json_string_value(v);
	if (json_is_integer(v)) {
		snprintf(buf, size, "%lld", (long long)json_integer_value(v));
		return buf;
	}
	if (json_is_boolean(v))
		return json_is_true(v) ? "True" : "False";
	return NULL;
}

static const char *preset_value(const struct preset_var *v, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i].name, name))
			return v[i].value;
	return NULL;
}

const char *lint_job_env(const json_t *doc, const char *name, char *buf, size_t size,
			 const char **source)
{
	long long nodes;
	*source = NULL;
	if (!lint_slurm_job(doc, &nodes))
		return NULL;
	const json_t *ni = lint_get(doc, "deployment_config.slurm.network_interface");
	if ((!strcmp(name, "NCCL_SOCKET_IFNAME") || !strcmp(name, "GLOO_SOCKET_IFNAME")) &&
	    json_is_string(ni) && json_string_length(ni)) {
		*source = "slurm.network_interface";
		return json_string_value(ni);
	}
	const json_t *env = lint_get(doc, "deployment_config.env_vars");
	const char *t =
	    json_is_object(env) ? job_text(json_object_get(env, name), buf, size) : NULL;
	if (t) {
		*source = "deployment_config.env_vars";
		return t;
	}
	if (nodes > 1 && (t = preset_value(multi_node_env, ARRAY_SIZE(multi_node_env), name)))
		*source = "madengine's multi-node Slurm preset";
	else if (nodes <= 1 &&
		 (t = preset_value(single_node_env, ARRAY_SIZE(single_node_env), name)))
		*source = "madengine's single-node Slurm preset";
	else if ((t = preset_value(defaults_env, ARRAY_SIZE(defaults_env), name)))
		*source = "madengine's Slurm defaults";
	return t;
}

static void check(struct lint_ctx *c)
{
	long long nodes;
	if (!lint_manifest_like(c) || !lint_on(c, R_PRESET) || !lint_slurm_job(c->doc, &nodes))
		return;
	const json_t *denv = lint_get(c->doc, "context.docker_env_vars");
	if (!json_is_object(denv))
		return;
	const char *name;
	json_t *v;
	json_object_foreach((json_t *)denv, name, v)
	{
		char b1[64], b2[64], b3[96], b4[96];
		const char *want = job_text(v, b1, sizeof(b1)), *from;
		if (!want || !lint_container_copies(name))
			continue;
		const char *got = lint_job_env(c->doc, name, b2, sizeof(b2), &from);
		/* What the manifest sets for the job itself and the container
		 * differently, the rules of those values report (context-override,
		 * socket-ifname-conflict); this one, what a preset sets. */
		if (!got || strncmp(from, "madengine's", 11) || !strcmp(got, want))
			continue;
		char *p = lint_path_key("$.context.docker_env_vars", name);
		lint_report(c, R_PRESET, p,
			    "the container gets %s=%s, not %s: the job's environment has it from "
			    "%s, and madengine's container runner copies it from there into the "
			    "container; set it in deployment_config.env_vars",
			    name, lint_brief(got, b3, sizeof(b3)), lint_brief(want, b4, sizeof(b4)),
			    from);
		free(p);
	}
}

const struct lint_family lint_family_preset = {"preset", rules, ARRAY_SIZE(rules), check};
