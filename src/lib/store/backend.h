/* The seam between the store and the database under it. A backend is one
 * file, src/lib/store/<name>.c, that fills a struct store_backend, and one
 * row of the table in backends.c (which path or URI selects it); the rest
 * of src/lib/store/ reaches the database only through these operations
 * and never learns which backend it uses. Two backends: SQLite (sqlite.c,
 * the only file that includes sqlite3.h) and PostgreSQL (postgres.c and
 * pg_schema.c, the only files that include libpq-fe.h).
 *
 * The model is the one libpq offers too: a connection; statements
 * prepared once with positional parameters (?1, ?2, ... in the SQL: a
 * backend whose server numbers them otherwise, $1 in PostgreSQL, rewrites
 * them at prepare), bound by 1-based index and run at the first step;
 * results read one row per step, values by 0-based column index.
 *
 * The shared SQL keeps to what both databases read alike: IS NOT DISTINCT
 * FROM, INSERT ... ON CONFLICT, CASE rather than two-argument max(), LIMIT
 * with a number; what differs is an operation (identity, migration,
 * json_field, instr_fn, epoch, COPY, ids_follow) or a text below. Error
 * kinds (enum store_fail): constraint violations are the caller's mistake
 * (ASSAY_USAGE), a lock held past the busy timeout is reported as such
 * (PostgreSQL: SQLSTATE class 23; 55P03, 40P01). */
#ifndef ASSAY_STORE_BACKEND_H
#define ASSAY_STORE_BACKEND_H

#include <stdbool.h>
#include <stdint.h>

#include "assay/error.h"
#include "assay/util.h"

struct store_conn; /* a backend's connection, opaque */

/* A prepared statement. A backend's own statement struct begins with this
 * one; everything after be is the backend's. */
struct store_stmt {
	const struct store_backend *be;
};

/* What a step did. */
enum store_step {
	STORE_ERROR = -1, /* failed: the connection's error says why */
	STORE_DONE = 0,   /* no (more) rows: the statement has run */
	STORE_ROW = 1,    /* a row is ready to be read */
};

/* Transactions: IMMEDIATE takes the write lock at once (writers wait for
 * each other there, not at their first write); DEFERRED is a read
 * snapshot that lasts until its commit. */
enum store_txn { STORE_TXN_IMMEDIATE, STORE_TXN_DEFERRED };

/* The kind of the connection's last failure. */
enum store_fail {
	STORE_FAIL_OTHER,
	STORE_FAIL_CONSTRAINT, /* a constraint or trigger refused the write */
	STORE_FAIL_BUSY,       /* locked by another writer beyond the busy timeout */
	STORE_FAIL_NOTADB,     /* the path holds something that is not a database */
};

struct store_backend {
	const char *name; /* "sqlite" */
	/* What a store of this backend is, for messages: "an SQLite database". */
	const char *what;

	/* Connect to path (flags: ASSAY_STORE_*), with the session's settings;
	 * errors are set in e, naming path, as assay_store_open documents. */
	assay_err (*open)(const char *path, int flags, struct store_conn **out,
			  struct assay_error *e);
	/* Disconnect and free c (every statement finalized before). */
	assay_err (*close)(struct store_conn *c, const char *path, struct assay_error *e);
	/* Run SQL (one or more statements, no parameters, results dropped):
	 * 0, or -1 with the connection's error set. */
	int (*exec)(struct store_conn *c, const char *sql);
	/* Transactions: 0, or -1 with the connection's error set. */
	int (*begin)(struct store_conn *c, enum store_txn how);
	int (*commit)(struct store_conn *c);
	int (*rollback)(struct store_conn *c);
	bool (*in_txn)(struct store_conn *c); /* a transaction is open */
	/* Rows changed by the last INSERT, UPDATE or DELETE. */
	int64_t (*changes)(struct store_conn *c);
	/* The id of the row the last INSERT added. */
	int64_t (*last_id)(struct store_conn *c);
	/* The connection's last failure: its kind and its message. */
	enum store_fail (*fail_kind)(struct store_conn *c);
	const char *(*errmsg)(struct store_conn *c);

	/* Prepare sql: NULL with the connection's error set on failure. */
	struct store_stmt *(*prepare)(struct store_conn *c, const char *sql);
	void (*finalize)(struct store_stmt *st);
	/* Back to before its first step; its bindings stay. */
	void (*reset)(struct store_stmt *st);
	/* Every parameter back to NULL. */
	void (*clear)(struct store_stmt *st);
	int (*params)(struct store_stmt *st); /* its largest parameter index */
	/* Bind parameter idx (1-based). Text of len bytes (-1: up to its NUL;
	 * NULL binds NULL): copy keeps a copy of it, else v must stay as it is
	 * until the statement is reset, bound again or finalized. */
	void (*bind_int64)(struct store_stmt *st, int idx, int64_t v);
	void (*bind_double)(struct store_stmt *st, int idx, double v);
	void (*bind_text)(struct store_stmt *st, int idx, const char *v, int len, bool copy);
	void (*bind_null)(struct store_stmt *st, int idx);
	/* Run the statement (at its first step) and make its next row ready. */
	enum store_step (*step)(struct store_stmt *st);
	/* The ready row's values by column (0-based): valid until the next
	 * step, reset or finalize. Text is NULL for NULL; bytes is its length
	 * (read after the text). */
	int (*columns)(struct store_stmt *st);
	int64_t (*column_int64)(struct store_stmt *st, int col);
	double (*column_double)(struct store_stmt *st, int col);
	const char *(*column_text)(struct store_stmt *st, int col);
	int (*column_bytes)(struct store_stmt *st, int col);
	bool (*column_null)(struct store_stmt *st, int col);

