/* Suites of kind "command": named combos of values, an ordered list of runs,
 * and templates (argv, env, cwd, result and log paths, series fields) whose
 * {NAME} placeholders are filled from each run's combo and the run's
 * built-ins. Every placeholder is checked at load: one without a value is a
 * config error, not a surprise at run time. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/json.h"
#include "assay/parse.h"
#include "assay/training.h"
#include "suite_int.h"

static int string_list(struct assay_cfg *c, const json_t *doc, const char *key, bool required,
		       struct strlist *out)
{
	json_t *v = json_object_get(doc, key);
	char path[128];
	assay_json_path_key(path, sizeof(path), "$", key);
	if (!v) {
		if (required)
			return assay_cfg_fail(c, path, "missing (expected an array of strings)");
		return 0;
	}
	if (!json_is_array(v) || (required && !json_array_size(v)))
		return assay_cfg_expected(
		    c, path, required ? "a non-empty array of strings" : "an array of strings", v);
	for (size_t i = 0; i < json_array_size(v); i++) {
		json_t *item = json_array_get(v, i);
		char ip[128];
		assay_json_path_index(ip, sizeof(ip), path, i);
		/* An empty argument is legitimate (argv), an empty path is not. */
		if (!json_is_string(item) || (strcmp(key, "argv") && !json_string_length(item)) ||
		    (i == 0 && !json_string_length(item)))
			return assay_cfg_expected(c, ip, "a non-empty string", item);
		strlist_push(out, json_string_value(item));
	}
	return 1;
}

static int parse_combos(struct assay_cfg *c, const json_t *doc, json_t **combos)
{
	json_t *obj;
	if (assay_cfg_member(c, doc, "$", "combos", ASSAY_CFG_REQUIRED, JSON_OBJECT, &obj) < 0)
		return -1;
	if (!json_object_size(obj))
		return assay_cfg_fail(c, "$.combos", "expected at least one combo");
	const char *name;
	json_t *combo;
	json_object_foreach(obj, name, combo)
	{
		char p[256];
		assay_json_path_key(p, sizeof(p), "$.combos", name);
		if (!json_is_object(combo))
			return assay_cfg_expected(c, p, "an object of placeholder values", combo);
		const char *k;
		json_t *v;
		json_object_foreach(combo, k, v)
		{
			char kp[256];
			assay_json_path_key(kp, sizeof(kp), p, k);
			if (!suite_valid_name(k))
				return assay_cfg_fail(
				    c, kp, "not a valid placeholder name ([A-Za-z_][A-Za-z0-9_]*)");
			for (size_t b = 0; assay_template_builtins[b]; b++)
				if (!strcmp(k, assay_template_builtins[b]))
					return assay_cfg_fail(c, kp, "{%s} is set by assay itself",
							      k);
			struct sbuf sb = SBUF_INIT;
			int rc = suite_scalar_text(c, v, kp, &sb);
			sbuf_release(&sb);
			if (rc < 0)
				return -1;
		}
	}
	*combos = obj;
	return 0;
}

