/* The mapping from a madengine result record (a perf.csv row, a
 * perf_entry_super.json entry or a multiple_results row) to a measurement
 * row, shared by the three madengine parsers. */
#ifndef ASSAY_PARSE_MADENGINE_H
#define ASSAY_PARSE_MADENGINE_H

#include <jansson.h>

#include "assay/measure.h"
#include "assay/parse.h"

/* The 29 fixed perf.csv columns, NULL-terminated. */
extern const char *const madengine_columns[];
bool madengine_is_column(const char *name);

/* Append the rows for record rec (fixed fields as JSON strings or numbers)
 * with extra columns extras (may be NULL) to rows: the performance row, and
 * one row per extra column that is a number with a metric-like name
 * (peer_is_metric_name: latency_p99_ms, throughput, ...). Other extra
 * columns (precision, batch_size, ...) are series fields. Returns the
 * number of rows added, 0 when the record is not a measurement (status is
 * not SUCCESS or performance is empty), -1 with a message in why (and the
 * field in *bad_field) when it is malformed. */
int madengine_record(const json_t *rec, const json_t *extras, struct assay_rows *rows, char *why,
		     size_t why_size, const char **bad_field);

/* Read a CSV with model, performance and metric columns. With fixed, the
 * 29 perf.csv columns are record fields and the rest extras; without, every
 * column but model, performance, metric and status is an extra. */
assay_err madengine_parse_csv(const char *data, size_t len, const struct assay_parse_opts *o,
			      struct assay_rows *out, bool fixed, struct assay_error *e);
/* Whether the first line is a perf.csv header (fixed) or a
 * multiple_results header (!fixed), for format detection. */
bool madengine_csv_header_has(const char *data, size_t len, bool fixed);

#endif
