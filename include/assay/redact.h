/* Secret redaction: the values of the environment variables a suite names
 * in `secrets` are replaced by "***" in everything assay writes or prints
 * (captured logs, command lines, store rows, summaries, reports).
 * Occurrences that overlap or touch become one "***", so no part of any
 * secret survives. Output that arrives in pieces is redacted as a stream: a
 * secret split across two reads is still caught and raw bytes are never
 * handed on. */
#ifndef ASSAY_REDACT_H
#define ASSAY_REDACT_H

#include <stdbool.h>
#include <stddef.h>

#include "assay/util.h"

/* What a secret is replaced with. */
#define ASSAY_REDACTED "***"

struct assay_secret {
	char *name;  /* the environment variable */
	char *value; /* NULL when unset or empty: nothing to redact */
	size_t len;
};

/* A set of named secrets (suites name them; the values come from the
 * environment). */
struct assay_redactor {
	struct assay_secret *v; /* longest value first */
	size_t n, alloc;
	unsigned char first[256]; /* 1 when some value starts with this byte */
};
#define ASSAY_REDACTOR_INIT                                                                        \
	{                                                                                          \
		NULL, 0, 0,                                                                        \
		{                                                                                  \
			0                                                                          \
		}                                                                                  \
	}

void assay_redactor_init(struct assay_redactor *r);
void assay_redactor_release(struct assay_redactor *r);
/* Add a secret; an empty or NULL value is remembered by name but redacts
 * nothing. */
void assay_redactor_add(struct assay_redactor *r, const char *name, const char *value);
/* Add every string of values (named "secret"). */
void assay_redactor_add_values(struct assay_redactor *r, const struct strlist *values);
bool assay_redactor_empty(const struct assay_redactor *r);
/* Add every secret of src (names and values) to r. */
void assay_redactor_add_all(struct assay_redactor *r, const struct assay_redactor *src);
/* The name of the first secret whose value occurs in data, or NULL; *at gets
 * the byte offset of the occurrence when at is not NULL. */
const char *assay_redactor_find(const struct assay_redactor *r, const char *data, size_t len,
				size_t *at);
/* Append data to out with every secret replaced; returns the number of
 * "***" written. r may be NULL (plain copy). */
size_t assay_redactor_append(const struct assay_redactor *r, const char *data, size_t len,
			     struct sbuf *out);
/* A new redacted copy of s (NULL gives NULL). r may be NULL. */
char *assay_redactor_str(const struct assay_redactor *r, const char *s);

/* Redact a whole buffer in place; returns the number of replacements. r may
 * be NULL. */
size_t assay_redactor_sbuf(const struct assay_redactor *r, struct sbuf *sb);
/* Add the secret called name with its value from this process's environment
 * (the one place assay reads a secret's value); false when it is unset or
 * empty (remembered by name, redacting nothing). */
bool assay_redactor_add_env(struct assay_redactor *r, const char *name);

/* Streaming redaction: bytes that might still turn out to be (part of) a
 * secret are held back until the next feed or the flush decides. */
struct assay_redact_stream {
	const struct assay_redactor *r;
	struct sbuf held;
};
void assay_redact_stream_init(struct assay_redact_stream *s, const struct assay_redactor *r);
/* Append the redacted bytes that are safe to emit to out. */
void assay_redact_stream_feed(struct assay_redact_stream *s, const char *data, size_t len,
			      struct sbuf *out);
/* End of stream: emit what was held back. */
void assay_redact_stream_flush(struct assay_redact_stream *s, struct sbuf *out);
void assay_redact_stream_release(struct assay_redact_stream *s);

/* Token formats (src/lib/util/tokens.c): text shaped like a known credential,
 * whatever the environment holds: Hugging Face hf_ + 30 letters/digits,
 * GitHub ghp_/gho_/ghu_/ghs_/ghr_ + 36 and github_pat_ + 22, AWS key ids
 * AKIA/ASIA + 16 upper-case letters/digits, Slack xoxb-/xoxp-/xoxa-/xoxr-/
 * xoxs- + 10. Error messages (include/assay/error.h), value briefs
 * (assay_json_brief) and lint findings mask them, so a token pasted into the
 * wrong field is never printed. */
#define ASSAY_TOKEN_MASK "[redacted]"
/* The first token in s[0, len): its kind ("a Hugging Face token") and
 * [*start, *end), or NULL. The start of a token cut short by "..." (a value
 * shortened for a message) counts as one. */
const char *assay_token_find(const char *s, size_t len, size_t *start, size_t *end);
/* Replace every token in sb by ASSAY_TOKEN_MASK; returns how many. */
size_t assay_token_mask(struct sbuf *sb);
/* The same in a NUL-terminated string in a buffer of size bytes (the result
 * is cut to fit). */
size_t assay_token_mask_str(char *buf, size_t size);

#endif
