/* Variants and repeats of a suite (docs/suite.md, "Variants"): the
 * "variants" block (what each variant overrides: one row per key in the
 * table below), the expansion of every case into one case per repeat and
 * variant, interleaved (A B A B ...) so both run on the same nodes side by
 * side, and the overrides applied to a planned case. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/json.h"
#include "suite_int.h"

/* ---- the overrides a variant may set ---- */

static int env_object(struct assay_cfg *c, const struct assay_suite *s, const json_t *v,
		      const char *path, struct strlist *out)
{
	if (!json_is_object(v))
		return assay_cfg_expected(c, path, "an object NAME -> string, number or boolean",
					  v);
	const char *name;
	json_t *val;
	json_object_foreach((json_t *)v, name, val)
	{
		char p[256];
		assay_json_path_key(p, sizeof(p), path, name);
		if (!suite_valid_name(name))
			return assay_cfg_fail(c, p, "not a valid environment variable name");
		if (strlist_has(&s->secrets, name))
			return assay_cfg_fail(c, p,
					      "%s is a secret: it comes from assay's environment, "
					      "never from the suite file",
					      name);
		if (!strcmp(name, "LD_LIBRARY_PATH") || !strcmp(name, "LD_PRELOAD"))
			return assay_cfg_fail(c, p, "set with \"%s\" (a list of paths)",
					      !strcmp(name, "LD_PRELOAD") ? "ld_preload"
									  : "ld_library_path");
		struct sbuf sb = SBUF_INIT;
		sbuf_addf(&sb, "%s=", name);
		if (suite_scalar_text(c, val, p, &sb) < 0) {
			sbuf_release(&sb);
			return -1;
		}
		strlist_push(out, sbuf_str(&sb));
		sbuf_release(&sb);
	}
	return 0;
}

static int set_env(struct assay_cfg *c, const struct assay_suite *s, const json_t *v,
		   const char *path, struct assay_suite_variant *var)
{
	return env_object(c, s, v, path, &var->env);
}

static int set_vars(struct assay_cfg *c, const struct assay_suite *s, const json_t *v,
		    const char *path, struct assay_suite_variant *var)
{
	(void)s;
	if (!json_is_object(v))
		return assay_cfg_expected(c, path, "an object of placeholder values", v);
	const char *k;
	json_t *val;
	json_object_foreach((json_t *)v, k, val)
	{
		char p[256];
		assay_json_path_key(p, sizeof(p), path, k);
		if (!suite_valid_name(k))
			return assay_cfg_fail(
			    c, p, "not a valid placeholder name ([A-Za-z_][A-Za-z0-9_]*)");
		for (size_t b = 0; assay_template_builtins[b]; b++)
			if (!strcmp(k, assay_template_builtins[b]))
				return assay_cfg_fail(c, p, "{%s} is set by assay itself", k);
		struct sbuf sb = SBUF_INIT;
		int rc = suite_scalar_text(c, val, p, &sb);
		sbuf_release(&sb);
		if (rc < 0)
			return -1;
		json_object_set(var->vars, k, val);
	}
	return 0;
}

static int path_list(struct assay_cfg *c, const json_t *v, const char *path, bool allow_empty,
		     struct strlist *out)
{
	if (!json_is_array(v) || !json_array_size(v))
		return assay_cfg_expected(c, path, "a non-empty array of strings", v);
	for (size_t i = 0; i < json_array_size(v); i++) {
		const json_t *item = json_array_get(v, i);
		char p[256];
		assay_json_path_index(p, sizeof(p), path, i);
		if (!json_is_string(item) || (!allow_empty && !json_string_length(item)))
			return assay_cfg_expected(c, p, "a non-empty string", item);
		strlist_push(out, json_string_value(item));
	}
	return 0;
}

static int set_args(struct assay_cfg *c, const struct assay_suite *s, const json_t *v,
		    const char *path, struct assay_suite_variant *var)
{
	(void)s;
	return path_list(c, v, path, true, &var->args);
}

static int set_ld_library_path(struct assay_cfg *c, const struct assay_suite *s, const json_t *v,
			       const char *path, struct assay_suite_variant *var)
{
	(void)s;
	return path_list(c, v, path, false, &var->ld_library_path);
}

