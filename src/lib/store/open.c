/* Opening and closing the store through its backend (backend.h), cached
 * statements, transactions and the mapping of database errors. */
#include <stdlib.h>
#include <string.h>

#include "store_int.h"

/* A series' points in since..until (?1 the series, ?2 and ?3 the bounds),
 * in time order or the newest ?4 first. */
#define POINTS_SQL(cols)                                                                           \
	"SELECT " cols " FROM measurements WHERE series = ?1 AND timestamp >= ?2 AND "             \
	"timestamp <= ?3"
#define POINTS_ASC  " ORDER BY timestamp, id"
#define POINTS_LAST " ORDER BY timestamp DESC, id DESC LIMIT ?4"

static const char *const stmt_sql[ST_COUNT] = {
    [ST_SERIES_FIND] = "SELECT id, unit, direction FROM series WHERE key = ?1",
    [ST_SERIES_INSERT] =
	"INSERT INTO series (key, fields, metric, statistic, cluster, scale, precision, "
	"workload, unit, direction) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
    [ST_MEASURE_INSERT] =
	"INSERT INTO measurements (run, \"case\", series, run_id, case_id, value, samples, "
	"revision, timestamp) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
    [ST_RUN_FIND] = "SELECT id, run_id FROM runs WHERE run_id = ?1",
    /* An ingested row's identity (measurements_by_identity); without a
     * timestamp in the data, any time matches. */
    [ST_SERIES_ID] = "SELECT id FROM series WHERE key = ?1",
    /* A series' points from measurements_by_series alone (a covering index:
     * value, revision and timestamp are in it; NULL keeps the columns of
     * the points query). */
    [ST_VALUES] = POINTS_SQL("value, NULL, revision, timestamp") POINTS_ASC,
    [ST_VALUES_LEAN] = POINTS_SQL("value, id") POINTS_ASC,
    [ST_VALUES_LEAN_REV] = POINTS_SQL("value, id, revision") POINTS_ASC,
    /* --last N: the newest N, read backwards through the same index. */
    [ST_VALUES_LAST] = POINTS_SQL("value, NULL, revision, timestamp") POINTS_LAST,
    [ST_VALUES_LEAN_LAST] = POINTS_SQL("value, id") POINTS_LAST,
    [ST_VALUES_LEAN_REV_LAST] = POINTS_SQL("value, id, revision") POINTS_LAST,
    [ST_POINT_STRINGS] = "SELECT revision, timestamp FROM measurements WHERE id = ?1",
    [ST_IDENT_FIND] = "SELECT id, value FROM measurements WHERE series = ?1 AND run_id IS NOT "
		      "DISTINCT FROM ?2 AND revision IS NOT DISTINCT FROM ?3 AND case_id IS NOT "
		      "DISTINCT FROM ?4 AND (?5 IS NULL OR timestamp = ?5) AND "
		      "\"case\" IS NULL ORDER BY id LIMIT 1",
    /* Annotations of one series (?1), or of every series (NULL). */
    /* One series' (by the series and annotation indexes) or all of them. */
    [ST_ANNOTATIONS] = "SELECT s.key, a.revision, a.kind, a.note, a.created FROM annotations a "
		       "JOIN series s ON s.id = a.series WHERE s.key = ?1 ORDER BY a.id",
    [ST_ANNOTATIONS_ALL] = "SELECT s.key, a.revision, a.kind, a.note, a.created FROM annotations "
			   "a JOIN series s ON s.id = a.series ORDER BY a.id",
};

assay_err store_fail(const struct store_backend *be, struct store_conn *c, const char *path,
		     struct assay_error *e, const char *what)
{
	enum store_fail f = be->fail_kind(c);
	assay_err rc = f == STORE_FAIL_CONSTRAINT ? ASSAY_USAGE : ASSAY_INFRA;
	if (f == STORE_FAIL_NOTADB)
		return assay_error_set(e, ASSAY_USAGE, "%s: not %s", path, be->what);
	if (f == STORE_FAIL_BUSY)
		return assay_error_set(e, ASSAY_INFRA,
				       "%s: %s: the store stayed locked by another "
				       "writer beyond the busy timeout",
				       path, what);
	return assay_error_set(e, rc, "%s: %s: %s", path, what, be->errmsg(c));
}

