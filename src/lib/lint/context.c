/* madengine additional-context files (--additional-context-file): telling
 * one from the other kinds, the manifest-shaped view of one that the
 * manifest rules read, and a manifest merged with one the way madengine's
 * run orchestrator merges them, with the way back from a merged path to the
 * file whose value takes effect. */
#include <stdlib.h>
#include <string.h>

#include "lint_int.h"

/* RunOrchestrator._load_and_merge_manifest (madengine
 * src/madengine/orchestration/run_orchestrator.py) copies these keys of the
 * additional context over the manifest's deployment_config, each whole. */
const char *const lint_context_deploy_keys[] = {
    "deploy", "slurm", "k8s", "kubernetes", "distributed", "vllm", "env_vars", "debug", NULL};

bool lint_context_is_deploy_key(const char *key)
{
	for (size_t i = 0; lint_context_deploy_keys[i]; i++)
		if (!strcmp(lint_context_deploy_keys[i], key))
			return true;
	return false;
}

bool lint_looks_like_context(const json_t *doc)
{
	static const char *const keys[] = {
	    "gpu_vendor",
	    "guest_os",
	    "docker_env_vars",
	    "docker_mounts",
	    "docker_build_arg",
	    "docker_gpus",
	    "tools",
	    "pre_scripts",
	    "post_scripts",
	    "encapsulate_script",
	    "slurm",
	    "k8s",
	    "kubernetes",
	    "distributed",
	    "env_vars",
	    "MAD_CONTAINER_IMAGE",
	    /* keys only madengine's validate_additional_context names */
	    "deploy",
	    "vllm",
	    "MAD_ROCM_PATH",
	    "log_error_patterns",
	    "log_error_benign_patterns",
	    "log_error_pattern_scan",
	};
	if (!json_is_object(doc))
		return false;
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
		if (json_object_get(doc, keys[i]))
			return true;
	return false;
}

json_t *lint_context_view(const json_t *ctx)
{
	json_t *view = json_object(), *dc = json_object(), *cx = json_object();
	const char *k;
	json_t *v;
	json_object_foreach((json_t *)ctx, k, v)
	{
		json_object_set(lint_context_is_deploy_key(k) ? dc : cx, k, v);
	}
	json_object_set_new(view, "deployment_config", dc);
	json_object_set_new(view, "context", cx);
	return view;
}

/* The rest of path after prefix when path is prefix or lies below it. */
static const char *below(const char *path, const char *prefix)
{
	size_t n = strlen(prefix);
	if (strncmp(path, prefix, n) || (path[n] && path[n] != '.' && path[n] != '['))
		return NULL;
	return path + n;
}

char *lint_context_view_path(const char *path)
{
	const char *rest = below(path, "$.deployment_config");
	if (!rest)
		rest = below(path, "$.context");
	if (!rest)
		return xstrdup(path);
	return xasprintf("$%s", rest);
}

json_t *lint_context_merge(const json_t *manifest, const json_t *ctx)
{
	json_t *m = json_deep_copy(manifest);
	json_t *dc = json_object_get(m, "deployment_config");
	if (!json_is_object(dc)) {
		dc = json_object();
		json_object_set_new(m, "deployment_config", dc);
	}
	json_t *cx = json_object_get(m, "context");
	if (!json_is_object(cx)) {
		cx = json_object();
		json_object_set_new(m, "context", cx);
	}
	const char *k;
	json_t *v;
	json_object_foreach((json_t *)ctx, k, v)
	{
		if (lint_context_is_deploy_key(k)) {
			json_object_set(dc, k, v);
			continue;
		}
		json_t *have = json_object_get(cx, k);
		if (!strcmp(k, "docker_env_vars") && json_is_object(have) && json_is_object(v)) {
			/* RunOrchestrator._execute_local restores the manifest's
			 * docker_env_vars over the runtime context's, entry by entry:
			 * the context file adds only the names the manifest lacks. */
			const char *name;
			json_t *val;
			json_object_foreach(v, name, val)
			{
				if (!json_object_get(have, name))
					json_object_set(have, name, val);
			}
			continue;
		}
		json_object_set(cx, k, v);
	}
	return m;
}

char *lint_context_merged_path(const json_t *manifest, const json_t *ctx, const char *path)
{
	const char *k;
	json_t *v;
	json_object_foreach((json_t *)ctx, k, v)
	{
		bool deploy = lint_context_is_deploy_key(k);
		char *prefix = lint_path_key(deploy ? "$.deployment_config" : "$.context", k);
		const char *rest = below(path, prefix);
		free(prefix);
		if (!rest)
			continue;
		char *own = lint_path_key("$", k);
		if (!deploy && !strcmp(k, "docker_env_vars") && *rest) {
			const json_t *menv = lint_get(manifest, "context.docker_env_vars");
			if (json_is_object(menv) && json_is_object(v)) {
				/* Only the entries the manifest lacks are the file's. */
				const char *name;
				json_t *val;
				json_object_foreach(v, name, val)
				{
					char *ep = lint_path_key("$", name);
					size_t n = strlen(ep + 1);
					bool match = !strncmp(rest, ep + 1, n) &&
						     (!rest[n] || rest[n] == '.' || rest[n] == '[');
					free(ep);
					if (match) {
						if (json_object_get(menv, name))
							break;
						char *out = xasprintf("%s%s", own, rest);
						free(own);
						return out;
					}
				}
				free(own);
				return NULL;
			}
		}
		char *out = xasprintf("%s%s", own, rest);
		free(own);
		return out;
	}
	return NULL;
}
