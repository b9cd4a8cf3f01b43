/* Input formats: every result file assay reads becomes measurement rows.
 * One parser file per format in src/lib/parse/, one row in the table in
 * src/lib/parse/formats.c. Every command reads result files through the one
 * reader below (assay_results_read, src/lib/parse/read.c), so a new format
 * needs no edit anywhere else. */
#ifndef ASSAY_PARSE_H
#define ASSAY_PARSE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "assay/error.h"
#include "assay/measure.h"

struct strlist;

struct assay_parse_opts {
	const char *file; /* name used in errors (file:line: message) */
	const json_t
	    *context; /* series fields every row gets (suite, cluster, scale, ...); may be NULL */
	const char *run_id; /* stamped on rows when not NULL */
	const char *case_id;
	const char *revision;
	const char *timestamp; /* RFC 3339; rows without one get this */
	/* When not NULL: records a format skips because they hold no
	 * measurement (RCCL CI's fail records) are counted here. */
	size_t *not_measured;
	/* When not NULL: what a format read past and flagged, one line each
	 * ("FILE:LINE: what"): a malformed or cut row it skipped, a table
	 * without its footer (nccl-tests-text). The good rows are kept. */
	struct strlist *notes;
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
	/* A training text log that assay_train_stream reads in pieces: the
	 * reader may stream it rather than hold it whole (opts.stream). */
	bool stream;
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
	ASSAY_DETECT_CONTENT, /* a mark anywhere, table order (assay parse, assay detect) */
	ASSAY_DETECT_RECORD,  /* the header or first record only (assay store ingest) */
	/* The training rows first (a mark anywhere), then as CONTENT: assay
	 * run, where a case's results that look like a training log are one. */
	ASSAY_DETECT_TRAINING,
};
/* The format that reads data: the one hint names, or (hint NULL or "auto")
 * the one its content shows, looked for as by says. NULL when hint names no
 * format or none claims the data. Every reader decides here. */
const struct assay_format *assay_results_format(const char *hint, const char *data, size_t len,
						enum assay_detect_by by);

/* ---- The results reader (src/lib/parse/read.c) ----
 * assay parse, assay store ingest, assay detect and assay run read result
 * files here: a file (or an open fd, such as standard input), its format
 * found (assay_results_format), read whole and parsed by its row of the
 * table into rows and, for a training format, a training result; or, with
 * opts.stream, a training text log fed block by block to assay_train_stream
 * so that a log of any size is read in bounded memory. Every error names
 * the file (file: message). */

struct assay_train_opts;
struct assay_train_result;
struct assay_train_stream;

/* How to read. Zero is a whole read, the content deciding as CONTENT says. */
struct assay_results_opts {
	const char *hint;              /* a format's name; NULL or "auto": the content decides */
	enum assay_detect_by by;       /* how the content decides */
	struct assay_parse_opts parse; /* stamps of the rows (parse.file: the file read) */
	/* A training format: its options (NULL: the defaults), and where its
	 * result goes (NULL: it only gives rows). *train is set by every call
	 * that has one: release it whatever the outcome. */
	const struct assay_train_opts *train_opts;
	struct assay_train_result *train;
	/* No rows: a training format gives its result only; any other format
	 * is read and named (out->format) but not parsed. */
	bool no_rows;
	bool sha256; /* the digest of the bytes in out->sha256 (not of a streamed log) */
	/* Stream a training text log (a row marked stream; with no hint, also
	 * what no other row claims in the first MiB: the log's lines then tell
	 * Megatron-LM from Primus). The format is decided on the first MiB then,
	 * not the whole file. A streamed log's rows have its warm-up taken out
	 * exactly (assay_train_refine); a log read whole does not (as before). */
	bool stream;
	/* Streaming: after the first block, feed the rest of fd (from its
	 * offset) another way, e.g. through a map, leaving the offset after what
	 * was fed; false where it fed nothing (then read() goes on). Only when
	 * the input is not also kept (again on a pipe). NULL: read() only. */
	bool (*feed_rest)(struct assay_train_stream *ts, int fd, const char *file);
	/* Streaming: keep the input for a second read (out->fd; a pipe is copied
	 * to an unlinked temporary file as it is read). Names the reason in the
	 * error when that copy cannot be made ("--steps"). */
	const char *again;
};

