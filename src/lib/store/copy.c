/* assay_store_copy: every row of one store into another, empty one, table
 * by table with their ids, whatever the two backends (SQLite to PostgreSQL
 * and back). Rows are read a chunk at a time, so memory stays bounded; the
 * destination commits once, so a copy that fails leaves it as it was. */
#include <stdlib.h>
#include <string.h>

#include "store_int.h"

/* The tables and their columns, parents before children except where the
 * case triggers need the children first (a finished case takes no rows):
 * foreign keys are checked at the commit. Types: i integer, r real, t text. */
static const struct copy_table {
	const char *name, *cols, *types;
} tables[] = {
    {"runs",
     "id, run_id, suite, revision, config_sha256, matrix_sha256, catalog_sha256, host, "
     "launcher, started, ended, exit_code, resumed, image, image_digest",
     "ittttttttttiitt"},
    {"series",
     "id, key, fields, metric, statistic, cluster, scale, precision, workload, unit, direction",
     "itttttttttt"},
    {"measurements",
     "id, run, \"case\", series, run_id, case_id, value, samples, revision, timestamp",
     "iiiittritt"},
    {"verdicts",
     "id, \"case\", seq, gate, metric, series_key, status, value, unit, spec, message, acked",
     "iiittttrttti"},
    {"cases",
     "id, run, case_id, factors, outcome, reason, started, ended, duration_s, attempts, rows, "
     "artifact_dir, stdout_log, stderr_log, queue_s, run_s, image, image_digest",
     "iittttttriitttrrtt"},
    {"procs",
     "id, \"case\", run_attempt, host, boot_id, pid, pid_start, contain, cgroup, slurm_job, "
     "container, recorded, ended",
     "iiittiitttttt"},
    {"provenance", "id, \"case\", name, per, unit, matched", "iitttt"},
    {"annotations", "id, series, revision, kind, note, created", "iitttt"},
    {"ingests", "id, run, file, format, sha256, rows", "iittti"},
    {"forgotten",
     "id, ingest, run_id, file, format, sha256, rows, ingested, forgotten, by_user, by_host, note",
     "iittttittttt"},
    {"seconds_cut", "id, below", "ii"},
    {"notifications", "id, target, event, kind, series_key, revision, sent", "itttttt"},
};

#define COPY_CHUNK 20000

static int ncols(const struct copy_table *t)
{
	return (int)strlen(t->types);
}

/* Every table names as many columns as it has types. */
static bool tables_sound(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(tables); i++) {
		int n = 1;
		for (const char *p = tables[i].cols; *p; p++)
			n += *p == ',';
		if (n != ncols(&tables[i]))
			return false;
	}
	return true;
}

/* The destination holds no history: no runs, no series. */
static assay_err check_empty(struct assay_store *to, struct assay_error *e)
{
	struct store_stmt *st = store_prepare(
	    to, "SELECT (SELECT count(*) FROM runs), (SELECT count(*) FROM series)", e);
	if (!st)
		return e ? e->code : ASSAY_INFRA;
	long long runs = 0, series = 0;
	enum store_step step = store_step(st);
	if (step == STORE_ROW) {
		runs = store_column_int64(st, 0);
		series = store_column_int64(st, 1);
	}
	store_finalize(st);
	if (step != STORE_ROW)
		return store_sqlerr(to, e, "reading");
	if (runs || series)
		return assay_error_set(e, ASSAY_USAGE,
				       "%s: holds a history already (%lld runs, %lld series); "
				       "copy into a new or empty store",
				       to->path, runs, series);
	return ASSAY_OK;
}

/* One value of row st as a COPY text field. */
static void copy_field(struct sbuf *b, struct store_stmt *st, int col, char type)
{
	if (store_column_null(st, col)) {
		sbuf_adds(b, "\\N");
		return;
	}
	if (type == 'i') {
		sbuf_addf(b, "%lld", (long long)store_column_int64(st, col));
	} else if (type == 'r') {
		char num[32];
		store_double_text(num, sizeof(num), store_column_double(st, col));
		sbuf_adds(b, num);
	} else {
		store_copy_text(b, store_column_text(st, col));
	}
}

/* Bind value col of row st to parameter col+1 of ins. */
static void bind_field(struct store_stmt *ins, struct store_stmt *st, int col, char type)
{
	if (store_column_null(st, col))
		store_bind_null(ins, col + 1);
	else if (type == 'i')
		store_bind_int64(ins, col + 1, store_column_int64(st, col));
	else if (type == 'r')
		store_bind_double(ins, col + 1, store_column_double(st, col));
	else
		store_bind_textn(ins, col + 1, store_column_text(st, col),
				 store_column_bytes(st, col), true);
}

