/* Helpers shared by assay's commands: located errors, the training-log
 * options. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/training.h"
#include "cli.h"
#include "opt.h"

int cli_report(const struct assay_error *e)
{
	char buf[2048];
	fprintf(stderr, "%s\n", assay_error_format(e, buf, sizeof(buf)));
	return e->code;
}

static int opt_warmup(void *args, const char *arg, const char *cmd)
{
	if (!assay_train_warmup_parse(arg, args))
		return cli_usage_error(cmd, "bad value for --warmup: '%s'", arg);
	return ASSAY_OK;
}

const struct cli_opt train_cli_opts[] = {
    {.type = CLI_CALL,
     .name = "warmup",
     .arg = "N|MIN,PCT%",
     .help = "exclude exactly N leading steps from the steady state, or the rule\n"
	     "max(MIN, PCT% of the steps)",
     .def = "2,10%",
     .call = opt_warmup},
    {.type = CLI_INT,
     .name = "seq-len",
     .arg = "N",
     .off = offsetof(struct assay_train_opts, seq_len),
     .help = "sequence length, to derive tokens/s/GPU when the log lacks it",
     .min = 1},
    {.type = CLI_INT,
     .name = "world-size",
     .arg = "N",
     .off = offsetof(struct assay_train_opts, world_size),
     .help = "GPUs in the run (default: what the log states)",
     .min = 1},
    CLI_OPT_END,
};
