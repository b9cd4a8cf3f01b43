/* The SQLite backend of the store (backend.h): a store is one SQLite file,
 * opened with a rollback journal, foreign keys, a busy timeout and a bounded
 * memory map; read-only stores in folders that cannot be written are opened
 * immutable. The only file of the store that calls SQLite.
 *
 * Why a rollback journal, not WAL: a WAL reader creates -wal and -shm files
 * beside the store, owned by whoever reads first; in a folder that others
 * may write, another user's `assay history` then locked the owner out
 * ("attempt to write a readonly database"). A reader in rollback-journal
 * mode creates no file; a writer creates -journal and deletes it at its
 * commit. The price: a writer's commit waits for the readers of the moment
 * (busy timeout), and readers wait out a commit. */
#include <errno.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store_int.h"

/* This backend's table (defined at the end; backends.c selects it). */
extern const struct store_backend store_sqlite;

struct store_conn {
	sqlite3 *db;
};

struct lite_stmt {
	struct store_stmt base;
	sqlite3_stmt *st;
};

static inline sqlite3_stmt *lite(struct store_stmt *st)
{
	return ((struct lite_stmt *)st)->st;
}

/* ---- opening ---- */

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

/* The file at path exists as a regular file, or may be created. */
static assay_err check_file(const char *path, int flags, struct assay_error *e)
{
	struct stat st;
	if (stat(path, &st) != 0) {
		if (errno != ENOENT || (flags & ASSAY_STORE_READONLY) ||
		    !(flags & ASSAY_STORE_CREATE))
			return assay_error_set(e, ASSAY_USAGE, "%s: no such store (%s)", path,
					       strerror(errno));
	} else if (!S_ISREG(st.st_mode)) {
		return assay_error_set(e, ASSAY_USAGE, "%s: not a regular file", path);
	}
	return ASSAY_OK;
}

/* The connection's settings: foreign keys, the memory map and, for a
 * writer, durability and the page cache. */
static assay_err lite_settings(struct store_conn *c, const char *path, int flags,
			       struct assay_error *e)
{
	/* Memory-mapped reads: history and detection read series scattered over
	 * the file, and a page from the map costs no system call. Mapped pages
	 * count in the process's resident memory, so the map is bounded (64 MiB,
	 * ASSAY_STORE_MMAP_MB to change it): a report or a detection over a
	 * store of any size stays within bounded memory; pages beyond the map
	 * are read through SQLite's page cache. */
	char pragmas[128];
	snprintf(pragmas, sizeof(pragmas), "PRAGMA foreign_keys = ON; PRAGMA mmap_size = %lld",
		 flags & ASSAY_STORE_NOMAP ? 0 : mmap_bytes());
	if (sqlite3_exec(c->db, pragmas, NULL, NULL, NULL) != SQLITE_OK)
		return store_fail(&store_sqlite, c, path, e, "writing");
	/* Durable against a killed process; a power cut may lose the last commits. */
	if (!(flags & ASSAY_STORE_READONLY) &&
	    sqlite3_exec(c->db, "PRAGMA synchronous = NORMAL; PRAGMA cache_size = -65536", NULL,
			 NULL, NULL) != SQLITE_OK)
		return store_fail(&store_sqlite, c, path, e, "writing");
	return ASSAY_OK;
}

static assay_err lite_close(struct store_conn *c, const char *path, struct assay_error *e)
{
	assay_err rc = ASSAY_OK;
	if (sqlite3_close(c->db) != SQLITE_OK) {
		rc = assay_error_set(e, ASSAY_INFRA, "%s: closing the store: %s", path,
				     sqlite3_errmsg(c->db));
		sqlite3_close_v2(c->db); /* release it once the stray statement goes */
	}
	free(c);
	return rc;
}

/* A read-only connection finds the journal of a writer stopped in the
 * middle of a commit ("hot"), which only a writer may roll back: when this
 * user can write the store and its folder, a writable connection rolls it
 * back (as any writer's open would); else the message says who can. */
static assay_err lite_hot_journal(struct store_conn *c, const char *path, struct assay_error *e)
{
	static const char probe[] = "SELECT count(*) FROM sqlite_master";
	if (sqlite3_exec(c->db, probe, NULL, NULL, NULL) == SQLITE_OK ||
	    sqlite3_extended_errcode(c->db) != SQLITE_READONLY_ROLLBACK)
		return ASSAY_OK; /* any other failure is the first statement's to report */
	char *dir = dir_of(path);
	bool can = access(path, W_OK) == 0 && access(dir, W_OK) == 0;
	free(dir);
	sqlite3 *w = NULL;
	if (can && sqlite3_open_v2(path, &w, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL) ==
		       SQLITE_OK) {
		sqlite3_busy_timeout(w, busy_ms());
		sqlite3_exec(w, probe, NULL, NULL, NULL);
	}
	sqlite3_close(w);
	if (sqlite3_exec(c->db, probe, NULL, NULL, NULL) == SQLITE_OK)
		return ASSAY_OK;
	return assay_error_set(
	    e, ASSAY_INFRA,
	    "%s: a writer stopped in the middle of a commit and left %s-journal, "
	    "which only a user who can write the store may roll back: its owner "
	    "should open it once (assay store check --store %s)",
	    path, path, path);
}

