/* Unit tests for the results store: schema and migrations, runs and cases
 * as the runner records them, the never-twice constraints, series identity,
 * ingest, queries, annotations, two concurrent writer processes and a writer
 * killed with SIGKILL at arbitrary moments. */
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "assay/contain.h"
#include "assay/gate.h"
#include "assay/json.h"
#include "assay/store.h"
#include "store/backend.h"

static char dir[] = "/tmp/assay-test-store-XXXXXX";
static char path[512];

static int setup(void **state)
{
	(void)state;
	static bool made;
	if (!made) {
		assert_non_null(mkdtemp(dir));
		made = true;
	}
	static int n;
	snprintf(path, sizeof(path), "%s/s%d.db", dir, n++);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -f %s %s-wal %s-shm", path, path, path);
	assert_int_equal(system(cmd), 0);
	return 0;
}

static struct assay_store *open_store(void)
{
	struct assay_store *s = NULL;
	struct assay_error e;
	assay_err rc = assay_store_open(path, ASSAY_STORE_CREATE, &s, &e);
	if (rc != ASSAY_OK)
		fail_msg("%s", e.message);
	return s;
}

static void close_store(struct assay_store *s)
{
	struct assay_error e;
	assert_int_equal(assay_store_close(s, &e), ASSAY_OK); /* every statement finalized */
}

static void add_row(struct assay_rows *rows, const char *precision, const char *metric, double v,
		    const char *revision)
{
	struct assay_row *r = assay_rows_add(rows);
	assay_row_set(r,
		      json_pack("{s:s, s:s, s:s, s:s}", "workload", "llama", "cluster", "mi300x-a",
				"scale", "1x8", "precision", precision),
		      metric, "mean", v, "tok/s", ASSAY_DIR_HIGHER);
	if (revision)
		r->revision = xstrdup(revision);
	struct assay_error e;
	assert_int_equal(assay_row_finish(r, &e), ASSAY_OK);
}

/* One value from SQL (the store is a plain SQLite file users may query). */
static long long sql_int(const char *sql)
{
	sqlite3 *db;
	assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	sqlite3_stmt *st;
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	long long v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(db);
	return v;
}

/* Run SQL on a separate connection; returns the SQLite result code. */
static int sql_exec(const char *sql)
{
	sqlite3 *db;
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	sqlite3_exec(db, "PRAGMA foreign_keys = ON", NULL, NULL, NULL);
	int rc = sqlite3_exec(db, sql, NULL, NULL, NULL);
	sqlite3_close(db);
	return rc;
}

static void test_open(void **state)
{
	(void)state;
	struct assay_store *s = NULL;
	struct assay_error e;
	assert_int_equal(assay_store_open(path, 0, &s, &e), ASSAY_USAGE);
	assert_true(strstr(e.message, "no such store") != NULL);
	s = open_store();
	assert_int_equal(assay_store_schema_version(s), ASSAY_STORE_SCHEMA_VERSION);
	close_store(s);
	assert_int_equal(sql_int("PRAGMA user_version"), ASSAY_STORE_SCHEMA_VERSION);
	assert_int_equal(sql_int("PRAGMA application_id"), 0x61737379);
	sqlite3 *db;
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	sqlite3_stmt *st;
	assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	assert_string_equal((const char *)sqlite3_column_text(st, 0), "delete");
	sqlite3_finalize(st);
	sqlite3_close(db);
	/* Reopening read-only works and changes nothing. */
	assert_int_equal(assay_store_open(path, ASSAY_STORE_READONLY, &s, &e), ASSAY_OK);
	assert_int_equal(assay_store_verify(s, &e), ASSAY_OK);
	struct assay_run_info ri = {0};
	assert_int_equal(assay_store_run_begin(s, &ri, NULL, &e), ASSAY_USAGE);
	close_store(s);
}

static void test_refuses(void **state)
{
	(void)state;
	struct assay_store *s = NULL;
	struct assay_error e;
	FILE *f = fopen(path, "w");
	fputs("not a database at all, just some text that is long enough to be a header\n", f);
	fclose(f);
	assert_int_equal(assay_store_open(path, ASSAY_STORE_CREATE, &s, &e), ASSAY_USAGE);
	assert_non_null(strstr(e.message, "not an SQLite database"));
	assert_null(s);
	unlink(path);
	assert_int_equal(sql_exec("CREATE TABLE other (x)"), SQLITE_OK);
	assert_int_equal(assay_store_open(path, ASSAY_STORE_CREATE, &s, &e), ASSAY_USAGE);
	assert_non_null(strstr(e.message, "not an assay store"));
	unlink(path);
	/* A store written by a newer assay is refused, not damaged. */
	close_store(open_store());
	assert_int_equal(sql_exec("PRAGMA user_version = 99"), SQLITE_OK);
	assert_int_equal(assay_store_open(path, ASSAY_STORE_CREATE, &s, &e), ASSAY_INFRA);
	assert_non_null(strstr(e.message, "schema version 99 is newer"));
}

static void test_migrate_from_empty(void **state)
{
	(void)state;
	/* An empty SQLite file (version 0) is migrated forward on open. */
	assert_int_equal(sql_exec("PRAGMA user_version = 0"), SQLITE_OK);
	struct assay_store *s = open_store();
	assert_int_equal(assay_store_schema_version(s), ASSAY_STORE_SCHEMA_VERSION);
	close_store(s);
	assert_int_equal(
	    sql_int("SELECT count(*) FROM sqlite_master WHERE name IN ('runs', 'cases', "
		    "'series', 'measurements', 'annotations', 'ingests', 'verdicts')"),
	    7);
}

/* Text of one value from SQL (NULL as "NULL"), into a static buffer. */
static const char *sql_text(const char *sql)
{
	static char buf[512];
	sqlite3 *db;
	assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	sqlite3_stmt *st;
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	const unsigned char *t = sqlite3_column_text(st, 0);
	snprintf(buf, sizeof(buf), "%s", t ? (const char *)t : "NULL");
	sqlite3_finalize(st);
	sqlite3_close(db);
	return buf;
}

static void test_migrate_from_v1(void **state)
{
	(void)state;
	/* A version 1 store (tests/fixtures/store/v1.sql) is migrated forward on open
	 * and keeps every run, case, row, annotation and ingest. */
	size_t len;
	struct assay_error e;
	char *sql = assay_read_file(ASSAY_SOURCE_DIR "/tests/fixtures/store/v1.sql", &len, &e);
	assert_non_null(sql);
	sqlite3 *db; /* foreign keys off, as the sqlite3 shell loads a dump */
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	int rc = sqlite3_exec(db, sql, NULL, NULL, NULL);
	sqlite3_close(db);
	free(sql);
	assert_int_equal(rc, SQLITE_OK);
	assert_int_equal(sql_int("PRAGMA user_version"), 1);
	/* Read-only, a version 1 store is refused: its outcomes need rewriting. */
	struct assay_store *s = NULL;
	assert_int_equal(assay_store_open(path, ASSAY_STORE_READONLY, &s, &e), ASSAY_USAGE);
	assert_non_null(strstr(e.message, "store schema version 1 needs migrating to 10"));
	s = open_store();
	assert_int_equal(assay_store_schema_version(s), ASSAY_STORE_SCHEMA_VERSION);
	/* Version 3: the series index covers what reading a series needs. */
	assert_int_equal(sql_int("SELECT count(*) FROM sqlite_master WHERE name = "
				 "'measurements_by_series' AND sql LIKE '%run, value, revision)'"),
			 1);
	assert_int_equal(assay_store_verify(s, &e), ASSAY_OK);
	/* Outcomes are the runner's names now: ok -> passed, usage -> infrastructure. */
	struct assay_case_list cl = {0};
	assert_int_equal(assay_store_run_cases(s, "r1", &cl, &e), ASSAY_OK);
	assert_int_equal(cl.n, 4);
	assert_int_equal(cl.v[0].outcome, ASSAY_OUTCOME_PASSED);
	assert_int_equal(cl.v[1].outcome, ASSAY_OUTCOME_WORKLOAD_FAILED);
	assert_false(cl.v[2].finished);
	assert_int_equal(cl.v[3].outcome, ASSAY_OUTCOME_INFRA);
	assert_true(assay_case_list_finished(&cl, "fp8-mbs4"));
	assert_false(assay_case_list_finished(&cl, "bf16-mbs4"));
	assert_false(assay_case_list_finished(&cl, "odd")); /* infrastructure runs again */
	assay_case_list_release(&cl);
	/* The rows still belong to their case, and the case's rows read back. */
	struct assay_rows rows = ASSAY_ROWS_INIT;
	assert_int_equal(assay_store_case_rows(s, "r1", "fp8-mbs4", &rows, &e), ASSAY_OK);
	assert_int_equal(rows.n, 2);
	assert_string_equal(rows.v[0].metric, "tokens_per_gpu");
	assert_true(rows.v[0].value == 7100.5);
	assert_string_equal(rows.v[1].run_id, "r1");
	assay_rows_release(&rows);
	/* The resumed run finishes the unfinished case once; the finished one stays. */
	struct assay_case_info ci = {.case_id = "bf16-mbs4"};
	assert_int_equal(assay_store_case_begin(s, "r1", &ci, &e), ASSAY_OK);
	struct assay_case_result res = {.outcome = ASSAY_OUTCOME_PASSED, .duration_s = 1};
	assert_int_equal(assay_store_case_finish(s, "r1", "bf16-mbs4", &res, &e), ASSAY_OK);
	ci.case_id = "fp8-mbs4";
	assert_int_equal(assay_store_case_begin(s, "r1", &ci, &e), ASSAY_USAGE);
	close_store(s);
	assert_string_equal(
	    sql_text("SELECT group_concat(case_id || ':' || outcome || ':' || attempts, ' ') "
		     "FROM (SELECT * FROM cases ORDER BY id)"),
	    "fp8-mbs4:passed:1 bf16-mbs2:workload-failed:1 bf16-mbs4:passed:3 "
	    "odd:infrastructure:1");
	assert_string_equal(sql_text("SELECT reason FROM cases WHERE case_id = 'bf16-mbs2'"),
			    "exit code 7");
	assert_int_equal(sql_int("SELECT count(*) FROM measurements"), 3);
	assert_int_equal(
	    sql_int("SELECT count(*) FROM measurements m JOIN cases c ON c.id = m.\"case\" "
		    "WHERE c.case_id = 'fp8-mbs4'"),
	    2);
	assert_int_equal(sql_int("SELECT count(*) FROM annotations"), 1);
	assert_int_equal(sql_int("SELECT count(*) FROM ingests"), 1);
	assert_int_equal(sql_int("SELECT count(*) FROM runs"), 2);
	assert_int_equal(sql_int("SELECT count(*) FROM pragma_foreign_key_check"), 0);
	/* The rebuilt table keeps its guards: cascades, never twice, row checks. */
	assert_int_equal(sql_exec("UPDATE cases SET reason = 'x' WHERE case_id = 'fp8-mbs4'") &
			     0xff,
			 SQLITE_CONSTRAINT);
	assert_int_equal(
	    sql_exec("INSERT INTO measurements (run, \"case\", series, value, samples, "
		     "timestamp) VALUES (1, 1, 1, 5, 1, 'x')") &
		0xff,
	    SQLITE_CONSTRAINT);
	assert_int_equal(sql_exec("DELETE FROM runs WHERE run_id = 'r1'"), SQLITE_OK);
	assert_int_equal(sql_int("SELECT count(*) FROM measurements"), 1);
	assert_int_equal(sql_int("SELECT count(*) FROM cases"), 0);
}

