/* Model-card rules: the cards of a madengine models.json and the
 * built_models entries of a manifest (the same cards, copied) have the
 * fields madengine needs, of the types it reads them as. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "assay/json.h"
#include "lint_int.h"

#define CARDS (KIND(MANIFEST) | KIND(MODELS))

static const struct assay_lint_rule rules[] = {
    {"card-required", "cards", ASSAY_LINT_ERROR, true, CARDS,
     "a model card without a name, dockerfile or scripts"},
    {"card-n-gpus", "cards", ASSAY_LINT_ERROR, true, CARDS,
     "n_gpus that is not a count (a number or a string of one; -1 for all GPUs)"},
    {"card-tags", "cards", ASSAY_LINT_ERROR, true, CARDS, "tags that are not a list of strings"},
    {"card-multiple-results", "cards", ASSAY_LINT_ERROR, true, CARDS,
     "multiple_results that is not a .csv file name"},
    {"card-timeout", "cards", ASSAY_LINT_ERROR, true, CARDS, "a timeout that is not a number"},
    {"card-nnodes", "cards", ASSAY_LINT_ERROR, true, CARDS,
     "a card's distributed.nnodes differs from its slurm.nodes"},
    {"card-model-repo", "cards", ASSAY_LINT_WARNING, true, CARDS,
     "args passing --model_repo a card name other than the card's base model"},
    {"card-duplicate-name", "cards", ASSAY_LINT_ERROR, true, KIND(MODELS),
     "two model cards with the same name"},
    {"card-primus-results", "cards", ASSAY_LINT_WARNING, true, CARDS,
     "a Primus card without multiple_results: madengine finds no performance line"},
};
#define R_REQUIRED   (&rules[0])
#define R_NGPUS      (&rules[1])
#define R_TAGS       (&rules[2])
#define R_RESULTS    (&rules[3])
#define R_TIMEOUT    (&rules[4])
#define R_NNODES     (&rules[5])
#define R_MODEL_REPO (&rules[6])
#define R_DUPLICATE  (&rules[7])
#define R_PRIMUS     (&rules[8])

static bool nonempty_string(const json_t *v)
{
	return json_is_string(v) && json_string_length(v);
}

static void check_required(struct lint_ctx *c, const json_t *card, const char *path)
{
	static const char *const fields[] = {"name", "dockerfile", "scripts"};
	for (size_t i = 0; i < ARRAY_SIZE(fields); i++) {
		const json_t *v = json_object_get(card, fields[i]);
		char *p = lint_path_key(path, fields[i]);
		char b[96];
		if (!v) {
			lint_report(
			    c, R_REQUIRED, p,
			    "model card has no \"%s\" (madengine needs name, dockerfile and "
			    "scripts)",
			    fields[i]);
		} else if (!nonempty_string(v)) {
			/* A dockerfile may also be a list of paths. */
			bool list = false;
			if (!strcmp(fields[i], "dockerfile") && json_is_array(v) &&
			    json_array_size(v)) {
				size_t k;
				json_t *e;
				list = true;
				json_array_foreach(v, k, e) list = list && nonempty_string(e);
			}
			if (!list)
				lint_report(c, R_REQUIRED, p,
					    "%s must be a non-empty string, got %s", fields[i],
					    assay_json_brief(v, b, sizeof(b)));
		}
		free(p);
	}
}

