/* Secret redaction (include/assay/redact.h): one scanner that replaces every
 * occurrence of a secret value by "***", used on whole buffers and on
 * streams whose pieces may split a secret. */
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
	/* Keep values longest first so the longest secret wins where two overlap. */
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

bool assay_redactor_empty(const struct assay_redactor *r)
{
	return !r || !r->n || !r->v[0].len;
}

/* At data[i]: the secret that matches there (NULL when none). *partial is
 * set when the rest of the buffer is a proper prefix of a secret, so more
 * input could still complete it. */
static const struct assay_secret *match_at(const struct assay_redactor *r, const char *data,
					   size_t len, size_t i, bool *partial)
{
	*partial = false;
	size_t left = len - i;
	for (size_t k = 0; k < r->n && r->v[k].len; k++) {
		const struct assay_secret *s = &r->v[k];
		if (s->len <= left) {
			if (!memcmp(data + i, s->value, s->len))
				return s;
		} else if (!memcmp(data + i, s->value, left)) {
			*partial = true;
			return NULL;
		}
	}
	return NULL;
}

/* Redact data into out. With stream set, stop at a possible unfinished
 * secret and return its offset (the bytes to hold back); else return len. */
static size_t redact(const struct assay_redactor *r, const char *data, size_t len, bool stream,
		     struct sbuf *out)
{
	if (assay_redactor_empty(r)) {
		sbuf_add(out, data, len);
		return len;
	}
	size_t i = 0, run = 0;
	while (i < len) {
		if (!r->first[(unsigned char)data[i]]) {
			i++;
			continue;
		}
		bool partial;
		const struct assay_secret *s = match_at(r, data, len, i, &partial);
		if (s) {
			sbuf_add(out, data + run, i - run);
			sbuf_adds(out, ASSAY_REDACTED);
			i += s->len;
			run = i;
		} else if (partial && stream) {
			break;
		} else {
			i++;
		}
	}
	sbuf_add(out, data + run, i - run);
	return i;
}

void assay_redact_buf(const struct assay_redactor *r, const char *data, size_t len, struct sbuf *out)
{
	redact(r, data, len, false, out);
}

char *assay_redact_str(const struct assay_redactor *r, const char *s)
{
	struct sbuf sb = SBUF_INIT;
	sbuf_grow(&sb, strlen(s));
	redact(r, s, strlen(s), false, &sb);
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

void assay_redact_stream_init(struct assay_redact_stream *s, const struct assay_redactor *r)
{
	s->r = r;
	sbuf_init(&s->held);
}

void assay_redact_stream_feed(struct assay_redact_stream *s, const char *data, size_t len,
			      struct sbuf *out)
{
	if (!s->held.len) {
		size_t done = redact(s->r, data, len, true, out);
		sbuf_add(&s->held, data + done, len - done);
		return;
	}
	struct sbuf work = SBUF_INIT;
	sbuf_add(&work, s->held.buf, s->held.len);
	sbuf_add(&work, data, len);
	sbuf_reset(&s->held);
	size_t done = redact(s->r, work.buf, work.len, true, out);
	sbuf_add(&s->held, work.buf + done, work.len - done);
	sbuf_release(&work);
}

void assay_redact_stream_flush(struct assay_redact_stream *s, struct sbuf *out)
{
	if (s->held.len)
		redact(s->r, s->held.buf, s->held.len, false, out);
	sbuf_reset(&s->held);
}

void assay_redact_stream_release(struct assay_redact_stream *s)
{
	sbuf_release(&s->held);
}