static void test_readonly_v2(void **state)
{
	(void)state;
	/* A version 2 store differs only in the series index: read-only, it is
	 * read as it is (nothing written); the next writable open migrates it. */
	struct assay_store *s = open_store();
	struct assay_error e;
	struct assay_run_info ri = {.run_id = "r2"};
	assert_int_equal(assay_store_run_begin(s, &ri, NULL, &e), ASSAY_OK);
	close_store(s);
	assert_int_equal(
	    sql_exec("DROP INDEX measurements_by_identity; DROP INDEX "
		     "measurements_by_series; CREATE INDEX "
		     "measurements_by_series ON measurements (series, timestamp, id); "
		     "DROP TABLE procs; ALTER TABLE cases DROP COLUMN queue_s; "
		     "ALTER TABLE cases DROP COLUMN run_s; ALTER TABLE cases DROP COLUMN "
		     "image; ALTER TABLE cases DROP COLUMN image_digest; ALTER TABLE runs "
		     "DROP COLUMN image; ALTER TABLE runs DROP COLUMN image_digest; "
		     "DROP TABLE provenance; PRAGMA user_version = 2"),
	    SQLITE_OK);
	assert_int_equal(assay_store_open(path, ASSAY_STORE_READONLY, &s, &e), ASSAY_OK);
	assert_int_equal(assay_store_schema_version(s), 2);
	assert_int_equal(assay_store_verify(s, &e), ASSAY_OK);
	close_store(s);
	assert_int_equal(sql_int("PRAGMA user_version"), 2);
	s = open_store();
	assert_int_equal(assay_store_schema_version(s), ASSAY_STORE_SCHEMA_VERSION);
	close_store(s);
	assert_int_equal(sql_int("SELECT count(*) FROM sqlite_master WHERE name = "
				 "'measurements_by_series' AND sql LIKE '%run, value, revision)'"),
			 1);
	assert_int_equal(sql_int("SELECT count(*) FROM runs WHERE run_id = 'r2'"), 1);
}

static void test_runs(void **state)
{
	(void)state;
	struct assay_store *s = open_store();
	struct assay_error e;
	char id[64], last[64];
	assert_int_equal(assay_store_last_run(s, last, &e), ASSAY_USAGE);
	assert_non_null(strstr(e.message, "no runs yet"));
	struct assay_run_info ri = {.run_id = "r1",
				    .suite = "ep",
				    .revision = "abc",
				    .matrix_sha256 = "m",
				    .catalog_sha256 = "c",
				    .launcher = "local",
				    .started = "2026-11-30T19:15:02+01:00"};
	assert_int_equal(assay_store_run_begin(s, &ri, id, &e), ASSAY_OK);
	assert_string_equal(id, "r1");
	assert_int_equal(assay_store_run_begin(s, &ri, id, &e), ASSAY_USAGE);
	assert_non_null(strstr(e.message, "run 'r1' exists already"));
	ri.run_id = "bad id";
	assert_int_equal(assay_store_run_begin(s, &ri, id, &e), ASSAY_USAGE);
	ri.run_id = NULL;
	ri.started = NULL;
	assert_int_equal(assay_store_run_begin(s, &ri, id, &e), ASSAY_OK);
	assert_int_equal(strlen(id), 23); /* YYYYMMDDTHHMMSSZ-xxxxxx */
	assert_int_equal(assay_store_last_run(s, last, &e), ASSAY_OK);
	assert_string_equal(last, id);
	assert_int_equal(assay_store_run_end(s, "r1", ASSAY_GATE_FAILED, &e), ASSAY_OK);
	assert_int_equal(assay_store_run_end(s, "nope", ASSAY_OK, &e), ASSAY_USAGE);
	assert_non_null(strstr(e.message, "no run 'nope'"));
	assert_int_equal(assay_store_run_resume(s, "last", last, &e), ASSAY_OK);
	assert_string_equal(last, id);
	close_store(s);
	assert_int_equal(sql_int("SELECT exit_code FROM runs WHERE run_id = 'r1'"), 1);
	assert_int_equal(
	    sql_int("SELECT started = '2026-11-30T18:15:02Z' FROM runs WHERE run_id = 'r1'"), 1);
	assert_int_equal(sql_int("SELECT resumed FROM runs ORDER BY id DESC LIMIT 1"), 1);
}

/* Case provenance (schema 7): written per case (a new attempt replaces
 * what the last one wrote), read back per run in case order; a version 6
 * store read as it is has none. */
static void test_provenance(void **state)
{
	(void)state;
	struct assay_store *s = open_store();
	struct assay_error e;
	struct assay_run_info ri = {.run_id = "r1"};
	assert_int_equal(assay_store_run_begin(s, &ri, NULL, &e), ASSAY_OK);
	struct assay_case_info ci = {.case_id = "c1", .started = "2026-01-01T00:00:00Z"};
	assert_int_equal(assay_store_case_begin(s, "r1", &ci, &e), ASSAY_OK);
	struct assay_provenance first[] = {{NULL, "rccl", "node", "n1", "RCCL version 2.20.5"}};
	assert_int_equal(assay_store_case_provenance(s, "r1", "c1", first, 1, &e), ASSAY_OK);
	struct assay_provenance again[] = {{NULL, "rccl", "rank", "0", "RCCL version 2.22.3"},
					   {NULL, "rccl", "rank", "1", NULL}};
	assert_int_equal(assay_store_case_provenance(s, "r1", "c1", again, 2, &e), ASSAY_OK);
	assert_int_equal(assay_store_case_provenance(s, "r1", "nope", again, 2, &e), ASSAY_USAGE);
	struct assay_provenance *v;
	size_t n;
	assert_int_equal(assay_store_run_provenance(s, "r1", &v, &n, &e), ASSAY_OK);
	assert_int_equal(n, 2);
	assert_string_equal(v[0].case_id, "c1");
	assert_string_equal(v[0].per, "rank");
	assert_string_equal(v[0].unit, "0");
	assert_string_equal(v[0].matched, "RCCL version 2.22.3");
	assert_null(v[1].matched);
	assay_provenance_free(v, n);
	close_store(s);
	assert_int_equal(sql_exec("DROP TABLE provenance; PRAGMA user_version = 6"), SQLITE_OK);
	assert_int_equal(assay_store_open(path, ASSAY_STORE_READONLY, &s, &e), ASSAY_OK);
	assert_int_equal(assay_store_run_provenance(s, "r1", &v, &n, &e), ASSAY_OK);
	assert_int_equal(n, 0);
	assert_null(v);
	close_store(s);
}

