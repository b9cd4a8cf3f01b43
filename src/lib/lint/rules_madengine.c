/* Files madengine itself refuses or cannot read (ROCm/madengine at ef87d05):
 * an additional-context file that validate_additional_context rejects
 * (cli/validators.py: validate_additional_context_structure, then the
 * gpu_vendor and guest_os values after their defaults), and a manifest its
 * run phase cannot read (built_models or deployment_config.slurm that are not
 * objects, a deployed manifest without context: deployment/base.py requires
 * built_images, built_models and context) or deploys elsewhere than it says
 * (k8s and slurm both: run_orchestrator.py picks k8s). */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "assay/json.h"
#include "lint_int.h"

static const struct assay_lint_rule rules[] = {
    {"context-invalid", "madengine", ASSAY_LINT_ERROR, true, KIND(CONTEXT) | KIND(MANIFEST),
     "an additional-context file that madengine's validate_additional_context rejects"},
    {"manifest-unreadable", "madengine", ASSAY_LINT_ERROR, true, KIND(MANIFEST),
     "a manifest madengine's run phase cannot read, or deploys elsewhere than it says"},
};
#define R_CONTEXT  (&rules[0])
#define R_MANIFEST (&rules[1])

/* JSON types as Python sees them after json.load. */
enum { T_NULL = 1, T_BOOL = 2, T_INT = 4, T_REAL = 8, T_STR = 16, T_LIST = 32, T_DICT = 64 };

static int py_type(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_NULL: return T_NULL;
	case JSON_TRUE:
	case JSON_FALSE: return T_BOOL;
	case JSON_INTEGER: return T_INT;
	case JSON_REAL: return T_REAL;
	case JSON_STRING: return T_STR;
	case JSON_ARRAY: return T_LIST;
	default: return T_DICT;
	}
}

/* The keys whose type madengine checks, the types it accepts (a bool is an
 * int in Python, so "a number" takes true) and how it says so. */
static const struct {
	const char *key;
	int types;
	const char *expected;
} typed[] = {
    {"docker_build_arg", T_DICT, "an object (string values)"},
    {"docker_env_vars", T_DICT, "an object"},
    {"docker_mounts", T_DICT, "an object"},
    {"env_vars", T_DICT, "an object"},
    {"tools", T_LIST, "an array"},
    {"pre_scripts", T_LIST, "an array"},
    {"k8s", T_DICT, "an object"},
    {"slurm", T_DICT, "an object"},
    {"kubernetes", T_DICT, "an object"},
    {"distributed", T_DICT, "an object"},
    {"vllm", T_DICT, "an object"},
    {"deployment_config", T_DICT, "an object"},
    {"deploy", T_DICT, "an object"},
    {"docker_gpus", T_STR, "a string"},
    {"MAD_CONTAINER_IMAGE", T_STR, "a string"},
    {"timeout", T_INT | T_REAL | T_BOOL | T_NULL, "a number"},
    {"debug", T_BOOL | T_NULL, "a boolean"},
    {"gpu_vendor", T_STR, "a string"},
    {"guest_os", T_STR, "a string"},
    {"MAD_ROCM_PATH", T_STR | T_NULL, "a string (host ROCm root override)"},
    {"log_error_pattern_scan", T_BOOL | T_INT | T_REAL | T_STR | T_NULL,
     "a boolean, string, number, or null"},
};

static void bad(struct lint_ctx *c, const char *path, const char *key, const char *expected,
		const json_t *v)
{
	char b[96];
	lint_report(c, R_CONTEXT, path,
		    "madengine refuses this context: %s must be %s, got %s (validate_additional_"
		    "context exits before anything runs)",
		    key, expected, assay_json_brief(v, b, sizeof(b)));
}

static bool strings_only(const json_t *a)
{
	size_t i;
	json_t *e;
	json_array_foreach(a, i, e) if (!json_is_string(e)) return false;
	return true;
}