assay_err store_sqlerr(struct assay_store *s, struct assay_error *e, const char *what)
{
	return store_fail(s->be, s->db, s->path, e, what);
}

struct store_stmt *store_prepare(struct assay_store *s, const char *sql, struct assay_error *e)
{
	struct store_stmt *st = s->be->prepare(s->db, sql);
	if (!st)
		store_sqlerr(s, e, "preparing a query");
	return st;
}

struct store_stmt *store_cached(struct assay_store *s, enum store_stmt_id id, struct assay_error *e)
{
	if (!s->stmt[id]) {
		s->stmt[id] = store_prepare(s, stmt_sql[id], e);
		return s->stmt[id];
	}
	store_reset(s->stmt[id]);
	store_clear(s->stmt[id]);
	return s->stmt[id];
}

assay_err store_exec(struct assay_store *s, const char *sql, struct assay_error *e)
{
	if (s->be->exec(s->db, sql) != 0)
		return store_sqlerr(s, e, "writing");
	return ASSAY_OK;
}

assay_err store_begin(struct assay_store *s, struct assay_error *e)
{
	if (s->batch)
		return ASSAY_OK;
	if (s->readonly)
		return assay_error_set(e, ASSAY_USAGE, "%s: the store is open read-only", s->path);
	if (s->be->begin(s->db, STORE_TXN_IMMEDIATE) != 0)
		return store_sqlerr(s, e, "starting a transaction");
	s->ident_gen++; /* other writers may have written since the last one */
	return ASSAY_OK;
}

assay_err store_commit(struct assay_store *s, struct assay_error *e)
{
	if (s->batch)
		return ASSAY_OK;
	if (s->be->commit(s->db) != 0) {
		assay_err rc = store_sqlerr(s, e, "committing");
		store_rollback(s);
		return rc;
	}
	return ASSAY_OK;
}

void store_rollback(struct assay_store *s)
{
	for (int i = 0; i < ST_COUNT; i++)
		if (s->stmt[i])
			store_reset(s->stmt[i]);
	if (s->be->in_txn(s->db))
		s->be->rollback(s->db);
	s->batch = false;
	sbuf_reset(&s->copy_buf);
	store_cache_clear(s);
}

assay_err assay_store_batch_begin(struct assay_store *s, struct assay_error *e)
{
	if (s->batch)
		return assay_error_set(e, ASSAY_USAGE, "%s: a batch is already open", s->path);
	assay_err rc = store_begin(s, e);
	if (rc == ASSAY_OK)
		s->batch = true;
	return rc;
}

assay_err assay_store_batch_commit(struct assay_store *s, struct assay_error *e)
{
	if (!s->batch)
		return assay_error_set(e, ASSAY_USAGE, "%s: no batch is open", s->path);
	s->batch = false;
	return store_commit(s, e);
}

void assay_store_batch_rollback(struct assay_store *s)
{
	if (s->batch)
		store_rollback(s);
}

assay_err assay_store_snapshot_begin(struct assay_store *s, struct assay_error *e)
{
	if (s->batch || s->be->in_txn(s->db))
		return assay_error_set(e, ASSAY_USAGE, "%s: a transaction is already open",
				       s->path);
	if (s->be->begin(s->db, STORE_TXN_DEFERRED) != 0)
		return store_sqlerr(s, e, "starting a read");
	return ASSAY_OK;
}

void assay_store_snapshot_end(struct assay_store *s)
{
	for (int i = 0; i < ST_COUNT; i++)
		if (s->stmt[i])
			store_reset(s->stmt[i]);
	if (!s->batch && s->be->in_txn(s->db))
		s->be->commit(s->db);
}

char *store_column_dup(struct store_stmt *st, int col)
{
	const char *t = store_column_text(st, col);
	return t ? xstrdup(t) : NULL;
}

size_t store_column_append(struct sbuf *b, struct store_stmt *st, int col)
{
	const char *t = store_column_text(st, col);
	if (!t)
		return 0;
	size_t off = b->len;
	sbuf_add(b, t, (size_t)store_column_bytes(st, col) + 1);
	return off;
}

