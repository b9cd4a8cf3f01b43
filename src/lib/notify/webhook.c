/* The webhook target: one JSON POST per batch, in assay's own schema
 * ("schema": "assay.notify", "version": 1), documented field by field in
 * docs/notify.md; a new field may be added, none renamed or dropped. */
#include <math.h>
#include <stdlib.h>

#include "assay/json.h"
#include "notify_int.h"

static json_t *num(bool has, double v)
{
	return has && isfinite(v) ? json_real(v) : json_null();
}

static json_t *str(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *event_json(const struct assay_notify_event *ev)
{
	json_t *o = json_object();
	json_object_set_new(o, "event", json_string(assay_notify_kind_name(ev->kind)));
	json_object_set_new(o, "id", json_string(ev->id));
	json_object_set_new(o, "series_key", str(ev->series_key));
	json_object_set_new(o, "series", ev->series ? json_incref(ev->series) : json_null());
	json_object_set_new(o, "unit", str(ev->unit));
	json_object_set_new(o, "direction",
			    ev->has_change ? json_string(assay_direction_name(ev->direction))
					   : json_null());
	json_object_set_new(o, "before", num(ev->has_change, ev->before));
	json_object_set_new(o, "after", num(ev->has_change, ev->after));
	json_object_set_new(o, "change_percent", num(ev->has_change, ev->change * 100));
	json_object_set_new(o, "pvalue", num(ev->has_change, ev->pvalue));
	json_object_set_new(o, "revision", str(ev->revision));
	json_object_set_new(o, "previous_revision", str(ev->previous));
	json_object_set_new(o, "timestamp", str(ev->timestamp));
	json_object_set_new(o, "message", json_string(ev->message ? ev->message : ""));
	return o;
}

static void webhook_render(const struct notify_batch *b, struct notify_requests *out)
{
	json_t *doc = json_object(), *events = json_array();
	char *link = notify_report_link(b);
	const char *rev = b->ctx->revision ? b->ctx->revision : b->config->revision;
	json_object_set_new(doc, "schema", json_string("assay.notify"));
	json_object_set_new(doc, "version", json_integer(1));
	json_object_set_new(doc, "target", json_string(b->target->name));
	json_object_set_new(doc, "command", json_string(b->ctx->command));
	json_object_set_new(doc, "revision", str(rev));
	json_object_set_new(doc, "report_url", str(link));
	json_object_set_new(doc, "count", json_integer((json_int_t)b->n));
	for (size_t i = 0; i < b->n; i++)
		json_array_append_new(events, event_json(b->v[i]));
	json_object_set_new(doc, "events", events);
	notify_request_add(out, b->target->url, assay_json_dumps(doc, 0));
	json_decref(doc);
	free(link);
}

const struct assay_notify_type notify_webhook = {
    .name = "webhook",
    .url = true,
    .render = webhook_render,
};
