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
    &lint_family_placement, &lint_family_images,       &lint_family_job,     &lint_family_network,
    &lint_family_cards,     &lint_family_placeholders, &lint_family_secrets, &lint_family_suite,
    &lint_family_gates,     &lint_family_assay,
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
    [ASSAY_LINT_AUTO] = "auto",     [ASSAY_LINT_MANIFEST] = "manifest",
    [ASSAY_LINT_MODELS] = "models", [ASSAY_LINT_PLATFORMS] = "platforms",
    [ASSAY_LINT_SWEEP] = "sweep",   [ASSAY_LINT_SUITE] = "suite",
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
	/* A suite first: an ep suite's platforms is a path, not a registry. */
	const json_t *kind = json_object_get(doc, "kind");
	if (json_is_string(kind) &&
	    (!strcmp(json_string_value(kind), "ep") || !strcmp(json_string_value(kind), "command")))
		return ASSAY_LINT_SUITE;
	if (json_object_get(doc, "platforms"))
		return ASSAY_LINT_PLATFORMS;
	if (json_object_get(doc, "suite") &&
	    (json_object_get(doc, "ep_degrees") || json_object_get(doc, "workload") ||
	     json_object_get(doc, "modes")))
		return ASSAY_LINT_SWEEP;
	if (looks_like_card(doc))
		return ASSAY_LINT_MODELS;
	return ASSAY_LINT_AUTO;
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
	f->message = sbuf_detach(&msg, NULL);
	f->path = sbuf_detach(&p, NULL);
}

static int cmp_finding(const void *a, const void *b)
{
	const struct assay_lint_finding *x = a, *y = b;
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
	free(f->path);
	free(f->message);
}

static assay_err lint_text(const char *text, size_t len, const char *file, bool on_disk,
			   const struct assay_lint_options *o, const struct assay_lint_allow *allow,
			   struct assay_lint_result *r, struct assay_error *e)
{
	memset(r, 0, sizeof(*r));
	r->file = xstrdup(file);
	json_t *doc = assay_json_loadb(text, len, file, e);
	if (!doc)
		return ASSAY_USAGE;
	enum assay_lint_kind kind = o->kind;
	if (kind == ASSAY_LINT_AUTO)
		kind = assay_lint_detect(doc);
	if (kind == ASSAY_LINT_AUTO || kind >= ASSAY_LINT_KIND_COUNT) {
		json_decref(doc);
		return assay_error_at(
		    e, ASSAY_USAGE, file, NULL, 0,
		    "cannot tell what kind of file this is: a madengine manifest "
		    "has built_images or built_models, a models.json is an array of "
		    "model cards, a platform registry has platforms, a sweep has "
		    "suite and workload, a suite has \"kind\": \"ep\" or "
		    "\"command\" (or pass --kind)");
	}
	r->kind = kind;
	struct lint_ctx c = {doc, kind, file, on_disk, o, r};
	for (size_t i = 0; i < ARRAY_SIZE(families); i++)
		families[i]->check(&c);
	json_decref(doc);

	size_t kept = 0;
	for (size_t i = 0; i < r->n; i++) {
		struct assay_lint_finding *f = &r->v[i];
		size_t off = lint_locate(text, len, f->path);
		lint_line_col(text, len, off, &f->line, &f->column);
		if (allow && assay_lint_allowed(allow, file, f)) {
			finding_release(f);
			r->allowed++;
			continue;
		}
		r->v[kept++] = *f;
	}
	r->n = kept;
	if (r->n)
		qsort(r->v, r->n, sizeof(*r->v), cmp_finding);
	for (size_t i = 0; i < r->n; i++) {
		if (r->v[i].rule->severity == ASSAY_LINT_ERROR)
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
	return lint_text(text, len, file, false, o, allow, r, e);
}

assay_err assay_lint_file(const char *file, const struct assay_lint_options *o,
			  const struct assay_lint_allow *allow, struct assay_lint_result *r,
			  struct assay_error *e)
{
	size_t len;
	char *text = assay_read_file(file, &len, e);
	if (!text) {
		memset(r, 0, sizeof(*r));
		r->file = xstrdup(file);
		return ASSAY_USAGE;
	}
	assay_err rc = lint_text(text, len, file, true, o, allow, r, e);
	free(text);
	return rc;
}

void assay_lint_result_release(struct assay_lint_result *r)
{
	for (size_t i = 0; i < r->n; i++)
		finding_release(&r->v[i]);
	free(r->v);
	free(r->file);
	memset(r, 0, sizeof(*r));
}
