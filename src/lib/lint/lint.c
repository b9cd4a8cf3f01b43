/* The linter's driver: the one table of rule families, rule selection,
 * kind detection, and linting one document into located, sorted,
 * allow-list-filtered findings. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/json.h"
#include "assay/redact.h"
#include "lint_int.h"

static const struct lint_family *const families[] = {
    &lint_family_placement, &lint_family_images,        &lint_family_job,
    &lint_family_network,   &lint_family_cards,         &lint_family_placeholders,
    &lint_family_secrets,   &lint_family_suite,         &lint_family_gates,
    &lint_family_assay,     &lint_family_context,       &lint_family_container,
    &lint_family_preset,    &lint_family_context_valid, &lint_family_cluster,
};

size_t assay_lint_rule_count(void)
{
	size_t n = 0;
	for (size_t f = 0; f < ARRAY_SIZE(families); f++)
		n += families[f]->n_rules;
	return n;
}

const struct assay_lint_rule *assay_lint_rule_at(size_t i)
{
	for (size_t f = 0; f < ARRAY_SIZE(families); f++) {
		if (i < families[f]->n_rules)
			return &families[f]->rules[i];
		i -= families[f]->n_rules;
	}
	return NULL;
}

int assay_lint_rule_index(const char *id)
{
	size_t n = assay_lint_rule_count();
	for (size_t i = 0; i < n; i++)
		if (!strcmp(assay_lint_rule_at(i)->id, id))
			return (int)i;
	return -1;
}

static int rule_index_of(const struct assay_lint_rule *rule)
{
	size_t base = 0;
	for (size_t f = 0; f < ARRAY_SIZE(families); f++) {
		const struct lint_family *fam = families[f];
		if (rule >= fam->rules && rule < fam->rules + fam->n_rules)
			return (int)(base + (size_t)(rule - fam->rules));
		base += fam->n_rules;
	}
	return -1;
}

static const char *const kind_names[ASSAY_LINT_KIND_COUNT] = {
    [ASSAY_LINT_AUTO] = "auto",       [ASSAY_LINT_MANIFEST] = "manifest",
    [ASSAY_LINT_MODELS] = "models",   [ASSAY_LINT_PLATFORMS] = "platforms",
    [ASSAY_LINT_SWEEP] = "sweep",     [ASSAY_LINT_SUITE] = "suite",
    [ASSAY_LINT_CONTEXT] = "context", [ASSAY_LINT_CLUSTER] = "cluster",
};

const char *assay_lint_kind_name(enum assay_lint_kind k)
{
	return (unsigned)k < ASSAY_LINT_KIND_COUNT ? kind_names[k] : "unknown";
}

int assay_lint_kind_from_name(const char *name)
{
	for (int k = 0; k < ASSAY_LINT_KIND_COUNT; k++)
		if (!strcmp(kind_names[k], name))
			return k;
	return -1;
}

const char *assay_lint_severity_name(enum assay_lint_severity s)
{
	return s == ASSAY_LINT_ERROR ? "error" : "warning";
}

/* A model card is an object with a name and a dockerfile or scripts. */
static bool looks_like_card(const json_t *v)
{
	return json_is_object(v) && json_object_get(v, "name") &&
	       (json_object_get(v, "dockerfile") || json_object_get(v, "scripts"));
}

enum assay_lint_kind assay_lint_detect(const json_t *doc)
{
	if (json_is_array(doc)) {
		size_t i, cards = 0;
		json_t *v;
		json_array_foreach(doc, i, v)
		{
			if (!json_is_object(v))
				return ASSAY_LINT_AUTO;
			cards += looks_like_card(v);
		}
		return cards ? ASSAY_LINT_MODELS : ASSAY_LINT_AUTO;
	}
	if (!json_is_object(doc))
		return ASSAY_LINT_AUTO;
	if (json_object_get(doc, "built_images") || json_object_get(doc, "built_models") ||
	    json_object_get(doc, "deployment_config"))
		return ASSAY_LINT_MANIFEST;
	/* A CVS cluster file before a context file: both may have env_vars. */
	if (json_is_object(json_object_get(doc, "node_dict")) &&
	    (json_object_get(doc, "priv_key_file") || json_object_get(doc, "username")))
		return ASSAY_LINT_CLUSTER;
	/* A suite first: an ep suite's platforms is a path, not a registry. */
	const json_t *kind = json_object_get(doc, "kind");
	if (json_is_string(kind) && (!strcmp(json_string_value(kind), "ep") ||
				     !strcmp(json_string_value(kind), "command") ||
				     !strcmp(json_string_value(kind), "collective") ||
				     !strcmp(json_string_value(kind), "inference")))
		return ASSAY_LINT_SUITE;
	if (json_object_get(doc, "platforms"))
		return ASSAY_LINT_PLATFORMS;
	if (json_object_get(doc, "suite") &&
	    (json_object_get(doc, "ep_degrees") || json_object_get(doc, "workload") ||
	     json_object_get(doc, "modes")))
		return ASSAY_LINT_SWEEP;
	if (looks_like_card(doc))
		return ASSAY_LINT_MODELS;
	if (lint_looks_like_context(doc))
		return ASSAY_LINT_CONTEXT;
	return ASSAY_LINT_AUTO;
}