static void test_cases(void **state)
{
	(void)state;
	struct assay_store *s = open_store();
	struct assay_error e;
	struct assay_run_info ri = {.run_id = "r1"};
	assert_int_equal(assay_store_run_begin(s, &ri, NULL, &e), ASSAY_OK);
	json_t *factors = json_pack("{s:s, s:i}", "backend", "shm", "ep", 8);
	struct assay_case_info ci = {.case_id = "c1",
				     .factors = factors,
				     .artifact_dir = "out/c1",
				     .stdout_log = "out/c1/stdout.log",
				     .started = "2026-01-01T00:00:00Z"};
	assert_int_equal(assay_store_case_begin(s, "r1", &ci, &e), ASSAY_OK);
	ci.case_id = "c2";
	assert_int_equal(assay_store_case_begin(s, "r1", &ci, &e), ASSAY_OK);
	struct assay_rows rows = ASSAY_ROWS_INIT;
	add_row(&rows, "bf16", "tokens", 100, "abc");
	add_row(&rows, "bf16", "tflops", 300, "abc");
	struct assay_case_result res = {.outcome = ASSAY_OUTCOME_PASSED,
					.ended = "2026-01-01T00:00:30Z",
					.duration_s = -1,
					.rows = &rows};
	assert_int_equal(assay_store_case_finish(s, "r1", "c1", &res, &e), ASSAY_OK);
	/* Never twice: finishing again, or beginning a finished case, is refused. */
	assert_int_equal(assay_store_case_finish(s, "r1", "c1", &res, &e), ASSAY_USAGE);
	assert_non_null(strstr(e.message, "case 'c1' has already finished in run 'r1' (passed)"));
	ci.case_id = "c1";
	assert_int_equal(assay_store_case_begin(s, "r1", &ci, &e), ASSAY_USAGE);
	assert_int_equal(assay_store_case_finish(s, "r1", "c9", &res, &e), ASSAY_USAGE);
	assert_non_null(strstr(e.message, "case 'c9' was not begun"));
	/* A bad row: nothing of the case is written, it stays unfinished. */
	struct assay_rows bad = ASSAY_ROWS_INIT;
	add_row(&bad, "bf16", "tokens", 1, NULL);
	struct assay_row *r = assay_rows_add(&bad);
	assay_row_set(r, json_pack("{s:s}", "workload", "x"), "tokens", "mean", 1, "tok/s",
		      ASSAY_DIR_HIGHER);
	assert_int_equal(assay_row_finish(r, &e), ASSAY_OK);
	res.rows = &bad;
	res.outcome = ASSAY_OUTCOME_WORKLOAD_FAILED;
	assert_int_equal(assay_store_case_finish(s, "r1", "c2", &res, &e), ASSAY_USAGE);
	assert_string_equal(e.message,
			    "row 2: tokens/mean: series has no \"cluster\" (cluster, scale "
			    "and precision identify every stored series)");
	/* A case begun again after a kill keeps one row and counts attempts. */
	ci.case_id = "c2";
	assert_int_equal(assay_store_case_begin(s, "r1", &ci, &e), ASSAY_OK);
	struct assay_case_list cl = {0};
	assert_int_equal(assay_store_run_cases(s, "last", &cl, &e), ASSAY_OK);
	assert_int_equal(cl.n, 2);
	assert_true(assay_case_list_finished(&cl, "c1"));
	assert_false(assay_case_list_finished(&cl, "c2"));
	assert_int_equal(cl.v[1].attempts, 2);
	assert_int_equal(cl.v[0].outcome, ASSAY_OUTCOME_PASSED);
	assay_case_list_release(&cl);
	res.rows = NULL;
	res.reason = "exit status 1";
	assert_int_equal(assay_store_case_finish(s, "r1", "c2", &res, &e), ASSAY_OK);
	assert_int_equal(assay_store_verify(s, &e), ASSAY_OK);
	close_store(s);
	assay_rows_release(&rows);
	assay_rows_release(&bad);
	json_decref(factors);
	assert_int_equal(sql_int("SELECT count(*) FROM measurements"), 2);
	assert_int_equal(sql_int("SELECT rows FROM cases WHERE case_id = 'c1'"), 2);
	assert_int_equal(sql_int("SELECT duration_s FROM cases WHERE case_id = 'c1'"), 30);
	assert_int_equal(
	    sql_int("SELECT outcome = 'workload-failed' FROM cases WHERE case_id = 'c2'"), 1);
	assert_int_equal(
	    sql_int("SELECT json_extract(factors, '$.ep') FROM cases WHERE case_id = 'c1'"), 8);
	/* The constraints hold for anyone writing SQL, not only for this API. */
	assert_int_equal(
	    sql_exec("INSERT INTO cases (run, case_id, started) VALUES (1, 'c1', 'x')") & 0xff,
	    SQLITE_CONSTRAINT);
	assert_int_equal(sql_exec("UPDATE cases SET outcome = 'passed' WHERE case_id = 'c2'") &
			     0xff,
			 SQLITE_CONSTRAINT);
	assert_int_equal(sql_int("SELECT outcome = 'passed' FROM cases WHERE case_id = 'c1'"), 1);
	assert_int_equal(
	    sql_exec("INSERT INTO measurements (run, \"case\", series, value, samples, "
		     "timestamp) VALUES (1, 1, 1, 5, 1, 'x')") &
		0xff,
	    SQLITE_CONSTRAINT);
	assert_int_equal(
	    sql_exec("INSERT INTO measurements (run, series, value, samples, timestamp) "
		     "VALUES (1, 999, 5, 1, 'x')") &
		0xff,
	    SQLITE_CONSTRAINT);
}

static void test_not_run_and_reopen(void **state)
{
	(void)state;
	struct assay_store *s = open_store();
	struct assay_error e;
	struct assay_run_info ri = {.run_id = "r1"};
	assert_int_equal(assay_store_run_begin(s, &ri, NULL, &e), ASSAY_OK);
	/* Unsupported and skipped cases are recorded without running: 0 attempts. */
	struct assay_case_info ci = {.case_id = "nccl"};
	struct assay_case_result res = {.outcome = ASSAY_OUTCOME_UNSUPPORTED,
					.reason = "the nccl backend needs a GPU",
					.duration_s = -1};
	assert_int_equal(assay_store_case_record(s, "r1", &ci, &res, &e), ASSAY_OK);
	ci.case_id = "later";
	res.outcome = ASSAY_OUTCOME_SKIPPED;
	res.reason = "not run: --fail-fast after nccl";
	assert_int_equal(assay_store_case_record(s, "r1", &ci, &res, &e), ASSAY_OK);
	/* Only those three outcomes; a final case is not recorded again. */
	res.outcome = ASSAY_OUTCOME_PASSED;
	assert_int_equal(assay_store_case_record(s, "r1", &ci, &res, &e), ASSAY_USAGE);
	assert_non_null(strstr(e.message, "only unsupported, skipped and infrastructure"));
	res.outcome = ASSAY_OUTCOME_UNSUPPORTED;
	ci.case_id = "nccl";
	assert_int_equal(assay_store_case_record(s, "r1", &ci, &res, &e), ASSAY_USAGE);
	assert_int_equal(assay_store_case_begin(s, "r1", &ci, &e), ASSAY_USAGE);
	assert_non_null(strstr(e.message, "has already finished in run 'r1' (unsupported)"));
	/* A skipped case stores no rows: it runs again on --resume. */
	struct assay_rows rows = ASSAY_ROWS_INIT;
	add_row(&rows, "bf16", "tokens", 100, "abc");
	ci.case_id = "running";
	assert_int_equal(assay_store_case_begin(s, "r1", &ci, &e), ASSAY_OK);
	res.outcome = ASSAY_OUTCOME_SKIPPED;
	res.reason = "interrupted while running";
	res.rows = &rows;
	assert_int_equal(assay_store_case_finish(s, "r1", "running", &res, &e), ASSAY_USAGE);
	assert_non_null(strstr(e.message, "a skipped case stores no rows or verdicts"));
	res.rows = NULL;
	assert_int_equal(assay_store_case_finish(s, "r1", "running", &res, &e), ASSAY_OK);
	struct assay_case_list cl = {0};
	assert_int_equal(assay_store_run_cases(s, "r1", &cl, &e), ASSAY_OK);
	assert_int_equal(cl.n, 3);
	assert_true(assay_case_list_finished(&cl, "nccl"));
	assert_false(assay_case_list_finished(&cl, "later"));
	assert_false(assay_case_list_finished(&cl, "running"));
	assert_true(cl.v[1].finished);
	assert_int_equal(cl.v[1].outcome, ASSAY_OUTCOME_SKIPPED);
	assay_case_list_release(&cl);
	/* The resume: both skipped cases begin again and finish once, with rows. */
	const char *again[] = {"later", "running"};
	for (int i = 0; i < 2; i++) {
		ci.case_id = again[i];
		assert_int_equal(assay_store_case_begin(s, "r1", &ci, &e), ASSAY_OK);
		struct assay_case_result ok = {
		    .outcome = ASSAY_OUTCOME_PASSED, .duration_s = 2, .rows = &rows};
		assert_int_equal(assay_store_case_finish(s, "r1", again[i], &ok, &e), ASSAY_OK);
		assert_int_equal(assay_store_case_begin(s, "r1", &ci, &e), ASSAY_USAGE);
	}
	/* An infrastructure failure of a begun case is recorded and may run again. */
	ci.case_id = "disk";
	assert_int_equal(assay_store_case_begin(s, "r1", &ci, &e), ASSAY_OK);
	res.outcome = ASSAY_OUTCOME_INFRA;
	res.reason = "cannot write out/disk: No space left on device";
	assert_int_equal(assay_store_case_record(s, "r1", &ci, &res, &e), ASSAY_OK);
	assert_int_equal(assay_store_verify(s, &e), ASSAY_OK);
	close_store(s);
	assay_rows_release(&rows);
	assert_string_equal(
	    sql_text("SELECT group_concat(case_id || ':' || outcome || ':' || attempts || "
		     "':' || coalesce(duration_s, '-'), ' ') FROM (SELECT * FROM cases "
		     "ORDER BY id)"),
	    "nccl:unsupported:0:- later:passed:1:2.0 running:passed:2:2.0 "
	    "disk:infrastructure:1:0.0");
	assert_string_equal(sql_text("SELECT reason FROM cases WHERE case_id = 'nccl'"),
			    "the nccl backend needs a GPU");
	assert_int_equal(sql_int("SELECT count(*) FROM measurements"), 2);
	/* Reopening a case that stored rows is refused whoever writes the SQL. */
	assert_int_equal(sql_exec("UPDATE cases SET outcome = 'skipped' WHERE case_id = 'disk'"),
			 SQLITE_OK);
	assert_int_equal(
	    sql_exec("UPDATE cases SET outcome = 'skipped', rows = 1 WHERE case_id = 'later'") &
		0xff,
	    SQLITE_CONSTRAINT);
}

