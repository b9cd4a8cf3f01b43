/* The Slack target: one incoming-webhook message per batch, in Block Kit
 * (https://docs.slack.dev/reference/block-kit/blocks): a header block, a
 * section per event (at most SLACK_EVENTS, then one saying how many more),
 * and a context block with the report link. Within Slack's limits: 50
 * blocks a message, 150 characters a header, 3000 a section's text, 10
 * elements a context block. */
#include <stdlib.h>

#include "assay/json.h"
#include "notify_int.h"

#define SLACK_EVENTS  20
#define SLACK_HEADER  150
#define SLACK_SECTION 3000

/* Slack's mrkdwn escapes: &, < and > (control characters of links). */
static void escaped(struct sbuf *sb, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '&')
			sbuf_adds(sb, "&amp;");
		else if (*s == '<')
			sbuf_adds(sb, "&lt;");
		else if (*s == '>')
			sbuf_adds(sb, "&gt;");
		else
			sbuf_addch(sb, *s);
	}
}

static json_t *text_object(const char *type, struct sbuf *sb, size_t max)
{
	char *t = sbuf_detach(sb, NULL);
	notify_cut(t, max);
	json_t *o = json_pack("{s:s, s:s}", "type", type, "text", t);
	free(t);
	return o;
}

static json_t *section(struct sbuf *sb)
{
	return json_pack("{s:s, s:o}", "type", "section", "text",
			 text_object("mrkdwn", sb, SLACK_SECTION));
}

static json_t *event_section(const struct assay_notify_event *ev)
{
	struct sbuf sb = SBUF_INIT, label = SBUF_INIT;
	char change[32];
	sbuf_addf(&sb, "*%s* ", assay_notify_kind_name(ev->kind));
	if (!ev->has_change) {
		escaped(&sb, ev->message);
		return section(&sb);
	}
	notify_series_label(ev, &label);
	notify_change_text(ev, change, sizeof(change));
	sbuf_addch(&sb, '`');
	escaped(&sb, sbuf_str(&label));
	sbuf_addf(&sb, "`\n%.6g \xe2\x86\x92 %.6g ", ev->before, ev->after);
	escaped(&sb, ev->unit);
	sbuf_addf(&sb, " (*%s*)\nrevisions ", change);
	escaped(&sb, ev->previous ? ev->previous : "-");
	sbuf_adds(&sb, " \xe2\x86\x92 ");
	escaped(&sb, ev->revision ? ev->revision : "-");
	sbuf_addf(&sb, ", p = %.2g", ev->pvalue);
	sbuf_release(&label);
	return section(&sb);
}

static json_t *context_block(const struct notify_batch *b)
{
	struct sbuf sb = SBUF_INIT;
	char *link = notify_report_link(b);
	const char *rev = b->ctx->revision ? b->ctx->revision : b->config->revision;
	sbuf_addf(&sb, "assay %s", b->ctx->command);
	if (rev) {
		sbuf_adds(&sb, " \xc2\xb7 revision ");
		escaped(&sb, rev);
	}
	if (link) {
		sbuf_adds(&sb, " \xc2\xb7 <");
		escaped(&sb, link);
		sbuf_adds(&sb, "|the report>");
	}
	free(link);
	json_t *els = json_array();
	json_array_append_new(els, text_object("mrkdwn", &sb, SLACK_SECTION));
	return json_pack("{s:s, s:o}", "type", "context", "elements", els);
}

static void slack_render(const struct notify_batch *b, struct notify_requests *out)
{
	struct sbuf head = SBUF_INIT;
	notify_headline(b, &head);
	json_t *blocks = json_array();
	char *fallback = xstrdup(sbuf_str(&head));
	notify_cut(fallback, SLACK_SECTION);
	json_array_append_new(blocks, json_pack("{s:s, s:o}", "type", "header", "text",
						text_object("plain_text", &head, SLACK_HEADER)));
	for (size_t i = 0; i < b->n && i < SLACK_EVENTS; i++)
		json_array_append_new(blocks, event_section(b->v[i]));
	if (b->n > SLACK_EVENTS) {
		struct sbuf more = SBUF_INIT;
		sbuf_addf(&more, "... and %zu more: the report lists them all.",
			  b->n - SLACK_EVENTS);
		json_array_append_new(blocks, section(&more));
	}
	json_array_append_new(blocks, context_block(b));
	json_t *doc = json_pack("{s:s, s:o}", "text", fallback, "blocks", blocks);
	free(fallback);
	notify_request_add(out, b->target->url, assay_json_dumps(doc, 0));
	json_decref(doc);
}

const struct assay_notify_type notify_slack = {
    .name = "slack",
    .url = true,
    .render = slack_render,
};
