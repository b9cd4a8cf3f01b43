/* Rules for a manifest linted with its additional-context file (assay lint
 * --context): values of one file that the other silently replaces, as
 * madengine's run orchestrator merges them. */
#include <stdlib.h>
#include <string.h>

#include "lint_int.h"

static const struct assay_lint_rule rules[] = {
    {"context-override", "context", ASSAY_LINT_WARNING, true, KIND(MANIFEST),
     "with --context: settings of one file that madengine silently drops for the other's"},
};
#define R_OVERRIDE (&rules[0])

/* A deployment block of the context file replaces the manifest's whole. */
static void check_blocks(struct lint_ctx *c, const json_t *manifest)
{
	const char *k;
	json_t *v;
	json_object_foreach((json_t *)c->context_doc, k, v)
	{
		if (!lint_context_is_deploy_key(k) || !json_is_object(v))
			continue;
		char *chain = xasprintf("deployment_config.%s", k);
		const json_t *old = lint_get(manifest, chain);
		free(chain);
		if (!json_is_object(old))
			continue;
		struct sbuf lost = SBUF_INIT;
		const char *ok;
		json_t *ov;
		size_t n = 0;
		json_object_foreach((json_t *)old, ok, ov)
		{
			if (json_object_get(v, ok))
				continue;
			sbuf_addf(&lost, "%s%s", n++ ? ", " : "", ok);
		}
		if (n) {
			char *p = lint_path_key("$.deployment_config", k);
			lint_report(
			    c, R_OVERRIDE, p,
			    "%s replaces the manifest's deployment_config.%s whole (madengine "
			    "does not merge the two), so %s set there %s not apply; this "
			    "file's value takes effect",
			    k, k, lost.buf, n == 1 ? "does" : "do");
			free(p);
		}
		sbuf_release(&lost);
	}
}

/* docker_env_vars: the manifest's entries win over the context file's. */
static void check_env(struct lint_ctx *c, const json_t *manifest)
{
	const json_t *cenv = json_object_get(c->context_doc, "docker_env_vars");
	const json_t *menv = lint_get(manifest, "context.docker_env_vars");
	if (!json_is_object(cenv) || !json_is_object(menv))
		return;
	const char *name;
	json_t *v;
	c->finding_file = c->context_file;
	json_object_foreach((json_t *)cenv, name, v)
	{
		const json_t *mv = json_object_get(menv, name);
		if (!mv || json_equal(mv, v))
			continue;
		char *p = lint_path_key("$.docker_env_vars", name);
		char b[96];
		lint_report(
		    c, R_OVERRIDE, p,
		    "the manifest's context.docker_env_vars.%s (%s) takes effect: madengine "
		    "restores the manifest's docker_env_vars over the additional context, "
		    "so this value is ignored",
		    name,
		    lint_key_is_secret(name)
			? "a secret value"
			: lint_brief(json_is_string(mv) ? json_string_value(mv) : "(not a string)",
				     b, sizeof(b)));
		free(p);
	}
	c->finding_file = NULL;
}

static void check(struct lint_ctx *c)
{
	if (!c->context_doc || c->kind != ASSAY_LINT_MANIFEST || !lint_on(c, R_OVERRIDE))
		return;
	check_blocks(c, c->source);
	check_env(c, c->source);
}

const struct lint_family lint_family_context = {"context", rules, ARRAY_SIZE(rules), check};
