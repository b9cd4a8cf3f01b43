/* Suite rules (docs/suite.md): runs that name no combo (in runs or in a
 * stage's runs), and {NAME} placeholders in a suite's templates (argv, env,
 * cwd, results, logs, context, expect patterns, a variant's overrides) that a
 * run's combo, its variant's vars and assay's built-ins leave without a
 * value, and an ab gate naming no variant. Every one is reported, where the suite loader
 * stops at the first. */
#include <stdlib.h>
#include <string.h>

#include "assay/suite.h"
#include "lint_int.h"

static const struct assay_lint_rule rules[] = {
    {"suite-unknown-run", "suite", ASSAY_LINT_ERROR, true, KIND(SUITE),
     "an entry of a suite's runs (or of a stage's runs) that names no combo"},
    {"suite-unfilled-placeholder", "suite", ASSAY_LINT_ERROR, true, KIND(SUITE),
     "a {NAME} in a suite's argv, env, cwd, results, logs, context, expect pattern or a variant's "
     "overrides that a run leaves unfilled"},
    {"suite-unknown-variant", "suite", ASSAY_LINT_ERROR, true, KIND(SUITE),
     "the ab gate of a suite with variants names a baseline or candidate that is no variant"},
};
#define R_RUN         (&rules[0])
#define R_PLACEHOLDER (&rules[1])
#define R_VARIANT     (&rules[2])

static bool is_kind(const json_t *doc, const char *kind)
{
	const json_t *k = json_object_get(doc, "kind");
	return json_is_string(k) && !strcmp(json_string_value(k), kind);
}

/* "a, b, c" into sb; at most 8 names, then "and N more". */
static void add_names(struct sbuf *sb, const char *const *names, size_t n, bool quote)
{
	for (size_t i = 0; i < n && i < 8; i++)
		sbuf_addf(sb, quote ? "%s\"%s\"" : "%s%s", i ? ", " : "", names[i]);
	if (n > 8)
		sbuf_addf(sb, " and %zu more", n - 8);
}

/* Call fn for every runs array of the suite: $.runs, then each
 * $.stages[i].runs, with its JSON path. */
static void each_runs(const json_t *doc,
		      void (*fn)(const json_t *runs, const char *path, void *ctx), void *ctx)
{
	const json_t *runs = json_object_get(doc, "runs");
	if (json_is_array(runs))
		fn(runs, "$.runs", ctx);
	const json_t *stages = json_object_get(doc, "stages"), *st;
	size_t i;
	json_array_foreach(stages, i, st)
	{
		runs = json_object_get(st, "runs");
		if (!json_is_array(runs))
			continue;
		char *sp = lint_path_index("$.stages", i);
		char *rp = xasprintf("%s.runs", sp);
		fn(runs, rp, ctx);
		free(rp);
		free(sp);
	}
}

struct runs_check {
	struct lint_ctx *c;
	const json_t *combos;
	const struct strlist *known;
};

static void check_one_runs(const json_t *runs, const char *path, void *ctx)
{
	const struct runs_check *r = ctx;
	size_t i;
	json_t *v;
	json_array_foreach(runs, i, v)
	{
		if (!json_is_string(v) || json_object_get(r->combos, json_string_value(v)))
			continue;
		struct sbuf names = SBUF_INIT;
		add_names(&names, (const char *const *)r->known->v, r->known->n, false);
		char *p = lint_path_index(path, i);
		lint_report(r->c, R_RUN, p, "unknown combo \"%s\" (combos: %s)",
			    json_string_value(v), r->known->n ? sbuf_str(&names) : "none");
		free(p);
		sbuf_release(&names);
	}
}

static void check_runs(struct lint_ctx *c, const json_t *combos)
{
	if (!json_is_object(combos))
		return;
	struct strlist known = STRLIST_INIT;
	const char *k;
	json_t *v;
	json_object_foreach((json_t *)combos, k, v) strlist_push(&known, k);
	struct runs_check r = {c, combos, &known};
	each_runs(c->doc, check_one_runs, &r);
	strlist_clear(&known);
}

struct running {
	const json_t *combos;
	struct strlist *out;
};

static void add_running(const json_t *runs, const char *path, void *ctx)
{
	(void)path;
	struct running *r = ctx;
	size_t i;
	json_t *v;
	json_array_foreach(runs, i, v) if (json_is_string(v) &&
					   json_object_get(r->combos, json_string_value(v)) &&
					   !strlist_has(r->out, json_string_value(v)))
	    strlist_push(r->out, json_string_value(v));
}

/* The combos that run, in order: those runs (or the stages' runs) name,
 * skipping unknown ones, or every combo when neither is there. */
static void running_combos(const json_t *doc, const json_t *combos, struct strlist *out)
{
	const char *k;
	json_t *v;
	if (!json_is_array(json_object_get(doc, "runs")) &&
	    !json_is_array(json_object_get(doc, "stages"))) {
		json_object_foreach((json_t *)combos, k, v) strlist_push(out, k);
		return;
	}
	struct running r = {combos, out};
	each_runs(doc, add_running, &r);
}

