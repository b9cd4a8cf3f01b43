/* Case provenance (schema 7): what the suite's expectations matched on
 * each node or rank of a case, written after the case ran and read back
 * for reports. */
#include <stdlib.h>
#include <string.h>

#include "store_int.h"

assay_err assay_store_case_provenance(struct assay_store *s, const char *run_id,
				      const char *case_id, const struct assay_provenance *v,
				      size_t n, struct assay_error *e)
{
	long long case_pk;
	assay_err rc = store_case_pk(s, run_id, case_id, &case_pk, e);
	if (rc != ASSAY_OK || (rc = store_begin(s, e)) != ASSAY_OK)
		return rc;
	struct store_stmt *del = store_prepare(s, "DELETE FROM provenance WHERE \"case\" = ?1", e);
	if (!del) {
		store_rollback(s);
		return e ? e->code : ASSAY_INFRA;
	}
	store_bind_int64(del, 1, case_pk);
	int step = store_step(del);
	store_finalize(del);
	if (step != STORE_DONE) {
		rc = store_sqlerr(s, e, "recording a case's provenance");
		store_rollback(s);
		return rc;
	}
	for (size_t i = 0; i < n; i++) {
		struct store_stmt *st = store_prepare(
		    s,
		    "INSERT INTO provenance (\"case\", name, per, unit, matched) "
		    "VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (\"case\", name, unit) DO UPDATE "
		    "SET per = excluded.per, matched = excluded.matched",
		    e);
		if (!st) {
			store_rollback(s);
			return e ? e->code : ASSAY_INFRA;
		}
		store_bind_int64(st, 1, case_pk);
		store_bind_text(st, 2, v[i].name);
		store_bind_text(st, 3, v[i].per);
		store_bind_text(st, 4, v[i].unit);
		store_bind_text(st, 5, v[i].matched);
		step = store_step(st);
		store_finalize(st);
		if (step != STORE_DONE) {
			rc = store_sqlerr(s, e, "recording a case's provenance");
			store_rollback(s);
			return rc;
		}
	}
	return store_commit(s, e);
}

assay_err assay_store_run_provenance(struct assay_store *s, const char *run_id,
				     struct assay_provenance **v, size_t *n, struct assay_error *e)
{
	*v = NULL;
	*n = 0;
	if (assay_store_schema_version(s) < 7)
		return ASSAY_OK;
	long long run_pk;
	char real[64];
	assay_err rc = store_run_pk(s, run_id, &run_pk, real, e);
	if (rc != ASSAY_OK)
		return rc;
	struct store_stmt *st = store_prepare(
	    s,
	    "SELECT c.case_id, p.name, p.per, p.unit, p.matched FROM provenance p JOIN cases c "
	    "ON c.id = p.\"case\" WHERE c.run = ?1 ORDER BY c.id, p.id",
	    e);
	if (!st)
		return e ? e->code : ASSAY_INFRA;
	store_bind_int64(st, 1, run_pk);
	size_t alloc = 0;
	int step;
	while ((step = store_step(st)) == STORE_ROW) {
		ALLOC_GROW(*v, *n + 1, alloc);
		struct assay_provenance *p = &(*v)[(*n)++];
		p->case_id = store_column_dup(st, 0);
		p->name = store_column_dup(st, 1);
		p->per = store_column_dup(st, 2);
		p->unit = store_column_dup(st, 3);
		p->matched = store_column_dup(st, 4);
	}
	store_finalize(st);
	if (step != STORE_DONE) {
		assay_provenance_free(*v, *n);
		*v = NULL;
		*n = 0;
		return store_sqlerr(s, e, "reading provenance");
	}
	return ASSAY_OK;
}

void assay_provenance_free(struct assay_provenance *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].case_id);
		free(v[i].name);
		free(v[i].per);
		free(v[i].unit);
		free(v[i].matched);
	}
	free(v);
}