static assay_err lite_open(const char *path, int flags, struct store_conn **out,
			   struct assay_error *e)
{
	*out = NULL;
	bool ro = flags & ASSAY_STORE_READONLY;
	assay_err rc = check_file(path, flags, e);
	if (rc != ASSAY_OK)
		return rc;
	struct store_conn *c = xcalloc(1, sizeof(*c));
	int oflags = ro ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
	char *uri = NULL;
	if (ro) {
		/* Read-only: mode=ro. When the folder cannot be written (a shared
		 * results folder, a read-only mount) SQLite could not create the
		 * WAL index (-shm) or take its locks: immutable=1 reads the file
		 * without either (docs/store.md, "Read-only stores"). */
		char *dir = dir_of(path);
		bool immutable = access(dir, W_OK) != 0;
		free(dir);
		uri = file_uri(path, immutable ? "mode=ro&immutable=1" : "mode=ro");
	}
	int orc = sqlite3_open_v2(uri ? uri : path, &c->db,
				  oflags | SQLITE_OPEN_NOMUTEX | (uri ? SQLITE_OPEN_URI : 0), NULL);
	free(uri);
	if (orc != SQLITE_OK) {
		assay_error_set(e, ASSAY_INFRA, "%s: cannot open the store: %s", path,
				c->db ? sqlite3_errmsg(c->db) : "out of memory");
		sqlite3_close(c->db);
		free(c);
		return ASSAY_INFRA;
	}
	sqlite3_extended_result_codes(c->db, 1);
	sqlite3_busy_timeout(c->db, busy_ms());
	if ((rc = lite_settings(c, path, flags, e)) != ASSAY_OK ||
	    (ro && (rc = lite_hot_journal(c, path, e)) != ASSAY_OK)) {
		lite_close(c, path, NULL);
		return rc;
	}
	*out = c;
	return ASSAY_OK;
}

/* ---- the connection ---- */

static int lite_exec(struct store_conn *c, const char *sql)
{
	return sqlite3_exec(c->db, sql, NULL, NULL, NULL) == SQLITE_OK ? 0 : -1;
}

static int lite_begin(struct store_conn *c, enum store_txn how)
{
	return lite_exec(c, how == STORE_TXN_IMMEDIATE ? "BEGIN IMMEDIATE" : "BEGIN DEFERRED");
}

static int lite_commit(struct store_conn *c)
{
	return lite_exec(c, "COMMIT");
}

static int lite_rollback(struct store_conn *c)
{
	return lite_exec(c, "ROLLBACK");
}

static bool lite_in_txn(struct store_conn *c)
{
	return !sqlite3_get_autocommit(c->db);
}

static int64_t lite_changes(struct store_conn *c)
{
	return sqlite3_changes(c->db);
}

static int64_t lite_last_id(struct store_conn *c)
{
	return sqlite3_last_insert_rowid(c->db);
}

static enum store_fail lite_fail(struct store_conn *c)
{
	switch (sqlite3_extended_errcode(c->db) & 0xff) {
	case SQLITE_CONSTRAINT: return STORE_FAIL_CONSTRAINT;
	case SQLITE_NOTADB: return STORE_FAIL_NOTADB;
	case SQLITE_BUSY:
	case SQLITE_LOCKED: return STORE_FAIL_BUSY;
	default: return STORE_FAIL_OTHER;
	}
}

static const char *lite_errmsg(struct store_conn *c)
{
	return sqlite3_errmsg(c->db);
}

static int lite_int(struct store_conn *c, const char *sql, int *out)
{
	sqlite3_stmt *st = NULL;
	int rc = sqlite3_prepare_v2(c->db, sql, -1, &st, NULL);
	if (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW)
		*out = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : -1;
}

static int lite_identity(struct store_conn *c, int *mark, int *version, int *tables)
{
	*mark = *version = *tables = 0;
	if (lite_int(c, "PRAGMA application_id", mark) ||
	    lite_int(c, "PRAGMA user_version", version) ||
	    lite_int(c, "SELECT count(*) FROM sqlite_master", tables))
		return -1;
	return 0;
}

static char *lite_name(const char *path)
{
	return xstrdup(path);
}

/* json_extract's path for a field name, quoted so that any key works. */
static void lite_json_field(struct sbuf *sql, const char *col, const char *key)
{
	sbuf_addf(sql, "json_extract(%s, '$.\"", col);
	for (const char *p = key; *p; p++) {
		if (*p == '\'')
			sbuf_adds(sql, "''");
		else if (*p != '"') /* a key with a quote cannot be asked for */
			sbuf_addch(sql, *p);
	}
	sbuf_adds(sql, "\"')");
}

static void lite_epoch(struct sbuf *sql, const char *expr)
{
	sbuf_addf(sql, "CAST(strftime('%%s', %s) AS INTEGER)", expr);
}

