/* The gates block of a suite (docs/suite.md, "Gates"): thresholds, loss
 * curve, convergence, scaling across combos and checkpoint continuity for
 * command suites, regression gates for every suite and the ab gate for EP
 * suites. Everything is checked when the suite loads, so a gate that cannot
 * apply stops the run before anything starts; src/lib/run/gates.c applies
 * them. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/json.h"
#include "suite_int.h"

static const char *const gate_keys[] = {"thresholds", "loss_curve", "convergence", "scaling",
					"checkpoint", "regression", "ab",          NULL};
static const char *const command_only[] = {"thresholds", "loss_curve", "convergence",
					   "scaling",    "checkpoint", NULL};

bool assay_suite_metric_selected(const struct strlist *metrics, const struct assay_row *r)
{
	if (!metrics->n)
		return true;
	for (size_t i = 0; i < metrics->n; i++) {
		const char *m = metrics->v[i], *slash = strchr(m, '/');
		size_t n = slash ? (size_t)(slash - m) : strlen(m);
		if (strlen(r->metric) == n && !strncmp(r->metric, m, n) &&
		    (!slash || !strcmp(slash + 1, r->statistic)))
			return true;
	}
	return false;
}

/* The case of combo name (command suites), -1 when no run uses it. */
static long combo_case(const struct assay_suite *s, const char *name)
{
	for (size_t i = 0; i < s->n_cases; i++)
		if (!strcmp(json_string_value(json_object_get(s->cases[i].factors, "combo")), name))
			return (long)i;
	return -1;
}

static int combo_member(struct assay_cfg *c, const struct assay_suite *s, const json_t *obj,
			const char *path, const char *key, long *out)
{
	const char *name;
	char p[256];
	if (assay_cfg_string(c, obj, path, key, ASSAY_CFG_REQUIRED, &name) < 0)
		return -1;
	assay_json_path_key(p, sizeof(p), path, key);
	if ((*out = combo_case(s, name)) < 0)
		return assay_cfg_fail(c, p, "combo \"%s\" is not one of the runs", name);
	return 0;
}

/* An inference combo's cell (CVS's vLLM and ATOM files): its ISL, OSL, TP,
 * PP, DP, NNODES and CONC values as ISL=…,…,CONC=… into text; false when it
 * has no ISL. */
static bool infer_cell_text(struct assay_cfg *c, const json_t *vars, const char *path,
			    struct sbuf *text)
{
	static const char *const names[] = {"ISL", "OSL", "TP", "PP", "DP", "NNODES", "CONC"};
	if (!json_object_get(vars, "ISL"))
		return false;
	for (size_t n = 0; n < ARRAY_SIZE(names); n++) {
		const json_t *v = json_object_get(vars, names[n]);
		if (!v)
			continue;
		sbuf_addf(text, "%s%s=", text->len ? "," : "", names[n]);
		suite_scalar_text(c, v, path, text);
	}
	return true;
}

/* An inference suite's cell (docs/inference.md): CVS's key of the combo's
 * ISL, OSL, TP, PP, DP, NNODES and CONC, those it has, in that order; "default" when it
 * has none of them. */
static int inference_cell(struct assay_cfg *c, struct assay_suite_case *k, const char *path)
{
	static const char *const names[] = {"ISL", "OSL", "TP", "PP", "DP", "NNODES", "CONC"};
	struct sbuf text = SBUF_INIT;
	int rc = 0;
	for (size_t n = 0; n < ARRAY_SIZE(names) && !rc; n++) {
		const json_t *v = json_object_get(k->vars, names[n]);
		if (!v)
			continue;
		sbuf_addf(&text, "%s%s=", text.len ? "," : "", names[n]);
		rc = suite_scalar_text(c, v, path, &text);
	}
	char canon[256];
	struct assay_error e2;
	if (!rc && !text.len)
		k->cell = xstrdup("default");
	else if (!rc && assay_combo_canonical(sbuf_str(&text), canon, sizeof(canon), &e2))
		k->cell = xstrdup(canon);
	else if (!rc)
		rc = assay_cfg_fail(c, path, "thresholds cell: %s", e2.message);
	sbuf_release(&text);
	return rc;
}

/* The thresholds cell of every case: its combo's MBS, GBS and PRECISION (or
 * ISL, OSL, TP, ..., CONC), or "default" for a combo that has none of them. */
