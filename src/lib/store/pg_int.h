/* What postgres.c shares with pg_schema.c: the schema's DDL, the text of
 * numbers, and connection strings with their passwords taken out. */
#ifndef ASSAY_STORE_PG_INT_H
#define ASSAY_STORE_PG_INT_H

#include <stddef.h>

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
