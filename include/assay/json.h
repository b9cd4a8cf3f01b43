/* JSON helpers on top of jansson: strict loading with located errors,
 * a serializer with shortest round-trip numbers, canonical JSON and its
 * SHA-256, and JSON path strings. */
#ifndef ASSAY_JSON_H
#define ASSAY_JSON_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "assay/error.h"
#include "assay/util.h"

/* Load a JSON file strictly: duplicate keys are rejected. Errors are
 * ASSAY_USAGE with file, line, column and (for duplicates) the JSON path. */
json_t *assay_json_load_file(const char *path, struct assay_error *e);
/* The same for a buffer; name is used as the file in errors. */
json_t *assay_json_loadb(const char *buf, size_t len, const char *name, struct assay_error *e);

/* NDJSON: read the next non-blank line of text[0..len) from *pos as a JSON
 * value (duplicate keys rejected). Returns 1 with *v (a new reference) and
 * *line (1-based) set, 0 at the end, -1 on invalid JSON (ASSAY_USAGE in e
 * naming file, line and column). Start with *pos = 0 and *line = 0. */
int assay_ndjson_next(const char *text, size_t len, size_t *pos, long *line, const char *file,
		      json_t **v, struct assay_error *e);

/* The JSON path ("$.a.b[2]") of the value being read at byte offset off. */
void assay_json_path_at(const char *text, size_t len, size_t off, char *out, size_t size);

/* Serializer flags. */
enum {
	ASSAY_JSON_SORT = 1,   /* object keys sorted bytewise */
	ASSAY_JSON_PRETTY = 2, /* two-space indentation, one key per line */
};
/* Append v to sb. Reals use the shortest text that reads back to the same
 * double; non-finite reals are written as null. */
void assay_json_write(struct sbuf *sb, const json_t *v, int flags);
char *assay_json_dumps(const json_t *v, int flags);
/* Append v for people: a string's text as is, any other value as compact
 * JSON with sorted keys (labels, factors). */
void assay_json_text(struct sbuf *sb, const json_t *v);
/* Canonical JSON: sorted keys, no spaces, UTF-8 as is. Caller frees. */
char *assay_json_canonical(const json_t *v);
/* Hex SHA-256 of the canonical JSON of v. */
void assay_json_sha256(const json_t *v, char out[65]);

/* A short rendering of v for messages ("8" quoted, {...} elided), at most
 * about 60 bytes; text shaped like a credential (assay_token_find) is
 * "[redacted]". */
const char *assay_json_brief(const json_t *v, char *buf, size_t size);
/* Describe a JSON type in words: "a string", "an integer", ... */
const char *assay_json_type_name(const json_t *v);

/* Build child paths: "$.a" + "b" -> "$.a.b" (or $.a["odd key"]); + 3 -> "$.a[3]". */
void assay_json_path_key(char *out, size_t size, const char *parent, const char *key);
void assay_json_path_index(char *out, size_t size, const char *parent, size_t index);

/* Hex SHA-256 of bytes. */
void assay_sha256_hex(const void *data, size_t len, char out[65]);

#endif
