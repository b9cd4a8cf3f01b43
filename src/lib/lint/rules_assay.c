/* assay's own files: whatever the platform registry and sweep loaders
 * reject becomes a finding with the loader's own message and JSON path, so
 * `assay lint` and the commands that load the file agree. */
#include "assay/config.h"
#include "lint_int.h"

static const struct assay_lint_rule rules[] = {
	{"assay-config", "assay", ASSAY_LINT_ERROR, true, KIND(PLATFORMS) | KIND(SWEEP),
	 "a platform registry or sweep that assay's loader rejects"},
};
#define R_CONFIG (&rules[0])

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
	}
	if (e.code != ASSAY_OK)
		lint_report(c, R_CONFIG, e.path[0] ? e.path : "$", "%s", e.message);
}

const struct lint_family lint_family_assay = {"assay", rules, ARRAY_SIZE(rules), check};
