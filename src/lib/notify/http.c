/* The notifications' HTTP transport, on libcurl (the one file that includes
 * curl.h): TLS always verified (a target's ca_file the only choice), no
 * redirects, connect and total timeouts within the command's deadline, a
 * bounded number of attempts with doubling waits, Retry-After honoured.
 * Messages never quote a URL or a token: curl's own are masked too. */
#include <curl/curl.h>
#include <math.h>
#include <pthread.h>
#include <string.h>
#include <time.h>

#include "assay/version.h"
#include "notify_int.h"

#define BODY_KEEP 300 /* bytes of a reply kept for messages */

static pthread_once_t curl_once = PTHREAD_ONCE_INIT;

static void curl_start(void)
{
	curl_global_init(CURL_GLOBAL_DEFAULT);
}

/* Keep the first BODY_KEEP bytes of the reply. */
static size_t keep_body(char *data, size_t size, size_t n, void *ctx)
{
	struct sbuf *sb = ctx;
	size_t len = size * n;
	if (sb->len < BODY_KEEP)
		sbuf_add(sb, data, len < BODY_KEEP - sb->len ? len : BODY_KEEP - sb->len);
	return len;
}

/* Replace every occurrence of secret (8 bytes or more) in buf by [redacted]. */
static void mask(char *buf, size_t size, const char *secret)
{
	size_t n = secret ? strlen(secret) : 0;
	if (n < 8)
		return;
	char *p;
	while ((p = strstr(buf, secret))) {
		struct sbuf sb = SBUF_INIT;
		sbuf_add(&sb, buf, (size_t)(p - buf));
		sbuf_adds(&sb, "[redacted]");
		sbuf_adds(&sb, p + n);
		snprintf(buf, size, "%s", sbuf_str(&sb));
		sbuf_release(&sb);
	}
}

/* Mask the target's URL (whole and its part after the host) and token. */
static void mask_secrets(const struct assay_notify_target *t, char *buf, size_t size)
{
	mask(buf, size, t->url);
	mask(buf, size, t->token);
	const char *host = t->url ? strstr(t->url, "://") : NULL;
	const char *path = host ? strchr(host + 3, '/') : NULL;
	if (path && strlen(path) > 1)
		mask(buf, size, path);
}

static void sleep_s(double s)
{
	if (s <= 0)
		return;
	struct timespec ts = {(time_t)s, (long)((s - floor(s)) * 1e9)};
	while (nanosleep(&ts, &ts) != 0)
		;
}

/* The message of an SMTP request, read by curl in pieces. */
struct reader {
	const char *data;
	size_t len, pos;
};

static size_t read_message(char *buf, size_t size, size_t n, void *ctx)
{
	struct reader *r = ctx;
	size_t want = size * n, left = r->len - r->pos;
	size_t k = want < left ? want : left;
	memcpy(buf, r->data + r->pos, k);
	r->pos += k;
	return k;
}

/* What every attempt sets: TLS verified, no redirects, the time left. */
static void setup_common(CURL *h, const struct assay_notify_target *t, double left, char *err)
{
	long ms = (long)(left * 1000) > 1 ? (long)(left * 1000) : 1;
	curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "https,http,smtp,smtps");
	curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 0L);
	curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(h, CURLOPT_SSL_VERIFYPEER, 1L);
	curl_easy_setopt(h, CURLOPT_SSL_VERIFYHOST, 2L);
	if (t->ca_file)
		curl_easy_setopt(h, CURLOPT_CAINFO, t->ca_file);
	curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, ms);
	curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, ms < 5000 ? ms : 5000L);
	curl_easy_setopt(h, CURLOPT_ERRORBUFFER, err);
	err[0] = 0;
}

/* SMTP: STARTTLS required (smtp://) or TLS from the start (smtps://),
 * except to a loopback address; the login when the target has one. */
static struct curl_slist *setup_smtp(CURL *h, const struct notify_request *req, struct reader *rd)
{
	struct curl_slist *rcpt = NULL;
	for (size_t i = 0; i < req->rcpt->n; i++)
		rcpt = curl_slist_append(rcpt, req->rcpt->v[i]);
	curl_easy_setopt(h, CURLOPT_USE_SSL,
			 notify_loopback(req->url) ? CURLUSESSL_TRY : CURLUSESSL_ALL);
	curl_easy_setopt(h, CURLOPT_MAIL_FROM, req->mail_from);
	curl_easy_setopt(h, CURLOPT_MAIL_RCPT, rcpt);
	if (req->user)
		curl_easy_setopt(h, CURLOPT_USERNAME, req->user);
	if (req->password)
		curl_easy_setopt(h, CURLOPT_PASSWORD, req->password);
	*rd = (struct reader){req->body, strlen(req->body), 0};
	curl_easy_setopt(h, CURLOPT_READFUNCTION, read_message);
	curl_easy_setopt(h, CURLOPT_READDATA, rd);
	curl_easy_setopt(h, CURLOPT_UPLOAD, 1L);
	return rcpt;
}

static struct curl_slist *setup_http(CURL *h, const struct notify_request *req, struct sbuf *body)
{
	struct curl_slist *hdr = NULL;
	for (size_t i = 0; i < req->headers.n; i++)
		hdr = curl_slist_append(hdr, req->headers.v[i]);
	char agent[64];
	snprintf(agent, sizeof(agent), "assay/%s", assay_version_string);
	curl_easy_setopt(h, CURLOPT_USERAGENT, agent);
	curl_easy_setopt(h, CURLOPT_HTTPHEADER, hdr);
	curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, req->method ? req->method : "POST");
	if (req->body)
		curl_easy_setopt(h, CURLOPT_POSTFIELDS, req->body);
	curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, keep_body);
	curl_easy_setopt(h, CURLOPT_WRITEDATA, body);
	return hdr;
}