/* Every template of the suite expands for this combo (with dummy built-ins). */
static int check_templates(struct assay_cfg *c, const struct assay_suite *s, const json_t *combo,
			   const char *combo_name, const char *combo_path, const char *variant)
{
	json_t *vars = json_deep_copy(combo);
	for (size_t b = 0; assay_template_builtins[b]; b++)
		json_object_set_new(vars, assay_template_builtins[b], json_string("x"));
	struct {
		const struct strlist *l;
		const char *key;
	} lists[] = {{&s->argv, "argv"}, {&s->results, "results"}, {&s->logs, "logs"}};
	char path[256] = "";
	char *missing = NULL;
	struct sbuf sb = SBUF_INIT;
	for (size_t i = 0; i < ARRAY_SIZE(lists) && !missing; i++) {
		for (size_t k = 0; k < lists[i].l->n && !missing; k++) {
			sbuf_reset(&sb);
			if (assay_template_expand(lists[i].l->v[k], vars, &sb, &missing) < 0) {
				char lp[64];
				snprintf(lp, sizeof(lp), "$.%s", lists[i].key);
				assay_json_path_index(path, sizeof(path), lp, k);
			}
		}
	}
	for (size_t k = 0; k < s->env.n && !missing; k++) {
		sbuf_reset(&sb);
		const char *eq = strchr(s->env.v[k], '=');
		if (assay_template_expand(eq + 1, vars, &sb, &missing) < 0) {
			char *name = xstrndup(s->env.v[k], (size_t)(eq - s->env.v[k]));
			assay_json_path_key(path, sizeof(path), "$.env", name);
			free(name);
		}
	}
	if (!missing && s->cwd && assay_template_expand(s->cwd, vars, &sb, &missing) < 0)
		snprintf(path, sizeof(path), "$.cwd");
	const char *k;
	json_t *v;
	json_object_foreach(s->context, k, v)
	{
		sbuf_reset(&sb);
		if (missing || !json_is_string(v))
			continue;
		if (assay_template_expand(json_string_value(v), vars, &sb, &missing) < 0)
			assay_json_path_key(path, sizeof(path), "$.context", k);
	}
	sbuf_release(&sb);
	json_decref(vars);
	if (!missing)
		return 0;
	struct sbuf names = SBUF_INIT;
	json_object_foreach((json_t *)combo, k, v)
	    sbuf_addf(&names, "%s%s", names.len ? ", " : "", k);
	if (variant)
		assay_cfg_fail(c, path,
			       "placeholder {%s} has no value in combo \"%s\" with variant \"%s\" "
			       "(they have: %s)",
			       missing, combo_name, variant,
			       names.len ? sbuf_str(&names) : "nothing");
	else
		assay_cfg_fail(
		    c, path, "placeholder {%s} has no value in combo \"%s\" (%s has: %s)", missing,
		    combo_name, combo_path, names.len ? sbuf_str(&names) : "nothing");
	sbuf_release(&names);
	free(missing);
	return -1;
}

static int parse_parser(struct assay_cfg *c, const json_t *doc, struct assay_suite *s)
{
	const char *parser;
	if (assay_cfg_string(c, doc, "$", "parser", ASSAY_CFG_REQUIRED, &parser) < 0)
		return -1;
	if (strcmp(parser, "auto") && strcmp(parser, "none") && !assay_format_find(parser)) {
		struct sbuf sb = SBUF_INIT;
		for (const struct assay_format *f = assay_formats; f->name; f++)
			sbuf_addf(&sb, "%s, ", f->name);
		assay_cfg_fail(c, "$.parser", "unknown format \"%s\" (known: %sauto, none)", parser,
			       sbuf_str(&sb));
		sbuf_release(&sb);
		return -1;
	}
	s->parser = xstrdup(parser);
	s->training = !strcmp(parser, "auto") || assay_train_format_known(parser);
	return 0;
}

/* An integer setting of a case: a number, or exactly "{NAME}" filled from
 * the combo (a number, or a string of digits). dflt when absent. */
static int combo_int(struct assay_cfg *c, const json_t *obj, const char *parent, const char *key,
		     const json_t *combo, const char *combo_name, long long min, long long max,
		     long long dflt, long long *out)
{
	char path[256], range[64];
	const json_t *v = json_object_get(obj, key);
	assay_json_path_key(path, sizeof(path), parent, key);
	assay_cfg_int_range_words(min, max, range, sizeof(range));
	*out = dflt;
	if (!v)
		return 0;
	if (json_is_integer(v)) {
		*out = json_integer_value(v);
		if (*out < min || *out > max)
			return assay_cfg_expected(c, path, range, v);
		return 0;
	}
	const char *t = json_string_value(v);
	size_t n = t ? strlen(t) : 0;
	char *name = n > 2 && t[0] == '{' && t[n - 1] == '}' ? xstrndup(t + 1, n - 2) : NULL;
	if (!name || !suite_valid_name(name)) {
		free(name);
		char what[128];
		snprintf(what, sizeof(what), "%s or \"{NAME}\"", range);
		return assay_cfg_expected(c, path, what, v);
	}
	const json_t *cv = json_object_get(combo, name);
	long long x = 0;
	bool ok = cv && ((json_is_integer(cv) && (x = json_integer_value(cv), true)) ||
			 (json_is_string(cv) && assay_parse_long(json_string_value(cv), &x)));
	int rc = 0;
	if (!cv)
		rc = assay_cfg_fail(c, path, "placeholder {%s} has no value in combo \"%s\"", name,
				    combo_name);
	else if (!ok || x < min || x > max)
		rc = assay_cfg_fail(c, path, "{%s} of combo \"%s\" must be %s", name, combo_name,
				    range);
	free(name);
	*out = x;
	return rc;
}