static int thresholds_cells(struct assay_cfg *c, struct assay_suite *s)
{
	static const char *const names[] = {"MBS", "GBS", "PRECISION"};
	const char **keys = xcalloc(s->n_cases + 1, sizeof(*keys));
	int rc = 0;
	for (size_t i = 0; i < s->n_cases && !rc; i++) {
		struct assay_suite_case *k = &s->cases[i];
		const char *combo = json_string_value(json_object_get(k->factors, "combo"));
		char path[256];
		assay_json_path_key(path, sizeof(path), "$.combos", combo);
		if (s->infer) {
			rc = inference_cell(c, k, path);
			keys[i] = k->cell;
			continue;
		}
		struct sbuf text = SBUF_INIT;
		bool infer = infer_cell_text(c, k->vars, path, &text);
		int have = infer ? 3 : 0;
		for (int n = 0; n < 3 && !infer; n++) {
			const json_t *v = json_object_get(k->vars, names[n]);
			if (!v)
				continue;
			have++;
			sbuf_addf(&text, "%s%s=", text.len ? "," : "", names[n]);
			suite_scalar_text(c, v, path, &text);
		}
		if (!have) {
			k->cell = xstrdup("default");
		} else if (have < 3) {
			rc = assay_cfg_fail(
			    c, path,
			    "a thresholds cell needs MBS, GBS and PRECISION (or none of "
			    "them, for the \"default\" cell); this combo has %s",
			    sbuf_str(&text));
		} else {
			char canon[256];
			struct assay_error e2;
			if (assay_combo_canonical(sbuf_str(&text), canon, sizeof(canon), &e2))
				k->cell = xstrdup(canon);
			else
				rc = assay_cfg_fail(c, path, "thresholds cell: %s", e2.message);
		}
		sbuf_release(&text);
		keys[i] = k->cell;
	}
	if (!rc && assay_thresholds_check_combos(&s->gates.thresholds, keys, s->n_cases, c->err) !=
		       ASSAY_OK)
		rc = -1;
	free(keys);
	return rc;
}

static int parse_thresholds(struct assay_cfg *c, const json_t *g, struct assay_suite *s)
{
	const char *file;
	if (assay_cfg_string(c, g, "$.gates", "thresholds", ASSAY_CFG_REQUIRED, &file) < 0)
		return -1;
	if (assay_thresholds_load(file, &s->gates.thresholds, c->err) != ASSAY_OK)
		return -1;
	s->gates.thresholds_on = true;
	json_t *doc = assay_json_load_file(file, c->err);
	if (!doc)
		return -1;
	assay_json_sha256(doc, s->gates.thresholds_sha256);
	json_decref(doc);
	return thresholds_cells(c, s);
}

static int parse_scaling(struct assay_cfg *c, const json_t *v, struct assay_suite *s)
{
	static const char *const keys[] = {"baseline", "combos", "min_efficiency", "enforce", NULL};
	const char *path = "$.gates.scaling";
	struct assay_suite_scaling *sc = &s->gates.scaling;
	long base;
	sc->min_efficiency = NAN;
	sc->enforce = true;
	if (assay_cfg_object(c, v, path, keys) < 0 ||
	    combo_member(c, s, v, path, "baseline", &base) < 0 ||
	    assay_cfg_number(c, v, path, "min_efficiency", ASSAY_CFG_OPTIONAL, 0, INFINITY,
			     &sc->min_efficiency) < 0 ||
	    assay_cfg_bool(c, v, path, "enforce", ASSAY_CFG_OPTIONAL, &sc->enforce) < 0)
		return -1;
	sc->baseline = xstrdup(s->cases[base].id);
	struct strlist names = STRLIST_INIT;
	if (json_object_get(v, "combos")) {
		if (assay_cfg_string_list(c, v, path, "combos", ASSAY_CFG_REQUIRED, NULL, &names) <
		    0)
			return -1;
	} else {
		for (size_t i = 0; i < s->n_cases; i++)
			if ((long)i != base)
				strlist_push(&names, json_string_value(json_object_get(
							 s->cases[i].factors, "combo")));
	}
	int rc = 0;
	for (size_t i = 0; i < names.n && !rc; i++) {
		char p[256];
		long k = combo_case(s, names.v[i]);
		assay_json_path_index(p, sizeof(p), "$.gates.scaling.combos", i);
		if (k < 0)
			rc =
			    assay_cfg_fail(c, p, "combo \"%s\" is not one of the runs", names.v[i]);
		else if (k <= base)
			rc = assay_cfg_fail(
			    c, json_object_get(v, "combos") ? p : "$.gates.scaling.baseline",
			    "the baseline combo must run before \"%s\" (order $.runs "
			    "so that it comes first)",
			    names.v[i]);
		else
			strlist_push(&sc->cases, s->cases[k].id);
	}
	strlist_clear(&names);
	if (!rc && !sc->cases.n)
		rc = assay_cfg_fail(c, path, "no combo to judge against the baseline");
	if (!rc)
		s->gates.scaling_on = true;
	return rc;
}

