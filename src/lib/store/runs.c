/* Runs and cases: what the runner records. A case is begun (committed at
 * once) and finished with its outcome, all its rows and verdicts in one
 * transaction; constraints and triggers make sure a case is never stored
 * twice. Skipped and infrastructure cases may be begun again (--resume). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "assay/gate.h"
#include "assay/json.h"
#include "store_int.h"

static bool valid_run_id(const char *id)
{
	size_t n = strlen(id);
	if (!n || n > 63 || !strcmp(id, "last"))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)id[i]) && !strchr("._:-", id[i]))
			return false;
	return true;
}

static void make_run_id(char out[64])
{
	unsigned char r[3] = {0};
	if (getrandom(r, sizeof(r), 0) != (ssize_t)sizeof(r)) {
		unsigned long long t = (unsigned long long)clock();
		memcpy(r, &t, sizeof(r));
	}
	time_t now = time(NULL);
	struct tm tm;
	gmtime_r(&now, &tm);
	char ts[32];
	strftime(ts, sizeof(ts), "%Y%m%dT%H%M%SZ", &tm);
	snprintf(out, 64, "%s-%02x%02x%02x", ts, r[0], r[1], r[2]);
}

/* Normalize an optional RFC 3339 time (NULL: now) into out. */
static assay_err norm_time(const char *in, char out[32], const char *what, struct assay_error *e)
{
	int64_t t;
	if (!in) {
		assay_now_rfc3339(out);
		return ASSAY_OK;
	}
	if (!assay_time_parse(in, &t))
		return assay_error_set(e, ASSAY_USAGE, "%s \"%s\" is not an RFC 3339 time", what,
				       in);
	assay_time_rfc3339(t, out);
	return ASSAY_OK;
}

assay_err store_run_pk(struct assay_store *s, const char *run_id, long long *pk, char *real_id,
		       struct assay_error *e)
{
	bool last = !strcmp(run_id, "last");
	struct store_stmt *st = last ? store_prepare(s,
						     "SELECT id, run_id FROM runs ORDER BY id DESC "
						     "LIMIT 1",
						     e)
				     : store_cached(s, ST_RUN_FIND, e);
	if (!st)
		return e ? e->code : ASSAY_INFRA;
	if (!last)
		store_bind_static(st, 1, run_id);
	int rc = store_step(st);
	assay_err out = ASSAY_OK;
	*pk = 0;
	if (rc == STORE_ROW) {
		*pk = store_column_int64(st, 0);
		if (real_id)
			snprintf(real_id, 64, "%s", store_column_text(st, 1));
	} else if (rc == STORE_DONE) {
		out =
		    last ? assay_error_set(e, ASSAY_USAGE, "%s: the store has no runs yet", s->path)
			 : assay_error_set(e, ASSAY_USAGE, "%s: no run '%s'", s->path, run_id);
	} else {
		out = store_sqlerr(s, e, "finding a run");
	}
	if (last)
		store_finalize(st);
	else
		store_reset(st);
	return out;
}

/* Run one statement to completion inside an open transaction. */
static assay_err step_done(struct assay_store *s, struct store_stmt *st, const char *what,
			   struct assay_error *e)
{
	int rc = store_step(st);
	assay_err out = rc == STORE_DONE ? ASSAY_OK : store_sqlerr(s, e, what);
	store_finalize(st);
	return out;
}

assay_err store_run_insert(struct assay_store *s, const struct assay_run_info *info, char id[64],
			   struct assay_error *e)
{
	char started[32];
	if (info->run_id) {
		if (!valid_run_id(info->run_id))
			return assay_error_set(
			    e, ASSAY_USAGE,
			    "run id '%s': expected 1 to 63 letters, digits or ._:- "
			    "(and not 'last')",
			    info->run_id);
		snprintf(id, 64, "%s", info->run_id);
	} else {
		make_run_id(id);
	}
	assay_err rc = norm_time(info->started, started, "run start", e);
	if (rc != ASSAY_OK)
		return rc;
	struct store_stmt *st = store_prepare(
	    s,
	    "INSERT INTO runs (run_id, suite, revision, config_sha256, matrix_sha256, "
	    "catalog_sha256, host, launcher, started) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
	    e);
	if (!st)
		return e ? e->code : ASSAY_INFRA;
	const char *v[] = {id,
			   info->suite,
			   info->revision,
			   info->config_sha256,
			   info->matrix_sha256,
			   info->catalog_sha256,
			   info->host,
			   info->launcher,
			   started};
	for (int i = 0; i < 9; i++)
		store_bind_text(st, i + 1, v[i]);
	rc = step_done(s, st, "recording the run", e);
	if (rc == ASSAY_USAGE)
		assay_error_set(e, ASSAY_USAGE, "%s: run '%s' exists already", s->path, id);
	return rc;
}

