/* The Microsoft Teams target: one message per batch, to an incoming
 * webhook or a Workflows URL, holding one Adaptive Card (the envelope of
 * learn.microsoft.com's "Send Adaptive Cards using an Incoming Webhook":
 * type message, an attachment of contentType
 * application/vnd.microsoft.card.adaptive). The card stays under Teams'
 * 28 KB message limit: events are added while the message is under
 * TEAMS_BYTES, the rest counted in one line. */
#include <stdlib.h>
#include <string.h>

#include "assay/json.h"
#include "notify_int.h"

#define TEAMS_EVENTS 20
#define TEAMS_BYTES  24000

static json_t *text_block(const char *text, bool bold)
{
	json_t *o = json_pack("{s:s, s:s, s:b}", "type", "TextBlock", "text", text, "wrap", 1);
	if (bold)
		json_object_set_new(o, "weight", json_string("Bolder"));
	return o;
}

static json_t *fact(const char *title, const char *value)
{
	return json_pack("{s:s, s:s}", "title", title, "value", value);
}

/* An event's blocks appended to body. */
static void event_blocks(json_t *body, const struct assay_notify_event *ev)
{
	struct sbuf sb = SBUF_INIT;
	sbuf_addf(&sb, "%s: ", assay_notify_kind_name(ev->kind));
	if (!ev->has_change) {
		sbuf_adds(&sb, ev->message ? ev->message : "");
		json_array_append_new(body, text_block(sbuf_str(&sb), true));
		sbuf_release(&sb);
		return;
	}
	notify_series_label(ev, &sb);
	json_array_append_new(body, text_block(sbuf_str(&sb), true));
	char change[32], values[128], revs[256];
	notify_change_text(ev, change, sizeof(change));
	snprintf(values, sizeof(values), "%.6g \xe2\x86\x92 %.6g %s", ev->before, ev->after,
		 ev->unit ? ev->unit : "");
	snprintf(revs, sizeof(revs), "%s \xe2\x86\x92 %s", ev->previous ? ev->previous : "-",
		 ev->revision ? ev->revision : "-");
	json_t *facts = json_array();
	json_array_append_new(facts, fact("Before \xe2\x86\x92 after", values));
	json_array_append_new(facts, fact("Change", change));
	json_array_append_new(facts, fact("Revisions", revs));
	json_array_append_new(body, json_pack("{s:s, s:o}", "type", "FactSet", "facts", facts));
	sbuf_release(&sb);
}

static size_t json_size(const json_t *v)
{
	char *t = assay_json_dumps(v, 0);
	size_t n = strlen(t);
	free(t);
	return n;
}

static json_t *card(const struct notify_batch *b)
{
	struct sbuf head = SBUF_INIT;
	notify_headline(b, &head);
	json_t *body = json_array();
	json_t *title = text_block(sbuf_str(&head), true);
	json_object_set_new(title, "size", json_string("Medium"));
	json_array_append_new(body, title);
	sbuf_release(&head);
	size_t i = 0;
	for (; i < b->n && i < TEAMS_EVENTS && json_size(body) < TEAMS_BYTES; i++)
		event_blocks(body, b->v[i]);
	if (i < b->n) {
		char more[128];
		snprintf(more, sizeof(more), "... and %zu more: the report lists them all.",
			 b->n - i);
		json_array_append_new(body, text_block(more, false));
	}
	json_t *c = json_pack("{s:s, s:s, s:s, s:o}", "$schema",
			      "http://adaptivecards.io/schemas/adaptive-card.json", "type",
			      "AdaptiveCard", "version", "1.4", "body", body);
	char *link = notify_report_link(b);
	if (link)
		json_object_set_new(c, "actions",
				    json_pack("[{s:s, s:s, s:s}]", "type", "Action.OpenUrl",
					      "title", "Open the report", "url", link));
	free(link);
	return c;
}

static void teams_render(const struct notify_batch *b, struct notify_requests *out)
{
	json_t *att =
	    json_pack("{s:s, s:n, s:o}", "contentType", "application/vnd.microsoft.card.adaptive",
		      "contentUrl", "content", card(b));
	json_t *doc = json_pack("{s:s, s:[o]}", "type", "message", "attachments", att);
	notify_request_add(out, b->target->url, assay_json_dumps(doc, 0));
	json_decref(doc);
}

const struct assay_notify_type notify_teams = {
    .name = "teams",
    .url = true,
    .render = teams_render,
};
