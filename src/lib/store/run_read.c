/* Reading one run back, for reports: the run's header, every case with what
 * the store keeps about it, a walk over the run's rows with chosen series
 * fields extracted by SQLite (no JSON parsing per row), and the history of
 * chosen series as the run saw it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "assay/json.h"
#include "store_int.h"

void assay_store_run_release(struct assay_store_run *r)
{
	free(r->run_id);
	free(r->suite);
	free(r->revision);
	free(r->config_sha256);
	free(r->matrix_sha256);
	free(r->catalog_sha256);
	free(r->host);
	free(r->launcher);
	free(r->started);
	free(r->ended);
	free(r->image);
	free(r->image_digest);
	memset(r, 0, sizeof(*r));
}

/* sql prepared with ?1 bound to the key of run run_id ("last" allowed);
 * NULL with *rc and e set on failure. */
static struct store_stmt *run_stmt(struct assay_store *s, const char *run_id, const char *sql,
				   assay_err *rc, struct assay_error *e)
{
	long long pk;
	if ((*rc = store_run_pk(s, run_id, &pk, NULL, e)) != ASSAY_OK)
		return NULL;
	struct store_stmt *st = store_prepare(s, sql, e);
	if (!st)
		*rc = e ? e->code : ASSAY_INFRA;
	else
		store_bind_int64(st, 1, pk);
	return st;
}

assay_err assay_store_run_get(struct assay_store *s, const char *run_id,
			      struct assay_store_run *out, struct assay_error *e)
{
	memset(out, 0, sizeof(*out));
	assay_err rc;
	/* Schema 6 added the image columns; an older store read as it is has none. */
	bool images = assay_store_schema_version(s) >= 6;
	struct store_stmt *st = run_stmt(
	    s, run_id,
	    images
		? "SELECT run_id, suite, revision, config_sha256, matrix_sha256, catalog_sha256, "
		  "host, launcher, started, ended, coalesce(exit_code, -1), resumed, "
		  "(SELECT count(*) FROM cases c WHERE c.run = r.id), image, image_digest FROM "
		  "runs r WHERE id = ?1"
		: "SELECT run_id, suite, revision, config_sha256, matrix_sha256, catalog_sha256, "
		  "host, launcher, started, ended, coalesce(exit_code, -1), resumed, "
		  "(SELECT count(*) FROM cases c WHERE c.run = r.id), NULL, NULL FROM runs r "
		  "WHERE id = ?1",
	    &rc, e);
	if (!st)
		return rc;
	if (store_step(st) != STORE_ROW) {
		rc = store_sqlerr(s, e, "reading a run");
	} else {
		char **cols[] = {&out->run_id,        &out->suite,         &out->revision,
				 &out->config_sha256, &out->matrix_sha256, &out->catalog_sha256,
				 &out->host,          &out->launcher,      &out->started,
				 &out->ended};
		for (int i = 0; i < (int)ARRAY_SIZE(cols); i++)
			*cols[i] = store_column_dup(st, i);
		out->exit_code = (int)store_column_int64(st, 10);
		out->resumed = (int)store_column_int64(st, 11);
		out->ncases = store_column_int64(st, 12);
		out->image = store_column_dup(st, 13);
		out->image_digest = store_column_dup(st, 14);
	}
	store_finalize(st);
	return rc;
}

void assay_store_cases_release(struct assay_store_cases *l)
{
	for (size_t i = 0; i < l->n; i++) {
		struct assay_store_case *c = &l->v[i];
		free(c->case_id);
		json_decref(c->factors);
		free(c->outcome);
		free(c->reason);
		free(c->started);
		free(c->ended);
		free(c->artifact_dir);
		free(c->stdout_log);
		free(c->stderr_log);
	}
	free(l->v);
	memset(l, 0, sizeof(*l));
}

