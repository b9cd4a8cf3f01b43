/* Annotations on a series at a revision: ack (a known change no longer fails
 * gates), ignore (the point is left out of detection) and expected (a planned
 * change, reported but not failed on). */
#include <stdlib.h>
#include <string.h>

#include "store_int.h"

static const char *const kind_names[] = {"ack", "ignore", "expected"};

const char *assay_annotation_kind_name(enum assay_annotation_kind k)
{
	return (unsigned)k < ARRAY_SIZE(kind_names) ? kind_names[k] : "unknown";
}

int assay_annotation_kind_parse(const char *s)
{
	for (size_t i = 0; i < ARRAY_SIZE(kind_names); i++)
		if (!strcmp(s, kind_names[i]))
			return (int)i;
	return -1;
}

static assay_err series_pk(struct assay_store *s, const char *key, long long *pk,
			   struct assay_error *e)
{
	struct store_stmt *st = store_prepare(s, "SELECT id FROM series WHERE key = ?1", e);
	if (!st)
		return e ? e->code : ASSAY_INFRA;
	store_bind_static(st, 1, key);
	int step = store_step(st);
	*pk = step == STORE_ROW ? store_column_int64(st, 0) : 0;
	store_finalize(st);
	if (step == STORE_DONE)
		return assay_error_set(e, ASSAY_USAGE, "%s: no series %s", s->path, key);
	return step == STORE_ROW ? ASSAY_OK : store_sqlerr(s, e, "finding a series");
}

static assay_err annotation_write(struct assay_store *s, const char *sql, const char *series_key,
				  const char *revision, enum assay_annotation_kind kind,
				  const char *note, int *changes, struct assay_error *e)
{
	if (!revision || !*revision)
		return assay_error_set(e, ASSAY_USAGE, "an annotation needs a revision");
	if ((unsigned)kind >= ARRAY_SIZE(kind_names))
		return assay_error_set(e, ASSAY_USAGE, "unknown annotation kind %d", (int)kind);
	long long pk;
	assay_err rc = store_begin(s, e);
	if (rc != ASSAY_OK)
		return rc;
	if ((rc = series_pk(s, series_key, &pk, e)) != ASSAY_OK)
		goto fail;
	struct store_stmt *st = store_prepare(s, sql, e);
	if (!st) {
		rc = e ? e->code : ASSAY_INFRA;
		goto fail;
	}
	char now[32];
	assay_now_rfc3339(now);
	store_bind_int64(st, 1, pk);
	store_bind_static(st, 2, revision);
	store_bind_static(st, 3, kind_names[kind]);
	if (store_params(st) >= 4) {
		store_bind_text(st, 4, note);
		store_bind_text(st, 5, now);
	}
	int step = store_step(st);
	store_finalize(st);
	if (step != STORE_DONE) {
		rc = store_sqlerr(s, e, "writing an annotation");
		goto fail;
	}
	*changes = store_changes(s);
	return store_commit(s, e);
fail:
	store_rollback(s);
	return rc;
}

assay_err assay_store_annotate(struct assay_store *s, const char *series_key, const char *revision,
			       enum assay_annotation_kind kind, const char *note,
			       struct assay_error *e)
{
	int changes;
	return annotation_write(s,
				"INSERT INTO annotations (series, revision, kind, note, created) "
				"VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (series, revision, kind) "
				"DO UPDATE SET note = excluded.note",
				series_key, revision, kind, note, &changes, e);
}

assay_err assay_store_unannotate(struct assay_store *s, const char *series_key,
				 const char *revision, enum assay_annotation_kind kind,
				 bool *removed, struct assay_error *e)
{
	int changes = 0;
	assay_err rc = annotation_write(
	    s, "DELETE FROM annotations WHERE series = ?1 AND revision = ?2 AND kind = ?3",
	    series_key, revision, kind, NULL, &changes, e);
	*removed = rc == ASSAY_OK && changes > 0;
	return rc;
}

assay_err assay_store_series_has_revision(struct assay_store *s, const char *series_key,
					  const char *revision, bool *has, struct assay_error *e)
{
	struct store_stmt *st =
	    store_prepare(s,
			  "SELECT 1 FROM measurements m JOIN series x ON "
			  "x.id = m.series WHERE x.key = ?1 AND m.revision = ?2 "
			  "LIMIT 1",
			  e);
	if (!st)
		return e ? e->code : ASSAY_INFRA;
	store_bind_static(st, 1, series_key);
	store_bind_static(st, 2, revision);
	int step = store_step(st);
	store_finalize(st);
	*has = step == STORE_ROW;
	return step == STORE_ROW || step == STORE_DONE ? ASSAY_OK
						       : store_sqlerr(s, e, "finding a revision");
}

assay_err assay_store_annotations(struct assay_store *s, const char *series_key,
				  struct assay_annotations *out, struct assay_error *e)
{
	/* `key = ?1 OR ?1 IS NULL` would scan every annotation for each series
	 * asked for: two statements. */
	struct store_stmt *st =
	    store_cached(s, series_key ? ST_ANNOTATIONS : ST_ANNOTATIONS_ALL, e);
	if (!st)
		return e ? e->code : ASSAY_INFRA;
	if (series_key)
		store_bind_text(st, 1, series_key);
	int step;
	while ((step = store_step(st)) == STORE_ROW) {
		ALLOC_GROW(out->v, out->n + 1, out->alloc);
		struct assay_annotation *a = &out->v[out->n++];
		a->series_key = store_column_dup(st, 0);
		a->revision = store_column_dup(st, 1);
		a->kind = (enum assay_annotation_kind)assay_annotation_kind_parse(
		    store_column_text(st, 2));
		a->note = store_column_dup(st, 3);
		a->created = store_column_dup(st, 4);
	}
	store_reset(st);
	if (step != STORE_DONE)
		return store_sqlerr(s, e, "reading annotations");
	return ASSAY_OK;
}

bool assay_annotations_has(const struct assay_annotations *a, const char *revision,
			   enum assay_annotation_kind kind)
{
	for (size_t i = 0; i < a->n; i++)
		if (a->v[i].kind == kind && revision && !strcmp(a->v[i].revision, revision))
			return true;
	return false;
}

void assay_annotations_release(struct assay_annotations *a)
{
	for (size_t i = 0; i < a->n; i++) {
		free(a->v[i].series_key);
		free(a->v[i].revision);
		free(a->v[i].note);
		free(a->v[i].created);
	}
	free(a->v);
	memset(a, 0, sizeof(*a));
}
