/* The target types' table: a target type is one file (webhook.c, slack.c,
 * ...) and one row here. */
#include <string.h>

#include "notify_int.h"

static const struct assay_notify_type *const types[] = {
    &notify_webhook, &notify_slack, &notify_teams, &notify_github, &notify_email,
};

const struct assay_notify_type *notify_type_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(types); i++)
		if (!strcmp(types[i]->name, name))
			return types[i];
	return NULL;
}

void notify_type_names(char *buf, size_t size)
{
	size_t n = 0;
	buf[0] = 0;
	for (size_t i = 0; i < ARRAY_SIZE(types) && n < size; i++)
		n += (size_t)snprintf(buf + n, size - n, "%s%s", i ? ", " : "", types[i]->name);
}

struct notify_request *notify_request_add(struct notify_requests *r, const char *url, char *body)
{
	ALLOC_GROW(r->v, r->n + 1, r->alloc);
	struct notify_request *q = &r->v[r->n++];
	memset(q, 0, sizeof(*q));
	q->url = xstrdup(url);
	q->body = body;
	strlist_push(&q->headers, "Content-Type: application/json");
	return q;
}

void notify_requests_release(struct notify_requests *r)
{
	for (size_t i = 0; i < r->n; i++) {
		free(r->v[i].url);
		free(r->v[i].body);
		strlist_clear(&r->v[i].headers);
	}
	free(r->v);
	memset(r, 0, sizeof(*r));
}