assay_err assay_store_case_details(struct assay_store *s, const char *run_id,
				   struct assay_store_cases *out, struct assay_error *e)
{
	assay_err rc;
	struct store_stmt *st = run_stmt(
	    s, run_id,
	    "SELECT case_id, factors, outcome, reason, started, ended, duration_s, attempts, "
	    "coalesce(rows, -1), artifact_dir, stdout_log, stderr_log FROM cases WHERE run = ?1 "
	    "ORDER BY id",
	    &rc, e);
	if (!st)
		return rc;
	int step;
	while ((step = store_step(st)) == STORE_ROW) {
		ALLOC_GROW(out->v, out->n + 1, out->alloc);
		struct assay_store_case *c = &out->v[out->n++];
		memset(c, 0, sizeof(*c));
		c->case_id = store_column_dup(st, 0);
		const char *f = store_column_text(st, 1);
		c->factors = f ? json_loads(f, 0, NULL) : NULL;
		c->outcome = store_column_dup(st, 2);
		c->reason = store_column_dup(st, 3);
		c->started = store_column_dup(st, 4);
		c->ended = store_column_dup(st, 5);
		c->duration_s = store_column_null(st, 6) ? NAN : store_column_double(st, 6);
		c->attempts = (int)store_column_int64(st, 7);
		c->rows = store_column_int64(st, 8);
		c->artifact_dir = store_column_dup(st, 9);
		c->stdout_log = store_column_dup(st, 10);
		c->stderr_log = store_column_dup(st, 11);
	}
	store_finalize(st);
	return step == STORE_DONE ? ASSAY_OK : store_sqlerr(s, e, "reading cases");
}

/* The statement reading rows of one case (?1) or, with by_run, of a run
 * (?1) whose rows have no case, leaving out the rows skip names. */
static struct store_stmt *rows_stmt(struct assay_store *s, bool by_run, const char *const *skip,
				    const char *const *fields, struct assay_error *e)
{
	struct sbuf sql = SBUF_INIT;
	sbuf_adds(&sql, "SELECT s.key, s.fields, s.metric, s.statistic, s.unit, s.direction, "
			"m.value");
	for (size_t i = 0; fields && fields[i]; i++) {
		sbuf_adds(&sql, ", ");
		s->be->json_field(&sql, "s.fields", fields[i]);
	}
	sbuf_addf(&sql, " FROM measurements m JOIN series s ON s.id = m.series WHERE %s",
		  by_run ? "m.run = ?1 AND m.\"case\" IS NULL" : "m.\"case\" = ?1");
	/* "METRIC[/STATISTIC][@FIELD]": bound as ?n (metric), ?n+1 (statistic)
	 * and ?n+2 (the key "FIELD": searched in the canonical JSON, which is
	 * far cheaper than parsing it for every row). */
	int arg = 2;
	for (size_t i = 0; skip && skip[i]; i++, arg += 3) {
		sbuf_addf(&sql,
			  " AND NOT (s.metric = ?%d AND (?%d IS NULL OR s.statistic = ?%d) AND "
			  "(?%d IS NULL OR %s(s.fields, ?%d) > 0))",
			  arg, arg + 1, arg + 1, arg + 2, s->be->instr_fn, arg + 2);
	}
	sbuf_adds(&sql, " ORDER BY m.id");
	struct store_stmt *st = store_prepare(s, sql.buf, e);
	sbuf_release(&sql);
	arg = 2;
	for (size_t i = 0; st && skip && skip[i]; i++, arg += 3) {
		const char *m = skip[i], *at = strchr(m, '@'), *slash = strchr(m, '/');
		size_t end = at ? (size_t)(at - m) : strlen(m);
		if (slash && (size_t)(slash - m) > end)
			slash = NULL;
		store_bind_textn(st, arg, m, slash ? (int)(slash - m) : (int)end, true);
		if (slash)
			store_bind_textn(st, arg + 1, slash + 1, (int)(m + end - slash - 1), true);
		if (at) {
			char *key = xasprintf("\"%s\":", at + 1);
			store_bind_text(st, arg + 2, key);
			free(key);
		}
	}
	return st;
}

/* Hand every row of st (bound and ready) to fn. */
static assay_err walk_rows(struct assay_store *s, struct store_stmt *st, const char *case_id,
			   size_t nf, const char **vals, assay_store_rowview_fn fn, void *ctx,
			   struct assay_error *e)
{
	struct assay_store_rowview r;
	int step;
	r.case_id = case_id;
	r.field = vals;
	while ((step = store_step(st)) == STORE_ROW) {
		r.series_key = store_column_text(st, 0);
		r.fields_json = store_column_text(st, 1);
		r.metric = store_column_text(st, 2);
		r.statistic = store_column_text(st, 3);
		r.unit = store_column_text(st, 4);
		r.direction = (enum assay_direction)assay_direction_parse(store_column_text(st, 5));
		r.value = store_column_double(st, 6);
		for (size_t i = 0; i < nf; i++)
			vals[i] = store_column_text(st, 7 + (int)i);
		int stop = fn(&r, ctx);
		if (stop)
			return (assay_err)stop;
	}
	return step == STORE_DONE ? ASSAY_OK : store_sqlerr(s, e, "reading a run's rows");
}