assay_err assay_store_run_begin(struct assay_store *s, const struct assay_run_info *info,
				char run_id_out[64], struct assay_error *e)
{
	char id[64];
	assay_err rc = store_begin(s, e);
	if (rc != ASSAY_OK)
		return rc;
	if ((rc = store_run_insert(s, info, id, e)) != ASSAY_OK) {
		store_rollback(s);
		return rc;
	}
	if ((rc = store_commit(s, e)) != ASSAY_OK)
		return rc;
	if (run_id_out)
		snprintf(run_id_out, 64, "%s", id);
	return ASSAY_OK;
}

static assay_err run_update(struct assay_store *s, const char *run_id, const char *sql,
			    int exit_code, char run_id_out[64], struct assay_error *e)
{
	long long pk;
	char real[64];
	assay_err rc = store_begin(s, e);
	if (rc != ASSAY_OK)
		return rc;
	if ((rc = store_run_pk(s, run_id, &pk, real, e)) != ASSAY_OK)
		goto fail;
	char now[32];
	assay_now_rfc3339(now);
	struct store_stmt *st = store_prepare(s, sql, e);
	if (!st) {
		rc = e ? e->code : ASSAY_INFRA;
		goto fail;
	}
	store_bind_int64(st, 1, pk);
	if (store_params(st) >= 2)
		store_bind_text(st, 2, now);
	if (store_params(st) >= 3)
		store_bind_int64(st, 3, exit_code);
	if ((rc = step_done(s, st, "updating the run", e)) != ASSAY_OK)
		goto fail;
	if ((rc = store_commit(s, e)) != ASSAY_OK)
		return rc;
	if (run_id_out)
		snprintf(run_id_out, 64, "%s", real);
	return ASSAY_OK;
fail:
	store_rollback(s);
	return rc;
}

assay_err assay_store_run_end(struct assay_store *s, const char *run_id, assay_err exit_code,
			      struct assay_error *e)
{
	if ((int)exit_code < 0 || (int)exit_code >= ASSAY_ERR_COUNT)
		return assay_error_set(e, ASSAY_USAGE, "exit code %d is not an outcome",
				       (int)exit_code);
	return run_update(s, run_id, "UPDATE runs SET ended = ?2, exit_code = ?3 WHERE id = ?1",
			  (int)exit_code, NULL, e);
}

assay_err assay_store_run_resume(struct assay_store *s, const char *run_id, char run_id_out[64],
				 struct assay_error *e)
{
	return run_update(s, run_id,
			  "UPDATE runs SET ended = NULL, exit_code = NULL, resumed = resumed + 1 "
			  "WHERE id = ?1",
			  0, run_id_out, e);
}

assay_err assay_store_last_run(struct assay_store *s, char run_id_out[64], struct assay_error *e)
{
	long long pk;
	return store_run_pk(s, "last", &pk, run_id_out, e);
}

/* Look up case (run pk, case id): *pk 0 when absent; *outcome -1 while
 * unfinished, else its outcome. */
static assay_err find_case(struct assay_store *s, long long run_pk, const char *case_id,
			   long long *pk, int *outcome, struct assay_error *e)
{
	struct store_stmt *st =
	    store_prepare(s, "SELECT id, outcome FROM cases WHERE run = ?1 AND case_id = ?2", e);
	if (!st)
		return e ? e->code : ASSAY_INFRA;
	store_bind_int64(st, 1, run_pk);
	store_bind_static(st, 2, case_id);
	int rc = store_step(st);
	*pk = 0;
	*outcome = -1;
	if (rc == STORE_ROW) {
		*pk = store_column_int64(st, 0);
		const char *o = store_column_text(st, 1);
		*outcome = o ? assay_outcome_parse(o) : -1;
		if (o && *outcome < 0)
			*outcome =
			    ASSAY_OUTCOME_INFRA; /* not written by this assay: run it again */
	}
	store_finalize(st);
	if (rc != STORE_ROW && rc != STORE_DONE)
		return store_sqlerr(s, e, "finding a case");
	return ASSAY_OK;
}

