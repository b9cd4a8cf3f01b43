/* The error core: one numbered enum that is also the process exit code, and
 * struct assay_error, which carries a message and where it happened (file,
 * JSON path, line). Library functions fill it; only the CLI prints it. */
#ifndef ASSAY_ERROR_H
#define ASSAY_ERROR_H

#include <stddef.h>

/* Values are exit codes: never renumber or reuse them (docs/exit-codes.md). */
typedef enum assay_err {
	ASSAY_OK = 0,              /* everything ran and passed its gates */
	ASSAY_GATE_FAILED = 1,     /* a threshold, loss-curve or regression gate failed */
	ASSAY_USAGE = 2,           /* bad arguments, invalid config or unreadable input */
	ASSAY_WORKLOAD_FAILED = 3, /* non-zero exit, error signature or timeout */
	ASSAY_NO_METRICS = 4,      /* a workload succeeded but produced no measurements */
	ASSAY_INFRA = 5,           /* launcher, store or file system failed */
} assay_err;

#define ASSAY_ERR_COUNT 6

struct assay_error {
	assay_err code;
	char file[512]; /* input file, "" when none */
	char path[256]; /* JSON path such as $.timing.trials, "" when none */
	long line;      /* 1-based line in file, 0 when unknown */
	long column;    /* 1-based column, 0 when unknown */
	char message[1024];
};

/* Short stable name: "ok", "gate-failed", "usage", ... ("unknown" otherwise). */
const char *assay_strerror(assay_err code);
/* One-line meaning, as in docs/exit-codes.md. */
const char *assay_err_meaning(assay_err code);
/* The more severe of two outcomes, in the order 2 > 5 > 3 > 4 > 1 > 0. */
assay_err assay_err_worst(assay_err a, assay_err b);
/* Parse a name back to its code; returns -1 when unknown. */
int assay_err_from_name(const char *name);

void assay_error_clear(struct assay_error *e);
/* Fill e (which may be NULL) and return code. The location setters copy their
 * arguments; pass NULL or 0 to leave a field empty. Text shaped like a known
 * credential (assay_token_find, include/assay/redact.h) in the message or
 * the JSON path is replaced by "[redacted]". */
#if defined(__GNUC__)
#define ASSAY_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define ASSAY_PRINTF(a, b)
#endif
assay_err assay_error_set(struct assay_error *e, assay_err code, const char *fmt, ...)
    ASSAY_PRINTF(3, 4);
assay_err assay_error_at(struct assay_error *e, assay_err code, const char *file,
			 const char *json_path, long line, const char *fmt, ...) ASSAY_PRINTF(6, 7);
/* Prefix the message with more context: "ctx: old message". */
void assay_error_prefix(struct assay_error *e, const char *fmt, ...) ASSAY_PRINTF(2, 3);
/* Render as "file:line:col: $.path: message", leaving out empty parts. */
const char *assay_error_format(const struct assay_error *e, char *buf, size_t size);

#endif
