/* Internals of the results store shared by the files of src/lib/store/: the
 * store struct, cached statements, transactions and error mapping. The
 * database is reached through backend.h alone. */
#ifndef ASSAY_STORE_INT_H
#define ASSAY_STORE_INT_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "assay/store.h"
#include "backend.h"

/* Statements prepared once per connection and finalized at close. */
enum store_stmt_id {
	ST_SERIES_FIND,
	ST_SERIES_INSERT,
	ST_MEASURE_INSERT,
	ST_RUN_FIND,
	ST_IDENT_FIND,
	ST_SERIES_ID,
	ST_VALUES,
	ST_VALUES_LEAN,
	ST_VALUES_LEAN_REV,
	ST_VALUES_LAST, /* the same three, newest first, at most ?4 */
	ST_VALUES_LEAN_LAST,
	ST_VALUES_LEAN_REV_LAST,
	ST_POINT_STRINGS,
	ST_ANNOTATIONS,
	ST_ANNOTATIONS_ALL,
	ST_COUNT
};

/* A small open-addressing map from series key to (id, unit, direction),
 * valid for one transaction's worth of inserts (cleared on rollback). */
struct series_slot {
	char key[65];
	long long id;
	char *unit;
	enum assay_direction direction;
	/* Identity generations (struct ident_set): fresh when every ingested
	 * row the series holds is in s->idents, probed when the store was
	 * asked whether it holds any. */
	unsigned fresh, probed;
	/* Its stored identities are in s->known (rows_known.c). */
	unsigned known;
};

/* Hashes of the identities of the rows ingested into fresh series in this
 * transaction (rows.c): a row of a fresh series whose hash is not here is
 * not stored, without a lookup. Valid while gen equals the store's
 * ident_gen, which every transaction bumps. */
struct ident_set {
	uint64_t *v; /* open addressing, 0 = empty */
	size_t n, cap;
	unsigned gen;
};

/* Stored identities of series that hold ingested rows (rows_known.c),
 * valid while gen equals the store's known_gen (one ingested file). */
struct known_set {
	struct known_entry *v;
	size_t n, alloc;
	size_t *slot; /* open addressing: entry index + 1, 0 = empty */
	size_t cap;
	struct sbuf block; /* the entries' identities */
	unsigned gen;
};

/* Series ids by key, from the last series listing (query.c): reading a
 * listed series' points needs no lookup of its id. */
struct read_ids {
	struct read_id {
		char key[65];
		long long id;
	} * v; /* open addressing, key[0] == 0: empty */
	size_t n, cap;
};

struct assay_store {
	const struct store_backend *be;
	struct store_conn *db;
	char *path;
	bool readonly;
	bool batch; /* a batch transaction is open: begin/commit join it */
	struct store_stmt *stmt[ST_COUNT];
	struct series_slot *cache;
	size_t cache_n, cache_cap;
	unsigned ident_gen; /* bumped at the start of every transaction */
	struct ident_set idents;
	struct store_stmt *ident_probe; /* does a series hold ingested rows? */
	struct store_stmt *insert_many; /* ingest: STORE_INSERT_CHUNK rows in one statement */
	struct read_ids read_ids;
	struct known_set known;
	unsigned known_gen; /* bumped by every ingest: its own since */
	struct store_stmt *known_read;
	struct sbuf copy_buf;    /* ingest: rows waiting for a COPY (rows.c) */
	long long seconds_below; /* rows below this id were stored with whole seconds */
};

/* Whether row r (timestamp ts) of series sid (its slot), which holds
 * ingested rows, is stored: its rows from since on are read at the first
 * question of the transaction. 1 with *id and *value (*id 0: added by
 * this transaction, not stored yet), 0 when not, -1 on error. */
int store_known_find(struct assay_store *s, struct series_slot *slot, long long sid,
		     const struct assay_row *r, const char *ts, const char *since, long long *id,
		     double *value, struct assay_error *e);
/* Row r, added to such a series by this transaction, joins the set. */
void store_known_add(struct assay_store *s, long long sid, const struct assay_row *r,
		     const char *ts);
void store_known_release(struct assay_store *s);
/* Forget the listed series' ids (query.c): at close, and when series merge. */
void store_read_ids_release(struct assay_store *s);

/* Send s->copy_buf's lines by sql (a COPY ... FROM STDIN) and empty it;
 * a failure is reported as "PATH: what: ..." (rows.c). */
