/* Placement rules for madengine manifests: keys madengine never reads where
 * they stand (slurm at the root instead of deployment_config.slurm, mounts
 * under deployment_config instead of context, ...), which value takes
 * effect when the key is set in the right place too, and misspelt keys of
 * the blocks whose keys madengine reads by name (with a "did you mean"). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "lint_int.h"

static const struct assay_lint_rule rules[] = {
    {"misplaced-key", "placement", ASSAY_LINT_ERROR, true, KIND(MANIFEST),
     "a key madengine ignores where it stands (it reads it from another place)"},
    {"unknown-key", "placement", ASSAY_LINT_WARNING, false, KIND(MANIFEST),
     "a top-level manifest key madengine does not read at all (off by default)"},
    {"key-typo", "placement", ASSAY_LINT_ERROR, true, KIND(MANIFEST) | KIND(CONTEXT) | KIND(MODELS),
     "a key one or two letters away from one madengine reads there (did you mean ...?)"},
};
#define R_MISPLACED (&rules[0])
#define R_UNKNOWN   (&rules[1])
#define R_TYPO      (&rules[2])

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
    {"", "env", NULL,
     "use deployment_config.env_vars for the job or context.docker_env_vars for the container"},
    {"deployment_config", "env", "deployment_config.env_vars", NULL},
    {"context", "env", NULL, "use context.docker_env_vars for the container"},
    {"deployment_config", "docker_mounts", "context.docker_mounts", NULL},
    {"deployment_config", "container_mounts", "context.docker_mounts", NULL},
    {"deployment_config", "docker_env_vars", "context.docker_env_vars", NULL},
    {"deployment_config", "nodes", "deployment_config.slurm.nodes", NULL},
    {"deployment_config", "nnodes", "deployment_config.distributed.nnodes", NULL},
    {"deployment_config", "nodelist", "deployment_config.slurm.nodelist", NULL},
    {"deployment_config", "network_interface", "deployment_config.slurm.network_interface", NULL},
    {"deployment_config.slurm", "nnodes", "deployment_config.distributed.nnodes", NULL},
    {"deployment_config.slurm", "env_vars", "deployment_config.env_vars", NULL},
    {"deployment_config.slurm", "ntasks_per_node", NULL,
     "madengine's job script runs one task per node (--ntasks is nodes); ranks per node "
     "come from deployment_config.distributed.nproc_per_node"},
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

/* Keys madengine reads by name, per block (madengine's build orchestrator
 * writes deployment_config; the Slurm deployment, job template and container
 * runner read the rest). NULL-terminated. */
static const char *const deployment_keys[] = {"target",      "slurm", "k8s",      "kubernetes",
					      "distributed", "vllm",  "env_vars", "debug",
					      "timeout",     NULL};
static const char *const slurm_keys[] = {"partition",
					 "account",
					 "qos",
					 "reservation",
					 "nodes",
					 "gpus_per_node",
					 "time",
					 "output_dir",
					 "results_dir",
					 "exclusive",
					 "network_interface",
					 "nodelist",
					 "exclude",
					 "constraint",
					 "modules",
					 "shared_workspace",
					 "enable_node_check",
					 "verbose_node_check",
					 "auto_cleanup_nodes",
					 "allow_submit_without_clean_nodes",
					 "timeout",
					 NULL};
static const char *const distributed_keys[] = {
    "launcher", "backend", "port", "nnodes", "nproc_per_node", "sglang_disagg", "enabled", NULL};
static const char *const context_keys[] = {"docker_env_vars",
					   "docker_mounts",
					   "docker_build_arg",
					   "docker_gpus",
					   "gpu_vendor",
					   "guest_os",
					   "tools",
					   "pre_scripts",
					   "post_scripts",
					   "encapsulate_script",
					   "MAD_CONTAINER_IMAGE",
					   "MAD_ROCM_PATH",
					   NULL};
static const char *const card_keys[] = {"name",
					"url",
					"dockerfile",
					"scripts",
					"data",
					"n_gpus",
					"owner",
					"training_precision",
					"multiple_results",
					"tags",
					"timeout",
					"args",
					"additional_docker_run_options",
					"skip_gpu_arch",
					"distributed",
					"slurm",
					"env_vars",
					"cred",
					"nnodes",
					NULL};