static int set_ld_preload(struct assay_cfg *c, const struct assay_suite *s, const json_t *v,
			  const char *path, struct assay_suite_variant *var)
{
	(void)s;
	return path_list(c, v, path, false, &var->ld_preload);
}

static int set_image(struct assay_cfg *c, const struct assay_suite *s, const json_t *v,
		     const char *path, struct assay_suite_variant *var)
{
	if (!json_is_string(v) || !json_string_length(v))
		return assay_cfg_expected(c, path, "an image name", v);
	if (!s->container.on)
		return assay_cfg_fail(c, path,
				      "replaces the container's image: the suite has no "
				      "\"container\" block (docs/containers.md)");
	var->image = xstrdup(json_string_value(v));
	return 0;
}

/* What a variant may override: its key and its parser. An expectation's
 * values need no row: a pattern's {NAME} takes the variant's vars. */
static const struct {
	const char *key;
	int (*parse)(struct assay_cfg *c, const struct assay_suite *s, const json_t *v,
		     const char *path, struct assay_suite_variant *var);
} overrides[] = {
    {"env", set_env},
    {"vars", set_vars},
    {"args", set_args},
    {"image", set_image},
    {"ld_library_path", set_ld_library_path},
    {"ld_preload", set_ld_preload},
};

const char *const assay_suite_variant_keys[] = {
    "env", "vars", "args", "image", "ld_library_path", "ld_preload", NULL};

static bool variant_name_ok(const char *n)
{
	if (!*n)
		return false;
	for (const char *p = n; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '_' || *p == '-'))
			return false;
	return true;
}

int suite_parse_variants(struct assay_cfg *c, const json_t *doc, struct assay_suite *s)
{
	s->repeat = 1;
	if (assay_cfg_int(c, doc, "$", "repeat", ASSAY_CFG_OPTIONAL, 1, 1000, &s->repeat) < 0)
		return -1;
	json_t *vs;
	int rc = assay_cfg_member(c, doc, "$", "variants", ASSAY_CFG_OPTIONAL, JSON_OBJECT, &vs);
	if (rc <= 0)
		return rc;
	if (json_object_size(vs) < 2)
		return assay_cfg_fail(c, "$.variants",
				      "expected at least two variants (a baseline and a "
				      "candidate), got %zu",
				      json_object_size(vs));
	s->variants = xcalloc(json_object_size(vs), sizeof(*s->variants));
	const char *name;
	json_t *v;
	json_object_foreach(vs, name, v)
	{
		char p[256];
		assay_json_path_key(p, sizeof(p), "$.variants", name);
		if (!variant_name_ok(name))
			return assay_cfg_fail(c, p,
					      "a variant name is part of case ids: letters, "
					      "digits, '_' and '-' (got \"%s\")",
					      name);
		if (!json_is_object(v))
			return assay_cfg_expected(c, p, "an object of overrides", v);
		if (assay_cfg_object(c, v, p, assay_suite_variant_keys) < 0)
			return -1;
		struct assay_suite_variant *var = &s->variants[s->n_variants++];
		var->name = xstrdup(name);
		var->vars = json_object();
		for (size_t i = 0; i < ARRAY_SIZE(overrides); i++) {
			const json_t *val = json_object_get(v, overrides[i].key);
			char kp[320];
			if (!val)
				continue;
			assay_json_path_key(kp, sizeof(kp), p, overrides[i].key);
			if (overrides[i].parse(c, s, val, kp, var) < 0)
				return -1;
		}
	}
	return 0;
}

void suite_variants_release(struct assay_suite *s)
{
	for (size_t i = 0; i < s->n_variants; i++) {
		struct assay_suite_variant *v = &s->variants[i];
		free(v->name);
		json_decref(v->vars);
		strlist_clear(&v->env);
		strlist_clear(&v->args);
		free(v->image);
		strlist_clear(&v->ld_library_path);
		strlist_clear(&v->ld_preload);
	}
	free(s->variants);
	s->variants = NULL;
	s->n_variants = 0;
}