/* What --strict promotes to errors: the multi-node traps and an image that
 * can change under the same manifest. */
static const char *const strict_rules[] = {
    "no-network-interface", "image-tag",        "nproc-exceeds-gpus",
    "card-primus-results",  "context-override", "preset-env",
};

bool assay_lint_rule_strict(size_t i)
{
	const struct assay_lint_rule *r = assay_lint_rule_at(i);
	for (size_t k = 0; r && k < ARRAY_SIZE(strict_rules); k++)
		if (!strcmp(strict_rules[k], r->id))
			return true;
	return false;
}

void assay_lint_options_strict(struct assay_lint_options *o)
{
	size_t n = assay_lint_rule_count();
	for (size_t i = 0; i < n && i < ASSAY_LINT_MAX_RULES; i++)
		if (assay_lint_rule_strict(i))
			o->severity[i] = ASSAY_LINT_ERROR;
}

void assay_lint_options_init(struct assay_lint_options *o)
{
	memset(o, 0, sizeof(*o));
	size_t n = assay_lint_rule_count();
	for (size_t i = 0; i < n && i < ASSAY_LINT_MAX_RULES; i++)
		o->on[i] = assay_lint_rule_at(i)->default_on;
}

assay_err assay_lint_options_set(struct assay_lint_options *o, const char *id, bool on,
				 struct assay_error *e)
{
	if (!strcmp(id, "all")) {
		for (size_t i = 0; i < ASSAY_LINT_MAX_RULES; i++)
			o->on[i] = on;
		return ASSAY_OK;
	}
	int i = assay_lint_rule_index(id);
	if (i < 0 || i >= ASSAY_LINT_MAX_RULES)
		return assay_error_set(e, ASSAY_USAGE,
				       "unknown rule \"%s\" (see 'assay lint --list-rules')", id);
	o->on[i] = on;
	return ASSAY_OK;
}

bool lint_on(const struct lint_ctx *c, const struct assay_lint_rule *rule)
{
	int i = rule_index_of(rule);
	return i >= 0 && i < ASSAY_LINT_MAX_RULES && c->opts->on[i] &&
	       (rule->kinds & ASSAY_LINT_KIND_BIT(c->kind));
}

void lint_report(struct lint_ctx *c, const struct assay_lint_rule *rule, const char *path,
		 const char *fmt, ...)
{
	if (!lint_on(c, rule))
		return;
	struct sbuf msg = SBUF_INIT, p = SBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	char *s = NULL;
	if (vasprintf(&s, fmt, ap) < 0)
		abort();
	va_end(ap);
	sbuf_adds(&msg, s);
	free(s);
	/* One line, whatever the values quoted in it held. */
	for (size_t i = 0; i < msg.len; i++)
		if (msg.buf[i] == '\n' || msg.buf[i] == '\r')
			msg.buf[i] = ' ';
	sbuf_adds(&p, path);
	assay_token_mask(&msg);
	assay_token_mask(&p);
	lint_utf8_clean(&msg);
	lint_utf8_clean(&p);
	struct assay_lint_result *r = c->res;
	ALLOC_GROW(r->v, r->n + 1, r->alloc);
	struct assay_lint_finding *f = &r->v[r->n++];
	memset(f, 0, sizeof(*f));
	f->rule = rule;
	f->severity = rule->severity;
	f->file = c->finding_file ? xstrdup(c->finding_file) : NULL;
	f->message = sbuf_detach(&msg, NULL);
	f->path = sbuf_detach(&p, NULL);
}

static int cmp_finding(const void *a, const void *b)
{
	const struct assay_lint_finding *x = a, *y = b;
	if (!x->file != !y->file) /* the linted file's findings first */
		return x->file ? 1 : -1;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	if (x->column != y->column)
		return x->column < y->column ? -1 : 1;
	int rx = rule_index_of(x->rule), ry = rule_index_of(y->rule);
	if (rx != ry)
		return rx < ry ? -1 : 1;
	int d = strcmp(x->path, y->path);
	return d ? d : strcmp(x->message, y->message);
}

static void finding_release(struct assay_lint_finding *f)
{
	free(f->file);
	free(f->path);
	free(f->message);
}

