/* Notification options shared by the commands that send events (detect,
 * gate, run, publish): --notify FILE (default $ASSAY_NOTIFY) and
 * --notify-required; loading the targets file before anything runs, and
 * sending after the verdict is known, printing what each target answered. */
#ifndef ASSAY_NOTIFY_CLI_H
#define ASSAY_NOTIFY_CLI_H

#include "assay/notify.h"
#include "opt.h"

struct notify_cli {
	const char *file; /* --notify, else $ASSAY_NOTIFY, else none */
	bool required;    /* --notify-required */
	bool loaded;
	struct assay_notify_config config;
};
/* CLI_OPT_TABLE(notify_cli_opts, struct ARGS, FIELD). */
extern const struct cli_opt notify_cli_opts[];

/* Read the targets file when one is named (or $ASSAY_NOTIFY when use_env).
 * Prints the error and returns its exit code (2) on failure. */
int notify_cli_load(const char *cmd, struct notify_cli *n, bool use_env);
/* Send ev (when loaded) with what the store at store_path remembers
 * (NULL: no memory), printing one line per target to stderr. Returns rc,
 * or ASSAY_INFRA where a delivery failed under --notify-required or the
 * store failed. */
int notify_cli_send(struct notify_cli *n, const char *store_path,
		    const struct assay_notify_events *ev, const struct assay_notify_context *ctx,
		    int rc);
/* The same, also writing what each target answered to record (a JSON file,
 * schema assay.notify-results/1, no secret in it) when record is not NULL. */
int notify_cli_send_record(struct notify_cli *n, const char *store_path,
			   const struct assay_notify_events *ev,
			   const struct assay_notify_context *ctx, const char *record, int rc);
void notify_cli_release(struct notify_cli *n);

#endif