json_t *suite_variant_vars(const json_t *combo, const struct assay_suite_variant *v)
{
	json_t *vars = json_deep_copy(combo);
	if (v)
		json_object_update(vars, v->vars);
	return vars;
}

/* ---- expansion ---- */

static char *copy_id(const char *base, const struct assay_suite_variant *v, long long rep,
		     long long repeat)
{
	struct sbuf sb = SBUF_INIT;
	sbuf_adds(&sb, base);
	if (v)
		sbuf_addf(&sb, ".%s", v->name);
	if (repeat > 1)
		sbuf_addf(&sb, ".%lld", rep);
	return sbuf_detach(&sb, NULL);
}

int suite_expand_variants(struct assay_cfg *c, struct assay_suite *s)
{
	if (!s->n_variants && s->repeat <= 1)
		return 0;
	size_t per = (s->n_variants ? s->n_variants : 1) * (size_t)s->repeat;
	struct assay_suite_case *v = xcalloc(s->n_cases * per + 1, sizeof(*v));
	size_t n = 0;
	for (size_t i = 0; i < s->n_cases; i++) {
		struct assay_suite_case *o = &s->cases[i];
		if (o->stage_argv) { /* a command stage runs once */
			v[n++] = *o;
			continue;
		}
		for (long long r = 1; r <= s->repeat; r++) {
			for (size_t k = 0; k < (s->n_variants ? s->n_variants : 1); k++) {
				const struct assay_suite_variant *var =
				    s->n_variants ? &s->variants[k] : NULL;
				struct assay_suite_case *x = &v[n++];
				*x = *o;
				x->id = copy_id(o->id, var, r, s->repeat);
				x->reason = o->reason ? xstrdup(o->reason) : NULL;
				x->stage = o->stage ? xstrdup(o->stage) : NULL;
				x->cell = o->cell ? xstrdup(o->cell) : NULL;
				x->base = xstrdup(o->id);
				x->variant = var;
				x->rep = r;
				x->vars = suite_variant_vars(o->vars, var);
				x->factors = json_deep_copy(o->factors);
				if (json_is_object(x->factors)) {
					if (var)
						json_object_set_new(x->factors, "variant",
								    json_string(var->name));
					json_object_set_new(x->factors, "repeat", json_integer(r));
				}
			}
		}
		free(o->id);
		free(o->reason);
		free(o->stage);
		free(o->cell);
		json_decref(o->vars);
		json_decref(o->factors);
	}
	free(s->cases);
	s->cases = v;
	s->n_cases = n;
	/* A combo named like a copy ("a.baseline") would share its id. */
	for (size_t i = 0; i < n; i++)
		for (size_t k = i + 1; k < n; k++)
			if (!strcmp(v[i].id, v[k].id))
				return assay_cfg_fail(
				    c, s->n_variants ? "$.variants" : "$.repeat",
				    "case id \"%s\" is given twice (a run's own id and a "
				    "variant's or repeat's copy of another)",
				    v[i].id);
	return 0;
}

/* ---- applied to a planned case ---- */

static void env_set(struct strlist *env, const char *name, const char *value)
{
	size_t n = strlen(name);
	for (size_t i = 0; i < env->n; i++)
		if (!strncmp(env->v[i], name, n) && env->v[i][n] == '=') {
			free(env->v[i]);
			env->v[i] = xasprintf("%s=%s", name, value);
			return;
		}
	char *kv = xasprintf("%s=%s", name, value);
	strlist_push(env, kv);
	free(kv);
}

static const char *env_get(const struct strlist *env, const char *name)
{
	size_t n = strlen(name);
	for (size_t i = 0; i < env->n; i++)
		if (!strncmp(env->v[i], name, n) && env->v[i][n] == '=')
			return env->v[i] + n + 1;
	return getenv(name);
}

/* Prepend the expanded list to variable name: the case's value (the suite's
 * env), else assay's own. */