/* Start a transaction and find the run and the case (*case_pk 0 when
 * absent, *outcome -1 while unfinished); rolled back on error. */
static assay_err begin_case(struct assay_store *s, const char *run_id, const char *case_id,
			    long long *run_pk, long long *case_pk, int *outcome,
			    struct assay_error *e)
{
	assay_err rc = store_begin(s, e);
	if (rc == ASSAY_OK &&
	    ((rc = store_run_pk(s, run_id, run_pk, NULL, e)) != ASSAY_OK ||
	     (rc = find_case(s, *run_pk, case_id, case_pk, outcome, e)) != ASSAY_OK))
		store_rollback(s);
	return rc;
}

static assay_err already_finished(struct assay_store *s, const char *run_id, const char *case_id,
				  int outcome, struct assay_error *e)
{
	return assay_error_set(e, ASSAY_USAGE,
			       "%s: case '%s' has already finished in run '%s' (%s)", s->path,
			       case_id, run_id, assay_outcome_name((enum assay_outcome)outcome));
}

assay_err assay_store_case_begin(struct assay_store *s, const char *run_id,
				 const struct assay_case_info *info, struct assay_error *e)
{
	if (!info->case_id || !*info->case_id)
		return assay_error_set(e, ASSAY_USAGE, "a case needs a case id");
	char started[32];
	long long run_pk, case_pk;
	int outcome;
	assay_err rc = norm_time(info->started, started, "case start", e);
	if (rc != ASSAY_OK ||
	    (rc = begin_case(s, run_id, info->case_id, &run_pk, &case_pk, &outcome, e)) != ASSAY_OK)
		return rc;
	if (outcome >= 0 && assay_outcome_final((enum assay_outcome)outcome)) {
		rc = already_finished(s, run_id, info->case_id, outcome, e);
		goto fail;
	}
	char *factors = info->factors ? assay_json_canonical(info->factors) : NULL;
	/* Begun again: a killed attempt, or a skipped or infrastructure case. */
	struct store_stmt *st = store_prepare(
	    s,
	    case_pk
		? "UPDATE cases SET factors = ?3, started = ?4, artifact_dir = ?5, "
		  "stdout_log = ?6, stderr_log = ?7, attempts = attempts + 1, outcome = NULL, "
		  "reason = NULL, ended = NULL, duration_s = NULL, rows = NULL, queue_s = NULL, "
		  "run_s = NULL WHERE id = ?8"
		: "INSERT INTO cases (run, case_id, factors, started, artifact_dir, stdout_log, "
		  "stderr_log) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
	    e);
	if (!st) {
		free(factors);
		rc = e ? e->code : ASSAY_INFRA;
		goto fail;
	}
	if (case_pk) {
		store_bind_int64(st, 8, case_pk);
	} else {
		store_bind_int64(st, 1, run_pk);
		store_bind_static(st, 2, info->case_id);
	}
	store_bind_text(st, 3, factors);
	store_bind_text(st, 4, started);
	store_bind_text(st, 5, info->artifact_dir);
	store_bind_text(st, 6, info->stdout_log);
	store_bind_text(st, 7, info->stderr_log);
	free(factors);
	if ((rc = step_done(s, st, "recording the case", e)) != ASSAY_OK)
		goto fail;
	return store_commit(s, e);
fail:
	store_rollback(s);
	return rc;
}

/* The finished case case_pk taken back, so that it runs again: refused
 * while it holds rows, verdicts or processes an attempt could not end. */