static void check_types(struct lint_ctx *c, const json_t *card, const char *path)
{
	char b[96];
	const json_t *v = json_object_get(card, "n_gpus");
	long long n;
	if (v) {
		char *p = lint_path_key(path, "n_gpus");
		if (!lint_int_value(v, true, &n))
			lint_report(
			    c, R_NGPUS, p,
			    "n_gpus must be a number or a string of one (\"8\", \"-1\" for all "
			    "GPUs), got %s",
			    assay_json_brief(v, b, sizeof(b)));
		else if (n == 0 || n < -1)
			lint_report(c, R_NGPUS, p,
				    "n_gpus %lld is not a GPU count: give 1 or more, or -1 for all "
				    "GPUs",
				    n);
		free(p);
	}
	v = json_object_get(card, "tags");
	if (v) {
		bool ok = json_is_array(v);
		size_t i;
		json_t *e;
		if (ok)
			json_array_foreach(v, i, e) ok = ok && json_is_string(e);
		if (!ok) {
			char *p = lint_path_key(path, "tags");
			lint_report(c, R_TAGS, p, "tags must be a list of strings, got %s",
				    assay_json_brief(v, b, sizeof(b)));
			free(p);
		}
	}
	v = json_object_get(card, "multiple_results");
	if (v && !json_is_null(v) &&
	    !(json_is_string(v) &&
	      (!json_string_length(v) ||
	       (json_string_length(v) > 4 &&
		!strcasecmp(json_string_value(v) + json_string_length(v) - 4, ".csv"))))) {
		char *p = lint_path_key(path, "multiple_results");
		lint_report(c, R_RESULTS, p,
			    "multiple_results must name the .csv file the run writes, got %s",
			    assay_json_brief(v, b, sizeof(b)));
		free(p);
	}
	v = json_object_get(card, "timeout");
	if (v && !json_is_null(v) && !json_is_number(v)) {
		char *p = lint_path_key(path, "timeout");
		lint_report(
		    c, R_TIMEOUT, p,
		    "timeout must be a number of seconds (-1 for the run's default), got %s",
		    assay_json_brief(v, b, sizeof(b)));
		free(p);
	}
}

static void check_nnodes(struct lint_ctx *c, const json_t *card, const char *path)
{
	const json_t *nn = lint_get(card, "distributed.nnodes");
	const json_t *nodes = lint_get(card, "slurm.nodes");
	long long a, b;
	if (!lint_int_value(nn, true, &a) || !lint_int_value(nodes, true, &b) || a == b)
		return;
	char *p = xasprintf("%s.distributed.nnodes", path);
	lint_report(c, R_NNODES, p,
		    "distributed.nnodes is %lld but slurm.nodes is %lld: the launcher and sbatch "
		    "disagree on the number of nodes",
		    a, b);
	free(p);
}

/* The value of --model_repo in args ("--model_repo X" or "--model_repo=X"). */
static char *model_repo_arg(const char *args)
{
	const char *p = args;
	while ((p = strstr(p, "--model_repo"))) {
		const char *q = p + strlen("--model_repo");
		if ((p == args || p[-1] == ' ' || p[-1] == '\t') &&
		    (*q == ' ' || *q == '=' || *q == '\t')) {
			q++;
			while (*q == ' ' || *q == '\t')
				q++;
			size_t n = strcspn(q, " \t\n");
			return n ? xstrndup(q, n) : NULL;
		}
		p = q;
	}
	return NULL;
}

/* The base model of a card: its name without the variant suffixes MAD's
 * cards add (scripts/primus_megatron-lm/models.json: *_overlay, *_scaleout),
 * into out. */
static void card_base(const char *name, char *out, size_t size)
{
	static const char *const suffixes[] = {"_overlay", "_scaleout"};
	snprintf(out, size, "%s", name);
	for (bool cut = true; cut;) {
		cut = false;
		for (size_t i = 0; i < ARRAY_SIZE(suffixes); i++) {
			size_t n = strlen(out), k = strlen(suffixes[i]);
			if (n > k && !strcmp(out + n - k, suffixes[i])) {
				out[n - k] = '\0';
				cut = true;
			}
		}
	}
}

/* MAD's convention: a card passes --model_repo its base model's name (a
 * variant card, *_overlay or *_scaleout, the name without the suffix),
 * because the run script maps only base names to a model. */
static void check_model_repo(struct lint_ctx *c, const json_t *card, const char *path)
{
	const json_t *args = json_object_get(card, "args");
	const json_t *name = json_object_get(card, "name");
	if (!json_is_string(args) || !nonempty_string(name))
		return;
	char *repo = model_repo_arg(json_string_value(args));
	const char *own = json_string_value(name);
	char base[512];
	card_base(own, base, sizeof(base));
	/* A Hugging Face id or a path ("org/model", "/models/x") is not a card name. */
	if (repo && !strchr(repo, '/') && strcmp(repo, base)) {
		char *p = lint_path_key(path, "args");
		char b1[96], b2[96], b3[96];
		if (!strcmp(repo, own))
			lint_report(
			    c, R_MODEL_REPO, p,
			    "args pass --model_repo %s, this variant card's own name: the run "
			    "script knows only base model names and finds no model; pass %s",
			    lint_brief(repo, b1, sizeof(b1)), lint_brief(base, b2, sizeof(b2)));
		else if (strcmp(base, own))
			lint_report(c, R_MODEL_REPO, p,
				    "args pass --model_repo %s, not this variant card's base model "
				    "%s: the run looks up the other model's configuration",
				    lint_brief(repo, b1, sizeof(b1)),
				    lint_brief(base, b2, sizeof(b2)));
		else
			lint_report(
			    c, R_MODEL_REPO, p,
			    "args pass --model_repo %s, not this card's name %s: the run looks "
			    "up the other model's configuration",
			    lint_brief(repo, b1, sizeof(b1)), lint_brief(own, b3, sizeof(b3)));
		free(p);
	}
	free(repo);
}

