/* Ingests as `assay store ingests` lists them, and taking one back
 * (`assay store forget`): its run and rows are deleted (the foreign keys
 * from runs cascade), a row of table forgotten (schema 8) keeps what it was,
 * when and by whom. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "store_int.h"

/* Stored ingests, then (schema 8) forgotten ones; the same columns. */
#define INGESTS_STORED                                                                             \
	"SELECT i.id, r.run_id, i.file, i.format, i.sha256, i.rows, r.started, NULL, NULL, "       \
	"NULL, NULL, 0 FROM ingests i JOIN runs r ON r.id = i.run"
#define INGESTS_FORGOTTEN                                                                          \
	"SELECT ingest, run_id, file, format, sha256, rows, ingested, forgotten, by_user, "        \
	"by_host, note, 1 FROM forgotten"

static void record_read(struct store_stmt *st, struct assay_ingest_record *r)
{
	r->id = store_column_int64(st, 0);
	r->run_id = store_column_dup(st, 1);
	r->file = store_column_dup(st, 2);
	r->format = store_column_dup(st, 3);
	r->sha256 = store_column_dup(st, 4);
	r->rows = store_column_int64(st, 5);
	r->ingested = store_column_dup(st, 6);
	r->forgotten = store_column_dup(st, 7);
	r->by_user = store_column_dup(st, 8);
	r->by_host = store_column_dup(st, 9);
	r->note = store_column_dup(st, 10);
}

assay_err assay_store_ingests(struct assay_store *s, struct assay_ingest_list *out,
			      struct assay_error *e)
{
	bool forgotten = assay_store_schema_version(s) >= 8;
	struct store_stmt *st = store_prepare(s,
					      forgotten ? INGESTS_STORED
						  " UNION ALL " INGESTS_FORGOTTEN " ORDER BY 1, 12"
							: INGESTS_STORED " ORDER BY 1",
					      e);
	if (!st)
		return e ? e->code : ASSAY_INFRA;
	int step;
	while ((step = store_step(st)) == STORE_ROW) {
		ALLOC_GROW(out->v, out->n + 1, out->alloc);
		record_read(st, &out->v[out->n++]);
	}
	store_finalize(st);
	return step == STORE_DONE ? ASSAY_OK : store_sqlerr(s, e, "listing ingests");
}

void assay_ingest_record_release(struct assay_ingest_record *r)
{
	free(r->run_id);
	free(r->file);
	free(r->format);
	free(r->sha256);
	free(r->ingested);
	free(r->forgotten);
	free(r->by_user);
	free(r->by_host);
	free(r->note);
	memset(r, 0, sizeof(*r));
}

void assay_ingest_list_release(struct assay_ingest_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		assay_ingest_record_release(&l->v[i]);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

/* The ingest id as a number, or -1 (then it can only be a run id). */
static long long ingest_number(const char *ingest)
{
	long long n = 0;
	if (!*ingest || strlen(ingest) > 18)
		return -1;
	for (const char *p = ingest; *p; p++) {
		if (!isdigit((unsigned char)*p))
			return -1;
		n = n * 10 + (*p - '0');
	}
	return n;
}

/* Find ingest (id or run id) among the stored (forgotten false) or the
 * forgotten ones; *found says whether it is there. */
static assay_err ingest_find(struct assay_store *s, const char *ingest, bool forgotten,
			     struct assay_ingest_record *r, bool *found, struct assay_error *e)
{
	struct store_stmt *st = store_prepare(
	    s,
	    forgotten ? "SELECT * FROM (" INGESTS_FORGOTTEN
			") f WHERE ingest = ?1 OR run_id = ?2 ORDER BY forgotten DESC LIMIT 1"
		      : INGESTS_STORED " WHERE i.id = ?1 OR r.run_id = ?2",
	    e);
	if (!st)
		return e ? e->code : ASSAY_INFRA;
	store_bind_int64(st, 1, ingest_number(ingest));
	store_bind_static(st, 2, ingest);
	int step = store_step(st);
	*found = step == STORE_ROW;
	if (*found)
		record_read(st, r);
	store_finalize(st);
	return step == STORE_ROW || step == STORE_DONE ? ASSAY_OK
						       : store_sqlerr(s, e, "finding the ingest");
}

/* No stored ingest: say whether it was forgotten before, and when. */
static assay_err ingest_unknown(struct assay_store *s, const char *ingest, struct assay_error *e)
{
	struct assay_ingest_record r = {0};
	bool found = false;
	assay_err rc = ingest_find(s, ingest, true, &r, &found, e);
	if (rc == ASSAY_OK && found)
		rc = assay_error_set(e, ASSAY_USAGE,
				     "%s: ingest %s was forgotten already (%s, by %s@%s)", s->path,
				     ingest, r.forgotten, r.by_user, r.by_host);
	else if (rc == ASSAY_OK)
		rc = assay_error_set(e, ASSAY_USAGE,
				     "%s: no ingest %s (an id or run id as 'assay store ingests' "
				     "lists them)",
				     s->path, ingest);
	assay_ingest_record_release(&r);
	return rc;
}

/* Record r as forgotten and delete its run (its rows cascade). */
static assay_err forget_write(struct assay_store *s, const struct assay_ingest_record *r,
			      struct assay_error *e)
{
	struct store_stmt *st = store_prepare(
	    s,
	    "INSERT INTO forgotten (ingest, run_id, file, format, sha256, rows, ingested, "
	    "forgotten, by_user, by_host, note) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, "
	    "?10, ?11)",
	    e);
	if (!st)
		return e ? e->code : ASSAY_INFRA;
	store_bind_int64(st, 1, r->id);
	const char *text[] = {r->run_id,   r->file,      r->format,  r->sha256,  NULL,
			      r->ingested, r->forgotten, r->by_user, r->by_host, r->note};
	for (int i = 0; i < 10; i++)
		if (i != 4)
			store_bind_static(st, 2 + i, text[i]);
	store_bind_int64(st, 6, r->rows);
	int step = store_step(st);
	store_finalize(st);
	if (step != STORE_DONE)
		return store_sqlerr(s, e, "recording the forgotten ingest");
	if (!(st = store_prepare(s, "DELETE FROM runs WHERE run_id = ?1", e)))
		return e ? e->code : ASSAY_INFRA;
	store_bind_static(st, 1, r->run_id);
	step = store_step(st);
	store_finalize(st);
	return step == STORE_DONE ? ASSAY_OK : store_sqlerr(s, e, "deleting the ingest's rows");
}

assay_err assay_store_forget(struct assay_store *s, const char *ingest, const char *by_user,
			     const char *by_host, const char *note, struct assay_ingest_record *out,
			     struct assay_error *e)
{
	struct assay_ingest_record r = {0};
	bool found = false;
	char now[32];
	assay_err rc = store_begin(s, e);
	if (rc != ASSAY_OK)
		return rc;
	if ((rc = ingest_find(s, ingest, false, &r, &found, e)) == ASSAY_OK && !found)
		rc = ingest_unknown(s, ingest, e);
	if (rc == ASSAY_OK) {
		assay_now_rfc3339(now);
		r.forgotten = xstrdup(now);
		r.by_user = xstrdup(by_user);
		r.by_host = xstrdup(by_host);
		r.note = note ? xstrdup(note) : NULL;
		rc = forget_write(s, &r, e);
	}
	if (rc == ASSAY_OK)
		rc = store_commit(s, e);
	else
		store_rollback(s);
	store_cache_clear(s);
	if (rc == ASSAY_OK && out)
		*out = r;
	else
		assay_ingest_record_release(&r);
	return rc;
}