static assay_err take_back(struct assay_store *s, long long run_pk, long long case_pk,
			   const char *case_id, struct assay_error *e)
{
	struct store_stmt *st = store_prepare(
	    s,
	    "SELECT attempts, (SELECT count(*) FROM measurements WHERE \"case\" = ?1) + "
	    "(SELECT count(*) FROM verdicts WHERE \"case\" = ?1) + "
	    "(SELECT count(*) FROM procs WHERE \"case\" = ?1 AND ended IS NULL) "
	    "FROM cases WHERE id = ?1",
	    e);
	if (!st)
		return e ? e->code : ASSAY_INFRA;
	store_bind_int64(st, 1, case_pk);
	int rc = store_step(st);
	long long attempts = rc == STORE_ROW ? store_column_int64(st, 0) : 0;
	long long held = rc == STORE_ROW ? store_column_int64(st, 1) : 0;
	store_finalize(st);
	if (rc != STORE_ROW)
		return store_sqlerr(s, e, "finding a case");
	if (held)
		return assay_error_set(e, ASSAY_USAGE,
				       "%s: case '%s' cannot run again: it holds rows, verdicts or "
				       "processes not yet ended",
				       s->path, case_id);
	/* A finished case is never changed (trigger cases_finish_once): it is
	 * removed, and added again begun, with its attempts. */
	char now[32];
	assay_now_rfc3339(now);
	struct store_stmt *del = store_prepare(s, "DELETE FROM cases WHERE id = ?1", e);
	if (!del)
		return e ? e->code : ASSAY_INFRA;
	store_bind_int64(del, 1, case_pk);
	assay_err err = step_done(s, del, "taking back a case", e);
	if (err != ASSAY_OK)
		return err;
	struct store_stmt *ins = store_prepare(
	    s, "INSERT INTO cases (run, case_id, started, attempts) VALUES (?1, ?2, ?3, ?4)", e);
	if (!ins)
		return e ? e->code : ASSAY_INFRA;
	store_bind_int64(ins, 1, run_pk);
	store_bind_static(ins, 2, case_id);
	store_bind_text(ins, 3, now);
	store_bind_int64(ins, 4, attempts);
	return step_done(s, ins, "taking back a case", e);
}

assay_err assay_store_case_rerun(struct assay_store *s, const char *run_id, const char *case_id,
				 struct assay_error *e)
{
	long long run_pk, case_pk;
	int outcome;
	assay_err rc = begin_case(s, run_id, case_id, &run_pk, &case_pk, &outcome, e);
	if (rc != ASSAY_OK)
		return rc;
	if (case_pk && outcome >= 0 && assay_outcome_final((enum assay_outcome)outcome) &&
	    (rc = take_back(s, run_pk, case_pk, case_id, e)) != ASSAY_OK) {
		store_rollback(s);
		return rc;
	}
	return store_commit(s, e);
}

static bool reruns(enum assay_outcome o)
{
	return o == ASSAY_OUTCOME_SKIPPED || o == ASSAY_OUTCOME_INFRA;
}

static assay_err check_result(const char *case_id, const struct assay_case_result *res,
			      char ended[32], struct assay_error *e)
{
	if ((unsigned)res->outcome >= ASSAY_OUTCOME_COUNT)
		return assay_error_set(e, ASSAY_USAGE, "case '%s': outcome %d is not an outcome",
				       case_id, (int)res->outcome);
	if (reruns(res->outcome) &&
	    ((res->rows && res->rows->n) || (res->verdicts && res->verdicts->n)))
		return assay_error_set(e, ASSAY_USAGE,
				       "case '%s': a %s case stores no rows or verdicts (it runs "
				       "again on --resume)",
				       case_id, assay_outcome_name(res->outcome));
	return norm_time(res->ended, ended, "case end", e);
}

