/* Placement rules for madengine manifests: keys madengine never reads where
 * they stand (slurm at the root instead of deployment_config.slurm, mounts
 * under deployment_config instead of context, ...), and which value takes
 * effect when the key is set in the right place too. */
#include <stdlib.h>
#include <string.h>

#include "lint_int.h"

static const struct assay_lint_rule rules[] = {
    {"misplaced-key", "placement", ASSAY_LINT_ERROR, true, KIND(MANIFEST),
     "a key madengine ignores where it stands (it reads it from another place)"},
    {"unknown-key", "placement", ASSAY_LINT_WARNING, false, KIND(MANIFEST),
     "a top-level manifest key madengine does not read at all (off by default)"},
};
#define R_MISPLACED (&rules[0])
#define R_UNKNOWN   (&rules[1])

/* parent: where the key is ignored ("" is the top level); right: the dotted
 * chain madengine reads it from, NULL when it has no single home. */
static const struct {
	const char *parent, *key, *right, *hint;
} misplaced[] = {
    {"", "slurm", "deployment_config.slurm", NULL},
    {"", "distributed", "deployment_config.distributed", NULL},
    {"", "env_vars", "deployment_config.env_vars", NULL},
    {"", "target", "deployment_config.target", NULL},
    {"", "deploy", "deployment_config.target", NULL},
    {"", "k8s", "deployment_config.k8s", NULL},
    {"", "kubernetes", "deployment_config.kubernetes", NULL},
    {"", "vllm", "deployment_config.vllm", NULL},
    {"", "debug", "deployment_config.debug", NULL},
    {"", "nodes", "deployment_config.slurm.nodes", NULL},
    {"", "nnodes", "deployment_config.distributed.nnodes", NULL},
    {"", "nodelist", "deployment_config.slurm.nodelist", NULL},
    {"", "network_interface", "deployment_config.slurm.network_interface", NULL},
    {"", "docker_mounts", "context.docker_mounts", NULL},
    {"", "container_mounts", "context.docker_mounts", NULL},
    {"", "docker_env_vars", "context.docker_env_vars", NULL},
    {"", "docker_build_arg", "context.docker_build_arg", NULL},
    {"", "docker_gpus", "context.docker_gpus", NULL},
    {"", "gpu_vendor", "context.gpu_vendor", NULL},
    {"", "guest_os", "context.guest_os", NULL},
    {"", "tools", "context.tools", NULL},
    {"", "pre_scripts", "context.pre_scripts", NULL},
    {"", "post_scripts", "context.post_scripts", NULL},
    {"", "encapsulate_script", "context.encapsulate_script", NULL},
    {"", "model_repo", NULL, "pass it in built_models.<image>.args as --model_repo NAME"},
    {"deployment_config", "docker_mounts", "context.docker_mounts", NULL},
    {"deployment_config", "container_mounts", "context.docker_mounts", NULL},
    {"deployment_config", "docker_env_vars", "context.docker_env_vars", NULL},
    {"deployment_config", "nodes", "deployment_config.slurm.nodes", NULL},
    {"deployment_config", "nnodes", "deployment_config.distributed.nnodes", NULL},
    {"deployment_config", "nodelist", "deployment_config.slurm.nodelist", NULL},
    {"deployment_config", "network_interface", "deployment_config.slurm.network_interface", NULL},
    {"deployment_config.slurm", "nnodes", "deployment_config.distributed.nnodes", NULL},
    {"deployment_config.slurm", "env_vars", "deployment_config.env_vars", NULL},
    {"deployment_config.distributed", "nodes", "deployment_config.slurm.nodes", NULL},
    {"deployment_config.distributed", "nodelist", "deployment_config.slurm.nodelist", NULL},
    {"context", "slurm", "deployment_config.slurm", NULL},
    {"context", "distributed", "deployment_config.distributed", NULL},
    {"context", "env_vars", NULL,
     "use deployment_config.env_vars for the job or context.docker_env_vars for the container"},
    {"context", "container_mounts", "context.docker_mounts", NULL},
};

/* Top-level keys madengine writes or reads in a build manifest. */
static const char *const known_root[] = {
    "built_images", "built_models", "context",          "deployment_config", "credentials_required",
    "summary",      "registry",     "local_image_mode", "local_image_name",  NULL};

static bool is_misplaced_root(const char *key)
{
	for (size_t i = 0; i < ARRAY_SIZE(misplaced); i++)
		if (!misplaced[i].parent[0] && !strcmp(misplaced[i].key, key))
			return true;
	return false;
}

static void check(struct lint_ctx *c)
{
	if (c->kind != ASSAY_LINT_MANIFEST || !json_is_object(c->doc))
		return;
	for (size_t i = 0; i < ARRAY_SIZE(misplaced); i++) {
		const json_t *parent =
		    misplaced[i].parent[0] ? lint_get(c->doc, misplaced[i].parent) : c->doc;
		if (!json_is_object(parent) || !json_object_get(parent, misplaced[i].key))
			continue;
		const json_t *v = json_object_get(parent, misplaced[i].key);
		struct sbuf pp = SBUF_INIT;
		sbuf_adds(&pp, "$");
		if (misplaced[i].parent[0])
			sbuf_addf(&pp, ".%s", misplaced[i].parent);
		lint_path_push_key(&pp, misplaced[i].key);
		const char *right = misplaced[i].right;
		const json_t *there = right ? lint_get(c->doc, right) : NULL;
		if (!right)
			lint_report(c, R_MISPLACED, pp.buf, "madengine ignores \"%s\" here; %s",
				    misplaced[i].key, misplaced[i].hint);
		else if (!there)
			lint_report(c, R_MISPLACED, pp.buf,
				    "madengine ignores \"%s\" here; move it to %s",
				    misplaced[i].key, right);
		else if (json_equal(v, there))
			lint_report(
			    c, R_MISPLACED, pp.buf,
			    "madengine ignores \"%s\" here; %s holds the same value, so delete "
			    "this copy",
			    misplaced[i].key, right);
		else
			lint_report(c, R_MISPLACED, pp.buf,
				    "madengine ignores \"%s\" here; %s is set too, to a different "
				    "value, and that one takes effect",
				    misplaced[i].key, right);
		sbuf_release(&pp);
	}
	const char *k;
	json_t *v;
	json_object_foreach((json_t *)c->doc, k, v)
	{
		bool known = is_misplaced_root(k);
		for (size_t i = 0; !known && known_root[i]; i++)
			known = !strcmp(known_root[i], k);
		if (known)
			continue;
		char *p = lint_path_key("$", k);
		char b[96];
		lint_report(c, R_UNKNOWN, p, "madengine does not read a top-level %s",
			    lint_brief(k, b, sizeof(b)));
		free(p);
	}
}

const struct lint_family lint_family_placement = {"placement", rules, ARRAY_SIZE(rules), check};
