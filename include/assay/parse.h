/* Input formats: every result file assay reads becomes measurement rows.
 * One parser file per format in src/lib/parse/, one row in the table in
 * src/lib/parse/formats.c. `assay parse` and `assay store ingest` both look
 * formats up here. */
#ifndef ASSAY_PARSE_H
#define ASSAY_PARSE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "assay/error.h"
#include "assay/measure.h"

struct assay_parse_opts {
	const char *file; /* name used in errors (file:line: message) */
	const json_t
	    *context; /* series fields every row gets (suite, cluster, scale, ...); may be NULL */
	const char *run_id; /* stamped on rows when not NULL */
	const char *case_id;
	const char *revision;
	const char *timestamp; /* RFC 3339; rows without one get this */
};

/* Parse len bytes of data into rows appended to out. All or nothing: on
 * error nothing is appended and e says file, line (or JSON path) and what
 * was expected (ASSAY_USAGE). */
typedef assay_err (*assay_parse_fn)(const char *data, size_t len, const struct assay_parse_opts *o,
				    struct assay_rows *out, struct assay_error *e);
/* Cheap content sniffing for --format auto; may be NULL. */
typedef bool (*assay_detect_fn)(const char *data, size_t len);

struct assay_format {
	const char *name;
	const char *summary;
	assay_parse_fn parse;
	assay_detect_fn detect;
	/* What its rows can hold, "metric/statistic" pairs, NULL-terminated,
	 * declared by the parser's own file (assay lint checks gates against
	 * them; tests/unit/test_parse.c checks them against fixtures both
	 * ways). NULL when the data names its metrics (rows, madengine). */
	const char *const *metrics;
	/* detect() looks only at the header or the first record: such formats
	 * are what `assay store ingest` tells apart by content. Formats found by
	 * a mark anywhere in the data (training logs) need --format there. */
	bool by_record;
	/* A training log: assay_train_parse() reads it too, into steps and the
	 * run's outcome (docs/training.md); assay_train_detect() tries these
	 * rows in table order. */
	bool training;
};

/* The table, terminated by a row with name NULL. */
extern const struct assay_format assay_formats[];
const struct assay_format *assay_format_find(const char *name);
/* The first format whose detect() accepts data, or NULL. */
const struct assay_format *assay_format_detect(const char *data, size_t len);
/* The same among the formats detected by their header or first record. */
const struct assay_format *assay_format_detect_record(const char *data, size_t len);
/* How a result file's format is found when no format is named. */
enum assay_detect_by {
	ASSAY_DETECT_CONTENT, /* a mark anywhere in the data (assay parse, assay run) */
	ASSAY_DETECT_RECORD,  /* the header or first record only (assay store ingest) */
};
/* The format that reads data: the one hint names, or (hint NULL or "auto")
 * the one its content shows, looked for as by says. NULL when hint names no
 * format or none claims the data. assay parse, assay store ingest, assay
 * detect --gate and assay run all decide here. */
const struct assay_format *assay_results_format(const char *hint, const char *data, size_t len,
						enum assay_detect_by by);

/* A result file read whole and parsed into rows. */
struct assay_results {
	const struct assay_format *format; /* what read it; NULL: none (see below) */
	char sha256[65];                   /* of the file's bytes; "" until it was read */
	struct assay_rows rows;            /* appended to */
};
/* Read path, find its format (assay_results_format) and parse it into
 * out->rows with o (o->file is path). ASSAY_USAGE with out->format NULL and
 * out->sha256 set when no format reads it (an unknown hint, or content none
 * claims); otherwise the read or parse error. */
assay_err assay_read_results(const char *path, const char *hint, enum assay_detect_by by,
			     const struct assay_parse_opts *o, struct assay_results *out,
			     struct assay_error *e);

/* Whether f's rows can hold metric (and statistic, when not NULL): 1 yes,
 * 0 never, -1 cannot tell (f->metrics is NULL: the data names its metrics). */
int assay_format_produces(const struct assay_format *f, const char *metric, const char *statistic);

/* Apply o's context fields, run/case ids, revision and timestamp to rows
 * [from, rows->n) and finish them (series keys). For parsers. */
assay_err assay_parse_stamp(struct assay_rows *rows, size_t from, const struct assay_parse_opts *o,
			    struct assay_error *e);

/* The metrics of each format with a fixed set ("metric/statistic"). */
extern const char *const assay_ep_case_metrics[];
extern const char *const assay_rccl_ci_metrics[];
extern const char *const assay_nccl_tests_metrics[];
extern const char *const assay_nccl_tests_text_metrics[];

/* Format "rows": NDJSON measurement rows (docs/rows.md). */
assay_err assay_parse_rows(const char *data, size_t len, const struct assay_parse_opts *o,
			   struct assay_rows *out, struct assay_error *e);

/* Format "rows-csv": rows as `assay store export --format csv` writes them. */
extern const char assay_rows_csv_header[];
assay_err assay_parse_rows_csv(const char *data, size_t len, const struct assay_parse_opts *o,
			       struct assay_rows *out, struct assay_error *e);
bool assay_detect_rows_csv(const char *data, size_t len);

/* Format "assay-ep": an assay-ep case artifact (docs/ep.md). */
assay_err assay_parse_ep_case(const char *data, size_t len, const struct assay_parse_opts *o,
			      struct assay_rows *out, struct assay_error *e);
bool assay_detect_ep_case(const char *data, size_t len);
/* Peer formats read by `assay store ingest` (docs/ingest.md): parser and
 * content sniffer of each. */
assay_err assay_parse_madengine_csv(const char *data, size_t len, const struct assay_parse_opts *o,
				    struct assay_rows *out, struct assay_error *e);
bool assay_detect_madengine_csv(const char *data, size_t len);
assay_err assay_parse_madengine_super(const char *data, size_t len,
				      const struct assay_parse_opts *o, struct assay_rows *out,
				      struct assay_error *e);
bool assay_detect_madengine_super(const char *data, size_t len);
assay_err assay_parse_multiple_results(const char *data, size_t len,
				       const struct assay_parse_opts *o, struct assay_rows *out,
				       struct assay_error *e);
bool assay_detect_multiple_results(const char *data, size_t len);
assay_err assay_parse_rccl_ci(const char *data, size_t len, const struct assay_parse_opts *o,
			      struct assay_rows *out, struct assay_error *e);
bool assay_detect_rccl_ci(const char *data, size_t len);
assay_err assay_parse_nccl_tests(const char *data, size_t len, const struct assay_parse_opts *o,
				 struct assay_rows *out, struct assay_error *e);
bool assay_detect_nccl_tests(const char *data, size_t len);
/* Format "nccl-tests-text": the table nccl-tests / rccl-tests print. */
assay_err assay_parse_nccl_tests_text(const char *data, size_t len,
				      const struct assay_parse_opts *o, struct assay_rows *out,
				      struct assay_error *e);
bool assay_detect_nccl_tests_text(const char *data, size_t len);

#endif
