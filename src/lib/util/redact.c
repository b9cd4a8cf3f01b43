/* Secret redaction: replaces every occurrence of any secret value with "***".
 * Occurrences that overlap or touch are merged into one replacement, so text
 * like "abcdef" with secrets "abc" and "cdef" leaves nothing of either. */
#include <string.h>

#include "assay/redact.h"

/* First occurrence of any secret in text[from..len): its start, and in *end
 * the end of the merged span of occurrences overlapping or touching it.
 * Returns len when there is none. */
static size_t next_span(const char *text, size_t len, size_t from, const struct strlist *secrets,
			size_t *end)
{
	size_t best = len;
	for (size_t i = 0; i < secrets->n; i++) {
		size_t sl = strlen(secrets->v[i]);
		if (!sl || sl > len - from)
			continue;
		const char *p = memmem(text + from, len - from, secrets->v[i], sl);
		if (p && (size_t)(p - text) < best)
			best = (size_t)(p - text);
	}
	if (best == len)
		return len;
	/* Grow the span while some secret starts inside it (or right at its end). */
	size_t stop = best;
	for (bool grew = true; grew;) {
		grew = false;
		for (size_t i = 0; i < secrets->n; i++) {
			size_t sl = strlen(secrets->v[i]);
			if (!sl)
				continue;
			size_t at = best;
			while (at <= stop && sl <= len - at) {
				const char *p = memmem(text + at, len - at, secrets->v[i], sl);
				if (!p || (size_t)(p - text) > stop)
					break;
				size_t e = (size_t)(p - text) + sl;
				if (e > stop) {
					stop = e;
					grew = true;
				}
				at = (size_t)(p - text) + 1;
			}
		}
	}
	*end = stop;
	return best;
}

size_t assay_redact_append(struct sbuf *out, const char *text, size_t len,
			   const struct strlist *secrets)
{
	if (!secrets || !secrets->n) {
		sbuf_add(out, text, len);
		return 0;
	}
	size_t count = 0, pos = 0;
	while (pos < len) {
		size_t end = 0, at = next_span(text, len, pos, secrets, &end);
		sbuf_add(out, text + pos, at - pos);
		if (at == len)
			break;
		sbuf_adds(out, ASSAY_REDACTED);
		count++;
		pos = end;
	}
	return count;
}

size_t assay_redact_sbuf(struct sbuf *sb, const struct strlist *secrets)
{
	if (!secrets || !secrets->n || !sb->len || !assay_redact_contains(sb->buf, sb->len, secrets))
		return 0;
	struct sbuf out = SBUF_INIT;
	size_t n = assay_redact_append(&out, sb->buf, sb->len, secrets);
	sbuf_release(sb);
	*sb = out;
	return n;
}

char *assay_redact_str(const char *s, const struct strlist *secrets)
{
	if (!s)
		return NULL;
	struct sbuf out = SBUF_INIT;
	assay_redact_append(&out, s, strlen(s), secrets);
	return sbuf_detach(&out, NULL);
}

bool assay_redact_contains(const char *s, size_t len, const struct strlist *secrets)
{
	if (!secrets)
		return false;
	for (size_t i = 0; i < secrets->n; i++) {
		size_t sl = strlen(secrets->v[i]);
		if (sl && sl <= len && memmem(s, len, secrets->v[i], sl))
			return true;
	}
	return false;
}
