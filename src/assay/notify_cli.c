/* --notify and --notify-required for the commands that send events; the
 * delivery is the library's (assay_notify_send), the lines on stderr are
 * here. A delivery never changes the exit code unless --notify-required. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/json.h"

#include "cli.h"
#include "notify_cli.h"

const struct cli_opt notify_cli_opts[] = {
    CLI_OPT_STRING("notify", "FILE", struct notify_cli, file,
		   "send events to the targets of FILE (default: $ASSAY_NOTIFY;\n"
		   "docs/notify.md); a failed delivery does not change the exit code"),
    CLI_OPT_FLAG("notify-required", struct notify_cli, required,
		 "exit 5 when a notification could not be delivered"),
    CLI_OPT_END,
};

int notify_cli_load(const char *cmd, struct notify_cli *n, bool use_env)
{
	if (!n->file && use_env) {
		const char *env = getenv("ASSAY_NOTIFY");
		n->file = env && *env ? env : NULL;
	}
	if (!n->file) {
		if (n->required)
			return cli_usage_error(cmd, "--notify-required needs --notify FILE "
						    "(or ASSAY_NOTIFY)");
		return ASSAY_OK;
	}
	struct assay_error e;
	if (assay_notify_load(n->file, &n->config, &e) != ASSAY_OK)
		return cli_report(&e);
	n->loaded = true;
	return ASSAY_OK;
}

static void print_results(const struct assay_notify_results *r)
{
	for (size_t i = 0; i < r->n; i++)
		fprintf(stderr, "notify: %s (%s): %s\n", r->v[i].target, r->v[i].type,
			r->v[i].message);
}

/* What each target answered, as JSON into record (atomically). */
static int write_record(const char *record, const struct assay_notify_results *r)
{
	json_t *doc = json_pack("{s:s, s:[]}", "schema", "assay.notify-results/1", "targets");
	json_t *arr = json_object_get(doc, "targets");
	for (size_t i = 0; i < r->n; i++) {
		const struct assay_notify_result *x = &r->v[i];
		json_array_append_new(
		    arr, json_pack("{s:s, s:s, s:b, s:I, s:I, s:i, s:I, s:s}", "target", x->target,
				   "type", x->type, "delivered", x->ok && x->attempted, "events",
				   (json_int_t)x->events, "sent_before", (json_int_t)x->skipped,
				   "attempts", x->attempts, "status", (json_int_t)x->status,
				   "message", x->message));
	}
	char *text = assay_json_dumps(doc, ASSAY_JSON_PRETTY);
	json_decref(doc);
	struct assay_error e;
	assay_err rc = assay_write_file_atomic(record, text, strlen(text), &e);
	free(text);
	return rc == ASSAY_OK ? ASSAY_OK : cli_report(&e);
}

int notify_cli_send(struct notify_cli *n, const char *store_path,
		    const struct assay_notify_events *ev, const struct assay_notify_context *ctx,
		    int rc)
{
	return notify_cli_send_record(n, store_path, ev, ctx, NULL, rc);
}

int notify_cli_send_record(struct notify_cli *n, const char *store_path,
			   const struct assay_notify_events *ev,
			   const struct assay_notify_context *ctx, const char *record, int rc)
{
	if (!n->loaded)
		return rc;
	struct assay_store *s = NULL;
	struct assay_error e;
	if (store_path && assay_store_open(store_path, ASSAY_STORE_CREATE, &s, &e) != ASSAY_OK) {
		cli_report(&e);
		fprintf(stderr, "notify: the store cannot say what was sent before: sending all "
				"and recording nothing\n");
		rc = assay_err_worst(rc, ASSAY_INFRA);
		s = NULL;
	}
	struct assay_notify_results res = {0};
	assay_err sent = assay_notify_send(&n->config, s, ev, ctx, &res, &e);
	print_results(&res);
	if (record && write_record(record, &res) != ASSAY_OK)
		rc = assay_err_worst(rc, ASSAY_INFRA);
	if (sent != ASSAY_OK) {
		cli_report(&e);
		rc = assay_err_worst(rc, ASSAY_INFRA);
	} else if (n->required && !assay_notify_results_ok(&res)) {
		fprintf(stderr, "notify: a delivery failed (--notify-required): exit 5\n");
		rc = assay_err_worst(rc, ASSAY_INFRA);
	}
	assay_notify_results_release(&res);
	if (s && assay_store_close(s, &e) != ASSAY_OK) {
		cli_report(&e);
		rc = assay_err_worst(rc, ASSAY_INFRA);
	}
	return rc;
}

void notify_cli_release(struct notify_cli *n)
{
	if (n->loaded)
		assay_notify_config_release(&n->config);
	n->loaded = false;
}