/* A resume that runs main again takes its finished teardown back
 * (assay_store_case_rerun): begun again with its attempts, its outcome the
 * latest one; never a case that stored rows or holds processes. */
static void test_rerun(void **state)
{
	(void)state;
	struct assay_store *s = open_store();
	struct assay_error e;
	struct assay_run_info ri = {.run_id = "r1"};
	assert_int_equal(assay_store_run_begin(s, &ri, NULL, &e), ASSAY_OK);
	struct assay_case_info ci = {.case_id = "teardown"};
	struct assay_case_result ok = {.outcome = ASSAY_OUTCOME_PASSED, .duration_s = 1};
	assert_int_equal(assay_store_case_begin(s, "r1", &ci, &e), ASSAY_OK);
	assert_int_equal(assay_store_case_finish(s, "r1", "teardown", &ok, &e), ASSAY_OK);
	assert_int_equal(assay_store_case_rerun(s, "r1", "teardown", &e), ASSAY_OK);
	struct assay_case_list cl = {0};
	assert_int_equal(assay_store_run_cases(s, "r1", &cl, &e), ASSAY_OK);
	assert_int_equal(cl.n, 1);
	assert_false(cl.v[0].finished);
	assert_int_equal(cl.v[0].attempts, 1);
	assay_case_list_release(&cl);
	/* Unfinished or absent: nothing to take back. */
	assert_int_equal(assay_store_case_rerun(s, "r1", "teardown", &e), ASSAY_OK);
	assert_int_equal(assay_store_case_rerun(s, "r1", "absent", &e), ASSAY_OK);
	assert_int_equal(assay_store_case_begin(s, "r1", &ci, &e), ASSAY_OK);
	struct assay_case_result bad = {
	    .outcome = ASSAY_OUTCOME_WORKLOAD_FAILED, .reason = "exit 4", .duration_s = 1};
	assert_int_equal(assay_store_case_finish(s, "r1", "teardown", &bad, &e), ASSAY_OK);
	/* A case with rows, or with a process not yet ended, stays as it is. */
	struct assay_rows rows = ASSAY_ROWS_INIT;
	add_row(&rows, "bf16", "tokens", 100, "abc");
	ci.case_id = "main";
	assert_int_equal(assay_store_case_begin(s, "r1", &ci, &e), ASSAY_OK);
	ok.rows = &rows;
	assert_int_equal(assay_store_case_finish(s, "r1", "main", &ok, &e), ASSAY_OK);
	assert_int_equal(assay_store_case_rerun(s, "r1", "main", &e), ASSAY_USAGE);
	assert_non_null(strstr(e.message, "case 'main' cannot run again"));
	ci.case_id = "held";
	assert_int_equal(assay_store_case_begin(s, "r1", &ci, &e), ASSAY_OK);
	struct assay_proc_record pr = {
	    .host = "h", .boot_id = "b", .pid = 42, .contain = "session"};
	assert_int_equal(assay_store_proc_record(s, "r1", "held", 1, &pr, &e), ASSAY_OK);
	ok.rows = NULL;
	assert_int_equal(assay_store_case_finish(s, "r1", "held", &ok, &e), ASSAY_OK);
	assert_int_equal(assay_store_case_rerun(s, "r1", "held", &e), ASSAY_USAGE);
	assert_int_equal(assay_store_verify(s, &e), ASSAY_OK);
	close_store(s);
	assay_rows_release(&rows);
	assert_string_equal(
	    sql_text("SELECT group_concat(case_id || ':' || outcome || ':' || attempts, ' ') "
		     "FROM (SELECT * FROM cases ORDER BY id)"),
	    "teardown:workload-failed:2 main:passed:1 held:passed:1");
	assert_int_equal(sql_int("SELECT count(*) FROM measurements"), 1);
}

static void test_verdicts(void **state)
{
	(void)state;
	struct assay_store *s = open_store();
	struct assay_error e;
	struct assay_run_info ri = {.run_id = "r1"};
	assert_int_equal(assay_store_run_begin(s, &ri, NULL, &e), ASSAY_OK);
	struct assay_rows rows = ASSAY_ROWS_INIT;
	add_row(&rows, "bf16", "tokens", 100, "abc");
	struct assay_verdicts vs = ASSAY_VERDICTS_INIT;
	struct assay_verdict *v =
	    assay_verdicts_add(&vs, ASSAY_VERDICT_FAIL, "threshold", "tokens/mean", 100, "tok/s",
			       ">= 120", "100 < 120");
	v->series_key = xstrdup(rows.v[0].series_key);
	assay_verdicts_add(&vs, ASSAY_VERDICT_SKIPPED, "rolling-mean", "tokens/mean", NAN, "", "",
			   "not enough history");
	v = assay_verdicts_add(&vs, ASSAY_VERDICT_PASS, "changepoint", "tokens/mean", 100, "tok/s",
			       "p < 0.0001", "regression -20%%, acknowledged");
	v->acked = true;
	struct assay_case_info ci = {.case_id = "c1"};
	assert_int_equal(assay_store_case_begin(s, "r1", &ci, &e), ASSAY_OK);
	/* Verdicts and rows commit with the outcome, or nothing does. */
	struct assay_verdicts bad = ASSAY_VERDICTS_INIT;
	assay_verdicts_add(&bad, ASSAY_VERDICT_PASS, "x", "y", 1, "", "", "ok")->series_key =
	    xstrdup("short");
	struct assay_case_result res = {.outcome = ASSAY_OUTCOME_GATE_FAILED,
					.reason = "gate",
					.duration_s = 1,
					.rows = &rows,
					.verdicts = &bad};
	assert_int_equal(assay_store_case_finish(s, "r1", "c1", &res, &e), ASSAY_USAGE);
	assert_string_equal(e.message, "verdict 1: a series key is 64 hex digits");
	res.verdicts = &vs;
	assert_int_equal(assay_store_case_finish(s, "r1", "c1", &res, &e), ASSAY_OK);
	struct assay_verdicts back = ASSAY_VERDICTS_INIT;
	assert_int_equal(assay_store_case_verdicts(s, "last", "c1", &back, &e), ASSAY_OK);
	assert_int_equal(back.n, 3);
	assert_int_equal(back.v[0].status, ASSAY_VERDICT_FAIL);
	assert_string_equal(back.v[0].gate, "threshold");
	assert_string_equal(back.v[0].spec, ">= 120");
	assert_string_equal(back.v[0].series_key, rows.v[0].series_key);
	assert_true(back.v[0].value == 100);
	assert_true(isnan(back.v[1].value));
	assert_null(back.v[1].series_key);
	assert_int_equal(back.v[1].status, ASSAY_VERDICT_SKIPPED);
	assert_true(back.v[2].acked);
	assert_false(back.v[0].acked);
	assert_string_equal(back.v[2].message, "regression -20%, acknowledged");
	assert_int_equal(assay_store_case_verdicts(s, "r1", "nope", &back, &e), ASSAY_USAGE);
	assert_non_null(strstr(e.message, "no case 'nope' in run 'r1'"));
	assert_int_equal(assay_store_verify(s, &e), ASSAY_OK);
	close_store(s);
	assert_int_equal(sql_int("SELECT count(*) FROM verdicts"), 3);
	assert_string_equal(
	    sql_text("SELECT group_concat(status, ' ') FROM (SELECT status FROM verdicts "
		     "ORDER BY seq)"),
	    "FAIL SKIPPED PASS");
	assert_int_equal(
	    sql_exec("INSERT INTO verdicts (\"case\", seq, gate, metric, status) VALUES "
		     "(1, 9, 'g', 'm', 'PASS')") &
		0xff,
	    SQLITE_CONSTRAINT); /* the case has finished */
	assert_int_equal(sql_exec("UPDATE cases SET outcome = 'skipped'") & 0xff,
			 SQLITE_CONSTRAINT);
	assay_verdicts_release(&vs);
	assay_verdicts_release(&bad);
	assay_verdicts_release(&back);
	assay_rows_release(&rows);
}

