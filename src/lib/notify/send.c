/* Sending events to the targets: each target gets, as one batch, the events
 * it wants that the store has not recorded as sent to it; what was
 * delivered is recorded afterwards (a kill in between sends it again next
 * time, and it is recorded once). Targets share the command's timeout:
 * each gets an equal part of what is left, so that one that hangs leaves
 * the others their time. */
#include <stdlib.h>
#include <string.h>

#include "notify_int.h"

void assay_notify_results_release(struct assay_notify_results *r)
{
	free(r->v);
	memset(r, 0, sizeof(*r));
}

bool assay_notify_results_ok(const struct assay_notify_results *r)
{
	for (size_t i = 0; i < r->n; i++)
		if (!r->v[i].ok)
			return false;
	return true;
}

static bool wanted(const struct assay_notify_target *t, const struct assay_notify_event *ev)
{
	if (!(t->events & (1u << ev->kind)))
		return false;
	if (!t->match.match.n)
		return true;
	return ev->series && assay_series_filter_accepts(&t->match, ev->series_key, ev->series);
}

/* The events of ev for t not sent before into b; the count sent before. */
static assay_err select_events(struct assay_store *s, const struct assay_notify_target *t,
			       const struct assay_notify_events *ev, struct notify_batch *b,
			       size_t *skipped, struct assay_error *e)
{
	b->v = xcalloc(ev->n ? ev->n : 1, sizeof(*b->v));
	for (size_t i = 0; i < ev->n; i++) {
		bool sent = false;
		if (!wanted(t, &ev->v[i]))
			continue;
		if (s && assay_store_notified(s, t->name, ev->v[i].id, &sent, e) != ASSAY_OK)
			return e ? e->code : ASSAY_INFRA;
		if (sent)
			(*skipped)++;
		else
			b->v[b->n++] = &ev->v[i];
	}
	return ASSAY_OK;
}

static void deliver(struct notify_batch *b, double deadline, struct assay_notify_result *r)
{
	struct notify_requests reqs = {0};
	b->target->type->render(b, &reqs);
	r->ok = !reqs.fail;
	if (reqs.fail)
		snprintf(r->message, sizeof(r->message), "%s", reqs.fail);
	for (size_t i = 0; i < reqs.n && r->ok; i++)
		notify_http_send(b->config, b->target, &reqs.v[i], deadline, r);
	notify_requests_release(&reqs);
}

static assay_err record(struct assay_store *s, const struct notify_batch *b, struct assay_error *e)
{
	for (size_t i = 0; s && i < b->n; i++) {
		const struct assay_notify_event *x = b->v[i];
		assay_err rc = assay_store_notify_record(s, b->target->name, x->id,
							 assay_notify_kind_name(x->kind),
							 x->series_key, x->revision, e);
		if (rc != ASSAY_OK)
			return rc;
	}
	return ASSAY_OK;
}

static void outcome_words(const struct notify_batch *b, struct assay_notify_result *r)
{
	char said[sizeof(r->message)];
	snprintf(said, sizeof(said), "%s", r->message);
	if (!r->attempted)
		snprintf(r->message, sizeof(r->message), "nothing new to send (%zu sent before)",
			 r->skipped);
	else if (r->ok)
		snprintf(r->message, sizeof(r->message), "sent %zu event%s (%s)", b->n,
			 b->n == 1 ? "" : "s", said);
	else if (!r->attempts)
		snprintf(r->message, sizeof(r->message), "not sent: %s", said);
	else
		snprintf(r->message, sizeof(r->message), "not sent after %d attempt%s: %s",
			 r->attempts, r->attempts == 1 ? "" : "s", said);
}

assay_err assay_notify_send(const struct assay_notify_config *c, struct assay_store *s,
			    const struct assay_notify_events *ev,
			    const struct assay_notify_context *ctx,
			    struct assay_notify_results *out, struct assay_error *e)
{
	out->v = xcalloc(c->n, sizeof(*out->v));
	out->n = c->n;
	double deadline = assay_monotonic() + c->timeout_s;
	for (size_t i = 0; i < c->n; i++) {
		struct assay_notify_result *r = &out->v[i];
		struct notify_batch b = {c, &c->v[i], ctx, NULL, 0};
		snprintf(r->target, sizeof(r->target), "%s", c->v[i].name);
		r->type = c->v[i].type->name;
		assay_err rc = select_events(s, b.target, ev, &b, &r->skipped, e);
		r->events = b.n;
		r->attempted = b.n > 0;
		r->ok = true;
		if (rc == ASSAY_OK && b.n) {
			double now = assay_monotonic();
			deliver(&b, now + (deadline - now) / (double)(c->n - i), r);
			if (r->ok)
				rc = record(s, &b, e);
		}
		outcome_words(&b, r);
		free(b.v);
		if (rc != ASSAY_OK)
			return rc;
	}
	return ASSAY_OK;
}
