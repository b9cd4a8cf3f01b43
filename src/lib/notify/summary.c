/* What the chat, GitHub and e-mail payloads say in words: a headline that
 * counts the events by kind, one Markdown table of them (at most a given
 * number of rows, then how many more), the worst kind of a batch, and text
 * cut to a service's limit without splitting a UTF-8 character. */
#include <string.h>

#include "notify_int.h"

void notify_headline(const struct notify_batch *b, struct sbuf *sb)
{
	static const char *const words[ASSAY_NOTIFY_KINDS][2] = {
	    {"regression", "regressions"},   {"recovered", "recovered"},
	    {"failed gate", "failed gates"}, {"infrastructure failure", "infrastructure failures"},
	    {"publication", "publications"},
	};
	size_t count[ASSAY_NOTIFY_KINDS] = {0};
	for (size_t i = 0; i < b->n; i++)
		count[b->v[i]->kind]++;
	sbuf_addf(sb, "assay %s:", b->ctx->command);
	const char *sep = "";
	for (int k = 0; k < ASSAY_NOTIFY_KINDS; k++) {
		if (count[k])
			sbuf_addf(sb, "%s %zu %s", sep, count[k], words[k][count[k] > 1]);
		if (count[k])
			sep = ",";
	}
}

bool notify_batch_bad(const struct notify_batch *b)
{
	for (size_t i = 0; i < b->n; i++)
		if (b->v[i]->kind != ASSAY_NOTIFY_RECOVERED &&
		    b->v[i]->kind != ASSAY_NOTIFY_PUBLISHED)
			return true;
	return false;
}

/* A table cell: no newline, no unescaped '|'. */
static void cell(struct sbuf *sb, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '|')
			sbuf_adds(sb, "\\|");
		else
			sbuf_addch(sb, *s == '\n' || *s == '\r' ? ' ' : *s);
	}
}

void notify_markdown(const struct notify_batch *b, size_t max_rows, struct sbuf *sb)
{
	sbuf_adds(sb, "| event | series | before | after | change | revision |\n");
	sbuf_adds(sb, "|---|---|---|---|---|---|\n");
	for (size_t i = 0; i < b->n && i < max_rows; i++) {
		const struct assay_notify_event *ev = b->v[i];
		struct sbuf label = SBUF_INIT;
		char change[32];
		if (ev->has_change)
			notify_series_label(ev, &label);
		else
			sbuf_adds(&label, ev->message ? ev->message : "");
		notify_change_text(ev, change, sizeof(change));
		sbuf_addf(sb, "| %s | ", assay_notify_kind_name(ev->kind));
		cell(sb, sbuf_str(&label));
		if (ev->has_change)
			sbuf_addf(sb, " | %.6g | %.6g | %s | ", ev->before, ev->after, change);
		else
			sbuf_adds(sb, " |  |  |  | ");
		cell(sb, ev->previous ? ev->previous : "");
		sbuf_adds(sb, ev->previous ? ".." : "");
		cell(sb, ev->revision ? ev->revision : "");
		sbuf_adds(sb, " |\n");
		sbuf_release(&label);
	}
	if (b->n > max_rows)
		sbuf_addf(sb, "\n... and %zu more (the report lists them all).\n", b->n - max_rows);
}

void notify_cut(char *s, size_t max)
{
	size_t n = strlen(s);
	if (n <= max)
		return;
	size_t end = max >= 3 ? max - 3 : 0;
	/* Back to the start of a UTF-8 character. */
	while (end > 0 && ((unsigned char)s[end] & 0xC0) == 0x80)
		end--;
	memcpy(s + end, "...", max >= 3 ? 3 : 0);
	s[end + (max >= 3 ? 3 : 0)] = 0;
}
