/* Verdicts: what every gate produces (status, gate, metric, value, spec,
 * message), their outcome and their JSON form for reports. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "assay/gate.h"

static const char *const status_names[ASSAY_VERDICT_COUNT] = {"PASS", "FAIL", "RECORD", "SKIPPED"};

const char *assay_verdict_status_name(enum assay_verdict_status s)
{
	return (unsigned)s < ASSAY_VERDICT_COUNT ? status_names[s] : "UNKNOWN";
}

int assay_verdict_status_parse(const char *name)
{
	for (int i = 0; name && i < ASSAY_VERDICT_COUNT; i++)
		if (!strcasecmp(status_names[i], name))
			return i;
	return -1;
}

struct assay_verdict *assay_verdicts_add(struct assay_verdicts *vs,
					 enum assay_verdict_status status, const char *gate,
					 const char *metric, double value, const char *unit,
					 const char *spec, const char *fmt, ...)
{
	ALLOC_GROW(vs->v, vs->n + 1, vs->alloc);
	struct assay_verdict *v = &vs->v[vs->n++];
	memset(v, 0, sizeof(*v));
	v->status = status;
	v->gate = xstrdup(gate);
	v->metric = xstrdup(metric);
	v->value = value;
	v->unit = xstrdup(unit ? unit : "");
	v->spec = xstrdup(spec ? spec : "");
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	v->message = xstrdup(buf);
	return v;
}

void assay_verdicts_push_copy(struct assay_verdicts *vs, const struct assay_verdict *v)
{
	struct assay_verdict *c = assay_verdicts_add(vs, v->status, v->gate, v->metric, v->value,
						     v->unit, v->spec, "%s", v->message);
	c->series_key = v->series_key ? xstrdup(v->series_key) : NULL;
	c->acked = v->acked;
}

void assay_verdicts_release(struct assay_verdicts *vs)
{
	for (size_t i = 0; i < vs->n; i++) {
		free(vs->v[i].gate);
		free(vs->v[i].metric);
		free(vs->v[i].unit);
		free(vs->v[i].spec);
		free(vs->v[i].message);
		free(vs->v[i].series_key);
	}
	free(vs->v);
	vs->v = NULL;
	vs->n = vs->alloc = 0;
}

assay_err assay_verdicts_outcome(const struct assay_verdicts *vs)
{
	for (size_t i = 0; i < vs->n; i++)
		if (vs->v[i].status == ASSAY_VERDICT_FAIL)
			return ASSAY_GATE_FAILED;
	return ASSAY_OK;
}

void assay_verdicts_count(const struct assay_verdicts *vs, size_t counts[ASSAY_VERDICT_COUNT])
{
	for (int i = 0; i < ASSAY_VERDICT_COUNT; i++)
		counts[i] = 0;
	for (size_t i = 0; i < vs->n; i++)
		if ((unsigned)vs->v[i].status < ASSAY_VERDICT_COUNT)
			counts[vs->v[i].status]++;
}

json_t *assay_verdict_to_json(const struct assay_verdict *v)
{
	json_t *o =
	    json_pack("{s:s, s:s, s:s, s:o, s:s, s:s, s:s}", "status",
		      assay_verdict_status_name(v->status), "gate", v->gate, "metric", v->metric,
		      "value", isfinite(v->value) ? json_real(v->value) : json_null(), "unit",
		      v->unit, "spec", v->spec, "message", v->message);
	if (v->series_key)
		json_object_set_new(o, "series_key", json_string(v->series_key));
	if (v->acked)
		json_object_set_new(o, "acked", json_true());
	return o;
}