/* One attempt: the curl result, the status (HTTP or SMTP), Retry-After
 * seconds (-1: none). */
static CURLcode attempt(const struct assay_notify_target *t, const struct notify_request *req,
			double left, long *status, double *retry_after, struct sbuf *body,
			char *err)
{
	CURL *h = curl_easy_init();
	if (!h)
		return CURLE_FAILED_INIT;
	struct reader rd;
	bool smtp = req->rcpt != NULL;
	curl_easy_setopt(h, CURLOPT_URL, req->url);
	setup_common(h, t, left, err);
	struct curl_slist *list = smtp ? setup_smtp(h, req, &rd) : setup_http(h, req, body);
	CURLcode rc = curl_easy_perform(h);
	*status = 0;
	curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, status);
	curl_off_t ra = -1;
	*retry_after =
	    curl_easy_getinfo(h, CURLINFO_RETRY_AFTER, &ra) == CURLE_OK && ra > 0 ? (double)ra : -1;
	curl_slist_free_all(list);
	curl_easy_cleanup(h);
	return rc;
}

/* Failures that another attempt cannot mend: a certificate that does not
 * verify, a bad CA file, a refused login, a URL curl cannot use. */
static bool final_error(CURLcode rc)
{
	return rc == CURLE_PEER_FAILED_VERIFICATION || rc == CURLE_SSL_CACERT_BADFILE ||
	       rc == CURLE_SSL_CERTPROBLEM || rc == CURLE_LOGIN_DENIED ||
	       rc == CURLE_UNSUPPORTED_PROTOCOL || rc == CURLE_URL_MALFORMAT ||
	       rc == CURLE_USE_SSL_FAILED;
}

/* The reply as one printable line. */
static void reply_words(const struct sbuf *body, char *out, size_t size)
{
	size_t j = 0;
	for (size_t i = 0; i < body->len && j + 1 < size; i++) {
		unsigned char ch = (unsigned char)body->buf[i];
		out[j++] = ch < 0x20 || ch == 0x7f ? ' ' : (char)ch;
	}
	out[j] = 0;
}

void notify_http_send(const struct assay_notify_config *c, const struct assay_notify_target *t,
		      const struct notify_request *req, double deadline,
		      struct assay_notify_result *r)
{
	pthread_once(&curl_once, curl_start);
	double wait = c->backoff_s;
	for (int i = 0; i <= c->retries; i++) {
		double left = deadline - assay_monotonic();
		if (left <= 0) {
			snprintf(r->message, sizeof(r->message),
				 "no answer within the timeout (%g s for all targets)",
				 c->timeout_s);
			break;
		}
		struct sbuf body = SBUF_INIT;
		char err[CURL_ERROR_SIZE], said[BODY_KEEP + 1];
		double retry_after;
		CURLcode rc = attempt(t, req, left, &r->status, &retry_after, &body, err);
		r->attempts++;
		reply_words(&body, said, sizeof(said));
		sbuf_release(&body);
		bool smtp = req->rcpt != NULL;
		bool retry = smtp ? rc != CURLE_OK && r->status < 500
				  : rc != CURLE_OK || r->status >= 500 || r->status == 429;
		retry = retry && !final_error(rc);
		r->ok = rc == CURLE_OK && (smtp || (r->status >= 200 && r->status < 300));
		if (rc == CURLE_OPERATION_TIMEDOUT)
			snprintf(r->message, sizeof(r->message),
				 "no answer within the timeout (%g s for all targets)",
				 c->timeout_s);
		else if (rc != CURLE_OK)
			snprintf(r->message, sizeof(r->message), "%s",
				 err[0] ? err : curl_easy_strerror(rc));
		else
			snprintf(r->message, sizeof(r->message), "%s %ld%s%s",
				 smtp ? "SMTP" : "HTTP", r->status, said[0] ? ": " : "", said);
		mask_secrets(t, r->message, sizeof(r->message));
		if (r->ok || !retry || rc == CURLE_OPERATION_TIMEDOUT)
			return;
		double pause = retry_after > wait ? retry_after : wait;
		wait *= 2;
		if (i < c->retries && assay_monotonic() + pause >= deadline) {
			size_t n = strlen(r->message);
			snprintf(r->message + n, sizeof(r->message) - n,
				 "; the next attempt (in %g s) would pass the timeout", pause);
			return;
		}
		if (i < c->retries)
			sleep_s(pause);
	}
}

assay_err assay_openmetrics_push(const char *url, const char *text, double timeout_s, char *said,
				 size_t size, struct assay_error *e)
{
	struct assay_notify_config c = {.timeout_s = timeout_s, .retries = 2, .backoff_s = 0.5};
	struct assay_notify_target t = {.name = "pushgateway", .url = (char *)url};
	struct notify_request req = {.method = "PUT", .url = (char *)url, .body = (char *)text};
	strlist_push(&req.headers, "Content-Type: text/plain; version=0.0.4; charset=utf-8");
	struct assay_notify_result r = {0};
	notify_http_send(&c, &t, &req, assay_monotonic() + timeout_s, &r);
	strlist_clear(&req.headers);
	snprintf(said, size, "%s", r.message);
	if (r.ok)
		return ASSAY_OK;
	return assay_error_set(e, ASSAY_INFRA, "the Pushgateway: not pushed after %d attempt%s: %s",
			       r.attempts, r.attempts == 1 ? "" : "s", r.message);
}