static void test_series_identity(void **state)
{
	(void)state;
	struct assay_store *s = open_store();
	struct assay_error e;
	struct assay_rows rows = ASSAY_ROWS_INIT;
	for (int i = 0; i < 5; i++) {
		add_row(&rows, "bf16", "tokens", 100 + i, "r");
		add_row(&rows, "fp8", "tokens", 200 + i, "r");
	}
	struct assay_ingest_result res;
	struct assay_ingest_info ii = {.file = "h.ndjson", .format = "rows", .sha256 = "aa"};
	assert_int_equal(assay_store_ingest_rows(s, &ii, &rows, &res, &e), ASSAY_OK);
	assert_int_equal(res.added, 10);
	/* The same bytes again: rows without an identity are skipped. */
	assert_int_equal(assay_store_ingest_rows(s, &ii, &rows, &res, &e), ASSAY_OK);
	assert_int_equal(res.skipped, 10);
	assert_int_equal(res.added, 0);
	struct assay_series_filter f = {0};
	struct assay_series_list l = {0};
	assert_int_equal(assay_store_series(s, &f, &l, &e), ASSAY_OK);
	assert_int_equal(l.n, 2); /* BF16 and FP8 never share a series */
	for (size_t i = 0; i < l.n; i++) {
		const char *p = json_string_value(json_object_get(l.v[i].fields, "precision"));
		assert_int_equal(l.v[i].count, 5);
		assert_true(l.v[i].last_value == (strcmp(p, "bf16") ? 204 : 104));
		struct assay_points pts = {0};
		assert_int_equal(assay_store_points(s, l.v[i].key, NULL, &pts, &e), ASSAY_OK);
		assert_int_equal(pts.n, 5);
		for (size_t j = 0; j < pts.n; j++)
			assert_true(pts.v[j].value == (strcmp(p, "bf16") ? 200 : 100) + (double)j);
		/* Points go into an empty list only; their strings share one block. */
		assert_int_equal(assay_store_series_values(s, l.v[i].key, NULL, &pts, &e),
				 ASSAY_USAGE);
		assert_string_equal(e.message, "points are read into an empty list");
		assay_points_release(&pts);
		assert_int_equal(assay_store_series_values(s, l.v[i].key, NULL, &pts, &e),
				 ASSAY_OK);
		assert_int_equal(pts.n, 5);
		assert_non_null(pts.strings);
		for (size_t j = 0; j < pts.n; j++) {
			assert_string_equal(pts.v[j].revision, "r");
			assert_null(pts.v[j].run_id);
			assert_true(pts.v[j].revision > pts.strings &&
				    pts.v[j].timestamp > pts.strings);
		}
		assay_points_release(&pts);
		/* Lean: values and row ids only, revisions when asked; the strings of
		 * one point by its id. */
		for (int rev = 0; rev < 2; rev++) {
			assert_int_equal(
			    assay_store_series_values_lean(s, l.v[i].key, NULL, rev, &pts, &e),
			    ASSAY_OK);
			assert_int_equal(pts.n, 5);
			for (size_t j = 0; j < pts.n; j++) {
				assert_true(pts.v[j].value ==
					    (strcmp(p, "bf16") ? 200 : 100) + (double)j);
				assert_true(pts.v[j].id > 0);
				assert_true(j == 0 || pts.v[j].id > pts.v[j - 1].id);
				assert_null(pts.v[j].timestamp);
				if (rev)
					assert_string_equal(pts.v[j].revision, "r");
				else
					assert_null(pts.v[j].revision);
			}
			char *r, *ts;
			assert_int_equal(assay_store_point_strings(s, pts.v[2].id, &r, &ts, &e),
					 ASSAY_OK);
			assert_string_equal(r, "r");
			assert_int_equal(strlen(ts), 20); /* RFC 3339 UTC, seconds */
			free(r);
			free(ts);
			assay_points_release(&pts);
		}
	}
	{
		char *r, *ts;
		assert_int_equal(assay_store_point_strings(s, 999999, &r, &ts, &e), ASSAY_USAGE);
		assert_null(r);
		assert_null(ts);
		assert_non_null(strstr(e.message, ": no measurement 999999"));
		/* A snapshot: one read transaction; a second one while it is open is
		 * refused; reads go on inside it. */
		assert_int_equal(assay_store_snapshot_begin(s, &e), ASSAY_OK);
		assert_int_equal(assay_store_snapshot_begin(s, &e), ASSAY_USAGE);
		assert_non_null(strstr(e.message, ": a transaction is already open"));
		struct assay_points pts = {0};
		assert_int_equal(
		    assay_store_series_values_lean(s, l.v[0].key, NULL, false, &pts, &e), ASSAY_OK);
		assert_int_equal(pts.n, 5);
		assay_points_release(&pts);
		assay_store_snapshot_end(s);
		assert_int_equal(assay_store_snapshot_begin(s, &e), ASSAY_OK);
		assay_store_snapshot_end(s);
	}
	/* A bare listing: the same series, no counts read; with a since after
	 * every row a bare listing still names them (count 0), a full one not. */
	f.bare = true;
	f.since = "2999-01-01";
	struct assay_series_list lb = {0};
	assert_int_equal(assay_store_series(s, &f, &lb, &e), ASSAY_OK);
	assert_int_equal(lb.n, 2);
	assert_string_equal(lb.v[0].key, l.v[0].key);
	assert_int_equal(lb.v[0].count, 0);
	assert_null(lb.v[0].last_timestamp);
	/* Its fields stay text until asked for; a full listing parses them. */
	assert_null(lb.v[0].fields);
	assert_non_null(lb.v[0].fields_text);
	const json_t *bf = assay_series_fields(&lb.v[0]);
	assert_true(json_equal((json_t *)bf, l.v[0].fields));
	assert_ptr_equal(assay_series_fields(&lb.v[0]), bf);
	assert_null(l.v[0].fields_text);
	assay_series_list_release(&lb);
	/* With a match the bare listing parses them to filter. */
	strlist_push(&f.match, "precision=bf16");
	assert_int_equal(assay_store_series(s, &f, &lb, &e), ASSAY_OK);
	assert_int_equal(lb.n, 1);
	assert_non_null(lb.v[0].fields);
	assert_null(lb.v[0].fields_text);
	assay_series_list_release(&lb);
	strlist_clear(&f.match);
	f.bare = false;
	assert_int_equal(assay_store_series(s, &f, &lb, &e), ASSAY_OK);
	assert_int_equal(lb.n, 0);
	assay_series_list_release(&lb);
	f.since = NULL;
	/* A row whose unit disagrees with its stored series is refused whole. */
	struct assay_rows other = ASSAY_ROWS_INIT;
	add_row(&other, "bf16", "tokens", 1, NULL);
	free(other.v[0].unit);
	other.v[0].unit = xstrdup("tok/ms");
	ii.sha256 = "bb";
	assert_int_equal(assay_store_ingest_rows(s, &ii, &other, &res, &e), ASSAY_USAGE);
	assert_non_null(
	    strstr(e.message, "is stored in tok/s (higher is better), the row says tok/ms"));
	assert_non_null(strstr(e.message, "h.ndjson: row 1"));
	/* Match filters and key prefixes. */
	strlist_push(&f.match, "precision=fp8");
	struct assay_series_list l2 = {0};
	assert_int_equal(assay_store_series(s, &f, &l2, &e), ASSAY_OK);
	assert_int_equal(l2.n, 1);
	char key[65], prefix[9];
	snprintf(prefix, sizeof(prefix), "%.8s", l2.v[0].key);
	assert_int_equal(assay_store_resolve_series(s, prefix, key, &e), ASSAY_OK);
	assert_string_equal(key, l2.v[0].key);
	assert_int_equal(assay_store_resolve_series(s, "0123", key, &e), ASSAY_USAGE);
	assay_series_list_release(&l2);
	assay_series_list_release(&l);
	assay_series_filter_release(&f);
	close_store(s);
	assay_rows_release(&rows);
	assay_rows_release(&other);
	assert_int_equal(sql_int("SELECT count(*) FROM runs WHERE launcher = 'ingest'"), 1);
	assert_int_equal(sql_int("SELECT count(*) FROM measurements"), 10);
}

static void add_series_row(struct assay_rows *rows, int series, const char *revision,
			   const char *timestamp, const char *run_id, double v)
{
	char wl[32];
	snprintf(wl, sizeof(wl), "w%d", series);
	struct assay_row *r = assay_rows_add(rows);
	assay_row_set(r,
		      json_pack("{s:s, s:s, s:s, s:s}", "workload", wl, "cluster", "mi300x-a",
				"scale", "1x8", "precision", "bf16"),
		      "tokens", "mean", v, "tok/s", ASSAY_DIR_HIGHER);
	r->revision = revision ? xstrdup(revision) : NULL;
	r->timestamp = timestamp ? xstrdup(timestamp) : NULL;
	r->run_id = run_id ? xstrdup(run_id) : NULL;
	struct assay_error e;
	assert_int_equal(assay_row_finish(r, &e), ASSAY_OK);
}