/* Keep a copy of the error in r, so every output format can report it. */
static assay_err lint_failed(struct assay_lint_result *r, const struct assay_error *e)
{
	r->error = xcalloc(1, sizeof(*r->error));
	if (e)
		*r->error = *e;
	else
		r->error->code = ASSAY_USAGE;
	if (!r->error->file[0])
		snprintf(r->error->file, sizeof(r->error->file), "%s", r->file);
	r->errors = 1;
	return r->error->code ? r->error->code : ASSAY_USAGE;
}

/* The severity a finding has here: the rule's, --strict's, then the
 * directory's .assay-lint.json (which may turn it off). */
static unsigned severity_of(const struct assay_lint_finding *f, const struct assay_lint_options *o,
			    const struct assay_lint_allow *allow)
{
	int i = rule_index_of(f->rule);
	unsigned sev = f->rule->severity;
	if (i >= 0 && i < ASSAY_LINT_MAX_RULES) {
		if (o->severity[i])
			sev = o->severity[i];
		if (allow && allow->severity[i])
			sev = allow->severity[i];
	}
	return sev;
}

/* A second source: the additional-context file a manifest is merged with. */
struct ctx_source {
	const char *file, *text;
	size_t len;
	json_t *doc;
};

/* Values are released one by one unless an arena holds them (arena.c). */
static void release(json_t *v, bool arena)
{
	if (!arena)
		json_decref(v);
}

/* The kind to lint doc as: --kind, else detected; with a context file
 * only a manifest. False with the error in e when there is none. */
static bool lint_kind_of(json_t *doc, const char *file, const struct assay_lint_options *o,
			 const struct ctx_source *cs, enum assay_lint_kind *out,
			 struct assay_error *e)
{
	enum assay_lint_kind kind = o->kind;
	if (kind == ASSAY_LINT_AUTO)
		kind = assay_lint_detect(doc);
	if (kind == ASSAY_LINT_AUTO || kind >= ASSAY_LINT_KIND_COUNT) {
		assay_error_at(e, ASSAY_USAGE, file, NULL, 0,
			       "cannot tell what kind of file this is: a madengine manifest "
			       "has built_images or built_models, a models.json is an array of "
			       "model cards, a platform registry has platforms, a sweep has "
			       "suite and workload, a suite has \"kind\": \"ep\" or "
			       "\"command\", a madengine additional-context file has keys such as "
			       "gpu_vendor, docker_env_vars or slurm, a CVS cluster file has "
			       "node_dict (or pass --kind)");
		return false;
	}
	if (cs && kind != ASSAY_LINT_MANIFEST) {
		assay_error_at(e, ASSAY_USAGE, file, NULL, 0,
			       "--context merges an additional-context file into a madengine "
			       "manifest, and this is a %s",
			       assay_lint_kind_name(kind));
		return false;
	}
	*out = kind;
	return true;
}

/* Every family's checks over doc, as an additional-context file's view or
 * merged with the context file; returns the view or merge (NULL if none). */
static json_t *lint_check(json_t *doc, enum assay_lint_kind kind, const char *file, bool on_disk,
			  const struct assay_lint_options *o, const struct ctx_source *cs,
			  struct assay_lint_result *r)
{
	struct lint_ctx c = {0};
	c.kind = kind;
	c.file = file;
	c.on_disk = on_disk;
	c.opts = o;
	c.res = r;
	c.source = doc;
	json_t *view = NULL;
	if (kind == ASSAY_LINT_CONTEXT) {
		view = lint_context_view(doc);
	} else if (cs) {
		view = lint_context_merge(doc, cs->doc);
		c.context_doc = cs->doc;
		c.context_file = cs->file;
	}
	c.doc = view ? view : doc;
	for (size_t i = 0; i < ARRAY_SIZE(families); i++)
		families[i]->check(&c);
	return view;
}

/* The finding's path in the file that holds it (the context file for a
 * merged value), then its line and column there. */
static void finding_place(struct assay_lint_finding *f, enum assay_lint_kind kind, const char *text,
			  size_t len, json_t *doc, const struct ctx_source *cs)
{
	if (kind == ASSAY_LINT_CONTEXT) {
		char *p = lint_context_view_path(f->path);
		free(f->path);
		f->path = p;
	} else if (cs && !f->file) {
		char *p = lint_context_merged_path(doc, cs->doc, f->path);
		if (p) {
			free(f->path);
			f->path = p;
			f->file = xstrdup(cs->file);
		}
	}
	size_t off =
	    f->file ? lint_locate(cs->text, cs->len, f->path) : lint_locate(text, len, f->path);
	if (f->file)
		lint_line_col(cs->text, cs->len, off, &f->line, &f->column);
	else
		lint_line_col(text, len, off, &f->line, &f->column);
}