/* The training settings of a case (docs/suite.md, "Training logs"). */
static int parse_training(struct assay_cfg *c, const json_t *doc, const struct assay_suite *s,
			  const json_t *combo, const char *combo_name, struct assay_suite_case *k)
{
	static const char *const keys[] = {"seq_len", "world_size", "warmup", NULL};
	const json_t *t = json_object_get(doc, "training");
	assay_train_opts_init(&k->train);
	long long dflt_world = s->gpus_given ? k->nodes * k->ranks_per_node : 0;
	k->train.world_size = dflt_world;
	k->final_step_on = false;
	if (!t)
		return 0;
	if (!strcmp(s->parser, "torchtitan") || !strcmp(s->parser, "maxtext")) {
		/* CVS's completion: TorchTitan's step: N, MaxText's completed step: N. */
		static const char *const cvs_keys[] = {"final_step", NULL};
		k->final_step_on = json_object_get(t, "final_step") != NULL;
		return assay_cfg_object(c, t, "$.training", cvs_keys) < 0 ||
			       combo_int(c, t, "$.training", "final_step", combo, combo_name, 0,
					 1LL << 40, 0, &k->final_step) < 0
			   ? -1
			   : 0;
	}
	if (!s->training)
		return assay_cfg_fail(c, "$.training",
				      "applies to training logs: parser megatron, primus, "
				      "megatron-golden or auto, not \"%s\"",
				      s->parser);
	if (assay_cfg_object(c, t, "$.training", keys) < 0 ||
	    combo_int(c, t, "$.training", "seq_len", combo, combo_name, 1, 1LL << 40, 0,
		      &k->train.seq_len) < 0 ||
	    combo_int(c, t, "$.training", "world_size", combo, combo_name, 1, 1LL << 30, dflt_world,
		      &k->train.world_size) < 0)
		return -1;
	const json_t *w = json_object_get(t, "warmup");
	if (!w)
		return 0;
	char text[64] = "";
	if (json_is_integer(w) && json_integer_value(w) >= 0)
		snprintf(text, sizeof(text), "%lld", (long long)json_integer_value(w));
	else if (json_is_string(w))
		snprintf(text, sizeof(text), "%s", json_string_value(w));
	if (!text[0] || !assay_train_warmup_parse(text, &k->train))
		return assay_cfg_expected(c, "$.training.warmup",
					  "a number of steps, or \"MIN,PCT%\" (e.g. \"2,10%\")", w);
	return 0;
}

static int parse_context(struct assay_cfg *c, const json_t *doc, struct assay_suite *s)
{
	json_t *ctx;
	int rc = assay_cfg_member(c, doc, "$", "context", ASSAY_CFG_OPTIONAL, JSON_OBJECT, &ctx);
	if (rc < 0)
		return -1;
	s->context = rc ? json_deep_copy(ctx) : json_object();
	const char *k;
	json_t *v;
	json_object_foreach(s->context, k, v)
	{
		char p[256];
		assay_json_path_key(p, sizeof(p), "$.context", k);
		if (!json_is_string(v) && !json_is_number(v) && !json_is_boolean(v))
			return assay_cfg_expected(c, p, "a string, number or boolean", v);
	}
	return 0;
}

/* A case id already taken: the error at path, naming what took it. */
static int id_taken(struct assay_cfg *c, const struct assay_suite *s, const char *id,
		    const char *path, const char *what)
{
	for (size_t k = 0; k < s->n_cases; k++) {
		if (strcmp(s->cases[k].id, id))
			continue;
		const char *combo =
		    json_string_value(json_object_get(s->cases[k].factors, "combo"));
		if (combo)
			return assay_cfg_fail(c, path,
					      "%s gives case id \"%s\", already used by \"%s\"",
					      what, id, combo);
		return assay_cfg_fail(c, path,
				      "%s gives case id \"%s\", already used by stage \"%s\"", what,
				      id, s->cases[k].stage);
	}
	return 0;
}