/* Set the outcome of case pk (in an open transaction). */
static assay_err set_outcome(struct assay_store *s, long long case_pk,
			     const struct assay_case_result *res, const char *ended,
			     struct assay_error *e)
{
	/* Without a measured duration: the seconds from started to ended, at least 0. */
	struct sbuf span = SBUF_INIT, sql = SBUF_INIT;
	s->be->epoch(&span, "?4");
	sbuf_adds(&span, " - ");
	s->be->epoch(&span, "started");
	sbuf_addf(&sql,
		  "UPDATE cases SET outcome = ?2, reason = ?3, ended = ?4, rows = ?6, "
		  "duration_s = CASE WHEN ?5 >= 0 THEN ?5 WHEN attempts = 0 THEN NULL "
		  "WHEN %s > 0 THEN %s ELSE 0 END, "
		  "queue_s = CASE WHEN attempts = 0 THEN NULL ELSE 0 END, "
		  "run_s = CASE WHEN ?5 >= 0 THEN ?5 END WHERE id = ?1",
		  span.buf, span.buf);
	struct store_stmt *st = store_prepare(s, sql.buf, e);
	sbuf_release(&span);
	sbuf_release(&sql);
	if (!st)
		return e ? e->code : ASSAY_INFRA;
	store_bind_int64(st, 1, case_pk);
	store_bind_static(st, 2, assay_outcome_name(res->outcome));
	store_bind_text(st, 3, res->reason);
	store_bind_static(st, 4, ended);
	store_bind_double(st, 5, res->duration_s);
	store_bind_int64(st, 6, res->rows ? (int64_t)res->rows->n : 0);
	return step_done(s, st, "finishing the case", e);
}

assay_err assay_store_case_finish(struct assay_store *s, const char *run_id, const char *case_id,
				  const struct assay_case_result *res, struct assay_error *e)
{
	char ended[32];
	long long run_pk, case_pk;
	int outcome;
	assay_err rc = check_result(case_id, res, ended, e);
	if (rc != ASSAY_OK ||
	    (rc = begin_case(s, run_id, case_id, &run_pk, &case_pk, &outcome, e)) != ASSAY_OK)
		return rc;
	if (!case_pk || outcome >= 0) {
		rc = case_pk ? already_finished(s, run_id, case_id, outcome, e)
			     : assay_error_set(e, ASSAY_USAGE,
					       "%s: case '%s' was not begun in run '%s'", s->path,
					       case_id, run_id);
		goto fail;
	}
	if (res->rows &&
	    (rc = store_insert_rows(s, run_pk, case_pk, res->rows, false, ended, e)) != ASSAY_OK)
		goto fail;
	if (res->verdicts && (rc = store_insert_verdicts(s, case_pk, res->verdicts, e)) != ASSAY_OK)
		goto fail;
	if ((rc = set_outcome(s, case_pk, res, ended, e)) != ASSAY_OK)
		goto fail;
	return store_commit(s, e);
fail:
	store_rollback(s);
	return rc;
}

assay_err assay_store_case_record(struct assay_store *s, const char *run_id,
				  const struct assay_case_info *info,
				  const struct assay_case_result *res, struct assay_error *e)
{
	char ended[32];
	if (!info->case_id || !*info->case_id)
		return assay_error_set(e, ASSAY_USAGE, "a case needs a case id");
	if (!reruns(res->outcome) && res->outcome != ASSAY_OUTCOME_UNSUPPORTED)
		return assay_error_set(e, ASSAY_USAGE,
				       "case '%s': only unsupported, skipped and infrastructure "
				       "cases are recorded without running, not %s",
				       info->case_id, assay_outcome_name(res->outcome));
	long long run_pk, case_pk;
	int outcome;
	assay_err rc = check_result(info->case_id, res, ended, e);
	if (rc != ASSAY_OK ||
	    (rc = begin_case(s, run_id, info->case_id, &run_pk, &case_pk, &outcome, e)) != ASSAY_OK)
		return rc;
	if (outcome >= 0 && assay_outcome_final((enum assay_outcome)outcome)) {
		rc = already_finished(s, run_id, info->case_id, outcome, e);
		goto fail;
	}
	if (!case_pk) {
		char *factors = info->factors ? assay_json_canonical(info->factors) : NULL;
		struct store_stmt *st =
		    store_prepare(s,
				  "INSERT INTO cases (run, case_id, factors, started, "
				  "artifact_dir, attempts) VALUES (?1, ?2, ?3, ?4, ?5, 0)",
				  e);
		if (!st) {
			free(factors);
			rc = e ? e->code : ASSAY_INFRA;
			goto fail;
		}
		store_bind_int64(st, 1, run_pk);
		store_bind_static(st, 2, info->case_id);
		store_bind_text(st, 3, factors);
		store_bind_static(st, 4, ended);
		store_bind_text(st, 5, info->artifact_dir);
		free(factors);
		if ((rc = step_done(s, st, "recording the case", e)) != ASSAY_OK)
			goto fail;
		case_pk = store_last_id(s);
	}
	if ((rc = set_outcome(s, case_pk, res, ended, e)) != ASSAY_OK)
		goto fail;
	return store_commit(s, e);
fail:
	store_rollback(s);
	return rc;
}

