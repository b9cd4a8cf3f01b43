/* Shared by the assay commands: the command table entry, help, and the one
 * place that prints errors. Commands own stdout, stderr and exit codes. */
#ifndef ASSAY_CLI_H
#define ASSAY_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "assay/error.h"
#include "assay/util.h"
#include "opt.h" /* struct cli_command, cli_usage_error (src/cli) */

/* The table lives in main.c. */
extern const struct cli_command cli_commands[];
const struct cli_command *cli_find(const char *name);

/* Print a located error (file:line: $.path: message) to stderr; returns e->code. */
int cli_report(const struct assay_error *e);

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
CLI_DECLARE_SPEC(notify);
CLI_DECLARE_SPEC(serve);

#endif
