/* Notification events: made from change points (regression, recovered) or
 * given whole (gate-failed, infra, published), each with an identity that
 * the store remembers per target; and the words every payload shares. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "assay/json.h"
#include "notify_int.h"

void assay_notify_events_release(struct assay_notify_events *ev)
{
	for (size_t i = 0; i < ev->n; i++) {
		struct assay_notify_event *x = &ev->v[i];
		free(x->series_key);
		json_decref(x->series);
		free(x->unit);
		free(x->revision);
		free(x->previous);
		free(x->timestamp);
		free(x->message);
	}
	free(ev->v);
	memset(ev, 0, sizeof(*ev));
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

struct assay_notify_event *assay_notify_add(struct assay_notify_events *ev,
					    enum assay_notify_kind kind, const char *key,
					    const char *revision, const char *message)
{
	ALLOC_GROW(ev->v, ev->n + 1, ev->alloc);
	struct assay_notify_event *x = &ev->v[ev->n++];
	memset(x, 0, sizeof(*x));
	x->kind = kind;
	x->series_key = dup_or_null(key);
	x->revision = dup_or_null(revision);
	x->message = xstrdup(message ? message : "");
	char *id = xasprintf("%s\n%s\n%s", assay_notify_kind_name(kind), key ? key : "",
			     revision ? revision : "");
	assay_sha256_hex(id, strlen(id), x->id);
	free(id);
	return x;
}

static bool worse(const struct assay_change_point *p, enum assay_direction dir)
{
	return assay_change_is_regression(&p->c, dir);
}

void assay_notify_from_changes(struct assay_notify_events *ev, const char *key,
			       const json_t *fields, const char *unit, enum assay_direction dir,
			       const struct assay_change_points *cp)
{
	if (!cp->n)
		return;
	const struct assay_change_point *last = &cp->v[cp->n - 1];
	enum assay_notify_kind kind;
	if (worse(last, dir) && !last->annotation)
		kind = ASSAY_NOTIFY_REGRESSION;
	else if (!worse(last, dir) && cp->n >= 2 && worse(&cp->v[cp->n - 2], dir))
		kind = ASSAY_NOTIFY_RECOVERED;
	else
		return;
	struct assay_notify_event *x = assay_notify_add(ev, kind, key, last->revision, NULL);
	x->series = fields ? json_deep_copy(fields) : NULL;
	x->unit = dup_or_null(unit);
	x->direction = dir;
	x->has_change = true;
	x->before = last->c.mean_before;
	x->after = last->c.mean_after;
	x->change = last->c.rel_change;
	x->pvalue = last->c.pvalue;
	x->previous = dup_or_null(last->previous);
	x->timestamp = dup_or_null(last->timestamp);
	struct sbuf sb = SBUF_INIT;
	notify_event_line(x, &sb);
	free(x->message);
	x->message = sbuf_detach(&sb, NULL);
}

void assay_notify_sample(struct assay_notify_events *ev)
{
	struct assay_notify_event *x =
	    assay_notify_add(ev, ASSAY_NOTIFY_RECOVERED, NULL, "sample", NULL);
	x->series = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s}", "workload", "assay-notify-test",
			      "metric", "tokens_per_sec_per_gpu", "statistic", "value", "cluster",
			      "sample", "scale", "1x8", "precision", "bf16");
	x->series_key = xstrdup("0000000000000000000000000000000000000000000000000000000000000000");
	x->unit = xstrdup("tokens/s/gpu");
	x->direction = ASSAY_DIR_HIGHER;
	x->has_change = true;
	x->before = 900;
	x->after = 1000;
	x->change = 1000.0 / 900 - 1;
	x->pvalue = 1e-6;
	x->previous = xstrdup("sample-before");
	x->timestamp = xstrdup("2026-01-01T00:00:00Z");
	struct sbuf sb = SBUF_INIT;
	notify_event_line(x, &sb);
	free(x->message);
	x->message = sbuf_detach(&sb, NULL);
}

void notify_change_text(const struct assay_notify_event *ev, char *buf, size_t size)
{
	if (!ev->has_change || !isfinite(ev->change))
		snprintf(buf, size, "%s", "");
	else
		snprintf(buf, size, "%+.2f%%", ev->change * 100);
}

void notify_series_label(const struct assay_notify_event *ev, struct sbuf *sb)
{
	if (!ev->series) {
		sbuf_adds(sb, ev->series_key ? ev->series_key : "-");
		return;
	}
	/* workload, metric/statistic, then the other fields sorted. */
	const json_t *w = json_object_get(ev->series, "workload");
	const json_t *m = json_object_get(ev->series, "metric");
	const json_t *st = json_object_get(ev->series, "statistic");
	if (json_is_string(w))
		sbuf_addf(sb, "%s ", json_string_value(w));
	sbuf_addf(sb, "%s/%s", json_is_string(m) ? json_string_value(m) : "?",
		  json_is_string(st) ? json_string_value(st) : "?");
	char *canon = assay_json_canonical(ev->series);
	json_t *sorted = json_loads(canon, 0, NULL);
	free(canon);
	const char *k;
	json_t *v;
	json_object_foreach(sorted, k, v)
	{
		if (!strcmp(k, "workload") || !strcmp(k, "metric") || !strcmp(k, "statistic"))
			continue;
		sbuf_addf(sb, " %s=", k);
		assay_json_text(sb, v);
	}
	json_decref(sorted);
}

char *notify_report_link(const struct notify_batch *b)
{
	const char *base = b->config->report_url;
	if (!base)
		return NULL;
	return xstrdup(base);
}

void notify_event_line(const struct assay_notify_event *ev, struct sbuf *sb)
{
	char change[32];
	sbuf_addf(sb, "%s: ", assay_notify_kind_name(ev->kind));
	if (!ev->has_change) {
		sbuf_adds(sb, ev->message ? ev->message : "");
		return;
	}
	notify_change_text(ev, change, sizeof(change));
	notify_series_label(ev, sb);
	sbuf_addf(sb, " %.6g -> %.6g %s (%s) at %s (after %s)", ev->before, ev->after,
		  ev->unit ? ev->unit : "", change, ev->revision ? ev->revision : "-",
		  ev->previous ? ev->previous : "-");
}
