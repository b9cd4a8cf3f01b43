/* What the notification targets were sent (issue 33, docs/notify.md): one
 * row per target and event identity, so that an event is announced once per
 * target. A delivery is recorded after it succeeded; a process killed in
 * between sends it again on the next run and records it once. */
#include <string.h>

#include "store_int.h"

assay_err assay_store_notified(struct assay_store *s, const char *target, const char *event,
			       bool *sent, struct assay_error *e)
{
	struct store_stmt *st =
	    store_prepare(s, "SELECT 1 FROM notifications WHERE target = ?1 AND event = ?2", e);
	if (!st)
		return e ? e->code : ASSAY_INFRA;
	store_bind_static(st, 1, target);
	store_bind_static(st, 2, event);
	int step = store_step(st);
	store_finalize(st);
	*sent = step == STORE_ROW;
	return step == STORE_ROW || step == STORE_DONE
		   ? ASSAY_OK
		   : store_sqlerr(s, e, "reading what was notified");
}

assay_err assay_store_notify_record(struct assay_store *s, const char *target, const char *event,
				    const char *kind, const char *series_key, const char *revision,
				    struct assay_error *e)
{
	assay_err rc = store_begin(s, e);
	if (rc != ASSAY_OK)
		return rc;
	struct store_stmt *st =
	    store_prepare(s,
			  "INSERT INTO notifications (target, event, kind, series_key, revision, "
			  "sent) VALUES (?1, ?2, ?3, ?4, ?5, ?6) "
			  "ON CONFLICT (target, event) DO NOTHING",
			  e);
	if (!st) {
		store_rollback(s);
		return e ? e->code : ASSAY_INFRA;
	}
	char now[32];
	assay_now_rfc3339(now);
	store_bind_static(st, 1, target);
	store_bind_static(st, 2, event);
	store_bind_text(st, 3, kind ? kind : "");
	store_bind_text(st, 4, series_key);
	store_bind_text(st, 5, revision);
	store_bind_static(st, 6, now);
	int step = store_step(st);
	store_finalize(st);
	if (step != STORE_DONE) {
		rc = store_sqlerr(s, e, "recording a notification");
		store_rollback(s);
		return rc;
	}
	return store_commit(s, e);
}

assay_err assay_store_series_gates(struct assay_store *s, assay_store_series_gate_fn fn, void *ctx,
				   struct assay_error *e)
{
	/* The newest case that judged each series, and whether any of its
	 * verdicts on the series failed. */
	struct store_stmt *st = store_prepare(
	    s,
	    "SELECT v.series_key, MAX(CASE WHEN v.status = 'FAIL' THEN 1 ELSE 0 END) "
	    "FROM verdicts v JOIN (SELECT series_key, MAX(\"case\") AS c FROM verdicts "
	    "WHERE series_key IS NOT NULL GROUP BY series_key) l "
	    "ON l.series_key = v.series_key AND l.c = v.\"case\" "
	    "GROUP BY v.series_key ORDER BY v.series_key",
	    e);
	if (!st)
		return e ? e->code : ASSAY_INFRA;
	int step, rc = 0;
	while (!rc && (step = store_step(st)) == STORE_ROW)
		rc = fn(store_column_text(st, 0), store_column_int64(st, 1) != 0, ctx);
	store_finalize(st);
	if (rc)
		return (assay_err)rc;
	return step == STORE_DONE ? ASSAY_OK : store_sqlerr(s, e, "reading the gate verdicts");
}
