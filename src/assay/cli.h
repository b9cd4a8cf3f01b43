/* Shared by the assay commands: the command table entry, help, and the one
 * place that prints errors. Commands own stdout, stderr and exit codes. */
#ifndef ASSAY_CLI_H
#define ASSAY_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "assay/error.h"
#include "assay/util.h"

struct cli_spec;

struct cli_command {
	const char *name;
	int (*run)(int argc, char **argv); /* argv[0] is the command name */
	const char *summary;               /* one line for `assay --help` */
	const char *help;                  /* full text for `assay help NAME`, or NULL: */
	const struct cli_spec *spec;       /* its option table (opt.h) makes the help */
};

/* The table lives in main.c. */
extern const struct cli_command cli_commands[];
const struct cli_command *cli_find(const char *name);

/* Print "assay CMD: message" to stderr; returns ASSAY_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...) ASSAY_PRINTF(2, 3);
/* Print a located error (file:line: $.path: message) to stderr; returns e->code. */
int cli_report(const struct assay_error *e);
/* Split a comma-separated option value into list entries. */
void cli_split_list(struct strlist *l, const char *arg);

/* A command whose help comes from its option table (opt.h). */
#define CLI_DECLARE_SPEC(name)                                                                     \
	int cmd_##name(int argc, char **argv);                                                     \
	extern const struct cli_spec cmd_##name##_spec

CLI_DECLARE_SPEC(lint);
CLI_DECLARE_SPEC(manifest);
CLI_DECLARE_SPEC(matrix);
CLI_DECLARE_SPEC(store);
CLI_DECLARE_SPEC(detect);
CLI_DECLARE_SPEC(history);
CLI_DECLARE_SPEC(parse);
CLI_DECLARE_SPEC(gate);
CLI_DECLARE_SPEC(run);
CLI_DECLARE_SPEC(report);
CLI_DECLARE_SPEC(import);
CLI_DECLARE_SPEC(publish);
CLI_DECLARE_SPEC(serve);

#endif