/* Append the case of combo name (listed at rpath, NULL: in file order) to
 * s->cases (room for it is there), in stage (NULL: none). */
static int add_run(struct assay_cfg *c, const json_t *doc, struct assay_suite *s,
		   const json_t *combos, const char *name, const char *rpath, const char *stage)
{
	char cp[256];
	const json_t *combo = json_object_get(combos, name);
	if (!combo) {
		struct sbuf sb = SBUF_INIT;
		const char *n;
		json_t *v;
		json_object_foreach((json_t *)combos, n, v)
		    sbuf_addf(&sb, "%s%s", sb.len ? ", " : "", n);
		int rc = assay_cfg_fail(c, rpath, "unknown combo \"%s\" (combos: %s)", name,
					sbuf_str(&sb));
		sbuf_release(&sb);
		return rc;
	}
	assay_json_path_key(cp, sizeof(cp), "$.combos", name);
	for (size_t v = 0; v < (s->n_variants ? s->n_variants : 1); v++) {
		const struct assay_suite_variant *var = s->n_variants ? &s->variants[v] : NULL;
		json_t *vars = suite_variant_vars(combo, var);
		int bad = check_templates(c, s, vars, name, cp, var ? var->name : NULL);
		json_decref(vars);
		if (bad < 0)
			return -1;
	}
	char *id = assay_id_sanitize(name);
	char what[300];
	snprintf(what, sizeof(what), "combo \"%s\"", name);
	if (id_taken(c, s, id, rpath ? rpath : cp, what) < 0) {
		free(id);
		return -1;
	}
	struct assay_suite_case *k = &s->cases[s->n_cases++];
	k->id = id;
	k->runnable = true;
	k->stage = stage ? xstrdup(stage) : NULL;
	k->vars = json_deep_copy(combo);
	k->factors = json_pack("{s:s, s:O}", "combo", name, "values", combo);
	if (stage)
		json_object_set_new(k->factors, "stage", json_string(stage));
	if (combo_int(c, doc, "$", "nodes", combo, name, 1, 1 << 20, 1, &k->nodes) < 0 ||
	    combo_int(c, doc, "$", "gpus_per_node", combo, name, 1, 4096, 1, &k->ranks_per_node) <
		0 ||
	    parse_training(c, doc, s, combo, name, k) < 0)
		return -1;
	return 0;
}

/* A stage's name (at np) is a case id, listed once; teardown is the last
 * stage. */
static int stage_name_check(struct assay_cfg *c, const char *name, const char *np, bool last,
			    const struct strlist *names)
{
	char *id = assay_id_sanitize(name);
	int rc = 0;
	if (strcmp(id, name))
		rc = assay_cfg_fail(c, np,
				    "a stage name is a case id: letters, digits, '.', '_' "
				    "and '-' (got \"%s\")",
				    name);
	else if (strlist_has(names, name))
		rc = assay_cfg_fail(c, np, "stage \"%s\" is listed twice", name);
	else if (!strcmp(name, "teardown") && !last)
		rc = assay_cfg_fail(c, np, "teardown must be the last stage");
	free(id);
	return rc;
}

/* A stage of runs (g, at p): the case of each combo it lists, in order. */
static int stage_runs(struct assay_cfg *c, const json_t *doc, struct assay_suite *s,
		      const json_t *combos, const json_t *g, const char *p, const char *name)
{
	struct strlist runs = STRLIST_INIT;
	if (assay_cfg_string_list(c, g, p, "runs", ASSAY_CFG_REQUIRED, NULL, &runs) < 0)
		return -1;
	int rc = 0;
	for (size_t k = 0; k < runs.n && !rc; k++) {
		char rp[192], lp[160];
		assay_json_path_key(lp, sizeof(lp), p, "runs");
		assay_json_path_index(rp, sizeof(rp), lp, k);
		rc = add_run(c, doc, s, combos, runs.v[k], rp, name);
	}
	strlist_clear(&runs);
	return rc;
}