assay_err store_copy_send(struct assay_store *s, const char *sql, const char *what,
			  struct assay_error *e);

/* v as a field of a COPY text line: \N for NULL, backslash escapes (rows.c). */
void store_copy_text(struct sbuf *b, const char *v);

/* A double as text that reads back exactly (SQL's Infinity and NaN too). */
static inline void store_double_text(char *buf, size_t size, double v)
{
	if (isnan(v))
		snprintf(buf, size, "NaN");
	else if (isinf(v))
		snprintf(buf, size, "%sInfinity", v < 0 ? "-" : "");
	else
		snprintf(buf, size, "%.17g", v);
}

/* Fill e from connection c's last failure: "PATH: what: the database's
 * message". Constraint violations are ASSAY_USAGE, everything else
 * ASSAY_INFRA. */
assay_err store_fail(const struct store_backend *be, struct store_conn *c, const char *path,
		     struct assay_error *e, const char *what);
/* The same for the store's connection. */
assay_err store_sqlerr(struct assay_store *s, struct assay_error *e, const char *what);
/* The cached statement id, prepared on first use and reset (its bindings
 * cleared). NULL on error. */
struct store_stmt *store_cached(struct assay_store *s, enum store_stmt_id id,
				struct assay_error *e);
/* Prepare a one-off statement (finalize it yourself). */
struct store_stmt *store_prepare(struct assay_store *s, const char *sql, struct assay_error *e);
/* Execute SQL without results. */
assay_err store_exec(struct assay_store *s, const char *sql, struct assay_error *e);
/* BEGIN IMMEDIATE (waits for other writers), COMMIT, ROLLBACK. */
assay_err store_begin(struct assay_store *s, struct assay_error *e);
assay_err store_commit(struct assay_store *s, struct assay_error *e);
void store_rollback(struct assay_store *s);

/* Rows the last write changed, and the id of the row the last INSERT added. */
static inline int64_t store_changes(struct assay_store *s)
{
	return s->be->changes(s->db);
}

static inline int64_t store_last_id(struct assay_store *s)
{
	return s->be->last_id(s->db);
}

/* Copy a text column (NULL stays NULL). */
char *store_column_dup(struct store_stmt *st, int col);
/* Strings of many rows in one block b (started with one NUL, so that no
 * string sits at offset 0): column col's text appended, its offset returned
 * (0: NULL); store_block_str turns an offset back into the string once b
 * stops growing. */
size_t store_column_append(struct sbuf *b, struct store_stmt *st, int col);
static inline char *store_block_str(char *block, size_t off)
{
	return off ? block + off : NULL;
}

/* SQLite's script from schema version v-1 to v (schema.c). */
const char *store_sqlite_migration(int v);

/* Apply the migrations up to ASSAY_STORE_SCHEMA_VERSION (schema.c). */
assay_err store_migrate(struct assay_store *s, struct assay_error *e);

/* Merge or rename series whose precision or scale is an alias (inside an
 * open transaction); *merged (when not NULL) counts the series changed. */
assay_err store_merge_aliases(struct assay_store *s, long *merged, struct assay_error *e);

/* The runs table id of run_id ("last": the newest); 0 and ASSAY_USAGE when unknown. */
assay_err store_run_pk(struct assay_store *s, const char *run_id, long long *pk, char *real_id,
		       struct assay_error *e);

/* Insert a run inside an open transaction; id gets its id. */
assay_err store_run_insert(struct assay_store *s, const struct assay_run_info *info, char id[64],
			   struct assay_error *e);
/* Insert finished rows under run pk (and case pk, 0 for none) inside an open
 * transaction. keep_provenance stores each row's own run_id and case_id. */
assay_err store_insert_rows(struct assay_store *s, long long run_pk, long long case_pk,
			    const struct assay_rows *rows, bool keep_provenance,
			    const char *default_time, struct assay_error *e);
void store_cache_clear(struct assay_store *s);
/* Free the identity set and the ingest's statements (before closing the
 * connection). */
void store_idents_release(struct assay_store *s);
/* Insert a case's verdicts (verdicts.c) inside an open transaction. */
assay_err store_insert_verdicts(struct assay_store *s, long long case_pk,
				const struct assay_verdicts *vs, struct assay_error *e);
/* The cases table id of (run_id, case_id); ASSAY_USAGE when unknown. */
assay_err store_case_pk(struct assay_store *s, const char *run_id, const char *case_id,
			long long *pk, struct assay_error *e);

#endif
