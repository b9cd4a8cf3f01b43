/* Secret redaction (include/assay/redact.h): one scanner that replaces every
 * span of overlapping or touching secret occurrences by "***", used on whole
 * buffers and on streams whose pieces may split a secret. */
#include <stdlib.h>
#include <string.h>

#include "assay/redact.h"

void assay_redactor_init(struct assay_redactor *r)
{
	memset(r, 0, sizeof(*r));
}

void assay_redactor_release(struct assay_redactor *r)
{
	for (size_t i = 0; i < r->n; i++) {
		free(r->v[i].name);
		free(r->v[i].value);
	}
	free(r->v);
	memset(r, 0, sizeof(*r));
}

void assay_redactor_add(struct assay_redactor *r, const char *name, const char *value)
{
	size_t n = value ? strlen(value) : 0;
	ALLOC_GROW(r->v, r->n + 1, r->alloc);
	size_t at = r->n;
	while (at > 0 && r->v[at - 1].len < n)
		at--;
	memmove(r->v + at + 1, r->v + at, (r->n - at) * sizeof(*r->v));
	r->v[at].name = xstrdup(name);
	r->v[at].value = n ? xstrdup(value) : NULL;
	r->v[at].len = n;
	r->n++;
	if (n)
		r->first[(unsigned char)value[0]] = 1;
}

void assay_redactor_add_values(struct assay_redactor *r, const struct strlist *values)
{
	for (size_t i = 0; values && i < values->n; i++)
		assay_redactor_add(r, "secret", values->v[i]);
}

bool assay_redactor_empty(const struct assay_redactor *r)
{
	return !r || !r->n || !r->v[0].len;
}

/* At data[i]: the longest secret that matches there (NULL when none).
 * *partial is set when the rest of the buffer is a proper prefix of some
 * secret, so more input could still complete it. */
static const struct assay_secret *match_at(const struct assay_redactor *r, const char *data,
					   size_t len, size_t i, bool *partial)
{
	*partial = false;
	size_t left = len - i;
	const struct assay_secret *full = NULL;
	for (size_t k = 0; k < r->n && r->v[k].len; k++) {
		const struct assay_secret *s = &r->v[k];
		if (s->len <= left) {
			if (!full && !memcmp(data + i, s->value, s->len))
				full = s; /* longest first: the first full match is the longest */
		} else if (!memcmp(data + i, s->value, left)) {
			*partial = true;
		}
	}
	return full;
}

/* Redact data into out; *count gets the number of "***". With stream set,
 * stop where the outcome still depends on bytes not seen yet (a possible
 * secret start, or a span that a touching secret could extend) and return
 * that offset: the caller holds the rest back. Otherwise return len. */
static size_t redact(const struct assay_redactor *r, const char *data, size_t len, bool stream,
		     struct sbuf *out, size_t *count)
{
	*count = 0;
	if (assay_redactor_empty(r)) {
		sbuf_add(out, data, len);
		return len;
	}
	size_t run = 0, span_start = 0, span_end = 0;
	bool in_span = false;
	for (size_t i = 0; i < len; i++) {
		const struct assay_secret *s = NULL;
		bool partial = false;
		if (r->first[(unsigned char)data[i]])
			s = match_at(r, data, len, i, &partial);
		if (partial && stream) {
			if (in_span)
				return span_start;
			sbuf_add(out, data + run, i - run);
			return i;
		}
		if (in_span && i == span_end && !s) {
			sbuf_adds(out, ASSAY_REDACTED);
			(*count)++;
			in_span = false;
			run = i;
		}
		if (!s)
			continue;
		if (!in_span) {
			sbuf_add(out, data + run, i - run);
			in_span = true;
			span_start = i;
			span_end = i + s->len;
		} else if (i + s->len > span_end) {
			span_end = i + s->len; /* overlapping or touching: one span */
		}
	}
	if (in_span) {
		/* A span reaching the end could still grow by a touching secret. */
		if (stream && span_end == len)
			return span_start;
		sbuf_adds(out, ASSAY_REDACTED);
		(*count)++;
		return len;
	}
	sbuf_add(out, data + run, len - run);
	return len;
}

size_t assay_redactor_append(const struct assay_redactor *r, const char *data, size_t len,
			     struct sbuf *out)
{
	size_t count;
	redact(r, data, len, false, out, &count);
	return count;
}

char *assay_redactor_str(const struct assay_redactor *r, const char *s)
{
	if (!s)
		return NULL;
	struct sbuf sb = SBUF_INIT;
	sbuf_grow(&sb, strlen(s));
	assay_redactor_append(r, s, strlen(s), &sb);
	return sbuf_detach(&sb, NULL);
}

const char *assay_redactor_find(const struct assay_redactor *r, const char *data, size_t len,
				size_t *at)
{
	if (assay_redactor_empty(r))
		return NULL;
	for (size_t i = 0; i < len; i++) {
		if (!r->first[(unsigned char)data[i]])
			continue;
		bool partial;
		const struct assay_secret *s = match_at(r, data, len, i, &partial);
		if (!s)
			continue;
		if (at)
			*at = i;
		return s->name;
	}
	return NULL;
}

size_t assay_redactor_sbuf(const struct assay_redactor *r, struct sbuf *sb)
{
	if (!r || !sb->len || !assay_redactor_find(r, sb->buf, sb->len, NULL))
		return 0;
	struct sbuf out = SBUF_INIT;
	size_t n = assay_redactor_append(r, sb->buf, sb->len, &out);
	sbuf_release(sb);
	*sb = out;
	return n;
}

void assay_redactor_add_all(struct assay_redactor *r, const struct assay_redactor *src)
{
	for (size_t i = 0; src && i < src->n; i++)
		assay_redactor_add(r, src->v[i].name, src->v[i].value);
}

bool assay_redactor_add_env(struct assay_redactor *r, const char *name)
{
	const char *v = getenv(name);
	assay_redactor_add(r, name, v);
	return v && *v;
}

void assay_redact_stream_init(struct assay_redact_stream *s, const struct assay_redactor *r)
{
	s->r = r;
	sbuf_init(&s->held);
}

void assay_redact_stream_feed(struct assay_redact_stream *s, const char *data, size_t len,
			      struct sbuf *out)
{
	size_t count;
	if (!s->held.len) {
		size_t done = redact(s->r, data, len, true, out, &count);
		sbuf_add(&s->held, data + done, len - done);
		return;
	}
	struct sbuf work = SBUF_INIT;
	sbuf_add(&work, s->held.buf, s->held.len);
	sbuf_add(&work, data, len);
	sbuf_reset(&s->held);
	size_t done = redact(s->r, work.buf, work.len, true, out, &count);
	sbuf_add(&s->held, work.buf + done, work.len - done);
	sbuf_release(&work);
}

void assay_redact_stream_flush(struct assay_redact_stream *s, struct sbuf *out)
{
	size_t count;
	if (s->held.len)
		redact(s->r, s->held.buf, s->held.len, false, out, &count);
	sbuf_reset(&s->held);
}

void assay_redact_stream_release(struct assay_redact_stream *s)
{
	sbuf_release(&s->held);
}