assay_err assay_store_run_rows(struct assay_store *s, const char *run_id, const char *const *skip,
			       const char *const *fields, assay_store_rowview_fn fn, void *ctx,
			       struct assay_error *e)
{
	long long pk;
	assay_err rc = store_run_pk(s, run_id, &pk, NULL, e);
	if (rc != ASSAY_OK)
		return rc;
	size_t nf = 0;
	while (fields && fields[nf])
		nf++;
	struct store_stmt *cases = store_prepare(s,
						 "SELECT id, case_id FROM cases WHERE run = ?1 "
						 "ORDER BY id",
						 e);
	struct store_stmt *st = cases ? rows_stmt(s, false, skip, fields, e) : NULL;
	if (!st) {
		store_finalize(cases);
		return e ? e->code : ASSAY_INFRA;
	}
	const char **vals = xcalloc(nf + 1, sizeof(*vals));
	store_bind_int64(cases, 1, pk);
	bool any = false;
	int step = STORE_DONE;
	while (rc == ASSAY_OK && (step = store_step(cases)) == STORE_ROW) {
		any = true;
		store_reset(st);
		store_bind_int64(st, 1, store_column_int64(cases, 0));
		rc = walk_rows(s, st, store_column_text(cases, 1), nf, vals, fn, ctx, e);
	}
	if (rc == ASSAY_OK && step != STORE_DONE)
		rc = store_sqlerr(s, e, "reading a run's cases");
	store_finalize(st);
	st = NULL;
	/* An ingested run has rows but no cases. */
	if (rc == ASSAY_OK && !any) {
		st = rows_stmt(s, true, skip, fields, e);
		if (!st)
			rc = e ? e->code : ASSAY_INFRA;
		else {
			store_bind_int64(st, 1, pk);
			rc = walk_rows(s, st, NULL, nf, vals, fn, ctx, e);
		}
	}
	store_finalize(st);
	store_finalize(cases);
	free(vals);
	return rc;
}

/* The statements of the history walk. */
enum { H_SERIES, H_UPTO, H_NEWEST, H_COUNT };
static const char *const history_sql[H_COUNT] = {
    "SELECT id, fields, unit, direction FROM series WHERE key = ?1",
    /* The newest ?3 points up to the run's last one (found from the newest
     * end of the series index), newest first: the index walked backwards,
     * so the cost does not grow with the depth of the store. */
    ("SELECT value, revision FROM measurements WHERE series = ?1 AND (timestamp, id) <= "
     "(SELECT timestamp, id FROM measurements WHERE series = ?1 AND run = ?2 "
     "ORDER BY timestamp DESC, id DESC LIMIT 1) ORDER BY timestamp DESC, id DESC LIMIT ?3"),
    /* A series the run has no point in: the newest ?3. */
    ("SELECT value, revision FROM measurements WHERE series = ?1 "
     "ORDER BY timestamp DESC, id DESC LIMIT ?3"),
};

/* Read the points of series sid (newest first from SQLite) into p, oldest
 * first, their revisions into one block (offsets while it grows). */
static assay_err read_history(struct assay_store *s, struct store_stmt *pts, struct assay_points *p,
			      struct sbuf *strings, size_t **off, size_t *off_alloc,
			      struct assay_error *e)
{
	int step;
	p->n = 0;
	sbuf_reset(strings);
	sbuf_addch(strings, '\0');
	while ((step = store_step(pts)) == STORE_ROW) {
		ALLOC_GROW(p->v, p->n + 1, p->alloc);
		ALLOC_GROW(*off, p->n + 1, *off_alloc);
		p->v[p->n].value = store_column_double(pts, 0);
		(*off)[p->n] = store_column_append(strings, pts, 1);
		p->n++;
	}
	if (step != STORE_DONE)
		return store_sqlerr(s, e, "reading a series' points");
	for (size_t i = 0; i < p->n; i++) {
		p->v[i].revision = store_block_str(strings->buf, (*off)[i]);
		p->v[i].timestamp = p->v[i].run_id = p->v[i].image_digest = NULL;
	}
	/* Newest first from SQLite: oldest first for the caller. */
	for (size_t i = 0, j = p->n ? p->n - 1 : 0; i < j; i++, j--) {
		struct assay_point t = p->v[i];
		p->v[i] = p->v[j];
		p->v[j] = t;
	}
	return ASSAY_OK;
}