/* Primus writes its results to a CSV and prints no "performance: N unit"
 * line, which madengine's container runner looks for in the log when a card
 * has no multiple_results: the run then has no performance at all. */
static void check_primus(struct lint_ctx *c, const json_t *card, const char *path)
{
	const json_t *name = json_object_get(card, "name");
	const json_t *scripts = json_object_get(card, "scripts");
	bool primus = (json_is_string(name) && strcasestr(json_string_value(name), "primus")) ||
		      (json_is_string(scripts) && strcasestr(json_string_value(scripts), "primus"));
	if (!primus)
		return;
	const json_t *mr = json_object_get(card, "multiple_results");
	if (json_is_string(mr) && json_string_length(mr))
		return;
	char b[96];
	lint_report(
	    c, R_PRIMUS, path,
	    "Primus card %s has no multiple_results: Primus prints no \"performance:\" line, "
	    "which madengine reads from the log without it, so the run reports no "
	    "performance; name the CSV its run script writes",
	    json_is_string(name) ? lint_brief(json_string_value(name), b, sizeof(b)) : "(unnamed)");
}

static void check_card(struct lint_ctx *c, const json_t *card, const char *path)
{
	if (!json_is_object(card))
		return;
	check_required(c, card, path);
	check_types(c, card, path);
	check_nnodes(c, card, path);
	check_model_repo(c, card, path);
	check_primus(c, card, path);
}

struct named {
	const char *name;
	size_t index;
};

static int cmp_named(const void *a, const void *b)
{
	const struct named *x = a, *y = b;
	int d = strcmp(x->name, y->name);
	return d ? d : (x->index < y->index ? -1 : x->index > y->index);
}

static void check_duplicates(struct lint_ctx *c, const json_t *cards)
{
	size_t n = json_array_size(cards), m = 0;
	struct named *v = xcalloc(n ? n : 1, sizeof(*v));
	for (size_t i = 0; i < n; i++) {
		const json_t *name = lint_get(json_array_get(cards, i), "name");
		if (nonempty_string(name))
			v[m++] = (struct named){json_string_value(name), i};
	}
	qsort(v, m, sizeof(*v), cmp_named);
	for (size_t i = 1; i < m; i++) {
		size_t first = i - 1;
		while (first > 0 && !strcmp(v[first - 1].name, v[i].name))
			first--;
		if (strcmp(v[i - 1].name, v[i].name))
			continue;
		char *p = xasprintf("$[%zu].name", v[i].index);
		char b[96];
		lint_report(c, R_DUPLICATE, p,
			    "the card at $[%zu] has the name %s too: --tags selects both",
			    v[first].index, lint_brief(v[i].name, b, sizeof(b)));
		free(p);
	}
	free(v);
}

static void check(struct lint_ctx *c)
{
	if (c->kind == ASSAY_LINT_MODELS) {
		lint_models_cards(c, check_card);
		if (json_is_array(c->doc))
			check_duplicates(c, c->doc);
	} else if (c->kind == ASSAY_LINT_MANIFEST) {
		const json_t *models = lint_get(c->doc, "built_models");
		if (!json_is_object(models))
			return;
		const char *k;
		json_t *card;
		json_object_foreach((json_t *)models, k, card)
		{
			char *p = lint_path_key("$.built_models", k);
			check_card(c, card, p);
			free(p);
		}
	}
}

const struct lint_family lint_family_cards = {"cards", rules, ARRAY_SIZE(rules), check};