static int parse_checkpoint(struct assay_cfg *c, const json_t *v, struct assay_suite *s)
{
	static const char *const keys[] = {
	    "save", "resume", "loss_rtol", "overlap_rtol", "last_checkpoint", "enforce", NULL};
	const char *path = "$.gates.checkpoint";
	struct assay_suite_checkpoint *ck = &s->gates.checkpoint;
	long save, resume;
	if (assay_cfg_object(c, v, path, keys) < 0 ||
	    combo_member(c, s, v, path, "save", &save) < 0 ||
	    combo_member(c, s, v, path, "resume", &resume) < 0)
		return -1;
	if (resume <= save)
		return assay_cfg_fail(c, "$.gates.checkpoint.resume",
				      "the resume combo must run after the save combo (in $.runs)");
	/* The rest is the checkpoint gate's own spec (docs/gate.md). */
	json_t *spec = json_deep_copy(v);
	json_object_del(spec, "save");
	json_object_del(spec, "resume");
	int rc = assay_checkpoint_spec_parse(c, spec, path, &ck->spec);
	json_decref(spec);
	if (rc < 0)
		return -1;
	ck->save = xstrdup(s->cases[save].id);
	ck->resume = xstrdup(s->cases[resume].id);
	s->gates.checkpoint_on = true;
	return 0;
}

/* "changepoint" or "rolling_mean": true, false or an object of settings. */
static int gate_switch(struct assay_cfg *c, const json_t *v, const char *key,
		       const char *const keys[], bool *on, const json_t **obj)
{
	char path[128];
	const json_t *g = json_object_get(v, key);
	assay_json_path_key(path, sizeof(path), "$.gates.regression", key);
	*obj = NULL;
	if (!g)
		return 0;
	if (json_is_boolean(g)) {
		*on = json_is_true(g);
		return 0;
	}
	if (!json_is_object(g))
		return assay_cfg_expected(c, path, "true, false or an object of settings", g);
	*on = true;
	*obj = g;
	return assay_cfg_object(c, g, path, keys);
}