/* The rows of st (a chunk) into to: COPY lines where to has COPY, else
 * ins, one row at a time. *last gets the last id, *n counts. */
static assay_err put_rows(struct assay_store *to, const struct copy_table *t, struct store_stmt *st,
			  struct store_stmt *ins, long long *last, long long *n, int *step,
			  struct assay_error *e)
{
	int nc = ncols(t);
	struct sbuf *b = &to->copy_buf;
	while ((*step = store_step(st)) == STORE_ROW) {
		*last = store_column_int64(st, 0);
		(*n)++;
		if (!ins) {
			for (int c = 0; c < nc; c++) {
				if (c)
					sbuf_addch(b, '\t');
				copy_field(b, st, c, t->types[c]);
			}
			sbuf_addch(b, '\n');
			continue;
		}
		store_reset(ins);
		for (int c = 0; c < nc; c++)
			bind_field(ins, st, c, t->types[c]);
		if (store_step(ins) != STORE_DONE)
			return store_sqlerr(to, e, "copying rows");
	}
	if (ins || !b->len)
		return ASSAY_OK;
	char *sql = xasprintf("COPY %s (%s) FROM STDIN", t->name, t->cols);
	assay_err rc = store_copy_send(to, sql, "copying rows", e);
	free(sql);
	return rc;
}

static assay_err copy_table(struct assay_store *from, struct assay_store *to,
			    const struct copy_table *t, long long *n, struct assay_error *e)
{
	char *sql = xasprintf("SELECT %s FROM %s WHERE id > ?1 ORDER BY id LIMIT %d", t->cols,
			      t->name, COPY_CHUNK);
	struct store_stmt *st = store_prepare(from, sql, e);
	free(sql);
	if (!st)
		return e ? e->code : ASSAY_INFRA;
	struct store_stmt *ins = NULL;
	assay_err rc = ASSAY_OK;
	if (!to->be->copy_begin) {
		struct sbuf q = SBUF_INIT;
		sbuf_addf(&q, "INSERT INTO %s (%s) VALUES (", t->name, t->cols);
		for (int c = 0; c < ncols(t); c++)
			sbuf_addf(&q, "%s?%d", c ? ", " : "", c + 1);
		sbuf_adds(&q, ")");
		ins = store_prepare(to, q.buf, e);
		sbuf_release(&q);
		if (!ins) {
			store_finalize(st);
			return e ? e->code : ASSAY_INFRA;
		}
	}
	long long last = 0, before;
	int step = STORE_DONE;
	do {
		before = *n;
		store_reset(st);
		store_bind_int64(st, 1, last);
		rc = put_rows(to, t, st, ins, &last, n, &step, e);
	} while (rc == ASSAY_OK && step == STORE_DONE && *n - before == COPY_CHUNK);
	if (rc == ASSAY_OK && step != STORE_DONE)
		rc = store_sqlerr(from, e, "reading rows to copy");
	store_finalize(st);
	store_finalize(ins);
	if (rc == ASSAY_OK && to->be->ids_follow && to->be->ids_follow(to->db, t->name) != 0)
		rc = store_sqlerr(to, e, "setting the next ids");
	return rc;
}

assay_err assay_store_copy(struct assay_store *from, struct assay_store *to,
			   struct assay_copy_counts *counts, struct assay_error *e)
{
	memset(counts, 0, sizeof(*counts));
	if (!tables_sound())
		return assay_error_set(e, ASSAY_INFRA,
				       "store copy: a table's columns and types differ");
	assay_err rc = check_empty(to, e);
	if (rc != ASSAY_OK)
		return rc;
	if ((rc = assay_store_snapshot_begin(from, e)) != ASSAY_OK)
		return rc;
	if ((rc = store_begin(to, e)) != ASSAY_OK) {
		assay_store_snapshot_end(from);
		return rc;
	}
	if ((rc = check_empty(to, e)) == ASSAY_OK)
		rc = store_exec(to, to->be->defer_fk_sql, e);
	for (size_t i = 0; i < ARRAY_SIZE(tables) && rc == ASSAY_OK; i++) {
		long long n = 0;
		rc = copy_table(from, to, &tables[i], &n, e);
		if (!strcmp(tables[i].name, "runs"))
			counts->runs = n;
		else if (!strcmp(tables[i].name, "series"))
			counts->series = n;
		else if (!strcmp(tables[i].name, "measurements"))
			counts->rows = n;
		counts->total += n;
	}
	assay_store_snapshot_end(from);
	if (rc != ASSAY_OK) {
		store_rollback(to);
		memset(counts, 0, sizeof(*counts));
		return rc;
	}
	return store_commit(to, e);
}