assay_err assay_store_run_history(struct assay_store *s, const char *run_id,
				  const struct strlist *keys, size_t max_points,
				  assay_store_history_fn fn, void *ctx, struct assay_error *e)
{
	long long pk;
	assay_err rc = store_run_pk(s, run_id, &pk, NULL, e);
	if (rc != ASSAY_OK)
		return rc;
	struct store_stmt *st[H_COUNT] = {NULL};
	for (int i = 0; i < H_COUNT; i++)
		if (!(st[i] = store_prepare(s, history_sql[i], e))) {
			for (int k = 0; k < i; k++)
				store_finalize(st[k]);
			return e ? e->code : ASSAY_INFRA;
		}
	struct store_stmt *ser = st[H_SERIES];
	/* One array of points and one block of their strings, reused for
	 * every series: no allocation per point, and the memory is that of one
	 * series' max_points whatever the store's depth. */
	struct assay_points p = {0};
	struct sbuf strings = SBUF_INIT;
	size_t *off = NULL, off_alloc = 0;
	int64_t limit = max_points ? (int64_t)max_points : -1;
	for (size_t k = 0; k < keys->n && rc == ASSAY_OK; k++) {
		store_reset(ser);
		store_bind_static(ser, 1, keys->v[k]);
		int step = store_step(ser);
		if (step == STORE_DONE)
			continue;
		if (step != STORE_ROW) {
			rc = store_sqlerr(s, e, "finding a series");
			break;
		}
		long long sid = store_column_int64(ser, 0);
		/* As the run saw it: up to its own point, at most max_points;
		 * the first row read (the newest) is the run's. Without a point
		 * of the run, the newest. */
		long mine = -1;
		for (int q = H_UPTO; q <= H_NEWEST; q++) {
			struct store_stmt *pts = st[q];
			store_reset(pts);
			store_bind_int64(pts, 1, sid);
			store_bind_int64(pts, 3, limit);
			if (q == H_UPTO)
				store_bind_int64(pts, 2, pk);
			if ((rc = read_history(s, pts, &p, &strings, &off, &off_alloc, e)) !=
			    ASSAY_OK)
				break;
			if (p.n) {
				mine = q == H_UPTO ? (long)p.n - 1 : -1;
				break;
			}
		}
		if (rc != ASSAY_OK)
			break;
		struct assay_store_history h = {
		    keys->v[k],
		    store_column_text(ser, 1),
		    store_column_text(ser, 2),
		    (enum assay_direction)assay_direction_parse(store_column_text(ser, 3)),
		    &p,
		    mine,
		};
		int stop = fn(&h, ctx);
		if (stop)
			rc = (assay_err)stop;
	}
	free(p.v);
	free(off);
	sbuf_release(&strings);
	for (int i = 0; i < H_COUNT; i++)
		store_finalize(st[i]);
	return rc;
}

assay_err assay_store_series_by_key(struct assay_store *s, const struct strlist *keys,
				    assay_store_series_key_fn fn, void *ctx, struct assay_error *e)
{
	struct store_stmt *st = store_prepare(s, history_sql[H_SERIES], e);
	if (!st)
		return e ? e->code : ASSAY_INFRA;
	assay_err rc = ASSAY_OK;
	for (size_t k = 0; k < keys->n && rc == ASSAY_OK; k++) {
		store_reset(st);
		store_bind_static(st, 1, keys->v[k]);
		int step = store_step(st);
		if (step == STORE_ROW) {
			int stop = fn(keys->v[k], store_column_text(st, 1), ctx);
			if (stop)
				rc = (assay_err)stop;
		} else if (step != STORE_DONE) {
			rc = store_sqlerr(s, e, "finding a series");
		}
	}
	store_finalize(st);
	return rc;
}