static int parse_regression(struct assay_cfg *c, const json_t *v, struct assay_suite *s)
{
	static const char *const keys[] = {"changepoint", "rolling_mean", "metrics", "enforce",
					   NULL};
	static const char *const cp_keys[] = {"window",      "max_pvalue", "min_magnitude",
					      "min_segment", "threshold",  NULL};
	static const char *const rm_keys[] = {"train_threshold", "infer_threshold", "min_history",
					      "window", NULL};
	const char *cp = "$.gates.regression.changepoint", *rm = "$.gates.regression.rolling_mean";
	struct assay_suite_regression *r = &s->gates.regression;
	struct assay_gate_config *g = &r->config;
	const json_t *cpo, *rmo;
	long long window = 0, segment = 0, min_history = 0, rm_window = 0;
	assay_gate_defaults(g);
	r->enforce = true;
	if (assay_cfg_object(c, v, "$.gates.regression", keys) < 0 ||
	    assay_cfg_bool(c, v, "$.gates.regression", "enforce", ASSAY_CFG_OPTIONAL, &r->enforce) <
		0 ||
	    gate_switch(c, v, "changepoint", cp_keys, &g->changepoint, &cpo) < 0 ||
	    gate_switch(c, v, "rolling_mean", rm_keys, &g->rolling_mean, &rmo) < 0)
		return -1;
	if (cpo &&
	    (assay_cfg_int(c, cpo, cp, "window", ASSAY_CFG_OPTIONAL, 2, 100000, &window) < 0 ||
	     assay_cfg_number(c, cpo, cp, "max_pvalue", ASSAY_CFG_OPTIONAL, 1e-300, 1,
			      &g->detect.max_pvalue) < 0 ||
	     assay_cfg_number(c, cpo, cp, "min_magnitude", ASSAY_CFG_OPTIONAL, 0, INFINITY,
			      &g->detect.min_magnitude) < 0 ||
	     assay_cfg_int(c, cpo, cp, "min_segment", ASSAY_CFG_OPTIONAL, 1, 1000, &segment) < 0 ||
	     assay_cfg_number(c, cpo, cp, "threshold", ASSAY_CFG_OPTIONAL, 0, INFINITY,
			      &g->cp_threshold) < 0))
		return -1;
	if (rmo &&
	    (assay_cfg_number(c, rmo, rm, "train_threshold", ASSAY_CFG_OPTIONAL, 0, INFINITY,
			      &g->rm_train_threshold) < 0 ||
	     assay_cfg_number(c, rmo, rm, "infer_threshold", ASSAY_CFG_OPTIONAL, 0, INFINITY,
			      &g->rm_infer_threshold) < 0 ||
	     assay_cfg_int(c, rmo, rm, "min_history", ASSAY_CFG_OPTIONAL, 1, 100000, &min_history) <
		 0 ||
	     assay_cfg_int(c, rmo, rm, "window", ASSAY_CFG_OPTIONAL, 1, 100000, &rm_window) < 0))
		return -1;
	if (window)
		g->detect.window = (int)window;
	if (segment)
		g->detect.min_segment = (int)segment;
	if (min_history)
		g->rm_min_history = (int)min_history;
	if (rm_window)
		g->rm_window = (int)rm_window;
	struct assay_error e2;
	if (assay_detect_check(&g->detect, &e2) != ASSAY_OK)
		return assay_cfg_fail(c, cp, "%s", e2.message);
	if (!g->changepoint && !g->rolling_mean)
		return assay_cfg_fail(c, "$.gates.regression",
				      "both changepoint and rolling_mean are off; remove the block "
				      "instead");
	if (json_object_get(v, "metrics") &&
	    assay_cfg_string_list(c, v, "$.gates.regression", "metrics", ASSAY_CFG_REQUIRED, NULL,
				  &r->metrics) < 0)
		return -1;
	s->gates.regression_on = true;
	return 0;
}

/* The factors that make two EP cases the same point, whatever the backend. */
static json_t *ep_point(const json_t *factors)
{
	static const char *const drop[] = {"id",    "backend",   "reason", "disposition",
					   "shard", "transport", "scope",  "topology"};
	json_t *p = json_deep_copy(factors);
	for (size_t i = 0; i < ARRAY_SIZE(drop); i++)
		json_object_del(p, drop[i]);
	return p;
}

static bool backend_is(const struct assay_suite_case *k, const char *backend)
{
	const char *b = json_string_value(json_object_get(k->factors, "backend"));
	return b && !strcmp(b, backend);
}

/* Pair every candidate case with its baseline, and run a candidate right
 * after its baseline when the matrix put it first: its verdicts are stored
 * with it, so the baseline's rows must be in the store by then. */
static void ab_pair(struct assay_suite *s)
{
	const struct assay_suite_ab *ab = &s->gates.ab;
	size_t n = s->n_cases;
	long *base = xcalloc(n + 1, sizeof(*base));
	for (size_t i = 0; i < n; i++) {
		base[i] = -1;
		if (!backend_is(&s->cases[i], ab->candidate))
			continue;
		json_t *want = ep_point(s->cases[i].factors);
		for (size_t k = 0; k < n && base[i] < 0; k++) {
			if (!backend_is(&s->cases[k], ab->baseline))
				continue;
			json_t *p = ep_point(s->cases[k].factors);
			if (json_equal(want, p))
				base[i] = (long)k;
			json_decref(p);
		}
		json_decref(want);
	}
	/* New order: a candidate whose baseline comes later waits for it. */
	struct assay_suite_case *v = xcalloc(n + 1, sizeof(*v));
	long *where = xcalloc(n + 1, sizeof(*where)); /* old index -> new index */
	bool *placed = xcalloc(n + 1, sizeof(*placed));
	size_t m = 0;
	for (size_t i = 0; i < n; i++) {
		if (placed[i] || (base[i] > (long)i))
			continue;
		where[i] = (long)m;
		v[m++] = s->cases[i];
		placed[i] = true;
		for (size_t k = 0; k < i; k++)
			if (!placed[k] && base[k] == (long)i) {
				where[k] = (long)m;
				v[m++] = s->cases[k];
				placed[k] = true;
			}
	}
	for (size_t i = 0; i < n; i++) {
		size_t to = (size_t)where[i];
		v[to].ab_baseline = base[i] >= 0 ? where[base[i]] : -1;
	}
	free(s->cases);
	s->cases = v;
	free(where);
	free(placed);
	free(base);
}

