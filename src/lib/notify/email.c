/* The e-mail target: one message per batch over SMTP (libcurl): the
 * events as plain text, and the Markdown summary as a second part
 * (text/markdown, RFC 7763). smtp:// URLs must upgrade with STARTTLS and
 * smtps:// start with TLS, verified in both; only a loopback address may
 * take plain SMTP (a local relay, the tests' sink). The password comes
 * from token_env, as every secret does. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "assay/json.h"
#include "notify_int.h"

#define EMAIL_ROWS 100

static const char *const email_keys[] = {"from", "to", "user", NULL};

/* An address: something@something, no spaces, no header characters. */
static bool address_valid(const char *a)
{
	const char *at = strchr(a, '@');
	return at && at != a && at[1] && !strpbrk(a, " \t\r\n<>,;\"");
}

static int email_parse(struct assay_cfg *c, const json_t *o, const char *path,
		       struct assay_notify_target *t)
{
	const char *from = NULL, *user = NULL;
	char kp[256];
	assay_json_path_key(kp, sizeof(kp), path, "url_env");
	if (!assay_starts_with(t->url, "smtps://") && !assay_starts_with(t->url, "smtp://"))
		return assay_cfg_fail(c, kp, "the URL in %s must start with smtps:// or smtp://",
				      t->url_env);
	if (assay_cfg_string(c, o, path, "from", ASSAY_CFG_REQUIRED, &from) < 0 ||
	    assay_cfg_string(c, o, path, "user", ASSAY_CFG_OPTIONAL, &user) < 0 ||
	    assay_cfg_string_list(c, o, path, "to", ASSAY_CFG_REQUIRED, NULL, &t->to) < 0)
		return -1;
	assay_json_path_key(kp, sizeof(kp), path, "from");
	if (!address_valid(from))
		return assay_cfg_fail(
		    c, kp, "expected an address such as ci@example.com, got \"%s\"", from);
	for (size_t i = 0; i < t->to.n; i++) {
		char ip[256];
		assay_json_path_key(kp, sizeof(kp), path, "to");
		assay_json_path_index(ip, sizeof(ip), kp, i);
		if (!address_valid(t->to.v[i]))
			return assay_cfg_fail(c, ip, "expected an address, got \"%s\"", t->to.v[i]);
	}
	t->from = xstrdup(from);
	t->user = user ? xstrdup(user) : NULL;
	return 0;
}

/* Lines end in CRLF, as SMTP wants. */
static void crlf(struct sbuf *out, const char *text)
{
	for (; *text; text++) {
		if (*text == '\n')
			sbuf_addch(out, '\r');
		sbuf_addch(out, *text);
	}
}

static void headers(const struct notify_batch *b, const char *subject, const char *boundary,
		    struct sbuf *m)
{
	char date[64];
	time_t now = time(NULL);
	struct tm tm;
	gmtime_r(&now, &tm);
	strftime(date, sizeof(date), "%a, %d %b %Y %H:%M:%S +0000", &tm);
	sbuf_addf(m, "From: %s\nTo: ", b->target->from);
	for (size_t i = 0; i < b->target->to.n; i++)
		sbuf_addf(m, "%s%s", i ? ", " : "", b->target->to.v[i]);
	sbuf_addf(m,
		  "\nSubject: %s\nDate: %s\nMessage-ID: <%s@assay>\nMIME-Version: 1.0\n"
		  "Content-Type: multipart/mixed; boundary=\"%s\"\n\n",
		  subject, date, boundary, boundary);
}

static void email_render(const struct notify_batch *b, struct notify_requests *out)
{
	struct sbuf head = SBUF_INIT, m = SBUF_INIT, md = SBUF_INIT;
	char boundary[48];
	notify_headline(b, &head);
	char *link = notify_report_link(b);
	snprintf(boundary, sizeof(boundary), "assay-%.24s", b->v[0]->id);
	headers(b, sbuf_str(&head), boundary, &m);
	sbuf_addf(&m,
		  "--%s\nContent-Type: text/plain; charset=utf-8\n"
		  "Content-Transfer-Encoding: 8bit\n\n%s\n\n",
		  boundary, sbuf_str(&head));
	for (size_t i = 0; i < b->n && i < EMAIL_ROWS; i++) {
		sbuf_adds(&m, "- ");
		notify_event_line(b->v[i], &m);
		sbuf_addch(&m, '\n');
	}
	if (b->n > EMAIL_ROWS)
		sbuf_addf(&m, "- ... and %zu more: the report lists them all.\n",
			  b->n - EMAIL_ROWS);
	if (link)
		sbuf_addf(&m, "\nThe report: %s\n", link);
	sbuf_addf(&md, "**%s**\n\n", sbuf_str(&head));
	notify_markdown(b, EMAIL_ROWS, &md);
	sbuf_addf(&m,
		  "\n--%s\nContent-Type: text/markdown; charset=utf-8; variant=GFM\n"
		  "Content-Disposition: inline; filename=\"summary.md\"\n"
		  "Content-Transfer-Encoding: 8bit\n\n%s\n--%s--\n",
		  boundary, sbuf_str(&md), boundary);
	struct sbuf wire = SBUF_INIT;
	crlf(&wire, sbuf_str(&m));
	struct notify_request *q =
	    notify_request_add(out, b->target->url, sbuf_detach(&wire, NULL));
	strlist_clear(&q->headers);
	q->mail_from = b->target->from;
	q->rcpt = &b->target->to;
	q->user = b->target->user;
	q->password = b->target->token;
	free(link);
	sbuf_release(&head);
	sbuf_release(&m);
	sbuf_release(&md);
}

const struct assay_notify_type notify_email = {
    .name = "email",
    .url = true,
    .smtp = true,
    .keys = email_keys,
    .parse = email_parse,
    .render = email_render,
};