/* The findings placed and given their severity here; those turned off or
 * allowed are dropped (the allowed counted). */
static void lint_keep(struct assay_lint_result *r, enum assay_lint_kind kind, const char *text,
		      size_t len, const char *file, json_t *doc, const struct ctx_source *cs,
		      const struct assay_lint_options *o, const struct assay_lint_allow *allow)
{
	size_t kept = 0;
	for (size_t i = 0; i < r->n; i++) {
		struct assay_lint_finding *f = &r->v[i];
		finding_place(f, kind, text, len, doc, cs);
		unsigned sev = severity_of(f, o, allow);
		if (sev == ASSAY_LINT_OFF) {
			finding_release(f);
			continue;
		}
		f->severity = (enum assay_lint_severity)sev;
		if (allow && assay_lint_allowed(allow, f->file ? f->file : file, f)) {
			finding_release(f);
			r->allowed++;
			continue;
		}
		r->v[kept++] = *f;
	}
	r->n = kept;
}

static assay_err lint_text(const char *text, size_t len, const char *file, bool on_disk,
			   const struct assay_lint_options *o, const struct assay_lint_allow *allow,
			   const struct ctx_source *cs, bool arena, struct assay_lint_result *r,
			   struct assay_error *e)
{
	struct assay_error local;
	if (!e)
		e = &local;
	memset(r, 0, sizeof(*r));
	r->file = xstrdup(file);
	json_t *doc = lint_json_fast(text, len);
	if (!doc)
		doc = assay_json_loadb(text, len, file, e);
	if (!doc)
		return lint_failed(r, e);
	enum assay_lint_kind kind;
	if (!lint_kind_of(doc, file, o, cs, &kind, e)) {
		release(doc, arena);
		return lint_failed(r, e);
	}
	r->kind = kind;
	json_t *view = lint_check(doc, kind, file, on_disk, o, cs, r);
	lint_keep(r, kind, text, len, file, doc, cs, o, allow);
	release(view, arena);
	release(doc, arena);
	if (r->n)
		qsort(r->v, r->n, sizeof(*r->v), cmp_finding);
	for (size_t i = 0; i < r->n; i++) {
		if (r->v[i].severity == ASSAY_LINT_ERROR)
			r->errors++;
		else
			r->warnings++;
	}
	return ASSAY_OK;
}

assay_err assay_lint_buffer(const char *text, size_t len, const char *file,
			    const struct assay_lint_options *o,
			    const struct assay_lint_allow *allow, struct assay_lint_result *r,
			    struct assay_error *e)
{
	struct lint_arena a;
	bool arena = lint_arena_begin(&a);
	assay_err rc = lint_text(text, len, file, false, o, allow, NULL, arena, r, e);
	lint_arena_end(&a);
	return rc;
}

assay_err assay_lint_file(const char *file, const struct assay_lint_options *o,
			  const struct assay_lint_allow *allow, struct assay_lint_result *r,
			  struct assay_error *e)
{
	struct assay_error local;
	if (!e)
		e = &local;
	size_t len;
	char *text = assay_read_file(file, &len, e);
	if (!text) {
		memset(r, 0, sizeof(*r));
		r->file = xstrdup(file);
		return lint_failed(r, e);
	}
	struct lint_arena a;
	bool arena = lint_arena_begin(&a);
	struct ctx_source cs = {o->context_file, NULL, 0, NULL};
	if (o->context_file) {
		char *ct = assay_read_file(o->context_file, &cs.len, e);
		cs.text = ct;
		cs.doc = ct ? assay_json_loadb(ct, cs.len, o->context_file, e) : NULL;
		if (cs.doc && !json_is_object(cs.doc)) {
			release(cs.doc, arena);
			cs.doc = NULL;
			assay_error_at(e, ASSAY_USAGE, o->context_file, "$", 0,
				       "an additional-context file must hold a JSON object "
				       "(madengine refuses anything else)");
		}
		if (!cs.doc) {
			lint_arena_end(&a);
			free(ct);
			free(text);
			memset(r, 0, sizeof(*r));
			r->file = xstrdup(file);
			return lint_failed(r, e);
		}
	}
	assay_err rc =
	    lint_text(text, len, file, true, o, allow, o->context_file ? &cs : NULL, arena, r, e);
	release(cs.doc, arena);
	lint_arena_end(&a);
	free((char *)cs.text);
	free(text);
	return rc;
}

void assay_lint_result_release(struct assay_lint_result *r)
{
	for (size_t i = 0; i < r->n; i++)
		finding_release(&r->v[i]);
	free(r->v);
	free(r->file);
	free(r->error);
	memset(r, 0, sizeof(*r));
}