/* The members whose own members madengine checks. */
static void check_nested(struct lint_ctx *c, const json_t *ctx)
{
	const json_t *dba = json_object_get(ctx, "docker_build_arg");
	const char *k;
	json_t *v;
	if (json_is_object(dba))
		json_object_foreach((json_t *)dba, k, v)
		{
			if (py_type(v) & (T_STR | T_INT | T_REAL | T_BOOL))
				continue;
			char *p = lint_path_key("$.docker_build_arg", k);
			bad(c, p, "each docker_build_arg value",
			    "a string, number, or boolean (Docker build-arg values)", v);
			free(p);
		}
	const json_t *rp = lint_get(ctx, "docker_env_vars.ROCM_PATH");
	if (rp && !(py_type(rp) & (T_STR | T_NULL)))
		bad(c, "$.docker_env_vars.ROCM_PATH", "docker_env_vars.ROCM_PATH",
		    "a string (container ROCm root override)", rp);
	static const char *const lists[] = {"log_error_benign_patterns", "log_error_patterns"};
	for (size_t i = 0; i < ARRAY_SIZE(lists); i++) {
		const json_t *l = json_object_get(ctx, lists[i]);
		if (!l || (json_is_array(l) && strings_only(l) && (!i || json_array_size(l))))
			continue;
		char *p = lint_path_key("$", lists[i]);
		bad(c, p, lists[i], i ? "a non-empty array of strings" : "an array of strings", l);
		free(p);
	}
}

/* gpu_vendor and guest_os (AMD and UBUNTU when absent), compared in upper case. */
static void check_enums(struct lint_ctx *c, const json_t *ctx)
{
	static const struct {
		const char *key, *a, *b;
	} enums[] = {{"gpu_vendor", "AMD", "NVIDIA"}, {"guest_os", "UBUNTU", "CENTOS"}};
	for (size_t i = 0; i < ARRAY_SIZE(enums); i++) {
		const json_t *v = json_object_get(ctx, enums[i].key);
		if (!json_is_string(v) || !strcasecmp(json_string_value(v), enums[i].a) ||
		    !strcasecmp(json_string_value(v), enums[i].b))
			continue;
		char *p = lint_path_key("$", enums[i].key);
		char b[96];
		lint_report(c, R_CONTEXT, p,
			    "madengine refuses this context: %s %s is not one of %s, %s (any case)",
			    enums[i].key, lint_brief(json_string_value(v), b, sizeof(b)),
			    enums[i].a, enums[i].b);
		free(p);
	}
}

static void check_context(struct lint_ctx *c, const json_t *ctx)
{
	if (!json_is_object(ctx))
		return;
	for (size_t i = 0; i < ARRAY_SIZE(typed); i++) {
		const json_t *v = json_object_get(ctx, typed[i].key);
		if (v && !(py_type(v) & typed[i].types)) {
			char *p = lint_path_key("$", typed[i].key);
			bad(c, p, typed[i].key, typed[i].expected, v);
			free(p);
		}
	}
	check_nested(c, ctx);
	check_enums(c, ctx);
}

static void unreadable(struct lint_ctx *c, const char *path, const char *why)
{
	lint_report(c, R_MANIFEST, path, "%s", why);
}

static void check_manifest(struct lint_ctx *c, const json_t *m)
{
	const json_t *bm = json_object_get(m, "built_models");
	if (bm && !json_is_object(bm))
		unreadable(c, "$.built_models",
			   "built_models must be an object of model entries by image name: "
			   "madengine's run phase looks models up by key and cannot read this one");
	const json_t *dc = json_object_get(m, "deployment_config");
	const json_t *slurm = json_object_get(dc, "slurm");
	const json_t *k8s = json_object_get(dc, "k8s");
	if (!k8s)
		k8s = json_object_get(dc, "kubernetes");
	if (slurm && !json_is_object(slurm))
		unreadable(c, "$.deployment_config.slurm",
			   "deployment_config.slurm must be an object: madengine reads partition, "
			   "nodes and the rest from it by name and cannot read this one");
	if (slurm && k8s)
		unreadable(c, "$.deployment_config",
			   "both k8s and slurm in deployment_config: madengine deploys to "
			   "Kubernetes and silently ignores slurm; keep one");
	if ((slurm || k8s) && !json_object_get(m, "context"))
		unreadable(
		    c, "$",
		    "a deployed manifest without \"context\": madengine's deployment refuses "
		    "it (it requires built_images, built_models and context); give "
		    "\"context\": {} at least");
}

static void check(struct lint_ctx *c)
{
	if (c->kind == ASSAY_LINT_CONTEXT && lint_on(c, R_CONTEXT)) {
		check_context(c, c->source);
		return;
	}
	if (c->kind != ASSAY_LINT_MANIFEST || !json_is_object(c->source))
		return;
	if (lint_on(c, R_MANIFEST))
		check_manifest(c, c->source);
	if (c->context_doc && lint_on(c, R_CONTEXT)) {
		c->finding_file = c->context_file;
		check_context(c, c->context_doc);
		c->finding_file = NULL;
	}
}

const struct lint_family lint_family_context_valid = {"madengine", rules, ARRAY_SIZE(rules), check};
