/* What postgres.c shares with pg_schema.c: the schema's DDL, the text of
 * numbers, and connection strings with their passwords taken out. */
#ifndef ASSAY_STORE_PG_INT_H
#define ASSAY_STORE_PG_INT_H

#include <libpq-fe.h>
#include <stddef.h>

/* pg_wire.c: after a PQsend* on a non-blocking connection, wait at most ms
 * for its answer: the last result (the first failure if one failed; a
 * COPY's start), or NULL when the server did not answer in time (*why says
 * so) or the connection failed (*why NULL: PQerrorMessage says why). */
PGresult *pg_wire_answer(PGconn *pg, long ms, const char **why);
/* Send len bytes of COPY data within ms: 0, or -1 as pg_wire_answer fails. */
int pg_wire_copy(PGconn *pg, const char *buf, size_t len, long ms, const char **why);

/* The script that takes a PostgreSQL store to schema version v from v-1
 * ("" where that version changed nothing PostgreSQL holds). */
const char *pg_migration(int v);

/* Run when a writer opens a current store: refuses a role that may only read. */
extern const char PG_WRITABLE_SQL[];

/* A connection string as it may be shown: any password taken out
 * (user:password@ in a URL, password=... as a parameter or keyword). */
char *pg_redact(const char *conn);

/* msg (a libpq message about conn) with conn and its password, wherever
 * they appear, replaced by the name pg_redact gives and by "***". */
char *pg_scrub(const char *msg, const char *conn);

/* A double from PostgreSQL's text. */
double pg_text_double(const char *t);

#endif