/* With variants, the ab gate compares two of them within the run (the
 * pairing is by case: run/gates.c). */
static int parse_ab_variants(struct assay_cfg *c, struct assay_suite *s, const char *base,
			     const char *cand)
{
	const char *which[] = {base, cand}, *keyname[] = {"baseline", "candidate"};
	for (int w = 0; w < 2; w++) {
		bool found = false;
		struct sbuf names = SBUF_INIT;
		for (size_t i = 0; i < s->n_variants; i++) {
			found = found || !strcmp(s->variants[i].name, which[w]);
			sbuf_addf(&names, "%s%s", i ? ", " : "", s->variants[i].name);
		}
		char p[64];
		snprintf(p, sizeof(p), "$.gates.ab.%s", keyname[w]);
		if (!found) {
			assay_cfg_fail(c, p, "no variant \"%s\" (variants: %s)", which[w],
				       sbuf_str(&names));
			sbuf_release(&names);
			return -1;
		}
		sbuf_release(&names);
	}
	if (s->parser && !strcmp(s->parser, "none"))
		return assay_cfg_fail(c, "$.gates.ab",
				      "compares the variants' measurements; parser \"none\" "
				      "produces none");
	struct assay_suite_ab *ab = &s->gates.ab;
	ab->baseline = xstrdup(base);
	ab->candidate = xstrdup(cand);
	ab->variants = true;
	s->gates.ab_on = true;
	return 0;
}

static int parse_ab(struct assay_cfg *c, const json_t *v, struct assay_suite *s)
{
	static const char *const keys[] = {"baseline", "candidate", "threshold",
					   "metrics",  "enforce",   NULL};
	const char *path = "$.gates.ab";
	struct assay_suite_ab *ab = &s->gates.ab;
	const char *base, *cand;
	ab->enforce = true;
	if (assay_cfg_object(c, v, path, keys) < 0 ||
	    assay_cfg_string(c, v, path, "baseline", ASSAY_CFG_REQUIRED, &base) < 0 ||
	    assay_cfg_string(c, v, path, "candidate", ASSAY_CFG_REQUIRED, &cand) < 0 ||
	    assay_cfg_number(c, v, path, "threshold", ASSAY_CFG_REQUIRED, 0, INFINITY,
			     &ab->threshold) < 0 ||
	    assay_cfg_bool(c, v, path, "enforce", ASSAY_CFG_OPTIONAL, &ab->enforce) < 0)
		return -1;
	if (json_object_get(v, "metrics") &&
	    assay_cfg_string_list(c, v, path, "metrics", ASSAY_CFG_REQUIRED, NULL, &ab->metrics) <
		0)
		return -1;
	if (!strcmp(base, cand))
		return assay_cfg_fail(c, "$.gates.ab.candidate",
				      "the candidate is the baseline (\"%s\")", cand);
	if (s->n_variants)
		return parse_ab_variants(c, s, base, cand);
	const char *which[] = {base, cand}, *keyname[] = {"baseline", "candidate"};
	for (int w = 0; w < 2; w++) {
		bool found = false;
		for (size_t i = 0; i < s->n_cases && !found; i++)
			found = backend_is(&s->cases[i], which[w]);
		char p[64];
		snprintf(p, sizeof(p), "$.gates.ab.%s", keyname[w]);
		if (!found)
			return assay_cfg_fail(c, p, "no case of the matrix has backend \"%s\"",
					      which[w]);
	}
	ab->baseline = xstrdup(base);
	ab->candidate = xstrdup(cand);
	s->gates.ab_on = true;
	ab_pair(s);
	return 0;
}