/* Optimal string alignment distance, case-insensitive, capped at 3. */
static int distance(const char *a, const char *b)
{
	size_t n = strlen(a), m = strlen(b);
	if (n > 63 || m > 63 || (n > m ? n - m : m - n) > 2)
		return 3;
	int d[64][64];
	for (size_t i = 0; i <= n; i++)
		d[i][0] = (int)i;
	for (size_t j = 0; j <= m; j++)
		d[0][j] = (int)j;
	for (size_t i = 1; i <= n; i++) {
		for (size_t j = 1; j <= m; j++) {
			int cost =
			    tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]);
			int v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (d[i - 1][j - 1] + cost < v)
				v = d[i - 1][j - 1] + cost;
			if (i > 1 && j > 1 &&
			    tolower((unsigned char)a[i - 1]) == tolower((unsigned char)b[j - 2]) &&
			    tolower((unsigned char)a[i - 2]) == tolower((unsigned char)b[j - 1]) &&
			    d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	}
	return d[n][m] < 3 ? d[n][m] : 3;
}

static bool in_list(const char *const *list, const char *key)
{
	for (size_t i = 0; list && list[i]; i++)
		if (list[i][0] == key[0] && !strcmp(list[i], key))
			return true;
	return false;
}

/* The known key key is a misspelling of, or NULL: one edit away (two for
 * keys of more than five letters), or differing only in case. */
static const char *typo_of(const char *key, const char *const *a, const char *const *b)
{
	if (key[0] == '_' || in_list(a, key) || in_list(b, key))
		return NULL;
	int limit = strlen(key) > 5 ? 2 : 1;
	const char *best = NULL;
	int bd = limit + 1;
	for (int pass = 0; pass < 2; pass++) {
		const char *const *l = pass ? b : a;
		for (size_t i = 0; l && l[i]; i++) {
			int dd = distance(key, l[i]);
			if (dd < bd) {
				bd = dd;
				best = l[i];
			}
		}
	}
	return best;
}

/* Report the misspelt keys of block (at path). extra: more known keys. */
static void typos_in(struct lint_ctx *c, const json_t *block, const char *path,
		     const char *const *known, const char *const *extra)
{
	if (!json_is_object(block))
		return;
	const char *k;
	json_t *v;
	json_object_foreach((json_t *)block, k, v)
	{
		const char *want = typo_of(k, known, extra);
		if (!want)
			continue;
		char *p = lint_path_key(path, k);
		char b1[96];
		lint_report(c, R_TYPO, p, "madengine does not read %s here; did you mean \"%s\"?",
			    lint_brief(k, b1, sizeof(b1)), want);
		free(p);
	}
}

static void check_card_typos(struct lint_ctx *c, const json_t *card, const char *path)
{
	typos_in(c, card, path, card_keys, NULL);
}

static void check_typos(struct lint_ctx *c)
{
	if (c->kind == ASSAY_LINT_MODELS) {
		lint_models_cards(c, check_card_typos);
		return;
	}
	if (!json_is_object(c->doc))
		return;
	if (c->kind == ASSAY_LINT_MANIFEST)
		typos_in(c, c->doc, "$", known_root, NULL);
	typos_in(c, lint_get(c->doc, "deployment_config"), "$.deployment_config", deployment_keys,
		 NULL);
	typos_in(c, lint_get(c->doc, "deployment_config.slurm"), "$.deployment_config.slurm",
		 slurm_keys, NULL);
	typos_in(c, lint_get(c->doc, "deployment_config.distributed"),
		 "$.deployment_config.distributed", distributed_keys, NULL);
	/* An additional-context file's other keys are its view's context; its
	 * deployment keys count as known there. */
	typos_in(c, lint_get(c->doc, "context"), "$.context", context_keys,
		 c->kind == ASSAY_LINT_CONTEXT ? lint_context_deploy_keys : NULL);
	const json_t *models = lint_get(c->doc, "built_models");
	if (json_is_object(models)) {
		const char *k;
		json_t *card;
		json_object_foreach((json_t *)models, k, card)
		{
			char *p = lint_path_key("$.built_models", k);
			check_card_typos(c, card, p);
			free(p);
		}
	}
}

static bool is_misplaced_root(const char *key)
{
	for (size_t i = 0; i < ARRAY_SIZE(misplaced); i++)
		if (!misplaced[i].parent[0] && !strcmp(misplaced[i].key, key))
			return true;
	return false;
}

static void check(struct lint_ctx *c)
{
	if (lint_on(c, R_TYPO))
		check_typos(c);
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
		/* A misspelling is key-typo's finding, with the key meant. */
		if (known || (lint_on(c, R_TYPO) && typo_of(k, known_root, NULL)))
			continue;
		char *p = lint_path_key("$", k);
		char b[96];
		lint_report(c, R_UNKNOWN, p, "madengine does not read a top-level %s",
			    lint_brief(k, b, sizeof(b)));
		free(p);
	}
}

const struct lint_family lint_family_placement = {"placement", rules, ARRAY_SIZE(rules), check};