/* Rows of a series that is new in the transaction (or holds no ingested
 * rows) skip the identity lookup unless the hash of their identity was
 * stored in it: duplicates are still found in one file, across the files
 * of one batch and in a later transaction, and a changed value is still a
 * conflict. 300 series, so the series cache grows while they are fresh. */
static void test_ingest_fresh_series(void **state)
{
	(void)state;
	struct assay_store *s = open_store();
	struct assay_error e;
	struct assay_ingest_result res;
	struct assay_rows a = ASSAY_ROWS_INIT, grown = ASSAY_ROWS_INIT, changed = ASSAY_ROWS_INIT;
	static const char *const ts[] = {"2026-01-01T00:00:00Z", "2026-01-02T00:00:00Z",
					 "2026-01-03T00:00:00Z"};
	for (int p = 0; p < 3; p++)
		for (int i = 0; i < 300; i++) {
			char rev[8];
			snprintf(rev, sizeof(rev), "p%d", p);
			if (p < 2)
				add_series_row(&a, i, rev, ts[p], NULL, i + p);
			add_series_row(&grown, i, rev, ts[p], NULL, i + p);
		}
	add_series_row(&a, 7, "p1", ts[1], NULL, 8); /* a duplicate inside the file */
	add_series_row(&changed, 299, "p1", ts[1], NULL, 1.5);
	struct assay_ingest_info ia = {.file = "a", .format = "rows", .sha256 = "fa"};
	struct assay_ingest_info ig = {.file = "grown", .format = "rows", .sha256 = "fg"};
	struct assay_ingest_info ic = {.file = "changed", .format = "rows", .sha256 = "fc"};
	/* One batch: the grown file finds the first file's rows; a changed
	 * value under one of them is a conflict that undoes the batch. */
	assert_int_equal(assay_store_batch_begin(s, &e), ASSAY_OK);
	assert_int_equal(assay_store_ingest_rows(s, &ia, &a, &res, &e), ASSAY_OK);
	assert_int_equal(res.added, 600);
	assert_int_equal(res.present, 1);
	assert_int_equal(assay_store_ingest_rows(s, &ig, &grown, &res, &e), ASSAY_OK);
	assert_int_equal(res.added, 300);
	assert_int_equal(res.present, 600);
	assert_int_equal(assay_store_ingest_rows(s, &ic, &changed, &res, &e), ASSAY_USAGE);
	assert_string_equal(e.message,
			    "changed: row 1: tokens/mean (run_id -, revision p1, timestamp "
			    "2026-01-02T00:00:00Z) is stored with value 300, this file says 1.5; "
			    "--replace stores the new value");
	assert_int_equal(assay_store_batch_commit(s, &e), ASSAY_USAGE);
	assert_int_equal(sql_int("SELECT count(*) FROM measurements"), 0);
	/* Again, committed; then the grown file in a transaction of its own,
	 * where the series hold rows already: nothing new. */
	assert_int_equal(assay_store_batch_begin(s, &e), ASSAY_OK);
	assert_int_equal(assay_store_ingest_rows(s, &ia, &a, &res, &e), ASSAY_OK);
	assert_int_equal(assay_store_ingest_rows(s, &ig, &grown, &res, &e), ASSAY_OK);
	assert_int_equal(assay_store_batch_commit(s, &e), ASSAY_OK);
	assert_int_equal(assay_store_ingest_rows(s, &ig, &grown, &res, &e), ASSAY_OK);
	assert_int_equal(res.added, 0);
	assert_int_equal(res.present, 900);
	/* Another writer stores a row of a series this connection made: the
	 * next transaction here must not take the series for fresh. */
	struct assay_rows late = ASSAY_ROWS_INIT;
	add_series_row(&late, 0, "p9", ts[2], NULL, 9);
	struct assay_ingest_info il = {.file = "late", .format = "rows", .sha256 = "fl"};
	struct assay_store *other = open_store();
	assert_int_equal(assay_store_ingest_rows(other, &il, &late, &res, &e), ASSAY_OK);
	assert_int_equal(res.added, 1);
	close_store(other);
	assert_int_equal(assay_store_ingest_rows(s, &il, &late, &res, &e), ASSAY_OK);
	assert_int_equal(res.added, 0);
	assert_int_equal(res.present, 1);
	assay_rows_release(&late);
	assert_int_equal(assay_store_ingest_rows(s, &ic, &changed, &res, &e), ASSAY_USAGE);
	/* A conflict inside one file of new series: nothing of it is stored. */
	struct assay_rows c2 = ASSAY_ROWS_INIT;
	add_series_row(&c2, 500, "r", ts[0], NULL, 1);
	add_series_row(&c2, 501, "r", ts[0], NULL, 1);
	add_series_row(&c2, 500, "r", ts[0], NULL, 2);
	assert_int_equal(assay_store_ingest_rows(s, &ic, &c2, &res, &e), ASSAY_USAGE);
	assert_non_null(strstr(e.message, "changed: row 3: tokens/mean"));
	assert_int_equal(sql_int("SELECT count(*) FROM measurements"), 901);
	/* A row without a timestamp matches its run id at any time; the same
	 * run id and revision at another time is another row. */
	struct assay_rows r = ASSAY_ROWS_INIT;
	add_series_row(&r, 600, "r", ts[0], "ci-1", 5);
	add_series_row(&r, 600, "r", NULL, "ci-1", 5);
	add_series_row(&r, 600, "r", ts[1], "ci-1", 6);
	add_series_row(&r, 601, "r", NULL, "ci-1", 7);
	add_series_row(&r, 601, "r", NULL, "ci-1", 7);
	ic.sha256 = "fr";
	assert_int_equal(assay_store_ingest_rows(s, &ic, &r, &res, &e), ASSAY_OK);
	assert_int_equal(res.added, 3);
	assert_int_equal(res.present, 2);
	close_store(s);
	assert_int_equal(sql_int("SELECT count(*) FROM measurements"), 904);
	assert_int_equal(
	    sql_int("SELECT count(*) FROM (SELECT DISTINCT series, revision, timestamp "
		    "FROM measurements WHERE run_id IS NULL)"),
	    901);
	assay_rows_release(&a);
	assay_rows_release(&grown);
	assay_rows_release(&changed);
	assay_rows_release(&c2);
	assay_rows_release(&r);
}

/* New rows are stored 32 to a statement: a row the database refuses
 * inside such a statement is still named, and nothing of the file stays. */
static void test_ingest_chunk_error(void **state)
{
	(void)state;
	struct assay_store *s = open_store();
	struct assay_error e;
	struct assay_ingest_result res;
	struct assay_rows rows = ASSAY_ROWS_INIT;
	for (int i = 0; i < 70; i++) {
		char rev[16];
		snprintf(rev, sizeof(rev), "r%d", i);
		add_series_row(&rows, i % 7, rev, "2026-01-01T00:00:00Z", NULL, i);
	}
	rows.v[39].value = NAN; /* stored as NULL: value NOT NULL refuses it */
	struct assay_ingest_info ii = {.file = "f", .format = "rows", .sha256 = "nan"};
	assert_int_equal(assay_store_ingest_rows(s, &ii, &rows, &res, &e), ASSAY_USAGE);
	assert_non_null(strstr(e.message, "f: row 40: "));
	assert_non_null(strstr(e.message, "NOT NULL constraint failed: measurements.value"));
	rows.v[39].value = 39;
	assert_int_equal(assay_store_ingest_rows(s, &ii, &rows, &res, &e), ASSAY_OK);
	assert_int_equal(res.added, 70);
	close_store(s);
	assert_int_equal(sql_int("SELECT count(*) FROM measurements"), 70);
	assert_int_equal(sql_int("SELECT count(*) FROM runs"), 1);
	assay_rows_release(&rows);
}

/* Series written under a precision alias (an older store: "fp8", "FP8")
 * merge into the canonical one with their points and annotations. */