int suite_parse_gates(struct assay_cfg *c, const json_t *doc, struct assay_suite *s)
{
	json_t *g;
	for (size_t i = 0; i < s->n_cases; i++)
		s->cases[i].ab_baseline = -1;
	int rc = assay_cfg_member(c, doc, "$", "gates", ASSAY_CFG_OPTIONAL, JSON_OBJECT, &g);
	if (rc <= 0)
		return rc;
	if (assay_cfg_object(c, g, "$.gates", gate_keys) < 0)
		return -1;
	for (size_t i = 0; command_only[i]; i++) {
		char p[64];
		snprintf(p, sizeof(p), "$.gates.%s", command_only[i]);
		if (!json_object_get(g, command_only[i]))
			continue;
		if (s->kind == ASSAY_SUITE_COLLECTIVE && !strcmp(command_only[i], "thresholds"))
			continue; /* a per-size file (collective.c) */
		if (s->kind == ASSAY_SUITE_COLLECTIVE)
			return assay_cfg_fail(c, p,
					      "applies to command suites (collective suites take "
					      "thresholds and regression)");
		if (s->kind != ASSAY_SUITE_COMMAND)
			return assay_cfg_fail(c, p,
					      "applies to command suites (EP suites take "
					      "regression and ab)");
		if (strcmp(command_only[i], "thresholds") && !s->training)
			return assay_cfg_fail(
			    c, p,
			    "judges a training log: it needs parser megatron, primus, "
			    "megatron-golden or auto, not \"%s\"",
			    s->parser);
	}
	if (json_object_get(g, "ab") && s->kind != ASSAY_SUITE_EP && !s->n_variants)
		return assay_cfg_fail(
		    c, "$.gates.ab",
		    "compares two backends of an EP suite at each point, or two variants "
		    "(\"variants\"); this suite has neither");
	static const char *const per_combo[] = {"scaling", "checkpoint", NULL};
	for (size_t i = 0; per_combo[i]; i++) {
		char p[64];
		snprintf(p, sizeof(p), "$.gates.%s", per_combo[i]);
		if (json_object_get(g, per_combo[i]) && (s->n_variants || s->repeat > 1))
			return assay_cfg_fail(c, p,
					      "pairs combos, which \"variants\" and \"repeat\" "
					      "run more than once; compare variants with the ab "
					      "gate");
	}
	const json_t *v;
	if (json_object_get(g, "thresholds") &&
	    (s->kind == ASSAY_SUITE_COLLECTIVE ? suite_parse_coll_thresholds(c, g, s)
					       : parse_thresholds(c, g, s)) < 0)
		return -1;
	if ((v = json_object_get(g, "loss_curve"))) {
		if (assay_loss_curve_spec_parse(c, v, "$.gates.loss_curve", &s->gates.loss_curve) <
		    0)
			return -1;
		s->gates.loss_curve_on = true;
	}
	if ((v = json_object_get(g, "convergence"))) {
		if (assay_convergence_spec_parse(c, v, "$.gates.convergence",
						 &s->gates.convergence) < 0)
			return -1;
		s->gates.convergence_on = true;
	}
	if ((v = json_object_get(g, "scaling")) && parse_scaling(c, v, s) < 0)
		return -1;
	if ((v = json_object_get(g, "checkpoint")) && parse_checkpoint(c, v, s) < 0)
		return -1;
	if ((v = json_object_get(g, "regression"))) {
		if (!json_is_object(v))
			return assay_cfg_expected(c, "$.gates.regression", "an object", v);
		if (parse_regression(c, v, s) < 0)
			return -1;
	}
	if ((v = json_object_get(g, "ab")) && parse_ab(c, v, s) < 0)
		return -1;
	return 0;
}

void suite_gates_release(struct assay_suite_gates *g)
{
	assay_thresholds_release(&g->thresholds);
	assay_coll_thresholds_release(&g->coll_thresholds);
	assay_loss_curve_spec_release(&g->loss_curve);
	free(g->scaling.baseline);
	strlist_clear(&g->scaling.cases);
	free(g->checkpoint.save);
	free(g->checkpoint.resume);
	strlist_clear(&g->regression.metrics);
	free(g->ab.baseline);
	free(g->ab.candidate);
	strlist_clear(&g->ab.metrics);
	memset(g, 0, sizeof(*g));
}
