/* Opening and closing the store: connection settings (WAL, foreign keys,
 * busy timeout), cached statements, transactions and SQLite error mapping. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store_int.h"

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
    [ST_VALUES] = "SELECT value, NULL, revision, timestamp FROM measurements WHERE series = ?1 "
		  "AND timestamp >= ?2 ORDER BY timestamp, id",
    [ST_VALUES_LEAN] = "SELECT value, id FROM measurements WHERE series = ?1 AND timestamp >= ?2 "
		       "ORDER BY timestamp, id",
    [ST_VALUES_LEAN_REV] = "SELECT value, id, revision FROM measurements WHERE series = ?1 AND "
			   "timestamp >= ?2 ORDER BY timestamp, id",
    [ST_POINT_STRINGS] = "SELECT revision, timestamp FROM measurements WHERE id = ?1",
    [ST_IDENT_FIND] = "SELECT id, value FROM measurements WHERE series = ?1 AND run_id IS ?2 AND "
		      "revision IS ?3 AND case_id IS ?4 AND (?5 IS NULL OR timestamp = ?5) AND "
		      "\"case\" IS NULL ORDER BY id LIMIT 1",
    /* Annotations of one series (?1), or of every series (NULL). */
    /* One series' (by the series and annotation indexes) or all of them. */
    [ST_ANNOTATIONS] = "SELECT s.key, a.revision, a.kind, a.note, a.created FROM annotations a "
		       "JOIN series s ON s.id = a.series WHERE s.key = ?1 ORDER BY a.id",
    [ST_ANNOTATIONS_ALL] = "SELECT s.key, a.revision, a.kind, a.note, a.created FROM annotations "
			   "a JOIN series s ON s.id = a.series ORDER BY a.id",
};

assay_err store_sqlerr(struct assay_store *s, struct assay_error *e, const char *what)
{
	int code = sqlite3_extended_errcode(s->db);
	assay_err rc = (code & 0xff) == SQLITE_CONSTRAINT ? ASSAY_USAGE : ASSAY_INFRA;
	if ((code & 0xff) == SQLITE_NOTADB)
		return assay_error_set(e, ASSAY_USAGE, "%s: not an SQLite database", s->path);
	if ((code & 0xff) == SQLITE_BUSY || (code & 0xff) == SQLITE_LOCKED)
		return assay_error_set(e, ASSAY_INFRA,
				       "%s: %s: the store stayed locked by another "
				       "writer beyond the busy timeout",
				       s->path, what);
	return assay_error_set(e, rc, "%s: %s: %s", s->path, what, sqlite3_errmsg(s->db));
}

sqlite3_stmt *store_prepare(struct assay_store *s, const char *sql, struct assay_error *e)
{
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK) {
		store_sqlerr(s, e, "preparing a query");
		sqlite3_finalize(st);
		return NULL;
	}
	return st;
}

sqlite3_stmt *store_stmt(struct assay_store *s, enum store_stmt_id id, struct assay_error *e)
{
	if (!s->stmt[id]) {
		s->stmt[id] = store_prepare(s, stmt_sql[id], e);
		return s->stmt[id];
	}
	sqlite3_reset(s->stmt[id]);
	sqlite3_clear_bindings(s->stmt[id]);
	return s->stmt[id];
}

