/* Measurement rows: the one currency every stage exchanges (architecture
 * doc). Parsers make them, the store keeps them, gates and reports read them.
 * A row's series is a JSON object of the identity fields that make values
 * comparable; series_key is the hex SHA-256 of its canonical JSON. */
#ifndef ASSAY_MEASURE_H
#define ASSAY_MEASURE_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "assay/error.h"
#include "assay/util.h"

enum assay_direction {
	ASSAY_DIR_NONE = 0, /* not yet set: rows must have one to be finished */
	ASSAY_DIR_HIGHER = 1,
	ASSAY_DIR_LOWER = 2,
};

struct assay_row {
	char *run_id;   /* may be NULL until stored */
	char *case_id;  /* may be NULL */
	json_t *series; /* includes metric and statistic; rows read from one file may
			 * share it: assay_row_own_series() before changing it */
	char series_key[65];
	char *metric;
	char *statistic;
	double value;
	char *unit;
	enum assay_direction direction;
	int64_t samples;
	char *revision;  /* may be NULL */
	char *timestamp; /* RFC 3339 UTC, may be NULL */
	long line;       /* the line of its source file it was read from, 0 when unknown */
};

struct assay_rows {
	struct assay_row *v;
	size_t n;
	size_t alloc;
};
#define ASSAY_ROWS_INIT                                                                            \
	{                                                                                          \
		NULL, 0, 0                                                                         \
	}

const char *assay_direction_name(enum assay_direction d);
int assay_direction_parse(const char *s); /* -1 when unknown */

void assay_row_init(struct assay_row *r);
void assay_row_release(struct assay_row *r);
/* Start a row: series is a new object holding the given identity fields
 * (taken over: the caller's reference is stolen), metric, statistic, value,
 * unit and direction set; samples 1. Call assay_row_finish() when complete. */
void assay_row_set(struct assay_row *r, json_t *series, const char *metric, const char *statistic,
		   double value, const char *unit, enum assay_direction dir);
/* Copy metric and statistic into series, validate (finite value, direction,
 * non-empty metric/statistic/unit), and compute series_key. ASSAY_USAGE. */
assay_err assay_row_finish(struct assay_row *r, struct assay_error *e);
/* Give r a series object of its own (a copy when other rows share it). */
void assay_row_own_series(struct assay_row *r);
void assay_row_copy(struct assay_row *dst, const struct assay_row *src);

/* JSON form (the NDJSON line format, documented in docs/rows.md). */
json_t *assay_row_to_json(const struct assay_row *r);
/* Reads and validates a row object; errors name file, line and JSON path. */
assay_err assay_row_from_json(const json_t *obj, struct assay_row *r, const char *file, long line,
			      struct assay_error *e);

/* ---- the vocabulary of identity values (src/lib/measure/vocab.c) ---- */

/* The canonical name of a precision or one of its aliases (any case, '-' or
 * '_'): "fp8", "F8E4M3" -> "fp8_e4m3", "bfloat16" -> "bf16". NULL when the
 * name is not in the vocabulary (docs/rows.md lists it). */
const char *assay_precision_lookup(const char *name);
/* The canonical names, NULL-terminated (*n gets the count when not NULL). */
const char *const *assay_precision_names(size_t *n);
/* Canonical name into out; an unknown name is kept, trimmed and lower-cased. */
void assay_precision_canonical(const char *in, char *out, size_t size);
/* The scale grammar: "2x8" (nodes x GPUs per node, also 2X8, 2*8),
 * "2N/16GPU" (nodes / total GPUs, which must divide), "2N8G" (nodes, GPUs
 * per node), and a bare GPU count "8" or "8GPU" (GPUs on one node). */
bool assay_scale_parse(const char *in, long *nodes, long *gpus);
/* "NODESxGPUS" into out; false (out untouched) when in is not a scale. */
bool assay_scale_canonical(const char *in, char *out, size_t size);
/* Rewrite a series object's precision and scale to their canonical
 * spellings (a scale that does not parse is left for the store to refuse).
 * assay_row_finish() calls it, so every row is canonical. */
void assay_series_canonicalize(json_t *series);

/* Appends a new zeroed row and returns it. */
struct assay_row *assay_rows_add(struct assay_rows *rows);
void assay_rows_push(struct assay_rows *rows, struct assay_row *r); /* takes over r */
void assay_rows_release(struct assay_rows *rows);
/* Appends one NDJSON line per row (sorted keys) to sb. */
void assay_rows_ndjson(const struct assay_rows *rows, struct sbuf *sb);
/* Parse NDJSON text (blank lines ignored); all-or-nothing. Rows of the same
 * series share one series object. */
assay_err assay_rows_parse_ndjson(const char *text, size_t len, const char *file,
				  struct assay_rows *out, struct assay_error *e);

#endif
