/* The gate spec file of `assay gate --spec`: optional sections
 * "loss_curve", "convergence", "scaling", "checkpoint", each read by its
 * gate family's parser, strictly (docs/gate.md). */
#include <stdlib.h>
#include <string.h>

#include "assay/gate.h"
#include "assay/json.h"

assay_err assay_gate_spec_parse(const json_t *doc, const char *file, struct assay_gate_spec *s,
				struct assay_error *e)
{
	static const char *const keys[] = {"description", "loss_curve", "convergence",
					   "scaling",     "checkpoint", NULL};
	struct assay_cfg c = {file, e};
	const char *desc;
	json_t *v;
	memset(s, 0, sizeof(*s));
	s->file = xstrdup(file);
	if (assay_cfg_object(&c, doc, "$", keys) < 0 ||
	    assay_cfg_string(&c, doc, "$", "description", ASSAY_CFG_OPTIONAL, &desc) < 0)
		goto fail;
	if ((v = json_object_get(doc, "loss_curve"))) {
		if (assay_loss_curve_spec_parse(&c, v, "$.loss_curve", &s->loss_curve) < 0)
			goto fail;
		s->has_loss_curve = true;
	}
	if ((v = json_object_get(doc, "convergence"))) {
		if (assay_convergence_spec_parse(&c, v, "$.convergence", &s->convergence) < 0)
			goto fail;
		s->has_convergence = true;
	}
	if ((v = json_object_get(doc, "scaling"))) {
		if (assay_scaling_spec_parse(&c, v, "$.scaling", &s->scaling) < 0)
			goto fail;
		s->has_scaling = true;
	}
	if ((v = json_object_get(doc, "checkpoint"))) {
		if (assay_checkpoint_spec_parse(&c, v, "$.checkpoint", &s->checkpoint) < 0)
			goto fail;
		s->has_checkpoint = true;
	}
	return ASSAY_OK;
fail:
	assay_gate_spec_release(s);
	return ASSAY_USAGE;
}

assay_err assay_gate_spec_load(const char *file, struct assay_gate_spec *s, struct assay_error *e)
{
	json_t *doc = assay_json_load_file(file, e);
	if (!doc) {
		memset(s, 0, sizeof(*s));
		return ASSAY_USAGE;
	}
	assay_err rc = assay_gate_spec_parse(doc, file, s, e);
	json_decref(doc);
	return rc;
}

void assay_gate_spec_release(struct assay_gate_spec *s)
{
	assay_loss_curve_spec_release(&s->loss_curve);
	free(s->file);
	memset(s, 0, sizeof(*s));
}