/* A command stage's "argv" (g, at p) into argv: strings, the first not
 * empty, with assay's own placeholders only. */
static int stage_argv(struct assay_cfg *c, const json_t *g, const char *p, struct strlist *argv)
{
	char ap[160];
	assay_json_path_key(ap, sizeof(ap), p, "argv");
	const json_t *av = json_object_get(g, "argv");
	if (!json_is_array(av) || !json_array_size(av))
		return assay_cfg_expected(c, ap, "a non-empty array of strings", av);
	json_t *vars = json_object();
	for (size_t b = 0; assay_template_builtins[b]; b++)
		json_object_set_new(vars, assay_template_builtins[b], json_string("x"));
	int rc = 0;
	for (size_t k = 0; k < json_array_size(av) && !rc; k++) {
		const json_t *item = json_array_get(av, k);
		char ip[192];
		assay_json_path_index(ip, sizeof(ip), ap, k);
		if (!json_is_string(item) || (!k && !json_string_length(item))) {
			rc = assay_cfg_expected(c, ip, "a non-empty string", item);
			break;
		}
		struct sbuf sb = SBUF_INIT;
		char *missing = NULL;
		if (assay_template_expand(json_string_value(item), vars, &sb, &missing) < 0)
			rc = assay_cfg_fail(c, ip,
					    "placeholder {%s} has no value (a command stage "
					    "has assay's own placeholders only)",
					    missing);
		free(missing);
		sbuf_release(&sb);
		strlist_push(argv, json_string_value(item));
	}
	json_decref(vars);
	return rc;
}

/* A command stage (g, at p; its name at np): one case, id name, that runs
 * its argv. */
static int stage_command(struct assay_cfg *c, struct assay_suite *s, const json_t *g, const char *p,
			 const char *np, const char *name)
{
	struct strlist argv = STRLIST_INIT;
	int rc = stage_argv(c, g, p, &argv);
	if (!rc && (rc = id_taken(c, s, name, np, "stage")) == 0) {
		struct assay_suite_case *k = &s->cases[s->n_cases++];
		k->id = xstrdup(name);
		k->runnable = true;
		k->stage = xstrdup(name);
		k->stage_argv = xcalloc(1, sizeof(*k->stage_argv));
		*k->stage_argv = argv;
		argv = (struct strlist)STRLIST_INIT;
		k->vars = json_object();
		k->factors = json_pack("{s:s}", "stage", name);
		k->nodes = 1;
		k->ranks_per_node = 1;
		assay_train_opts_init(&k->train);
	}
	strlist_clear(&argv);
	return rc;
}

/* Stage i of st: its name checked and kept in names, its cases added. */
static int parse_stage(struct assay_cfg *c, const json_t *doc, struct assay_suite *s,
		       const json_t *combos, const json_t *st, size_t i, struct strlist *names)
{
	static const char *const keys[] = {"name", "runs", "argv", NULL};
	const json_t *g = json_array_get(st, i);
	char p[128], np[160];
	const char *name;
	assay_json_path_index(p, sizeof(p), "$.stages", i);
	if (!json_is_object(g))
		return assay_cfg_expected(c, p, "a stage object ({\"name\", \"runs\" or \"argv\"})",
					  g);
	if (assay_cfg_object(c, g, p, keys) < 0 ||
	    assay_cfg_string(c, g, p, "name", ASSAY_CFG_REQUIRED, &name) < 0)
		return -1;
	assay_json_path_key(np, sizeof(np), p, "name");
	if (stage_name_check(c, name, np, i + 1 == json_array_size(st), names) < 0)
		return -1;
	strlist_push(names, name);
	bool has_runs = json_object_get(g, "runs"), has_argv = json_object_get(g, "argv");
	if (has_runs == has_argv)
		return assay_cfg_fail(c, p,
				      "a stage has \"runs\" (combos) or \"argv\" (a command), %s",
				      has_runs ? "not both" : "found neither");
	if (has_runs)
		return stage_runs(c, doc, s, combos, g, p, name);
	return stage_command(c, s, g, p, np, name);
}

