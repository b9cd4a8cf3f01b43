/* Notifications (docs/notify.md): events that detect, gate, run and publish
 * produce, sent to the targets of one targets file (webhook, Slack, Teams,
 * GitHub), each event once per target (the store remembers what was sent).
 * Delivery never decides a command's verdict: it is reported beside it.
 * URLs and tokens come from environment variables named in the file and are
 * written nowhere: not in the store, not in results, not in error messages. */
#ifndef ASSAY_NOTIFY_H
#define ASSAY_NOTIFY_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "assay/detect.h"
#include "assay/error.h"
#include "assay/store.h"
#include "assay/util.h"

/* ---- events ---- */

enum assay_notify_kind {
	ASSAY_NOTIFY_REGRESSION,  /* a new change point for the worse */
	ASSAY_NOTIFY_RECOVERED,   /* a series back from a regression */
	ASSAY_NOTIFY_GATE_FAILED, /* a gate failed */
	ASSAY_NOTIFY_INFRA,       /* the command ended with exit 5 */
	ASSAY_NOTIFY_PUBLISHED,   /* a publication was written */
	ASSAY_NOTIFY_KINDS
};
/* "regression", "recovered", "gate-failed", "infra", "published". */
const char *assay_notify_kind_name(enum assay_notify_kind k);
int assay_notify_kind_parse(const char *s); /* -1 when unknown */

struct assay_notify_event {
	enum assay_notify_kind kind;
	char id[65];      /* identity: SHA-256 of kind, series key and revision */
	char *series_key; /* NULL for an event of a whole command */
	json_t *series;   /* the series' fields (a reference), or NULL */
	char *unit;
	enum assay_direction direction;
	bool has_change; /* before, after, change and pvalue are set */
	double before, after, change, pvalue;
	char *revision, *previous, *timestamp; /* any may be NULL */
	char *message;                         /* one line for people */
};
struct assay_notify_events {
	struct assay_notify_event *v;
	size_t n, alloc;
};
void assay_notify_events_release(struct assay_notify_events *ev);

/* The events of one stored series' change points cp: a regression when the
 * newest change point is one (for dir) without an ack or expected
 * annotation, recovered when the newest is a change for the better right
 * after a regression. Appends at most one event. */
void assay_notify_from_changes(struct assay_notify_events *ev, const char *key,
			       const json_t *fields, const char *unit, enum assay_direction dir,
			       const struct assay_change_points *cp);
/* Append the sample event of `assay notify test`: a recovered series named
 * assay-notify-test, revision "sample". */
void assay_notify_sample(struct assay_notify_events *ev);
/* Append a plain event (gate-failed, infra, published): what it is about
 * (key and revision, which make its identity with the kind; either may be
 * NULL) and its message. Returns the event for more fields. */
struct assay_notify_event *assay_notify_add(struct assay_notify_events *ev,
					    enum assay_notify_kind kind, const char *key,
					    const char *revision, const char *message);

/* ---- targets ---- */

struct assay_notify_type; /* one per target type (src/lib/notify/types.c) */

struct assay_notify_target {
	char *name; /* unique in the file; the store remembers events by it */
	const struct assay_notify_type *type;
	char path[64];                     /* "$.targets[3]", for messages */
	char *url, *token;                 /* from the environment; never written */
	char *url_env, *token_env;         /* the variables' names */
	unsigned events;                   /* 1 << kind for each wanted kind */
	struct assay_series_filter match;  /* series events: field=value, all must hold */
	char *ca_file;                     /* CA bundle for TLS (NULL: the system's) */
	char *repo, *context, *mode, *api; /* github: owner/name, status context,
					    * "status" or "check", API base URL */
	char *sha;                         /* github: the revision from revision_env */
	char *from, *user;                 /* email: the sender, the SMTP login */
	struct strlist to;                 /* email: the recipients */
	bool pr_comment;                   /* github: comment on the pull request */
	long long pr;                      /* github: its number from pr_env (0: none) */
};

struct assay_notify_config {
	char *file;
	struct assay_notify_target *v;
	size_t n;
	double timeout_s; /* for all targets together (default 10) */
	int retries;      /* further attempts after a failed one (default 3) */
	double backoff_s; /* first wait between attempts, doubled each time (default 0.5) */
	char *report_url; /* base URL of the published reports, or NULL */
	char *revision;   /* the revision under test (GitHub), or NULL */
};

/* Read and check a targets file, reading each target's URL and token from
 * the environment. ASSAY_USAGE naming the file and JSON path for an unknown
 * key or type, a misspelt event, a variable that is not set, a URL that is
 * not https:// (http:// only to a loopback address). Nothing is sent. */
assay_err assay_notify_load(const char *file, struct assay_notify_config *c, struct assay_error *e);
void assay_notify_config_release(struct assay_notify_config *c);

/* ---- delivery ---- */

struct assay_notify_result {
	char target[128];
	const char *type;
	size_t events;     /* events in what was sent (or would have been) */
	size_t skipped;    /* already sent before */
	bool attempted;    /* something was to be sent */
	bool ok;           /* delivered (or nothing to send) */
	int attempts;      /* HTTP requests made */
	long status;       /* the last HTTP status, 0 when none */
	char message[512]; /* the outcome in words, with no secret in it */
};
struct assay_notify_results {
	struct assay_notify_result *v;
	size_t n;
};
void assay_notify_results_release(struct assay_notify_results *r);
/* Whether every result is ok. */
bool assay_notify_results_ok(const struct assay_notify_results *r);

/* What the delivery is about, for the payloads. */
struct assay_notify_context {
	const char *command;  /* "detect", "gate", "run", "publish", "notify test" */
	const char *revision; /* overrides c->revision when not NULL */
};

/* Send ev to every target of c: to each the events it wants (kinds and
 * match) that s (may be NULL: no memory) has not recorded as sent to it,
 * as one batch; each delivered event is recorded in s. One result per
 * target into out. Returns ASSAY_OK even when deliveries failed (the
 * results say so); a store error is ASSAY_INFRA. Never prints. */
assay_err assay_notify_send(const struct assay_notify_config *c, struct assay_store *s,
			    const struct assay_notify_events *ev,
			    const struct assay_notify_context *ctx,
			    struct assay_notify_results *out, struct assay_error *e);

/* ---- Prometheus ---- */

/* The series of l (listed from s) as OpenMetrics text appended to out: for
 * each, its newest value, points, newest time, change points (detected
 * with o over the points range selects; every annotation applies), whether
 * the newest is an unacknowledged regression and its relative change, and
 * whether the newest case that gated it failed; labels are its fields,
 * series_key, unit and direction. Gauges without timestamps and a final
 * "# EOF", so that Prometheus' text parser (node_exporter's textfile
 * collector, the Pushgateway) reads it too. *series: how many series. */
assay_err assay_openmetrics(struct assay_store *s, struct assay_series_list *l,
			    const struct assay_series_filter *range,
			    const struct assay_detect_opts *o, struct sbuf *out, size_t *series,
			    struct assay_error *e);
/* PUT text to a Pushgateway URL (its /metrics/job/NAME... path), within
 * timeout_s, retrying as notifications do; said: what it answered.
 * ASSAY_INFRA when it was not taken. */
assay_err assay_openmetrics_push(const char *url, const char *text, double timeout_s, char *said,
				 size_t size, struct assay_error *e);

#endif
