/* assay's own files: whatever the platform registry, sweep and suite loaders
 * reject becomes a finding with the loader's own message and JSON path, so
 * `assay lint` and the commands that load the file agree. */
#include <string.h>

#include "assay/config.h"
#include "assay/suite.h"
#include "lint_int.h"

static const struct assay_lint_rule rules[] = {
    {"assay-config", "assay", ASSAY_LINT_ERROR, true, KIND(PLATFORMS) | KIND(SWEEP) | KIND(SUITE),
     "a platform registry, sweep or suite that assay's loader rejects"},
};
#define R_CONFIG (&rules[0])

/* Whether a suite rule already reported at path: the loader stops at the
 * problem that rule reports (an unknown run, an unfilled placeholder). */
static bool suite_rule_at(const struct lint_ctx *c, const char *path)
{
	for (size_t i = 0; i < c->res->n; i++)
		if (!strcmp(c->res->v[i].rule->family, "suite") && !strcmp(c->res->v[i].path, path))
			return true;
	return false;
}

/* A suite's error in a file it names (its registry, its sweep file, its
 * thresholds file) is
 * reported at the key that names it, with that file's location. */
static void report_suite(struct lint_ctx *c, const struct assay_error *e)
{
	if (!e->file[0] || !strcmp(e->file, c->file)) {
		const char *path = e->path[0] ? e->path : "$";
		if (!suite_rule_at(c, path))
			lint_report(c, R_CONFIG, path, "%s", e->message);
		return;
	}
	const char *at = "$";
	static const char *const keys[] = {"platforms", "sweep"};
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
		const json_t *v = json_object_get(c->doc, keys[i]);
		if (json_is_string(v) && !strcmp(json_string_value(v), e->file))
			at = i ? "$.sweep" : "$.platforms";
	}
	const json_t *th = json_object_get(json_object_get(c->doc, "gates"), "thresholds");
	if (json_is_string(th) && !strcmp(json_string_value(th), e->file))
		at = "$.gates.thresholds";
	char buf[2048];
	lint_report(c, R_CONFIG, at, "%s", assay_error_format(e, buf, sizeof(buf)));
}

static void check(struct lint_ctx *c)
{
	if (!lint_on(c, R_CONFIG))
		return;
	struct assay_error e;
	assay_error_clear(&e);
	if (c->kind == ASSAY_LINT_PLATFORMS) {
		struct assay_registry reg;
		if (assay_registry_parse(c->doc, c->file, &reg, &e) == ASSAY_OK)
			assay_registry_release(&reg);
	} else if (c->kind == ASSAY_LINT_SWEEP) {
		struct assay_sweep sw;
		if (assay_sweep_parse(c->doc, c->file, &sw, &e) == ASSAY_OK)
			assay_sweep_release(&sw);
	} else if (c->kind == ASSAY_LINT_SUITE && c->on_disk) {
		/* The suite loader reads the file itself, and the files it names. */
		struct assay_suite s;
		if (assay_suite_load(c->file, &s, &e) == ASSAY_OK)
			assay_suite_release(&s);
		if (e.code != ASSAY_OK)
			report_suite(c, &e);
		return;
	}
	if (e.code != ASSAY_OK)
		lint_report(c, R_CONFIG, e.path[0] ? e.path : "$", "%s", e.message);
}

const struct lint_family lint_family_assay = {"assay", rules, ARRAY_SIZE(rules), check};