static assay_err prepend_paths(const struct assay_suite *s, const struct strlist *list,
			       const char *name, const char *path, const json_t *vars,
			       struct strlist *env, struct assay_error *e)
{
	if (!list->n)
		return ASSAY_OK;
	struct sbuf sb = SBUF_INIT;
	for (size_t i = 0; i < list->n; i++) {
		char p[320];
		assay_json_path_index(p, sizeof(p), path, i);
		if (i)
			sbuf_addch(&sb, ':');
		if (suite_expand(list->v[i], vars, s->file, p, &sb, e) != ASSAY_OK) {
			sbuf_release(&sb);
			return ASSAY_USAGE;
		}
	}
	const char *old = env_get(env, name);
	if (old && *old)
		sbuf_addf(&sb, ":%s", old);
	env_set(env, name, sbuf_str(&sb));
	sbuf_release(&sb);
	return ASSAY_OK;
}

assay_err suite_variant_apply(const struct assay_suite *s, const struct assay_suite_case *c,
			      const json_t *vars, struct assay_case_plan *p, struct assay_error *e)
{
	const struct assay_suite_variant *v = c->variant;
	if (!v)
		return ASSAY_OK;
	char base[256], path[320];
	assay_json_path_key(base, sizeof(base), "$.variants", v->name);
	struct sbuf sb = SBUF_INIT;
	assay_err rc = ASSAY_OK;
	for (size_t i = 0; i < v->env.n && rc == ASSAY_OK; i++) {
		const char *eq = strchr(v->env.v[i], '=');
		char *name = xstrndup(v->env.v[i], (size_t)(eq - v->env.v[i]));
		char ep[300];
		assay_json_path_key(ep, sizeof(ep), base, "env");
		assay_json_path_key(path, sizeof(path), ep, name);
		sbuf_reset(&sb);
		rc = suite_expand(eq + 1, vars, s->file, path, &sb, e);
		if (rc == ASSAY_OK)
			env_set(&p->env, name, sbuf_str(&sb));
		free(name);
	}
	char lp[300], pp[300], ap[300];
	assay_json_path_key(lp, sizeof(lp), base, "ld_library_path");
	assay_json_path_key(pp, sizeof(pp), base, "ld_preload");
	assay_json_path_key(ap, sizeof(ap), base, "args");
	if (rc == ASSAY_OK)
		rc = prepend_paths(s, &v->ld_library_path, "LD_LIBRARY_PATH", lp, vars, &p->env, e);
	if (rc == ASSAY_OK)
		rc = prepend_paths(s, &v->ld_preload, "LD_PRELOAD", pp, vars, &p->env, e);
	for (size_t i = 0; i < v->args.n && rc == ASSAY_OK; i++) {
		assay_json_path_index(path, sizeof(path), ap, i);
		sbuf_reset(&sb);
		rc = suite_expand(v->args.v[i], vars, s->file, path, &sb, e);
		if (rc == ASSAY_OK)
			strlist_push(&p->argv, sbuf_str(&sb));
	}
	if (rc == ASSAY_OK && v->image && p->container.on) {
		assay_json_path_key(path, sizeof(path), base, "image");
		sbuf_reset(&sb);
		rc = suite_expand(v->image, vars, s->file, path, &sb, e);
		if (rc == ASSAY_OK) {
			free(p->container.image);
			p->container.image = sbuf_detach(&sb, NULL);
		}
	}
	if (rc == ASSAY_OK && p->context)
		json_object_set_new(p->context, "variant", json_string(v->name));
	sbuf_release(&sb);
	return rc;
}

assay_err suite_check_variants(const struct assay_suite *s, struct assay_error *e)
{
	for (size_t i = 0; s->n_variants && i < s->n_cases; i++) {
		const struct assay_suite_case *c = &s->cases[i];
		if (!c->runnable || !c->variant)
			continue;
		json_t *vars = suite_builtin_vars(s, c, "RUN", "CASE_DIR");
		struct assay_case_plan p;
		memset(&p, 0, sizeof(p));
		if (s->container.on)
			assay_container_copy(&p.container, &s->container);
		assay_err rc = suite_variant_apply(s, c, vars, &p, e);
		json_decref(vars);
		assay_case_plan_release(&p);
		if (rc != ASSAY_OK)
			return rc;
	}
	return ASSAY_OK;
}