/* The distinct placeholders of tmpl in order; assay_template_expand decides
 * what is one ({{ and }} are literal, a { that starts no name is kept). */
static void template_names(const char *tmpl, struct strlist *out)
{
	json_t *seen = json_object();
	struct sbuf sb = SBUF_INIT;
	char *missing;
	while (assay_template_expand(tmpl, seen, &sb, &missing) < 0) {
		strlist_push(out, missing);
		json_object_set_new(seen, missing, json_true());
		free(missing);
		sbuf_reset(&sb);
	}
	sbuf_release(&sb);
	json_decref(seen);
}

static bool builtin(const char *name)
{
	for (size_t i = 0; assay_template_builtins[i]; i++)
		if (!strcmp(assay_template_builtins[i], name))
			return true;
	return false;
}

struct unfilled {
	const json_t *combos;       /* NULL: an ep suite (built-ins only) */
	const struct strlist *runs; /* the combos that run */
	const json_t *variants;     /* the suite's "variants" object, or NULL */
	const char *only;           /* a template of this variant's overrides, or NULL */
};

/* Whether combo run with variant (NULL: none) gives name a value. */
static bool filled(const struct unfilled *u, const char *run, const char *variant, const char *name)
{
	const json_t *vars = json_object_get(json_object_get(u->variants, variant), "vars");
	return json_object_get(json_object_get(u->combos, run), name) ||
	       (variant && json_object_get(vars, name));
}

/* Report each placeholder of the template at path that a run leaves unfilled. */
static void check_template(struct lint_ctx *c, const struct unfilled *u, const char *path,
			   const json_t *tmpl)
{
	if (!json_is_string(tmpl))
		return;
	struct strlist names = STRLIST_INIT;
	template_names(json_string_value(tmpl), &names);
	struct sbuf builtins = SBUF_INIT;
	size_t nb = 0;
	while (assay_template_builtins[nb])
		nb++;
	add_names(&builtins, assay_template_builtins, nb, false);
	for (size_t i = 0; i < names.n; i++) {
		const char *name = names.v[i];
		if (builtin(name))
			continue;
		if (!u->combos) {
			lint_report(
			    c, R_PLACEHOLDER, path,
			    "placeholder {%s} has no value: an ep suite has no combos, only "
			    "assay's own placeholders (%s)",
			    name, sbuf_str(&builtins));
			continue;
		}
		struct strlist lacking = STRLIST_INIT, pairs = STRLIST_INIT;
		size_t nvar = json_object_size(u->variants);
		for (size_t r = 0; r < u->runs->n; r++) {
			const char *run = u->runs->v[r], *vn;
			const json_t *vv;
			if (u->only || !nvar) {
				if (!filled(u, run, u->only, name))
					strlist_push(&lacking, run);
				continue;
			}
			size_t miss = 0;
			json_object_foreach((json_t *)u->variants, vn, vv)
			{
				if (filled(u, run, vn, name))
					continue;
				miss++;
				char *pair = xasprintf("\"%s\" with variant \"%s\"", run, vn);
				strlist_push(&pairs, pair);
				free(pair);
			}
			if (miss == nvar)
				strlist_push(&lacking, run);
		}
		struct sbuf list = SBUF_INIT;
		if (pairs.n && lacking.n != u->runs->n) {
			add_names(&list, (const char *const *)pairs.v, pairs.n, false);
			lint_report(c, R_PLACEHOLDER, path,
				    "placeholder {%s} has no value in combo %s", name,
				    sbuf_str(&list));
		} else if (lacking.n && lacking.n == u->runs->n) {
			add_names(&list, (const char *const *)lacking.v, lacking.n, false);
			lint_report(c, R_PLACEHOLDER, path,
				    "placeholder {%s} has no value: no combo that runs sets it "
				    "(combos: %s)%s%s%s, and it is not one of assay's own (%s)",
				    name, sbuf_str(&list), u->only ? ", nor variant \"" : "",
				    u->only ? u->only : "", u->only ? "\"'s vars" : "",
				    sbuf_str(&builtins));
		} else if (lacking.n) {
			add_names(&list, (const char *const *)lacking.v, lacking.n, true);
			lint_report(c, R_PLACEHOLDER, path,
				    "placeholder {%s} has no value in combo%s %s", name,
				    lacking.n > 1 ? "s" : "", sbuf_str(&list));
		}
		sbuf_release(&list);
		strlist_clear(&lacking);
		strlist_clear(&pairs);
	}
	sbuf_release(&builtins);
	strlist_clear(&names);
}

/* The templates of each variant's overrides, filled from the combos and
 * that variant's vars. */