/* Why a read failed (out->fail). */
enum assay_results_fail {
	ASSAY_RESULTS_OK,
	ASSAY_RESULTS_UNREADABLE, /* it cannot be opened or read (or copied for again) */
	ASSAY_RESULTS_UNKNOWN,    /* the hint names no format */
	ASSAY_RESULTS_UNDETECTED, /* no format claims the content (the stream: nor its lines) */
	ASSAY_RESULTS_INVALID,    /* its format's parser refused it */
};

/* A result file read. */
struct assay_results {
	const struct assay_format *format; /* what read it; NULL: none (see fail) */
	enum assay_results_fail fail;
	char sha256[65];        /* of the file's bytes with opts.sha256; "" until read */
	struct assay_rows rows; /* appended to (all or nothing per file) */
	bool streamed;          /* a training log read as a stream */
	int fd;                 /* opts.again: open on the input (the caller closes); else -1 */
};

/* Read file (fd >= 0: from that open fd, which stays open, file naming it;
 * fd < 0: open file) as o says into out. The error in e names the file;
 * out->fail says which step failed. */
assay_err assay_results_read(const char *file, int fd, const struct assay_results_opts *o,
			     struct assay_results *out, struct assay_error *e);
/* The same on len bytes already in memory (file names them): the format
 * found (o->hint, o->by) and the bytes parsed; nothing is read, digested or
 * streamed. */
assay_err assay_results_parse(const char *file, const char *data, size_t len,
			      const struct assay_results_opts *o, struct assay_results *out,
			      struct assay_error *e);
/* assay_results_read of path read whole with its digest, rows stamped by o:
 * ASSAY_USAGE "unknown format 'H'" or "cannot tell the format from the
 * content" when no format reads it (out->format NULL, out->sha256 set). */
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
/* Format "collectivex": a CollectiveX per-case result (record_type
 * "case-attempt"; docs/ingest.md). */
extern const char *const assay_collectivex_metrics[];
assay_err assay_parse_collectivex(const char *data, size_t len, const struct assay_parse_opts *o,
				  struct assay_rows *out, struct assay_error *e);
bool assay_detect_collectivex(const char *data, size_t len);
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

/* Formats "vllm-bench" and "atom-bench": the JSON a serving benchmark
 * client saves (vllm bench serve, ATOM benchmark_serving), every numeric key
 * as "client.<key>" plus the metrics ROCm CVS derives (docs/inference.md). */
assay_err assay_parse_vllm_bench(const char *data, size_t len, const struct assay_parse_opts *o,
				 struct assay_rows *out, struct assay_error *e);
bool assay_detect_vllm_bench(const char *data, size_t len);
assay_err assay_parse_atom_bench(const char *data, size_t len, const struct assay_parse_opts *o,
				 struct assay_rows *out, struct assay_error *e);
bool assay_detect_atom_bench(const char *data, size_t len);
/* Format "torchtitan": a TorchTitan training log, read as ROCm/cvs reads it
 * (torchtitan.c; docs/training.md). */
extern const char *const assay_torchtitan_metrics[];
assay_err assay_parse_torchtitan(const char *data, size_t len, const struct assay_parse_opts *o,
				 struct assay_rows *out, struct assay_error *e);
bool assay_detect_torchtitan(const char *data, size_t len);
/* Format "maxtext": a JAX MaxText training log, read as ROCm/cvs reads it
 * (maxtext.c; docs/training.md). */
extern const char *const assay_maxtext_metrics[];
assay_err assay_parse_maxtext(const char *data, size_t len, const struct assay_parse_opts *o,
			      struct assay_rows *out, struct assay_error *e);
bool assay_detect_maxtext(const char *data, size_t len);
/* Format "sglang": the "Serving Benchmark Result" block of sglang's
 * bench_serving (src/lib/parse/sglang.c; context fields tp,
 * model_num_params and peak_gpu_tflops give the per-GPU throughput and MFU). */
extern const char *const assay_sglang_metrics[];
assay_err assay_parse_sglang(const char *data, size_t len, const struct assay_parse_opts *o,
			     struct assay_rows *out, struct assay_error *e);
bool assay_detect_sglang(const char *data, size_t len);

#endif