static void test_merge_aliases(void **state)
{
	(void)state;
	struct assay_store *s = open_store();
	struct assay_error e;
	struct assay_rows rows = ASSAY_ROWS_INIT;
	add_row(&rows, "fp8", "tokens", 1, "a");
	struct assay_ingest_result res;
	struct assay_ingest_info ii = {.file = "x", .format = "rows", .sha256 = "m1"};
	assert_int_equal(assay_store_ingest_rows(s, &ii, &rows, &res, &e), ASSAY_OK);
	close_store(s);
	/* Two aliases of it, as an older assay wrote them. */
	for (int i = 0; i < 2; i++) {
		const char *prec = i ? "FP8" : "fp8";
		json_t *f = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s}", "workload", "llama",
				      "cluster", "mi300x-a", "scale", "1x8", "precision", prec,
				      "metric", "tokens", "statistic", "mean");
		char key[65], sql[1024];
		assay_json_sha256(f, key);
		char *text = assay_json_canonical(f);
		snprintf(
		    sql, sizeof(sql),
		    "INSERT INTO series (key, fields, metric, statistic, cluster, scale, "
		    "precision, workload, unit, direction) VALUES ('%s', '%s', 'tokens', "
		    "'mean', 'mi300x-a', '1x8', '%s', 'llama', 'tok/s', 'higher');"
		    "INSERT INTO measurements (run, series, value, samples, revision, timestamp) "
		    "VALUES (1, last_insert_rowid(), %d, 1, 'b%d', '2026-01-0%dT00:00:00Z');"
		    "INSERT INTO annotations (series, revision, kind, created) SELECT id, 'b%d', "
		    "'ack', 'now' FROM series WHERE key = '%s'",
		    key, text, prec, 10 + i, i, i + 1, i, key);
		free(text);
		json_decref(f);
		assert_int_equal(sql_exec(sql), SQLITE_OK);
	}
	assert_int_equal(sql_int("SELECT count(*) FROM series"), 3);
	s = open_store();
	long merged = 0;
	assert_int_equal(assay_store_merge_aliases(s, &merged, &e), ASSAY_OK);
	assert_int_equal(merged, 2);
	assert_int_equal(assay_store_merge_aliases(s, &merged, &e), ASSAY_OK);
	assert_int_equal(merged, 0);
	struct assay_points pts = {0};
	assert_int_equal(assay_store_points(s, rows.v[0].series_key, NULL, &pts, &e), ASSAY_OK);
	assert_int_equal(pts.n, 3);
	assay_points_release(&pts);
	struct assay_annotations a = {0};
	assert_int_equal(assay_store_annotations(s, rows.v[0].series_key, &a, &e), ASSAY_OK);
	assert_int_equal(a.n, 2);
	assay_annotations_release(&a);
	close_store(s);
	assert_int_equal(sql_int("SELECT count(*) FROM series"), 1);
	assert_int_equal(sql_int("SELECT count(*) FROM series WHERE precision = 'fp8_e4m3'"), 1);
	assay_rows_release(&rows);
}

struct collect {
	struct sbuf sb;
	int n;
};

static int collect_row(const struct assay_row *r, void *ctx)
{
	struct collect *c = ctx;
	sbuf_addf(&c->sb, "%s %s %g %s %s\n", r->metric, r->revision ? r->revision : "-", r->value,
		  r->timestamp, r->run_id ? r->run_id : "-");
	return ++c->n == 100 ? 42 : 0;
}

static void test_rows_walk(void **state)
{
	(void)state;
	struct assay_store *s = open_store();
	struct assay_error e;
	struct assay_rows rows = ASSAY_ROWS_INIT;
	add_row(&rows, "bf16", "tokens", 1, "a");
	add_row(&rows, "bf16", "tokens", 2, "b");
	rows.v[0].timestamp = xstrdup("2026-02-01T00:00:00Z");
	rows.v[1].timestamp = xstrdup("2026-01-01 00:00:00");
	rows.v[1].run_id = xstrdup("ci-7");
	struct assay_ingest_result res;
	struct assay_ingest_info ii = {.file = "x", .format = "rows", .sha256 = "cc"};
	assert_int_equal(assay_store_ingest_rows(s, &ii, &rows, &res, &e), ASSAY_OK);
	struct collect c = {SBUF_INIT, 0};
	struct assay_series_filter f = {0};
	assert_int_equal(assay_store_rows(s, &f, collect_row, &c, &e), ASSAY_OK);
	assert_non_null(strstr(sbuf_str(&c.sb), "tokens b 2 2026-01-01T00:00:00Z ci-7\ntokens a 1 "
						"2026-02-01T00:00:00Z "));
	sbuf_reset(&c.sb);
	f.since = "2026-01-15";
	assert_int_equal(assay_store_rows(s, &f, collect_row, &c, &e), ASSAY_OK);
	assert_int_equal(c.n, 3);
	f.since = "yesterday";
	assert_int_equal(assay_store_rows(s, &f, collect_row, &c, &e), ASSAY_USAGE);
	assert_non_null(strstr(e.message, "since \"yesterday\": expected a date"));
	/* A bad timestamp stops the whole file. */
	free(rows.v[1].timestamp);
	rows.v[1].timestamp = xstrdup("2026-13-01");
	ii.sha256 = "dd";
	assert_int_equal(assay_store_ingest_rows(s, &ii, &rows, &res, &e), ASSAY_USAGE);
	assert_string_equal(e.message,
			    "x: row 2: timestamp \"2026-13-01\" is not an RFC 3339 time");
	sbuf_release(&c.sb);
	assay_rows_release(&rows);
	close_store(s);
	assert_int_equal(sql_int("SELECT count(*) FROM measurements"), 2);
}

static void test_annotations(void **state)
{
	(void)state;
	struct assay_store *s = open_store();
	struct assay_error e;
	struct assay_rows rows = ASSAY_ROWS_INIT;
	add_row(&rows, "bf16", "tokens", 1, "a");
	bool removed;
	struct assay_ingest_result res;
	struct assay_ingest_info ii = {.file = "x", .format = "rows", .sha256 = "ee"};
	assert_int_equal(assay_store_ingest_rows(s, &ii, &rows, &res, &e), ASSAY_OK);
	const char *key = rows.v[0].series_key;
	assert_int_equal(assay_store_annotate(s, key, "a", ASSAY_ANN_ACK, "known", &e), ASSAY_OK);
	assert_int_equal(assay_store_annotate(s, key, "a", ASSAY_ANN_ACK, "new note", &e),
			 ASSAY_OK);
	assert_int_equal(assay_store_annotate(s, key, "b", ASSAY_ANN_IGNORE, NULL, &e), ASSAY_OK);
	assert_int_equal(assay_store_annotate(
			     s, "0000000000000000000000000000000000000000000000000000000000000000",
			     "a", ASSAY_ANN_ACK, NULL, &e),
			 ASSAY_USAGE);
	struct assay_annotations a = {0};
	assert_int_equal(assay_store_annotations(s, key, &a, &e), ASSAY_OK);
	assert_int_equal(a.n, 2);
	assert_string_equal(a.v[0].note, "new note");
	assert_true(assay_annotations_has(&a, "a", ASSAY_ANN_ACK));
	assert_false(assay_annotations_has(&a, "a", ASSAY_ANN_IGNORE));
	assay_annotations_release(&a);
	assert_int_equal(assay_store_unannotate(s, key, "b", ASSAY_ANN_IGNORE, &removed, &e),
			 ASSAY_OK);
	assert_true(removed);
	assert_int_equal(assay_store_unannotate(s, key, "b", ASSAY_ANN_IGNORE, &removed, &e),
			 ASSAY_OK);
	assert_false(removed);
	assert_int_equal(assay_annotation_kind_parse("expected"), ASSAY_ANN_EXPECTED);
	assert_int_equal(assay_annotation_kind_parse("nope"), -1);
	assay_rows_release(&rows);
	close_store(s);
}

static void test_batch(void **state)
{
	(void)state;
	struct assay_store *s = open_store();
	struct assay_error e;
	struct assay_rows a = ASSAY_ROWS_INIT, b = ASSAY_ROWS_INIT;
	add_row(&a, "bf16", "tokens", 1, "r1");
	add_row(&b, "fp8", "tokens", 2, "r1");
	struct assay_ingest_result res;
	struct assay_ingest_info ia = {.file = "a", .format = "rows", .sha256 = "sa"};
	struct assay_ingest_info ib = {.file = "b", .format = "rows", .sha256 = "sb"};
	/* Rolled back: nothing of either file. */
	assert_int_equal(assay_store_batch_begin(s, &e), ASSAY_OK);
	assert_int_equal(assay_store_batch_begin(s, &e), ASSAY_USAGE);
	assert_int_equal(assay_store_ingest_rows(s, &ia, &a, &res, &e), ASSAY_OK);
	assert_int_equal(assay_store_ingest_rows(s, &ib, &b, &res, &e), ASSAY_OK);
	assay_store_batch_rollback(s);
	assert_int_equal(sql_int("SELECT count(*) FROM measurements"), 0);
	/* A failing write inside a batch undoes the batch. */
	assert_int_equal(assay_store_batch_begin(s, &e), ASSAY_OK);
	assert_int_equal(assay_store_ingest_rows(s, &ia, &a, &res, &e), ASSAY_OK);
	free(b.v[0].unit);
	b.v[0].unit = xstrdup("tok/ms");
	assert_int_equal(assay_store_ingest_rows(s, &ib, &b, &res, &e), ASSAY_OK);
	struct assay_rows c = ASSAY_ROWS_INIT;
	add_row(&c, "fp8", "tokens", 3, "r2"); /* same series as b, other unit */
	struct assay_ingest_info ic = {.file = "c", .format = "rows", .sha256 = "sc"};
	assert_int_equal(assay_store_ingest_rows(s, &ic, &c, &res, &e), ASSAY_USAGE);
	assert_int_equal(assay_store_batch_commit(s, &e), ASSAY_USAGE); /* it ended */
	assert_int_equal(sql_int("SELECT count(*) FROM measurements"), 0);
	/* Committed: both files, each its own run. */
	free(b.v[0].unit);
	b.v[0].unit = xstrdup("tok/s");
	assert_int_equal(assay_store_batch_begin(s, &e), ASSAY_OK);
	assert_int_equal(assay_store_ingest_rows(s, &ia, &a, &res, &e), ASSAY_OK);
	assert_int_equal(assay_store_ingest_rows(s, &ib, &b, &res, &e), ASSAY_OK);
	assert_int_equal(assay_store_ingest_rows(s, &ia, &a, &res, &e), ASSAY_OK);
	assert_int_equal(res.skipped, 1); /* a dedupe inside a batch does not end it */
	assert_int_equal(assay_store_batch_commit(s, &e), ASSAY_OK);
	struct assay_run_list runs = {0};
	assert_int_equal(assay_store_runs(s, 0, &runs, &e), ASSAY_OK);
	assert_int_equal(runs.n, 2);
	assert_string_equal(runs.v[0].launcher, "ingest");
	assert_int_equal(runs.v[0].rows, 1);
	assert_int_equal(runs.v[0].exit_code, 0);
	assay_run_list_release(&runs);
	close_store(s);
	assert_int_equal(sql_int("SELECT count(*) FROM measurements"), 2);
	assay_rows_release(&a);
	assay_rows_release(&b);
	assay_rows_release(&c);
}