/* "stages": [{"name": "setup", "argv": [...]}, {"name": "main", "runs":
 * [...]}, {"name": "teardown", "argv": [...]}]: cases in stage order; a
 * stage of argv is one case (id: the stage's name) that runs that command. */
static int parse_stages(struct assay_cfg *c, const json_t *doc, struct assay_suite *s,
			const json_t *combos)
{
	json_t *st;
	if (json_object_get(doc, "runs"))
		return assay_cfg_fail(c, "$.runs",
				      "a suite with stages lists its runs in each stage "
				      "($.stages[].runs)");
	if (assay_cfg_member(c, doc, "$", "stages", ASSAY_CFG_REQUIRED, JSON_ARRAY, &st) < 0)
		return -1;
	if (!json_array_size(st))
		return assay_cfg_expected(c, "$.stages", "a non-empty array of stages", st);
	size_t total = 0;
	for (size_t i = 0; i < json_array_size(st); i++) {
		const json_t *runs = json_object_get(json_array_get(st, i), "runs");
		total += json_is_array(runs) ? json_array_size(runs) : 1;
	}
	s->cases = xcalloc(total + 1, sizeof(*s->cases));
	s->staged = true;
	struct strlist names = STRLIST_INIT;
	int rc = 0;
	for (size_t i = 0; i < json_array_size(st) && !rc; i++)
		rc = parse_stage(c, doc, s, combos, st, i, &names);
	strlist_clear(&names);
	return rc;
}

int suite_parse_command(struct assay_cfg *c, const json_t *doc, struct assay_suite *s)
{
	json_t *combos = NULL, *madengine;
	const char *cwd;
	int rc;
	/* "madengine" is read by `assay manifest` (src/lib/manifest), which
	 * checks what is in it; a run only needs it to be an object. */
	if (assay_cfg_member(c, doc, "$", "madengine", ASSAY_CFG_OPTIONAL, JSON_OBJECT,
			     &madengine) < 0 ||
	    parse_combos(c, doc, &combos) < 0 || string_list(c, doc, "argv", true, &s->argv) < 0 ||
	    string_list(c, doc, "results", false, &s->results) < 0 ||
	    string_list(c, doc, "logs", false, &s->logs) < 0 || parse_parser(c, doc, s) < 0 ||
	    parse_context(c, doc, s) < 0)
		return -1;
	s->results_given = json_object_get(doc, "results") != NULL;
	s->gpus_given = json_object_get(doc, "gpus_per_node") != NULL;
	/* A training log watched per node is parsed from the copies assay keeps
	 * of what the case added (docs/suite.md); otherwise the captured stdout. */
	if (!s->results_given && !(s->training && s->logs.n))
		strlist_push(&s->results, "{CASE_DIR}/stdout.log");
	if ((rc = assay_cfg_string(c, doc, "$", "cwd", ASSAY_CFG_OPTIONAL, &cwd)) < 0)
		return -1;
	if (rc)
		s->cwd = xstrdup(cwd);
	if (!s->name)
		suite_default_name(s);

	if (json_object_get(doc, "stages"))
		return parse_stages(c, doc, s, combos);
	/* The runs: an ordered subset of the combos (default: all, in file order). */
	struct strlist runs = STRLIST_INIT;
	json_t *rv = json_object_get(doc, "runs");
	if (rv) {
		if (assay_cfg_string_list(c, doc, "$", "runs", ASSAY_CFG_REQUIRED, NULL, &runs) < 0)
			return -1;
	} else {
		const char *name;
		json_t *v;
		json_object_foreach(combos, name, v) strlist_push(&runs, name);
	}
	s->cases = xcalloc(runs.n, sizeof(*s->cases));
	rc = 0;
	for (size_t i = 0; i < runs.n && !rc; i++) {
		char rp[128];
		assay_json_path_index(rp, sizeof(rp), "$.runs", i);
		rc = add_run(c, doc, s, combos, runs.v[i], rv ? rp : NULL, NULL);
	}
	strlist_clear(&runs);
	return rc;
}

/* A context value: a template that is exactly "{NAME}" keeps the combo
 * value's type (a number stays a number). */