assay_err assay_store_run_cases(struct assay_store *s, const char *run_id,
				struct assay_case_list *out, struct assay_error *e)
{
	long long pk;
	assay_err rc = store_run_pk(s, run_id, &pk, NULL, e);
	if (rc != ASSAY_OK)
		return rc;
	struct store_stmt *st = store_prepare(
	    s, "SELECT case_id, outcome, attempts FROM cases WHERE run = ?1 ORDER BY id", e);
	if (!st)
		return e ? e->code : ASSAY_INFRA;
	store_bind_int64(st, 1, pk);
	int step;
	while ((step = store_step(st)) == STORE_ROW) {
		ALLOC_GROW(out->v, out->n + 1, out->alloc);
		struct assay_case_status *c = &out->v[out->n++];
		c->case_id = store_column_dup(st, 0);
		const char *o = store_column_text(st, 1);
		int outcome = o ? assay_outcome_parse(o) : -1;
		c->finished = o != NULL;
		/* An outcome this assay does not know runs again, like infrastructure. */
		c->outcome = o ? (outcome < 0 ? ASSAY_OUTCOME_INFRA : (enum assay_outcome)outcome)
			       : ASSAY_OUTCOME_PASSED;
		c->attempts = (int)store_column_int64(st, 2);
	}
	store_finalize(st);
	if (step != STORE_DONE)
		return store_sqlerr(s, e, "listing cases");
	return ASSAY_OK;
}

bool assay_case_list_finished(const struct assay_case_list *l, const char *case_id)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i].finished && assay_outcome_final(l->v[i].outcome) &&
		    !strcmp(l->v[i].case_id, case_id))
			return true;
	return false;
}

void assay_case_list_release(struct assay_case_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i].case_id);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

assay_err assay_store_runs(struct assay_store *s, size_t limit, struct assay_run_list *out,
			   struct assay_error *e)
{
	struct store_stmt *st = store_prepare(
	    s,
	    "SELECT r.run_id, r.suite, r.revision, r.launcher, r.started, r.ended, "
	    "coalesce(r.exit_code, -1), "
	    "(SELECT count(*) FROM cases c WHERE c.run = r.id), "
	    "(SELECT count(*) FROM cases c WHERE c.run = r.id AND c.outcome IS NOT NULL), "
	    "(SELECT coalesce(sum(c.rows), 0) FROM cases c WHERE c.run = r.id) + "
	    "(SELECT coalesce(sum(i.rows), 0) FROM ingests i WHERE i.run = r.id) "
	    "FROM runs r ORDER BY r.id DESC LIMIT ?1",
	    e);
	if (!st)
		return e ? e->code : ASSAY_INFRA;
	store_bind_int64(st, 1, limit ? (int64_t)limit : INT64_MAX);
	int step;
	while ((step = store_step(st)) == STORE_ROW) {
		ALLOC_GROW(out->v, out->n + 1, out->alloc);
		struct assay_run_summary *r = &out->v[out->n++];
		r->run_id = store_column_dup(st, 0);
		r->suite = store_column_dup(st, 1);
		r->revision = store_column_dup(st, 2);
		r->launcher = store_column_dup(st, 3);
		r->started = store_column_dup(st, 4);
		r->ended = store_column_dup(st, 5);
		r->exit_code = (int)store_column_int64(st, 6);
		r->cases = store_column_int64(st, 7);
		r->finished = store_column_int64(st, 8);
		r->rows = store_column_int64(st, 9);
	}
	store_finalize(st);
	if (step != STORE_DONE)
		return store_sqlerr(s, e, "listing runs");
	return ASSAY_OK;
}

void assay_run_list_release(struct assay_run_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		struct assay_run_summary *r = &l->v[i];
		free(r->run_id);
		free(r->suite);
		free(r->revision);
		free(r->launcher);
		free(r->started);
		free(r->ended);
	}
	free(l->v);
	memset(l, 0, sizeof(*l));
}
