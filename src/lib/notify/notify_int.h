/* Inside notify/: the target types' table, the requests a type renders and
 * the HTTP transport (http.c, the one file that includes curl.h). */
#ifndef ASSAY_NOTIFY_INT_H
#define ASSAY_NOTIFY_INT_H

#include "assay/cfg.h"
#include "assay/notify.h"

/* One HTTP request: POST (or method) of body to url with headers. */
struct notify_request {
	const char *method;     /* "POST" unless set */
	char *url;              /* owned; may hold a secret */
	struct strlist headers; /* "Name: value"; may hold a secret */
	char *body;             /* owned; smtp(s):// URLs: the whole message */
	/* smtp:// and smtps:// only (borrowed): the envelope and the login. */
	const char *mail_from, *user, *password;
	const struct strlist *rcpt;
};
struct notify_requests {
	struct notify_request *v;
	size_t n, alloc;
	const char *fail; /* why the batch cannot be sent (then no request) */
};
struct notify_request *notify_request_add(struct notify_requests *r, const char *url, char *body);
void notify_requests_release(struct notify_requests *r);

/* The events one target gets, and what they are about. */
struct notify_batch {
	const struct assay_notify_config *config;
	const struct assay_notify_target *target;
	const struct assay_notify_context *ctx;
	const struct assay_notify_event **v;
	size_t n;
};

struct assay_notify_type {
	const char *name;
	bool url, token;         /* which of url_env and token_env the type needs */
	bool smtp;               /* its URL is smtp(s)://, checked by parse */
	const char *const *keys; /* its own keys besides the common ones, NULL-ended */
	/* Check and read its own keys of target object o (at path); -1 on error. */
	int (*parse)(struct assay_cfg *c, const json_t *o, const char *path,
		     struct assay_notify_target *t);
	/* The requests that deliver b (at least one). */
	void (*render)(const struct notify_batch *b, struct notify_requests *out);
};

extern const struct assay_notify_type notify_webhook, notify_slack, notify_teams, notify_github,
    notify_email;
/* The type named name, or NULL; the names as "webhook, slack, ..." into buf. */
const struct assay_notify_type *notify_type_find(const char *name);
void notify_type_names(char *buf, size_t size);

/* Deliver one request within deadline (assay_monotonic() seconds): up to
 * 1 + retries attempts, waiting backoff, 2 x backoff, ... between them, or
 * what Retry-After asks (HTTP 429 or 503). Retries connection failures,
 * 5xx and 429; other 4xx are final. Fills r's ok, attempts, status and
 * message (secrets of t masked). */
void notify_http_send(const struct assay_notify_config *c, const struct assay_notify_target *t,
		      const struct notify_request *req, double deadline,
		      struct assay_notify_result *r);

/* The common parts of a payload. */
/* "+5.20%" of a relative change; "" when the event has none. */
void notify_change_text(const struct assay_notify_event *ev, char *buf, size_t size);
/* "llama3-70b tokens_per_sec/value cluster=a ..." or the event's key. */
void notify_series_label(const struct assay_notify_event *ev, struct sbuf *sb);
/* The report link for the batch, or NULL (a new string). */
char *notify_report_link(const struct notify_batch *b);
/* One line for people: "regression: LABEL 100 -> 90 (-10.00%) at REV (after PREV)". */
void notify_event_line(const struct assay_notify_event *ev, struct sbuf *sb);

/* config.c: the value of the environment variable named at key of o
 * (required when need; *name and *out owned); 1 read, 0 absent, -1 error. */
int notify_env_value(struct assay_cfg *c, const json_t *o, const char *path, const char *key,
		     bool need, char **name, char **out);
/* Whether url's host is 127.0.0.1, [::1] or localhost. */
bool notify_loopback(const char *url);
/* -1 (with the error at kp) unless url is https:// or http:// to loopback;
 * what names the URL in the message (never the URL itself). */
int notify_check_url(struct assay_cfg *c, const char *kp, const char *what, const char *url);

/* summary.c: "assay detect: 1 regression, 2 recovered". */
void notify_headline(const struct notify_batch *b, struct sbuf *sb);
/* Whether the batch holds anything but recovered and published events. */
bool notify_batch_bad(const struct notify_batch *b);
/* The events as a Markdown table of at most max_rows rows, then a line
 * saying how many more. */
void notify_markdown(const struct notify_batch *b, size_t max_rows, struct sbuf *sb);
/* Cut s to at most max bytes, ending in "..." and never inside a UTF-8
 * character. */
void notify_cut(char *s, size_t max);

#endif