assay_err store_exec(struct assay_store *s, const char *sql, struct assay_error *e)
{
	if (sqlite3_exec(s->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return store_sqlerr(s, e, "writing");
	return ASSAY_OK;
}

assay_err store_begin(struct assay_store *s, struct assay_error *e)
{
	if (s->batch)
		return ASSAY_OK;
	if (s->readonly)
		return assay_error_set(e, ASSAY_USAGE, "%s: the store is open read-only", s->path);
	if (sqlite3_exec(s->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
		return store_sqlerr(s, e, "starting a transaction");
	s->ident_gen++; /* other writers may have written since the last one */
	return ASSAY_OK;
}

assay_err store_commit(struct assay_store *s, struct assay_error *e)
{
	if (s->batch)
		return ASSAY_OK;
	if (sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
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
			sqlite3_reset(s->stmt[i]);
	if (!sqlite3_get_autocommit(s->db))
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	s->batch = false;
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
	if (s->batch || !sqlite3_get_autocommit(s->db))
		return assay_error_set(e, ASSAY_USAGE, "%s: a transaction is already open",
				       s->path);
	if (sqlite3_exec(s->db, "BEGIN DEFERRED", NULL, NULL, NULL) != SQLITE_OK)
		return store_sqlerr(s, e, "starting a read");
	return ASSAY_OK;
}

void assay_store_snapshot_end(struct assay_store *s)
{
	for (int i = 0; i < ST_COUNT; i++)
		if (s->stmt[i])
			sqlite3_reset(s->stmt[i]);
	if (!s->batch && !sqlite3_get_autocommit(s->db))
		sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL);
}

void store_bind_text(sqlite3_stmt *st, int idx, const char *v)
{
	if (v)
		sqlite3_bind_text(st, idx, v, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, idx);
}

char *store_column_dup(sqlite3_stmt *st, int col)
{
	const unsigned char *t = sqlite3_column_text(st, col);
	return t ? xstrdup((const char *)t) : NULL;
}

size_t store_column_append(struct sbuf *b, sqlite3_stmt *st, int col)
{
	const unsigned char *t = sqlite3_column_text(st, col);
	if (!t)
		return 0;
	size_t off = b->len;
	sbuf_add(b, t, (size_t)sqlite3_column_bytes(st, col) + 1);
	return off;
}

static int busy_ms(void)
{
	const char *v = getenv("ASSAY_STORE_BUSY_MS");
	long long ms;
	if (v && assay_parse_long(v, &ms) && ms >= 0 && ms <= 86400000)
		return (int)ms;
	return 300000;
}

/* The folder of path (".": none), for the writability test. */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		return xstrdup(".");
	if (slash == path)
		return xstrdup("/");
	return xstrndup(path, (size_t)(slash - path));
}

/* A file: URI for path (RFC 3986 percent-escapes for what a URI reserves)
 * with the query q. */
static char *file_uri(const char *path, const char *q)
{
	struct sbuf sb = SBUF_INIT;
	sbuf_adds(&sb, "file:");
	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		if (*p == '%' || *p == '?' || *p == '#' || *p <= ' ' || *p >= 0x7f)
			sbuf_addf(&sb, "%%%02X", *p);
		else
			sbuf_addch(&sb, (char)*p);
	}
	sbuf_addf(&sb, "?%s", q);
	return sbuf_detach(&sb, NULL);
}

static long long mmap_bytes(void)
{
	const char *v = getenv("ASSAY_STORE_MMAP_MB");
	long long mb;
	if (v && assay_parse_long(v, &mb) && mb >= 0 && mb <= 65536)
		return mb << 20;
	return 64LL << 20;
}

static void free_store(struct assay_store *s)
{
	store_cache_clear(s);
	free(s->cache);
	free(s->path);
	free(s);
}

assay_err assay_store_open(const char *path, int flags, struct assay_store **out,
			   struct assay_error *e)
{
	*out = NULL;
	bool ro = flags & ASSAY_STORE_READONLY;
	struct stat st;
	if (stat(path, &st) != 0) {
		if (errno != ENOENT || ro || !(flags & ASSAY_STORE_CREATE))
			return assay_error_set(e, ASSAY_USAGE, "%s: no such store (%s)", path,
					       strerror(errno));
	} else if (!S_ISREG(st.st_mode)) {
		return assay_error_set(e, ASSAY_USAGE, "%s: not a regular file", path);
	}
	struct assay_store *s = xcalloc(1, sizeof(*s));
	s->path = xstrdup(path);
	s->readonly = ro;
	int oflags = ro ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
	char *uri = NULL;
	if (ro) {
		/* Read-only: mode=ro. When the folder cannot be written (a shared
		 * results folder, a read-only mount) SQLite could not create the
		 * WAL index (-shm) or take its locks: immutable=1 reads the file
		 * without either (docs/store.md, "Read-only stores"). */
		char *dir = dir_of(path);
		s->immutable = access(dir, W_OK) != 0;
		free(dir);
		uri = file_uri(path, s->immutable ? "mode=ro&immutable=1" : "mode=ro");
	}
	int orc = sqlite3_open_v2(uri ? uri : path, &s->db,
				  oflags | SQLITE_OPEN_NOMUTEX | (uri ? SQLITE_OPEN_URI : 0), NULL);
	free(uri);
	if (orc != SQLITE_OK) {
		assay_error_set(e, ASSAY_INFRA, "%s: cannot open the store: %s", path,
				s->db ? sqlite3_errmsg(s->db) : "out of memory");
		sqlite3_close(s->db);
		free_store(s);
		return ASSAY_INFRA;
	}
	sqlite3_extended_result_codes(s->db, 1);
	sqlite3_busy_timeout(s->db, busy_ms());
	/* Memory-mapped reads: history and detection read series scattered over
	 * the file, and a page from the map costs no system call. Mapped pages
	 * count in the process's resident memory, so the map is bounded (64 MiB,
	 * ASSAY_STORE_MMAP_MB to change it): a report or a detection over a
	 * store of any size stays within bounded memory; pages beyond the map
	 * are read through SQLite's page cache. */
	char pragmas[128];
	snprintf(pragmas, sizeof(pragmas), "PRAGMA foreign_keys = ON; PRAGMA mmap_size = %lld",
		 flags & ASSAY_STORE_NOMAP ? 0 : mmap_bytes());
	assay_err rc = store_exec(s, pragmas, e);
	if (rc == ASSAY_OK && !ro) {
		/* Durable against a killed process; a power cut may lose the last commits. */
		rc = store_exec(s, "PRAGMA synchronous = NORMAL; PRAGMA cache_size = -65536", e);
	}
	if (rc == ASSAY_OK)
		rc = store_migrate(s, e);
	if (rc != ASSAY_OK) {
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
		sqlite3_finalize(s->stmt[i]);
	store_idents_release(s);
	assay_err rc = ASSAY_OK;
	if (sqlite3_close(s->db) != SQLITE_OK) {
		rc = assay_error_set(e, ASSAY_INFRA, "%s: closing the store: %s", s->path,
				     sqlite3_errmsg(s->db));
		sqlite3_close_v2(s->db); /* release it once the stray statement goes */
	}
	free_store(s);
	return rc;
}

const char *assay_store_path(const struct assay_store *s)
{
	return s->path;
}

int assay_store_schema_version(struct assay_store *s)
{
	sqlite3_stmt *st = store_prepare(s, "PRAGMA user_version", NULL);
	int v = -1;
	if (st && sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return v;
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
	static const struct {
		const char *sql, *what;
	} checks[] = {
	    {"PRAGMA integrity_check", NULL},
	    {"PRAGMA foreign_key_check", "a row refers to a missing parent"},
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
		sqlite3_stmt *st = store_prepare(s, checks[i].sql, e);
		if (!st)
			return ASSAY_INFRA;
		int step = sqlite3_step(st);
		assay_err rc = ASSAY_OK;
		if (step == SQLITE_ROW) {
			const char *t = (const char *)sqlite3_column_text(st, 0);
			if (!checks[i].what && t && strcmp(t, "ok"))
				rc = assay_error_set(e, ASSAY_INFRA, "%s: integrity check: %s",
						     s->path, t);
			else if (checks[i].what)
				rc = assay_error_set(e, ASSAY_INFRA, "%s: %s (%s)", s->path,
						     checks[i].what, t ? t : "");
		} else if (step != SQLITE_DONE) {
			rc = store_sqlerr(s, e, "checking the store");
		}
		sqlite3_finalize(st);
		if (rc != ASSAY_OK)
			return rc;
	}
	return ASSAY_OK;
}
