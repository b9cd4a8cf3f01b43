/* Helpers shared by the commands that read or write the results store
 * (store, history, detect): opening it, series filter options, and how a
 * series is named in tables. */
#ifndef ASSAY_STORE_CLI_H
#define ASSAY_STORE_CLI_H

#include <stdio.h>

#include "assay/parse.h"
#include "assay/store.h"
#include "opt.h"

struct store_cli {
	const char *path; /* --store, default ASSAY_STORE_DEFAULT_PATH */
	struct assay_series_filter filter;
};
/* The store and filter options (--store, --series, --match, --since, --until,
 * --last) as an option table (opt.h), included in a command's
 * table with CLI_OPT_TABLE(store_cli_opts, struct ARGS, FIELD). */
extern const struct cli_opt store_cli_opts[];
/* --store alone, for the commands that take no series filters. */
extern const struct cli_opt store_cli_path_opts[];

/* Reading result files the way `assay store ingest` does: --input-format
 * (or detection), identity fields for the series (--cluster, --scale,
 * --precision, --set FIELD=VALUE), --revision, and direction overrides. */
struct parse_cli {
	const char *format, *revision;
	json_t *context;   /* --cluster, --scale, --precision: fill what the data lacks */
	json_t *overrides; /* --set FIELD=VALUE: replaces the data's value */
	struct strlist lower, higher;
};
/* Its options as a table: CLI_OPT_TABLE(parse_cli_opts, struct ARGS, FIELD),
 * after parse_cli_init. */
extern const struct cli_opt parse_cli_opts[];
void parse_cli_init(struct parse_cli *p);
void parse_cli_release(struct parse_cli *p);
/* Whether any of its options was given. */
bool parse_cli_given(const struct parse_cli *p);

struct parsed_file {
	const char *path;
	const struct assay_format *format;
	char sha256[65];
	struct assay_rows rows;
	size_t not_measured;  /* records skipped as holding no measurement */
	struct strlist notes; /* what the parser flagged ("FILE:LINE: what") */
	size_t flagged;       /* notes.n, once they are printed */
};
/* Read, parse and check one file (every row's series has cluster, scale and
 * precision). Prints the error and returns its exit code on failure. */
int parse_cli_file(const char *cmd, const struct parse_cli *p, struct parsed_file *pf);

/* Parse n files on up to one thread per CPU, a few files ahead of the
 * consumer. parse_pool_get(i) waits for file i (take them in order), prints
 * its error when it failed and returns its exit code; *pf stays owned by the
 * pool. parse_pool_release(i) says the consumer is done with file i: the
 * thread that parsed it frees it (in its own malloc arena, which is much
 * cheaper than freeing across threads). parse_pool_stop joins the threads
 * and frees everything. */
struct parse_pool;
struct parse_pool *parse_pool_start(const char *cmd, const struct parse_cli *p, int n,
				    char **paths);
int parse_pool_get(struct parse_pool *pool, int i, struct parsed_file **pf);
void parse_pool_release(struct parse_pool *pool, int i);
void parse_pool_stop(struct parse_pool *pool);

/* assay store copy (store_copy.c). */
extern const struct cli_spec store_copy_spec;
int store_copy_cmd(int argc, char **argv);

void store_cli_release(struct store_cli *c);
/* Open the store (writable: created when missing). Prints the error and
 * returns its exit code on failure. */
int store_cli_open(const struct store_cli *c, bool writable, struct assay_store **s);
/* Open the store and list the series the filters select (sorted by key).
 * On failure prints, closes the store and returns the exit code. */
int store_cli_open_series(const struct store_cli *c, bool writable, struct assay_store **s,
			  struct assay_series_list *l);
/* Close, printing a failure. Returns rc, or the close failure when rc is ok. */
int store_cli_close(struct assay_store *s, int rc);
/* "llama3-70b tokens_per_sec_per_gpu/value cluster=a scale=2x8 precision=bf16 ...":
 * workload, metric/statistic, the identity fields, then the rest sorted. */
void store_cli_series_label(const json_t *fields, struct sbuf *sb);
/* Write s as one CSV field (quoted when needed). */
void store_cli_csv(FILE *out, const char *s);

#endif