static json_t *context_value(const json_t *v, const json_t *vars, struct sbuf *sb)
{
	if (!json_is_string(v))
		return json_deep_copy(v);
	const char *t = json_string_value(v);
	size_t n = strlen(t);
	if (n > 2 && t[0] == '{' && t[n - 1] == '}' && t[1] != '{') {
		char *name = xstrndup(t + 1, n - 2);
		json_t *exact = suite_valid_name(name) ? json_object_get(vars, name) : NULL;
		free(name);
		if (exact && (json_is_number(exact) || json_is_boolean(exact)))
			return json_deep_copy(exact);
	}
	char *missing;
	sbuf_reset(sb);
	if (assay_template_expand(t, vars, sb, &missing) < 0) {
		free(missing);
		return NULL;
	}
	return json_string(sbuf_str(sb));
}

assay_err suite_plan_command(const struct assay_suite *s, const struct assay_suite_case *c,
			     const json_t *vars, struct assay_case_plan *p, struct assay_error *e)
{
	struct sbuf sb = SBUF_INIT;
	static const struct strlist none = STRLIST_INIT;
	struct {
		const struct strlist *from;
		struct strlist *to;
		const char *key;
	} lists[] = {{c->stage_argv ? c->stage_argv : &s->argv, &p->argv, "$.argv"},
		     {c->stage_argv ? &none : &s->results, &p->results, "$.results"},
		     {c->stage_argv ? &none : &s->logs, &p->logs, "$.logs"}};
	for (size_t i = 0; i < ARRAY_SIZE(lists); i++) {
		for (size_t k = 0; k < lists[i].from->n; k++) {
			char path[128];
			assay_json_path_index(path, sizeof(path), lists[i].key, k);
			sbuf_reset(&sb);
			if (suite_expand(lists[i].from->v[k], vars, s->file, path, &sb, e) !=
			    ASSAY_OK) {
				sbuf_release(&sb);
				return ASSAY_USAGE;
			}
			strlist_push(lists[i].to, sbuf_str(&sb));
		}
	}
	if (s->cwd) {
		sbuf_reset(&sb);
		if (suite_expand(s->cwd, vars, s->file, "$.cwd", &sb, e) != ASSAY_OK) {
			sbuf_release(&sb);
			return ASSAY_USAGE;
		}
		p->cwd = xstrdup(sbuf_str(&sb));
	}
	char host[256], scale[64];
	suite_short_hostname(host, sizeof(host));
	snprintf(scale, sizeof(scale), "%lldx%lld", c->nodes, c->ranks_per_node);
	const char *combo = json_string_value(json_object_get(c->factors, "combo"));
	p->context = json_pack("{s:s, s:s, s:s, s:s}", "suite", s->name, "cluster",
			       s->cluster ? s->cluster : host, "scale", scale, "combo",
			       combo ? combo : c->id);
	const char *k;
	json_t *v;
	json_object_foreach(s->context, k, v)
	{
		json_t *val = context_value(v, vars, &sb);
		if (!val) {
			char path[256];
			assay_json_path_key(path, sizeof(path), "$.context", k);
			sbuf_release(&sb);
			return assay_error_at(e, ASSAY_USAGE, s->file, path, 0,
					      "placeholder has no value");
		}
		json_object_set_new(p->context, k, val);
	}
	/* The store keeps precisions apart; a combo's PRECISION names it. */
	if (!json_object_get(p->context, "precision")) {
		const json_t *pv = json_object_get(vars, "PRECISION");
		if (!pv)
			pv = json_object_get(vars, "precision");
		sbuf_reset(&sb);
		if (pv && json_is_string(pv))
			for (const char *q = json_string_value(pv); *q; q++)
				sbuf_addch(&sb,
					   (char)(*q >= 'A' && *q <= 'Z' ? *q - 'A' + 'a' : *q));
		/* Rows that name their own precision keep it (context fills gaps). */
		json_object_set_new(p->context, "precision",
				    json_string(sb.len ? sbuf_str(&sb) : "unspecified"));
	}
	sbuf_release(&sb);
	p->parser = c->stage_argv ? "none" : s->parser;
	return ASSAY_OK;
}