static int lite_stamp(struct store_conn *c, int mark, int version)
{
	char sql[128];
	snprintf(sql, sizeof(sql), "PRAGMA application_id = %d; PRAGMA user_version = %d", mark,
		 version);
	return lite_exec(c, sql);
}

/* ---- statements ---- */

static struct store_stmt *lite_prepare(struct store_conn *c, const char *sql)
{
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v2(c->db, sql, -1, &st, NULL) != SQLITE_OK) {
		sqlite3_finalize(st);
		return NULL;
	}
	if (!st) /* no statement in sql */
		return NULL;
	struct lite_stmt *l = xmalloc(sizeof(*l));
	l->base.be = &store_sqlite;
	l->st = st;
	return &l->base;
}

static void lite_finalize(struct store_stmt *st)
{
	sqlite3_finalize(lite(st));
	free(st);
}

static void lite_reset(struct store_stmt *st)
{
	sqlite3_reset(lite(st));
}

static void lite_clear(struct store_stmt *st)
{
	sqlite3_clear_bindings(lite(st));
}

static int lite_params(struct store_stmt *st)
{
	return sqlite3_bind_parameter_count(lite(st));
}

static void lite_bind_int64(struct store_stmt *st, int idx, int64_t v)
{
	sqlite3_bind_int64(lite(st), idx, v);
}

static void lite_bind_double(struct store_stmt *st, int idx, double v)
{
	sqlite3_bind_double(lite(st), idx, v);
}

static void lite_bind_text(struct store_stmt *st, int idx, const char *v, int len, bool copy)
{
	sqlite3_bind_text(lite(st), idx, v, len, copy ? SQLITE_TRANSIENT : SQLITE_STATIC);
}

static void lite_bind_null(struct store_stmt *st, int idx)
{
	sqlite3_bind_null(lite(st), idx);
}

static enum store_step lite_step(struct store_stmt *st)
{
	int rc = sqlite3_step(lite(st));
	return rc == SQLITE_ROW ? STORE_ROW : rc == SQLITE_DONE ? STORE_DONE : STORE_ERROR;
}

static int lite_columns(struct store_stmt *st)
{
	return sqlite3_column_count(lite(st));
}

static int64_t lite_column_int64(struct store_stmt *st, int col)
{
	return sqlite3_column_int64(lite(st), col);
}

static double lite_column_double(struct store_stmt *st, int col)
{
	return sqlite3_column_double(lite(st), col);
}

static const char *lite_column_text(struct store_stmt *st, int col)
{
	return (const char *)sqlite3_column_text(lite(st), col);
}

static int lite_column_bytes(struct store_stmt *st, int col)
{
	return sqlite3_column_bytes(lite(st), col);
}

static bool lite_column_null(struct store_stmt *st, int col)
{
	return sqlite3_column_type(lite(st), col) == SQLITE_NULL;
}

const struct store_backend store_sqlite = {
    .name = "sqlite",
    .what = "an SQLite database",
    .open = lite_open,
    .close = lite_close,
    .exec = lite_exec,
    .begin = lite_begin,
    .commit = lite_commit,
    .rollback = lite_rollback,
    .in_txn = lite_in_txn,
    .changes = lite_changes,
    .last_id = lite_last_id,
    .fail_kind = lite_fail,
    .errmsg = lite_errmsg,
    .prepare = lite_prepare,
    .finalize = lite_finalize,
    .reset = lite_reset,
    .clear = lite_clear,
    .params = lite_params,
    .bind_int64 = lite_bind_int64,
    .bind_double = lite_bind_double,
    .bind_text = lite_bind_text,
    .bind_null = lite_bind_null,
    .step = lite_step,
    .columns = lite_columns,
    .column_int64 = lite_column_int64,
    .column_double = lite_column_double,
    .column_text = lite_column_text,
    .column_bytes = lite_column_bytes,
    .column_null = lite_column_null,
    .identity = lite_identity,
    .name_of = lite_name,
    .json_field = lite_json_field,
    .instr_fn = "instr",
    .epoch = lite_epoch,
    .migration = store_sqlite_migration,
    /* A store left in WAL mode by an older assay switches at its next
     * writable open (which waits for, then needs, no other connection). */
    .writable_sql = "PRAGMA journal_mode = DELETE",
    /* Foreign keys off while tables are rebuilt (dropping the old cases
     * table must not cascade to its rows); checked before the commit. */
    .migrate_begin_sql = "PRAGMA journal_mode = DELETE; PRAGMA foreign_keys = OFF",
    .migrate_end_sql = "PRAGMA foreign_keys = ON",
    .dangling_sql = "SELECT count(*) FROM pragma_foreign_key_check",
    .stamp = lite_stamp,
    .integrity_sql = "PRAGMA integrity_check",
    .fk_check_sql = "PRAGMA foreign_key_check",
    /* A page cache that holds a large ingest's changed pages, so that they
     * reach the file once, at the commit. */
    .bulk_sql = "PRAGMA cache_size = -262144",
    .defer_fk_sql = "PRAGMA defer_foreign_keys = ON",
};