	/* The store's identity: its mark (0: none), its schema version (0:
	 * new) and how many tables the database holds: 0, or -1 with the
	 * connection's error set. */
	int (*identity)(struct store_conn *c, int *mark, int *version, int *tables);
	/* The store's name as messages show it (a password taken out): malloc'd. */
	char *(*name_of)(const char *path);
	/* Append the SQL of JSON text column col's top-level field key (its
	 * value as text, NULL when absent). */
	void (*json_field)(struct sbuf *sql, const char *col, const char *key);
	/* The function (string, substring) giving the 1-based position of
	 * substring in string, 0 when absent. */
	const char *instr_fn;
	/* Append the SQL of the epoch seconds (an integer) of expr, an RFC 3339 text. */
	void (*epoch)(struct sbuf *sql, const char *expr);
	/* The script that takes a store from schema version v-1 to v ("": this
	 * backend has nothing to change; NULL: none known). */
	const char *(*migration)(int v);
	const char *writable_sql; /* run when a writer opens a current store */
	/* Around a migration's transaction: before it (and before its BEGIN),
	 * and after it, committed or not. */
	const char *migrate_begin_sql, *migrate_end_sql;
	const char *dangling_sql; /* one integer: rows whose parent is missing */
	/* Stamp a migrated store with its mark and version (read back by
	 * identity): 0, or -1 with the connection's error. */
	int (*stamp)(struct store_conn *c, int mark, int version);
	const char *integrity_sql; /* one text row, "ok" when sound, or rows of problems */
	const char *fk_check_sql;  /* no rows when every row's parent exists */
	const char *bulk_sql;      /* run before a large write (store ingest); NULL: none */
	/* Bulk rows (NULL where the backend has none): copy_begin runs sql, a
	 * COPY ... FROM STDIN in text format; copy_put sends whole lines;
	 * copy_end finishes it. No other operation may run on the connection
	 * between copy_begin and copy_end. 0, or -1 with the error set. */
	int (*copy_begin)(struct store_conn *c, const char *sql);
	int (*copy_put)(struct store_conn *c, const char *buf, size_t len);
	int (*copy_end)(struct store_conn *c);
	/* Run in a transaction that writes children before their parents
	 * (store copy): foreign keys checked at the commit. */
	const char *defer_fk_sql;
	/* After rows were written with their ids: the next id of table follows
	 * them (NULL where the database does so by itself). */
	int (*ids_follow)(struct store_conn *c, const char *table);
};

/* The backend that path (a file, or a URI such as postgresql://...)
 * selects (backends.c). */
const struct store_backend *store_backend_for(const char *path);

/* ---- the operations, for the rest of src/lib/store/ ----
 * Statement operations dispatch through the statement's backend. */

static inline void store_finalize(struct store_stmt *st)
{
	if (st)
		st->be->finalize(st);
}

static inline void store_reset(struct store_stmt *st)
{
	st->be->reset(st);
}

static inline void store_clear(struct store_stmt *st)
{
	st->be->clear(st);
}

static inline int store_params(struct store_stmt *st)
{
	return st->be->params(st);
}

static inline void store_bind_int64(struct store_stmt *st, int idx, int64_t v)
{
	st->be->bind_int64(st, idx, v);
}

static inline void store_bind_double(struct store_stmt *st, int idx, double v)
{
	st->be->bind_double(st, idx, v);
}

static inline void store_bind_null(struct store_stmt *st, int idx)
{
	st->be->bind_null(st, idx);
}

/* Text or NULL, copied. */
static inline void store_bind_text(struct store_stmt *st, int idx, const char *v)
{
	st->be->bind_text(st, idx, v, -1, true);
}

/* Text or NULL, not copied: v stays until the statement is reset, bound
 * again or finalized. */
static inline void store_bind_static(struct store_stmt *st, int idx, const char *v)
{
	st->be->bind_text(st, idx, v, -1, false);
}

/* len bytes of v. */
static inline void store_bind_textn(struct store_stmt *st, int idx, const char *v, int len,
				    bool copy)
{
	st->be->bind_text(st, idx, v, len, copy);
}

static inline enum store_step store_step(struct store_stmt *st)
{
	return st->be->step(st);
}

static inline int store_columns(struct store_stmt *st)
{
	return st->be->columns(st);
}

static inline int64_t store_column_int64(struct store_stmt *st, int col)
{
	return st->be->column_int64(st, col);
}

static inline double store_column_double(struct store_stmt *st, int col)
{
	return st->be->column_double(st, col);
}

static inline const char *store_column_text(struct store_stmt *st, int col)
{
	return st->be->column_text(st, col);
}

static inline int store_column_bytes(struct store_stmt *st, int col)
{
	return st->be->column_bytes(st, col);
}

static inline bool store_column_null(struct store_stmt *st, int col)
{
	return st->be->column_null(st, col);
}

#endif
