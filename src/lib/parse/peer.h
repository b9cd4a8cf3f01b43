/* Helpers shared by the parsers of peer formats (madengine, RCCL CI,
 * nccl-tests): an RFC 4180 CSV reader with line numbers, and the small
 * normalizations that keep series identities comparable across files. */
#ifndef ASSAY_PARSE_PEER_H
#define ASSAY_PARSE_PEER_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "assay/error.h"
#include "assay/parse.h"
#include "assay/util.h"

/* A CSV reader over a buffer: quoted fields ("" escapes a quote, newlines
 * allowed inside quotes), LF or CRLF, a leading UTF-8 BOM skipped, blank
 * lines skipped. */
struct csv_reader {
	const char *data;
	size_t len, pos;
	long next_line; /* line where the next record starts */
	long line;      /* line where the current record started */
	const char *file;
	struct strlist fields; /* the current record */
	bool *quoted;          /* quoted[i]: field i was quoted (an empty one is "") */
	size_t quoted_alloc;
};
void csv_init(struct csv_reader *r, const char *data, size_t len, const char *file);
void csv_release(struct csv_reader *r);
/* 1: a record is in r->fields; 0: end of data; -1: error (ASSAY_USAGE in e). */
int csv_next(struct csv_reader *r, struct assay_error *e);

/* A CSV header: names with surrounding spaces stripped, each unique. */
struct csv_header {
	struct strlist names;
};
/* Read the header record; ASSAY_USAGE when missing or with an empty or
 * duplicate name, or without each of the NULL-terminated required names. */
assay_err csv_header_read(struct csv_reader *r, struct csv_header *h, const char *const required[],
			  struct assay_error *e);
int csv_header_index(const struct csv_header *h, const char *name); /* -1 when absent */
/* Require the current record to have as many fields as the header. */
assay_err csv_check_width(struct csv_reader *r, const struct csv_header *h, struct assay_error *e);
void csv_header_release(struct csv_header *h);

/* A CSV cell as a JSON value: strict integers and finite decimals become
 * numbers, anything else a string (surrounding spaces stripped). */
json_t *peer_cell_value(const char *cell);
/* A JSON scalar for a series field: integral reals become integers. NULL for
 * null, objects and arrays (the caller decides). New reference. */
json_t *peer_scalar(const json_t *v);
/* The precision vocabulary (assay_precision_canonical): "BF16",
 * "bfloat16" -> "bf16"; "fp8" -> "fp8_e4m3"; unknown names lower-cased. */
void peer_precision(const char *in, char *out, size_t size);
/* The scale grammar (assay_scale_parse): "2x8", "2N/16GPU", "2N8G", "16";
 * normalized to "NODESxGPUS". */
bool peer_scale(const char *in, char *out, size_t size);
/* Guess the better direction from a metric or unit name: time, latency and
 * the like are lower-is-better; rates, throughput and bandwidth higher. */
enum assay_direction peer_direction(const char *metric);
/* Whether an extra column name names a measurement (latency_p99_ms,
 * throughput, gpu_memory_used_mb, ...) rather than a factor (batch_size). */
bool peer_is_metric_name(const char *name);
/* A unit from a metric name's suffix: _ms -> ms, _us -> us, _mb -> MB,
 * _gb -> GB, _pct/_percent -> %, _s/_sec -> s; else the name itself. */
void peer_unit_from_name(const char *name, char *out, size_t size);
/* Number from a cell: false for empty, "nan", "n/a", "none", "null". *bad
 * is set when the cell is non-empty and not a number of any kind. */
bool peer_number(const char *cell, double *out, bool *bad);
/* Move rows from tmp into out after stamping them with o (all or nothing). */
assay_err peer_finish(struct assay_rows *tmp, const struct assay_parse_opts *o,
		      struct assay_rows *out, struct assay_error *e);

#endif