/* A writer process: one run of n cases with k rows each. */
static void writer(const char *run_id, int n, int k, int notify_fd)
{
	struct assay_store *s = NULL;
	struct assay_error e;
	if (assay_store_open(path, ASSAY_STORE_CREATE, &s, &e) != ASSAY_OK)
		_exit(10);
	struct assay_run_info ri = {.run_id = run_id};
	if (assay_store_run_begin(s, &ri, NULL, &e) != ASSAY_OK)
		_exit(11);
	for (int i = 0; i < n; i++) {
		char id[32];
		snprintf(id, sizeof(id), "case-%d", i);
		struct assay_case_info ci = {.case_id = id};
		if (assay_store_case_begin(s, run_id, &ci, &e) != ASSAY_OK)
			_exit(12);
		struct assay_rows rows = ASSAY_ROWS_INIT;
		for (int j = 0; j < k; j++)
			add_row(&rows, j % 2 ? "fp8" : "bf16", "tokens", i * 1000 + j, run_id);
		struct assay_case_result res = {
		    .outcome = ASSAY_OUTCOME_PASSED, .duration_s = 1, .rows = &rows};
		if (assay_store_case_finish(s, run_id, id, &res, &e) != ASSAY_OK) {
			fprintf(stderr, "%s\n", e.message);
			_exit(13);
		}
		assay_rows_release(&rows);
		if (notify_fd >= 0 && write(notify_fd, "x", 1) != 1)
			_exit(14);
	}
	assay_store_run_end(s, run_id, ASSAY_OK, &e);
	_exit(assay_store_close(s, &e) == ASSAY_OK ? 0 : 15);
}

static void test_two_writers(void **state)
{
	(void)state;
	close_store(open_store());
	pid_t a = fork();
	if (a == 0)
		writer("ra", 40, 25, -1);
	pid_t b = fork();
	if (b == 0)
		writer("rb", 40, 25, -1);
	int st;
	assert_int_equal(waitpid(a, &st, 0), a);
	assert_int_equal(WEXITSTATUS(st), 0);
	assert_int_equal(waitpid(b, &st, 0), b);
	assert_int_equal(WEXITSTATUS(st), 0);
	assert_int_equal(sql_int("SELECT count(*) FROM cases WHERE outcome = 'passed'"), 80);
	assert_int_equal(sql_int("SELECT count(*) FROM measurements"), 2000);
	assert_int_equal(sql_int("SELECT count(*) FROM series"), 2);
}

static void test_killed_writer(void **state)
{
	(void)state;
	close_store(open_store());
	srand(12345);
	for (int trial = 0; trial < 12; trial++) {
		int fds[2];
		assert_int_equal(pipe(fds), 0);
		char run[16];
		snprintf(run, sizeof(run), "k%d", trial);
		pid_t p = fork();
		if (p == 0) {
			close(fds[0]);
			writer(run, 1000, 200, fds[1]);
		}
		close(fds[1]);
		/* Wait for a few finished cases, then kill at an arbitrary moment. */
		char buf[8];
		int want = 1 + trial % 4;
		for (int i = 0; i < want; i++)
			assert_int_equal(read(fds[0], buf, 1), 1);
		struct timespec ts = {0, (long)(rand() % 20000) * 1000};
		nanosleep(&ts, NULL);
		kill(p, SIGKILL);
		int st;
		assert_int_equal(waitpid(p, &st, 0), p);
		assert_true(WIFSIGNALED(st));
		close(fds[0]);
		struct assay_store *s = open_store();
		struct assay_error e;
		if (assay_store_verify(s, &e) != ASSAY_OK)
			fail_msg("%s", e.message);
		close_store(s);
		/* Every finished case has all its rows; unfinished ones have none. */
		char sql[512];
		snprintf(sql, sizeof(sql),
			 "SELECT count(*) FROM cases c JOIN runs r ON r.id = c.run WHERE r.run_id "
			 "= '%s' "
			 "AND (SELECT count(*) FROM measurements m WHERE m.\"case\" = c.id) != "
			 "CASE WHEN c.outcome IS NULL THEN 0 ELSE 200 END",
			 run);
		assert_int_equal(sql_int(sql), 0);
		snprintf(sql, sizeof(sql),
			 "SELECT count(*) FROM cases c JOIN runs r ON r.id = c.run WHERE r.run_id "
			 "= '%s' "
			 "AND c.outcome IS NOT NULL",
			 run);
		assert_true(sql_int(sql) >= want);
	}
}

/* The backend table picks SQLite for a plain path, and its operations do
 * what backend.h says (a new backend's test can follow this one). */
static void test_backend(void **state)
{
	(void)state;
	assert_string_equal(store_backend_for(path)->name, "sqlite");
	assert_string_equal(store_backend_for("assay.db")->name, "sqlite");
	assert_string_equal(store_backend_for("/results/x.db")->name, "sqlite");
	const struct store_backend *be = store_backend_for(path);
	struct store_conn *c = NULL;
	struct assay_error e;
	assert_int_equal(be->open(path, ASSAY_STORE_CREATE, &c, &e), ASSAY_OK);
	assert_int_equal(be->exec(c, "CREATE TABLE t (id INTEGER PRIMARY KEY, n INTEGER NOT NULL, "
				     "x REAL, s TEXT); INSERT INTO t (n) VALUES (0)"),
			 0);
	assert_int_equal(be->begin(c, STORE_TXN_IMMEDIATE), 0);
	assert_true(be->in_txn(c));
	struct store_stmt *st = be->prepare(c, "INSERT INTO t (n, x, s) VALUES (?1, ?2, ?3)");
	assert_non_null(st);
	assert_int_equal(store_params(st), 3);
	store_bind_int64(st, 1, 1LL << 40);
	store_bind_double(st, 2, 2.5);
	store_bind_textn(st, 3, "abcdef", 3, true);
	assert_int_equal(store_step(st), STORE_DONE);
	assert_int_equal(be->changes(c), 1);
	assert_int_equal(be->last_id(c), 2);
	store_reset(st);
	store_clear(st); /* n NULL: the constraint refuses it */
	assert_int_equal(store_step(st), STORE_ERROR);
	assert_int_equal(be->fail_kind(c), STORE_FAIL_CONSTRAINT);
	assert_non_null(strstr(be->errmsg(c), "NOT NULL"));
	store_finalize(st);
	assert_int_equal(be->commit(c), 0);
	assert_false(be->in_txn(c));
	st = be->prepare(c, "SELECT n, x, s, NULL FROM t WHERE id = ?1");
	store_bind_static(st, 1, "2");
	assert_int_equal(store_step(st), STORE_ROW);
	assert_int_equal(store_columns(st), 4);
	assert_int_equal(store_column_int64(st, 0), 1LL << 40);
	assert_true(store_column_double(st, 1) == 2.5);
	assert_string_equal(store_column_text(st, 2), "abc");
	assert_int_equal(store_column_bytes(st, 2), 3);
	assert_false(store_column_null(st, 2));
	assert_true(store_column_null(st, 3));
	assert_null(store_column_text(st, 3));
	assert_int_equal(store_step(st), STORE_DONE);
	store_finalize(st);
	assert_null(be->prepare(c, "SELECT x FROM nowhere"));
	assert_int_equal(be->fail_kind(c), STORE_FAIL_OTHER);
	assert_non_null(strstr(be->errmsg(c), "no such table"));
	assert_int_equal(be->begin(c, STORE_TXN_DEFERRED), 0);
	assert_int_equal(be->exec(c, "DELETE FROM t"), 0);
	assert_int_equal(be->rollback(c), 0);
	assert_int_equal(be->close(c, path, &e), ASSAY_OK);
	assert_int_equal(sql_int("SELECT count(*) FROM t"), 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_backend, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_open, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_provenance, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_refuses, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_migrate_from_empty, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_migrate_from_v1, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_readonly_v2, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_not_run_and_reopen, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_verdicts, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_rerun, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_runs, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_cases, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_series_identity, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_ingest_fresh_series, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_ingest_chunk_error, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_rows_walk, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_merge_aliases, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_annotations, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_batch, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_two_writers, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_killed_writer, setup, teardown),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	rmdir(dir);
	return rc;
}