static void check_variant_templates(struct lint_ctx *c, const struct unfilled *u)
{
	static const char *const lists[] = {"args", "ld_library_path", "ld_preload"};
	const char *vn;
	const json_t *vv;
	if (!json_is_object(u->variants) || !u->combos)
		return;
	json_object_foreach((json_t *)u->variants, vn, vv)
	{
		struct unfilled one = *u;
		one.only = vn;
		char *base = lint_path_key("$.variants", vn);
		for (size_t l = 0; l < ARRAY_SIZE(lists); l++) {
			const json_t *a = json_object_get(vv, lists[l]);
			char *lp = lint_path_key(base, lists[l]);
			size_t i;
			json_t *v;
			json_array_foreach(a, i, v)
			{
				char *p = lint_path_index(lp, i);
				check_template(c, &one, p, v);
				free(p);
			}
			free(lp);
		}
		const json_t *env = json_object_get(vv, "env");
		char *ep = lint_path_key(base, "env");
		const char *k;
		json_t *v;
		json_object_foreach((json_t *)env, k, v)
		{
			char *p = lint_path_key(ep, k);
			check_template(c, &one, p, v);
			free(p);
		}
		free(ep);
		char *ip = lint_path_key(base, "image");
		check_template(c, &one, ip, json_object_get(vv, "image"));
		free(ip);
		free(base);
	}
}

/* The ab gate of a suite with variants names two of them. */
static void check_ab_variants(struct lint_ctx *c)
{
	const json_t *vs = json_object_get(c->doc, "variants");
	const json_t *ab = json_object_get(json_object_get(c->doc, "gates"), "ab");
	static const char *const keys[] = {"baseline", "candidate"};
	if (!json_is_object(vs) || !json_is_object(ab))
		return;
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
		const char *name = json_string_value(json_object_get(ab, keys[i]));
		if (!name || json_object_get(vs, name))
			continue;
		struct sbuf list = SBUF_INIT;
		const char *vn;
		const json_t *vv;
		json_object_foreach((json_t *)vs, vn, vv)
		    sbuf_addf(&list, "%s%s", list.len ? ", " : "", vn);
		char *p = xasprintf("$.gates.ab.%s", keys[i]);
		lint_report(c, R_VARIANT, p, "no variant \"%s\" (variants: %s)", name,
			    sbuf_str(&list));
		free(p);
		sbuf_release(&list);
	}
}

/* Every template of the suite: arrays of strings, objects of strings, cwd. */
static void check_placeholders(struct lint_ctx *c, const struct unfilled *u)
{
	static const char *const lists[] = {"argv", "results", "logs"};
	static const char *const objects[] = {"env", "context"};
	bool command = u->combos != NULL;
	for (size_t l = 0; command && l < ARRAY_SIZE(lists); l++) {
		const json_t *a = json_object_get(c->doc, lists[l]);
		if (!json_is_array(a))
			continue;
		char *base = lint_path_key("$", lists[l]);
		size_t i;
		json_t *v;
		json_array_foreach(a, i, v)
		{
			char *p = lint_path_index(base, i);
			check_template(c, u, p, v);
			free(p);
		}
		free(base);
	}
	for (size_t o = 0; o < ARRAY_SIZE(objects); o++) {
		const json_t *obj = json_object_get(c->doc, objects[o]);
		if (!json_is_object(obj) || (!command && strcmp(objects[o], "env")))
			continue;
		char *base = lint_path_key("$", objects[o]);
		const char *k;
		json_t *v;
		json_object_foreach((json_t *)obj, k, v)
		{
			char *p = lint_path_key(base, k);
			check_template(c, u, p, v);
			free(p);
		}
		free(base);
	}
	if (command)
		check_template(c, u, "$.cwd", json_object_get(c->doc, "cwd"));
	check_variant_templates(c, u);
	/* Provenance expectations: each pattern is a template. */
	const json_t *expect = json_object_get(c->doc, "expect"), *x;
	size_t i;
	json_array_foreach(expect, i, x)
	{
		char *ip = lint_path_index("$.expect", i);
		char *p = lint_path_key(ip, "pattern");
		check_template(c, u, p, json_object_get(x, "pattern"));
		free(p);
		free(ip);
	}
}

static void check(struct lint_ctx *c)
{
	if (c->kind != ASSAY_LINT_SUITE || !json_is_object(c->doc))
		return;
	const json_t *combos = json_object_get(c->doc, "combos");
	if (is_kind(c->doc, "command") && lint_on(c, R_RUN))
		check_runs(c, combos);
	if (lint_on(c, R_VARIANT))
		check_ab_variants(c);
	if (!lint_on(c, R_PLACEHOLDER))
		return;
	if (is_kind(c->doc, "ep")) {
		struct unfilled u = {NULL, NULL, NULL, NULL};
		check_placeholders(c, &u);
	} else if (is_kind(c->doc, "command") && json_is_object(combos)) {
		struct strlist runs = STRLIST_INIT;
		running_combos(c->doc, combos, &runs);
		struct unfilled u = {combos, &runs, json_object_get(c->doc, "variants"), NULL};
		check_placeholders(c, &u);
		strlist_clear(&runs);
	}
}

const struct lint_family lint_family_suite = {"suite", rules, ARRAY_SIZE(rules), check};
