/* What a case runs as (table procs): recorded before its workload runs
 * (process group, cgroup, Slurm job, later a container), marked ended when
 * the case ends, and read back by a resume to end what a killed attempt
 * left running. */
#include <stdlib.h>
#include <string.h>

#include "assay/contain.h"
#include "store_int.h"

assay_err assay_store_run_attempt(struct assay_store *s, const char *run_id, int *attempt,
				  struct assay_error *e)
{
	long long pk;
	assay_err rc = store_run_pk(s, run_id, &pk, NULL, e);
	if (rc != ASSAY_OK)
		return rc;
	struct store_stmt *st = store_prepare(s, "SELECT resumed FROM runs WHERE id = ?1", e);
	if (!st)
		return e ? e->code : ASSAY_INFRA;
	store_bind_int64(st, 1, pk);
	int step = store_step(st);
	*attempt = step == STORE_ROW ? (int)store_column_int64(st, 0) + 1 : 1;
	store_finalize(st);
	return step == STORE_ROW ? ASSAY_OK : store_sqlerr(s, e, "reading the run's attempt");
}

assay_err assay_store_proc_record(struct assay_store *s, const char *run_id, const char *case_id,
				  int run_attempt, const struct assay_proc_record *r,
				  struct assay_error *e)
{
	long long case_pk;
	assay_err rc = store_case_pk(s, run_id, case_id, &case_pk, e);
	if (rc != ASSAY_OK)
		return rc;
	char now[32];
	assay_now_rfc3339(now);
	struct store_stmt *st = store_prepare(
	    s,
	    "INSERT INTO procs (\"case\", run_attempt, host, boot_id, pid, pid_start, contain, "
	    "cgroup, slurm_job, container, recorded) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, "
	    "?10, ?11)",
	    e);
	if (!st)
		return e ? e->code : ASSAY_INFRA;
	store_bind_int64(st, 1, case_pk);
	store_bind_int64(st, 2, run_attempt > 0 ? run_attempt : 1);
	store_bind_text(st, 3, r->host);
	store_bind_text(st, 4, r->boot_id);
	if (r->pid > 0) {
		store_bind_int64(st, 5, r->pid);
		store_bind_int64(st, 6, (int64_t)r->start);
	}
	store_bind_text(st, 7, r->contain);
	store_bind_text(st, 8, r->cgroup);
	store_bind_text(st, 9, r->slurm_job);
	store_bind_text(st, 10, r->container);
	store_bind_text(st, 11, now);
	int step = store_step(st);
	store_finalize(st);
	return step == STORE_DONE ? ASSAY_OK : store_sqlerr(s, e, "recording a case's processes");
}

assay_err assay_store_procs_end(struct assay_store *s, const char *run_id, const char *case_id,
				struct assay_error *e)
{
	long long pk;
	assay_err rc = store_run_pk(s, run_id, &pk, NULL, e);
	if (rc != ASSAY_OK)
		return rc;
	char now[32];
	assay_now_rfc3339(now);
	struct store_stmt *st =
	    store_prepare(s,
			  "UPDATE procs SET ended = ?3 WHERE ended IS NULL AND \"case\" IN "
			  "(SELECT id FROM cases WHERE run = ?1 AND (?2 IS NULL OR case_id = ?2))",
			  e);
	if (!st)
		return e ? e->code : ASSAY_INFRA;
	store_bind_int64(st, 1, pk);
	store_bind_text(st, 2, case_id);
	store_bind_text(st, 3, now);
	int step = store_step(st);
	store_finalize(st);
	return step == STORE_DONE ? ASSAY_OK : store_sqlerr(s, e, "ending a case's processes");
}

assay_err assay_store_case_queue(struct assay_store *s, const char *run_id, const char *case_id,
				 double queue_s, struct assay_error *e)
{
	long long case_pk;
	assay_err rc = store_case_pk(s, run_id, case_id, &case_pk, e);
	if (rc != ASSAY_OK)
		return rc;
	/* The finish-once trigger guards outcome changes, not these columns. */
	struct store_stmt *st =
	    store_prepare(s,
			  "UPDATE cases SET queue_s = ?2, run_s = CASE WHEN duration_s > ?2 THEN "
			  "duration_s - ?2 ELSE 0 END WHERE id = ?1 AND duration_s IS NOT NULL",
			  e);
	if (!st)
		return e ? e->code : ASSAY_INFRA;
	store_bind_int64(st, 1, case_pk);
	store_bind_double(st, 2, queue_s > 0 ? queue_s : 0);
	int step = store_step(st);
	store_finalize(st);
	return step == STORE_DONE ? ASSAY_OK : store_sqlerr(s, e, "recording a case's queue time");
}

assay_err assay_store_case_image(struct assay_store *s, const char *run_id, const char *case_id,
				 const char *image, const char *digest, struct assay_error *e)
{
	long long case_pk;
	assay_err rc = store_case_pk(s, run_id, case_id, &case_pk, e);
	if (rc != ASSAY_OK)
		return rc;
	static const char *const sql[] = {
	    "UPDATE cases SET image = ?2, image_digest = ?3 WHERE id = ?1",
	    "UPDATE runs SET image = CASE WHEN image IS NULL OR image = ?2 THEN ?2 ELSE 'mixed' "
	    "END, image_digest = CASE WHEN image_digest IS NULL OR image_digest = ?3 THEN ?3 "
	    "ELSE 'mixed' END WHERE id = (SELECT run FROM cases WHERE id = ?1)"};
	for (size_t i = 0; i < 2; i++) {
		struct store_stmt *st = store_prepare(s, sql[i], e);
		if (!st)
			return e ? e->code : ASSAY_INFRA;
		store_bind_int64(st, 1, case_pk);
		store_bind_text(st, 2, image);
		store_bind_text(st, 3, digest);
		int step = store_step(st);
		store_finalize(st);
		if (step != STORE_DONE)
			return store_sqlerr(s, e, "recording a case's image");
	}
	return ASSAY_OK;
}

static const char *col(struct store_stmt *st, int i)
{
	return store_column_text(st, i);
}

assay_err assay_store_procs_open(struct assay_store *s, const char *run_id, assay_store_proc_fn fn,
				 void *ctx, struct assay_error *e)
{
	long long pk;
	assay_err rc = store_run_pk(s, run_id, &pk, NULL, e);
	if (rc != ASSAY_OK)
		return rc;
	struct store_stmt *st = store_prepare(
	    s,
	    "SELECT c.case_id, p.run_attempt, p.host, p.boot_id, p.pid, p.pid_start, p.contain, "
	    "p.cgroup, p.slurm_job, p.container FROM procs p JOIN cases c ON c.id = p.\"case\" "
	    "WHERE c.run = ?1 AND p.ended IS NULL ORDER BY p.id",
	    e);
	if (!st)
		return e ? e->code : ASSAY_INFRA;
	store_bind_int64(st, 1, pk);
	int step;
	while ((step = store_step(st)) == STORE_ROW) {
		struct assay_proc_record r = {col(st, 2),
					      col(st, 3),
					      (pid_t)store_column_int64(st, 4),
					      (unsigned long long)store_column_int64(st, 5),
					      col(st, 6),
					      col(st, 7),
					      col(st, 8),
					      col(st, 9)};
		fn(col(st, 0), (int)store_column_int64(st, 1), &r, ctx);
	}
	store_finalize(st);
	return step == STORE_DONE ? ASSAY_OK : store_sqlerr(s, e, "listing a run's processes");
}
