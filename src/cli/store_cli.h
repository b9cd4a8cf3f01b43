/* Helpers shared by the commands that read or write the results store
 * (store, history, detect): opening it, series filter options, and how a
 * series is named in tables. */
#ifndef ASSAY_STORE_CLI_H
#define ASSAY_STORE_CLI_H

#include <getopt.h>
#include <stdio.h>

#include "assay/store.h"

/* getopt_long ids of the shared options; commands start theirs after. */
enum {
	SO_STORE = 1000, /* --store PATH */
	SO_SERIES,       /* --series KEY[,KEY] */
	SO_MATCH,        /* --match FIELD=VALUE */
	SO_SINCE,        /* --since DATE */
	SO_NEXT,
};
#define STORE_CLI_OPTIONS                                                              \
	{"store", required_argument, NULL, SO_STORE},                                  \
	{"series", required_argument, NULL, SO_SERIES},                                \
	{"match", required_argument, NULL, SO_MATCH},                                  \
	{"since", required_argument, NULL, SO_SINCE}

struct store_cli {
	const char *path; /* --store, default ASSAY_STORE_DEFAULT_PATH */
	struct assay_series_filter filter;
};

/* Handle a shared option; false when opt is not one of them. */
bool store_cli_option(struct store_cli *c, int opt, const char *arg);
void store_cli_release(struct store_cli *c);
/* Open the store (writable: created when missing). Prints the error and
 * returns its exit code on failure. */
int store_cli_open(const struct store_cli *c, bool writable, struct assay_store **s);
/* Close, printing a failure. Returns rc, or the close failure when rc is ok. */
int store_cli_close(struct assay_store *s, int rc);
/* "llama3-70b tokens_per_sec_per_gpu/value cluster=a scale=2x8 precision=bf16 ...":
 * workload, metric/statistic, the identity fields, then the rest sorted. */
void store_cli_series_label(const json_t *fields, struct sbuf *sb);
/* Write s as one CSV field (quoted when needed). */
void store_cli_csv(FILE *out, const char *s);

#endif