static void free_store(struct assay_store *s)
{
	store_cache_clear(s);
	sbuf_release(&s->copy_buf);
	free(s->cache);
	free(s->path);
	free(s);
}

assay_err assay_store_open(const char *path, int flags, struct assay_store **out,
			   struct assay_error *e)
{
	*out = NULL;
	const struct store_backend *be = store_backend_for(path);
	struct store_conn *c;
	assay_err rc = be->open(path, flags, &c, e);
	if (rc != ASSAY_OK)
		return rc;
	struct assay_store *s = xcalloc(1, sizeof(*s));
	s->be = be;
	s->db = c;
	s->path = be->name_of(path);
	s->readonly = flags & ASSAY_STORE_READONLY;
	if ((rc = store_migrate(s, e)) != ASSAY_OK) {
		assay_store_close(s, NULL);
		return rc;
	}
	*out = s;
	return ASSAY_OK;
}

assay_err assay_store_close(struct assay_store *s, struct assay_error *e)
{
	if (!s)
		return ASSAY_OK;
	for (int i = 0; i < ST_COUNT; i++)
		store_finalize(s->stmt[i]);
	store_idents_release(s);
	store_read_ids_release(s);
	assay_err rc = s->be->close(s->db, s->path, e);
	free_store(s);
	return rc;
}

char *assay_store_name(const char *store)
{
	return store_backend_for(store)->name_of(store);
}

bool assay_store_is_file(const char *store)
{
	return store_backend_for(store)->copy_begin == NULL;
}

const char *assay_store_path(const struct assay_store *s)
{
	return s->path;
}

int assay_store_schema_version(struct assay_store *s)
{
	int mark, v, tables;
	return s->be->identity(s->db, &mark, &v, &tables) == 0 ? v : -1;
}

void store_cache_clear(struct assay_store *s)
{
	for (size_t i = 0; i < s->cache_cap; i++)
		free(s->cache[i].unit);
	if (s->cache)
		memset(s->cache, 0, s->cache_cap * sizeof(*s->cache));
	s->cache_n = 0;
}

assay_err assay_store_verify(struct assay_store *s, struct assay_error *e)
{
	const struct {
		const char *sql, *what;
	} checks[] = {
	    {s->be->integrity_sql, NULL},
	    {s->be->fk_check_sql, "a row refers to a missing parent"},
	    {"SELECT c.case_id FROM measurements m JOIN cases c ON c.id = m.\"case\" "
	     "WHERE c.outcome IS NULL LIMIT 1",
	     "rows stored for an unfinished case"},
	    {"SELECT c.case_id FROM verdicts v JOIN cases c ON c.id = v.\"case\" "
	     "WHERE c.outcome IS NULL LIMIT 1",
	     "verdicts stored for an unfinished case"},
	    {"SELECT c.case_id FROM cases c WHERE c.outcome IN ('skipped', 'infrastructure') AND "
	     "(EXISTS (SELECT 1 FROM measurements m WHERE m.\"case\" = c.id) OR "
	     "EXISTS (SELECT 1 FROM verdicts v WHERE v.\"case\" = c.id)) LIMIT 1",
	     "rows or verdicts stored for a case that runs again (skipped or infrastructure)"},
	};
	for (size_t i = 0; i < ARRAY_SIZE(checks); i++) {
		struct store_stmt *st = store_prepare(s, checks[i].sql, e);
		if (!st)
			return ASSAY_INFRA;
		enum store_step step = store_step(st);
		assay_err rc = ASSAY_OK;
		if (step == STORE_ROW) {
			const char *t = store_column_text(st, 0);
			if (!checks[i].what && t && strcmp(t, "ok"))
				rc = assay_error_set(e, ASSAY_INFRA, "%s: integrity check: %s",
						     s->path, t);
			else if (checks[i].what)
				rc = assay_error_set(e, ASSAY_INFRA, "%s: %s (%s)", s->path,
						     checks[i].what, t ? t : "");
		} else if (step != STORE_DONE) {
			rc = store_sqlerr(s, e, "checking the store");
		}
		store_finalize(st);
		if (rc != ASSAY_OK)
			return rc;
	}
	return ASSAY_OK;
}
