/* A case's gate verdicts (include/assay/gate.h) in the verdicts table:
 * written with the case's outcome and rows in one transaction, read back
 * per run or per case; and the rows stored with one case. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "assay/gate.h"
#include "store_int.h"

assay_err store_insert_verdicts(struct assay_store *s, long long case_pk,
				const struct assay_verdicts *vs, struct assay_error *e)
{
	if (!vs->n)
		return ASSAY_OK;
	struct store_stmt *st = store_prepare(
	    s,
	    "INSERT INTO verdicts (\"case\", seq, gate, metric, series_key, status, value, unit, "
	    "spec, message, acked) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
	    e);
	if (!st)
		return e ? e->code : ASSAY_INFRA;
	assay_err rc = ASSAY_OK;
	for (size_t i = 0; i < vs->n && rc == ASSAY_OK; i++) {
		const struct assay_verdict *v = &vs->v[i];
		if ((unsigned)v->status >= ASSAY_VERDICT_COUNT || !v->gate || !v->metric ||
		    (v->series_key && strlen(v->series_key) != 64)) {
			rc = assay_error_set(e, ASSAY_USAGE, "verdict %zu: %s", i + 1,
					     (unsigned)v->status >= ASSAY_VERDICT_COUNT
						 ? "not a verdict status"
					     : v->series_key && v->gate && v->metric
						 ? "a series key is 64 hex digits"
						 : "no gate or metric");
			break;
		}
		store_reset(st);
		store_clear(st);
		store_bind_int64(st, 1, case_pk);
		store_bind_int64(st, 2, (int64_t)i + 1);
		store_bind_text(st, 3, v->gate);
		store_bind_text(st, 4, v->metric);
		store_bind_text(st, 5, v->series_key);
		store_bind_text(st, 6, assay_verdict_status_name(v->status));
		if (isfinite(v->value))
			store_bind_double(st, 7, v->value);
		store_bind_text(st, 8, v->unit ? v->unit : "");
		store_bind_text(st, 9, v->spec ? v->spec : "");
		store_bind_text(st, 10, v->message ? v->message : "");
		store_bind_int64(st, 11, v->acked ? 1 : 0);
		if (store_step(st) != STORE_DONE) {
			rc = store_sqlerr(s, e, "storing a verdict");
			assay_error_prefix(e, "verdict %zu", i + 1);
		}
	}
	store_finalize(st);
	return rc;
}

assay_err store_case_pk(struct assay_store *s, const char *run_id, const char *case_id,
			long long *pk, struct assay_error *e)
{
	long long run_pk;
	char real[64];
	assay_err rc = store_run_pk(s, run_id, &run_pk, real, e);
	if (rc != ASSAY_OK)
		return rc;
	struct store_stmt *st =
	    store_prepare(s, "SELECT id FROM cases WHERE run = ?1 AND case_id = ?2", e);
	if (!st)
		return e ? e->code : ASSAY_INFRA;
	store_bind_int64(st, 1, run_pk);
	store_bind_static(st, 2, case_id);
	int step = store_step(st);
	*pk = step == STORE_ROW ? store_column_int64(st, 0) : 0;
	store_finalize(st);
	if (step == STORE_DONE)
		return assay_error_set(e, ASSAY_USAGE, "%s: no case '%s' in run '%s'", s->path,
				       case_id, real);
	return step == STORE_ROW ? ASSAY_OK : store_sqlerr(s, e, "finding a case");
}

static char *col_text(struct store_stmt *st, int col)
{
	const char *t = store_column_text(st, col);
	return (char *)(t ? t : "");
}

assay_err assay_store_verdicts(struct assay_store *s, const char *run_id, const char *case_id,
			       assay_store_verdict_fn fn, void *ctx, struct assay_error *e)
{
	long long run_pk;
	assay_err rc = store_run_pk(s, run_id, &run_pk, NULL, e);
	if (rc != ASSAY_OK)
		return rc;
	struct store_stmt *st = store_prepare(
	    s,
	    "SELECT c.case_id, v.gate, v.metric, v.series_key, v.status, v.value, v.unit, v.spec, "
	    "v.message, v.acked FROM verdicts v JOIN cases c ON c.id = v.\"case\" "
	    "WHERE c.run = ?1 AND (?2 IS NULL OR c.case_id = ?2) ORDER BY c.id, v.seq",
	    e);
	if (!st)
		return e ? e->code : ASSAY_INFRA;
	store_bind_int64(st, 1, run_pk);
	store_bind_text(st, 2, case_id);
	int step;
	while ((step = store_step(st)) == STORE_ROW) {
		struct assay_verdict v = {0};
		int status = assay_verdict_status_parse(store_column_text(st, 4));
		v.status = status < 0 ? ASSAY_VERDICT_RECORD : (enum assay_verdict_status)status;
		v.gate = col_text(st, 1);
		v.metric = col_text(st, 2);
		v.series_key = (char *)store_column_text(st, 3);
		v.value = store_column_null(st, 5) ? NAN : store_column_double(st, 5);
		v.unit = col_text(st, 6);
		v.spec = col_text(st, 7);
		v.message = col_text(st, 8);
		v.acked = (int)store_column_int64(st, 9) != 0;
		int stop = fn(col_text(st, 0), &v, ctx);
		if (stop) {
			store_finalize(st);
			return (assay_err)stop;
		}
	}
	store_finalize(st);
	return step == STORE_DONE ? ASSAY_OK : store_sqlerr(s, e, "reading verdicts");
}

static int copy_verdict(const char *case_id, const struct assay_verdict *v, void *ctx)
{
	(void)case_id;
	assay_verdicts_push_copy(ctx, v);
	return 0;
}

assay_err assay_store_case_verdicts(struct assay_store *s, const char *run_id, const char *case_id,
				    struct assay_verdicts *out, struct assay_error *e)
{
	long long pk;
	assay_err rc = store_case_pk(s, run_id, case_id, &pk, e);
	if (rc != ASSAY_OK)
		return rc;
	return assay_store_verdicts(s, run_id, case_id, copy_verdict, out, e);
}

assay_err assay_store_case_rows(struct assay_store *s, const char *run_id, const char *case_id,
				struct assay_rows *out, struct assay_error *e)
{
	long long pk;
	assay_err rc = store_case_pk(s, run_id, case_id, &pk, e);
	if (rc != ASSAY_OK)
		return rc;
	struct store_stmt *st = store_prepare(
	    s,
	    "SELECT s.key, s.fields, s.metric, s.statistic, s.unit, s.direction, m.value, "
	    "m.samples, m.revision, m.timestamp, r.run_id, c.case_id FROM measurements m "
	    "JOIN series s ON s.id = m.series JOIN cases c ON c.id = m.\"case\" "
	    "JOIN runs r ON r.id = c.run WHERE m.\"case\" = ?1 ORDER BY m.id",
	    e);
	if (!st)
		return e ? e->code : ASSAY_INFRA;
	store_bind_int64(st, 1, pk);
	int step;
	while ((step = store_step(st)) == STORE_ROW) {
		struct assay_row *r = assay_rows_add(out);
		json_t *fields = json_loads(col_text(st, 1), 0, NULL);
		r->series = fields ? fields : json_object();
		snprintf(r->series_key, sizeof(r->series_key), "%s", col_text(st, 0));
		r->metric = store_column_dup(st, 2);
		r->statistic = store_column_dup(st, 3);
		r->unit = store_column_dup(st, 4);
		r->direction = (enum assay_direction)assay_direction_parse(col_text(st, 5));
		r->value = store_column_double(st, 6);
		r->samples = store_column_int64(st, 7);
		r->revision = store_column_dup(st, 8);
		r->timestamp = store_column_dup(st, 9);
		r->run_id = store_column_dup(st, 10);
		r->case_id = store_column_dup(st, 11);
	}
	store_finalize(st);
	return step == STORE_DONE ? ASSAY_OK : store_sqlerr(s, e, "reading a case's rows");
}
