/* The store's schema and its forward migrations. The backend keeps the
 * version (SQLite: PRAGMA user_version); migration N takes a store from version N-1 to N, inside
 * one transaction. Never edit a released migration: add the next one. The schema is explained for
 * sqlite3 users in docs/store.md. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "assay/json.h"
#include "store_int.h"

/* 'assy': marks the file as an assay store (PRAGMA application_id). */
#define STORE_APPLICATION_ID 0x61737379

static const char *const migrations[] = {
    /* 1: runs, cases, series, measurements, annotations, ingests. */
    "CREATE TABLE runs ("
    " id INTEGER PRIMARY KEY AUTOINCREMENT,"
    " run_id TEXT NOT NULL UNIQUE,"
    " suite TEXT, revision TEXT,"
    " config_sha256 TEXT, matrix_sha256 TEXT, catalog_sha256 TEXT,"
    " host TEXT, launcher TEXT,"
    " started TEXT NOT NULL, ended TEXT,"
    " exit_code INTEGER CHECK (exit_code BETWEEN 0 AND 5),"
    " resumed INTEGER NOT NULL DEFAULT 0);"
    "CREATE TABLE cases ("
    " id INTEGER PRIMARY KEY,"
    " run INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
    " case_id TEXT NOT NULL,"
    " factors TEXT CHECK (factors IS NULL OR json_valid(factors)),"
    " outcome TEXT CHECK (outcome IN ('ok','gate-failed','usage','workload-failed',"
    "  'no-metrics','infrastructure')),"
    " reason TEXT,"
    " started TEXT NOT NULL, ended TEXT, duration_s REAL,"
    " attempts INTEGER NOT NULL DEFAULT 1,"
    " rows INTEGER,"
    " artifact_dir TEXT, stdout_log TEXT, stderr_log TEXT,"
    " UNIQUE (run, case_id),"
    " CHECK ((outcome IS NULL) = (ended IS NULL)));"
    "CREATE TRIGGER cases_finish_once BEFORE UPDATE ON cases WHEN OLD.outcome IS NOT NULL"
    " BEGIN SELECT RAISE(ABORT, 'case already finished'); END;"
    "CREATE TABLE series ("
    " id INTEGER PRIMARY KEY,"
    " key TEXT NOT NULL UNIQUE CHECK (length(key) = 64),"
    " fields TEXT NOT NULL CHECK (json_valid(fields)),"
    " metric TEXT NOT NULL, statistic TEXT NOT NULL,"
    " cluster TEXT NOT NULL, scale TEXT NOT NULL, precision TEXT NOT NULL,"
    " workload TEXT,"
    " unit TEXT NOT NULL,"
    " direction TEXT NOT NULL CHECK (direction IN ('higher','lower')));"
    "CREATE TABLE measurements ("
    " id INTEGER PRIMARY KEY,"
    " run INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
    " \"case\" INTEGER REFERENCES cases(id) ON DELETE CASCADE,"
    " series INTEGER NOT NULL REFERENCES series(id),"
    " run_id TEXT, case_id TEXT,"
    " value REAL NOT NULL,"
    " samples INTEGER NOT NULL CHECK (samples >= 1),"
    " revision TEXT,"
    " timestamp TEXT NOT NULL);"
    "CREATE INDEX measurements_by_series ON measurements (series, timestamp, id);"
    "CREATE INDEX measurements_by_case ON measurements (\"case\") WHERE \"case\" IS NOT NULL;"
    "CREATE TRIGGER measurements_open_case BEFORE INSERT ON measurements"
    " WHEN NEW.\"case\" IS NOT NULL AND"
    "  (SELECT outcome FROM cases WHERE id = NEW.\"case\") IS NOT NULL"
    " BEGIN SELECT RAISE(ABORT, 'case already finished'); END;"
    "CREATE TABLE annotations ("
    " id INTEGER PRIMARY KEY,"
    " series INTEGER NOT NULL REFERENCES series(id) ON DELETE CASCADE,"
    " revision TEXT NOT NULL,"
    " kind TEXT NOT NULL CHECK (kind IN ('ack','ignore','expected')),"
    " note TEXT,"
    " created TEXT NOT NULL,"
    " UNIQUE (series, revision, kind));"
    "CREATE TABLE ingests ("
    " id INTEGER PRIMARY KEY,"
    " run INTEGER NOT NULL UNIQUE REFERENCES runs(id) ON DELETE CASCADE,"
    " file TEXT NOT NULL, format TEXT NOT NULL,"
    " sha256 TEXT NOT NULL,"
    " rows INTEGER NOT NULL);"
    "CREATE INDEX ingests_by_sha256 ON ingests (sha256);",

    /* 2: cases.outcome holds the runner's outcome names (passed, ...,
     * unsupported, skipped) instead of exit-code names; skipped and
     * infrastructure cases may run again (a resume reopens them); verdicts.
     * Runs with foreign keys off (store_migrate), as SQLite's recipe for
     * changing a table asks; the foreign key check runs before commit. */
    "CREATE TABLE cases_v2 ("
    " id INTEGER PRIMARY KEY,"
    " run INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
    " case_id TEXT NOT NULL,"
    " factors TEXT CHECK (factors IS NULL OR json_valid(factors)),"
    " outcome TEXT CHECK (outcome IN ('passed','gate-failed','workload-failed','no-metrics',"
    "  'infrastructure','unsupported','skipped')),"
    " reason TEXT,"
    " started TEXT NOT NULL, ended TEXT, duration_s REAL,"
    " attempts INTEGER NOT NULL DEFAULT 1 CHECK (attempts >= 0),"
    " rows INTEGER,"
    " artifact_dir TEXT, stdout_log TEXT, stderr_log TEXT,"
    " UNIQUE (run, case_id),"
    " CHECK ((outcome IS NULL) = (ended IS NULL)));"
    "INSERT INTO cases_v2 SELECT id, run, case_id, factors,"
    " CASE outcome WHEN 'ok' THEN 'passed' WHEN 'usage' THEN 'infrastructure' ELSE outcome END,"
    " reason, started, ended, duration_s, attempts, rows, artifact_dir, stdout_log, stderr_log"
    " FROM cases;"
    "DROP TRIGGER measurements_open_case;"
    "DROP TABLE cases;"
    "ALTER TABLE cases_v2 RENAME TO cases;"
    "CREATE TRIGGER cases_finish_once BEFORE UPDATE ON cases"
    " WHEN OLD.outcome IS NOT NULL AND OLD.outcome NOT IN ('skipped','infrastructure')"
    " BEGIN SELECT RAISE(ABORT, 'case already finished'); END;"
    "CREATE TABLE verdicts ("
    " id INTEGER PRIMARY KEY,"
    " \"case\" INTEGER NOT NULL REFERENCES cases(id) ON DELETE CASCADE,"
    " seq INTEGER NOT NULL CHECK (seq >= 1),"
    " gate TEXT NOT NULL, metric TEXT NOT NULL,"
    " series_key TEXT CHECK (series_key IS NULL OR length(series_key) = 64),"
    " status TEXT NOT NULL CHECK (status IN ('PASS','FAIL','RECORD','SKIPPED')),"
    " value REAL,"
    " unit TEXT NOT NULL DEFAULT '', spec TEXT NOT NULL DEFAULT '',"
    " message TEXT NOT NULL DEFAULT '',"
    " acked INTEGER NOT NULL DEFAULT 0 CHECK (acked IN (0, 1)),"
    " UNIQUE (\"case\", seq));"
    "CREATE INDEX verdicts_by_series ON verdicts (series_key) WHERE series_key IS NOT NULL;"
    "CREATE TRIGGER measurements_open_case BEFORE INSERT ON measurements"
    " WHEN NEW.\"case\" IS NOT NULL AND"
    "  (SELECT outcome FROM cases WHERE id = NEW.\"case\") IS NOT NULL"
    " BEGIN SELECT RAISE(ABORT, 'case already finished'); END;"
    "CREATE TRIGGER verdicts_open_case BEFORE INSERT ON verdicts"
    " WHEN (SELECT outcome FROM cases WHERE id = NEW.\"case\") IS NOT NULL"
    " BEGIN SELECT RAISE(ABORT, 'case already finished'); END;"
    "CREATE TRIGGER cases_reopen_empty BEFORE UPDATE OF outcome ON cases"
    " WHEN OLD.outcome IS NOT NULL AND NEW.outcome IS NULL AND"
    "  (EXISTS (SELECT 1 FROM measurements WHERE \"case\" = OLD.id) OR"
    "   EXISTS (SELECT 1 FROM verdicts WHERE \"case\" = OLD.id))"
    " BEGIN SELECT RAISE(ABORT, 'a case that stored rows or verdicts cannot run again'); END;",

    /* 3: the series index carries what reading a series needs (run, value,
     * revision), so history, detection and reports read the index alone
     * instead of one table lookup per point. */
    "DROP INDEX measurements_by_series;"
    "CREATE INDEX measurements_by_series ON measurements"
    " (series, timestamp, id, run, value, revision);",

    /* 4: an ingested row's natural identity (series, its own run id,
     * revision, case id, timestamp) is looked up before it is stored, so a
     * file ingested again adds only its new rows. Series whose precision or
     * scale is an alias of a canonical name are merged (store_merge_aliases,
     * run after this script in the same transaction). */
    ("CREATE INDEX IF NOT EXISTS measurements_by_identity ON measurements"
     " (series, run_id, revision, case_id, timestamp) WHERE \"case\" IS NULL;"),

    /* 5: what `assay run` records before a case starts, to find what a
     * killed attempt left running (procs), and a case's duration split
     * into time in a queue and time running. */
    "CREATE TABLE procs ("
    " id INTEGER PRIMARY KEY,"
    " \"case\" INTEGER NOT NULL REFERENCES cases(id) ON DELETE CASCADE,"
    " run_attempt INTEGER NOT NULL CHECK (run_attempt >= 1),"
    " host TEXT, boot_id TEXT,"
    " pid INTEGER, pid_start INTEGER,"
    " contain TEXT, cgroup TEXT, slurm_job TEXT, container TEXT,"
    " recorded TEXT NOT NULL, ended TEXT);"
    "CREATE INDEX procs_open ON procs (\"case\") WHERE ended IS NULL;"
    "ALTER TABLE cases ADD COLUMN queue_s REAL;"
    "ALTER TABLE cases ADD COLUMN run_s REAL;"
    /* A finished case stays as it is, except for the split of its duration,
     * written right after it finished. */
    "DROP TRIGGER cases_finish_once;"
    "CREATE TRIGGER cases_finish_once BEFORE UPDATE OF run, case_id, factors, outcome, reason,"
    " started, ended, duration_s, attempts, rows, artifact_dir, stdout_log, stderr_log ON cases"
    " WHEN OLD.outcome IS NOT NULL AND OLD.outcome NOT IN ('skipped','infrastructure')"
    " BEGIN SELECT RAISE(ABORT, 'case already finished'); END;",

    /* 6: image provenance: the container image a case ran in, as written
     * and as resolved (a digest), and the run's (the same for every case,
     * or "mixed"). Not part of any series' identity. */
    "ALTER TABLE cases ADD COLUMN image TEXT;"
    "ALTER TABLE cases ADD COLUMN image_digest TEXT;"
    "ALTER TABLE runs ADD COLUMN image TEXT;"
    "ALTER TABLE runs ADD COLUMN image_digest TEXT;",

    /* 7: case provenance: what each expectation of the suite ("expect")
     * matched on each node or rank of a case, redacted; matched is NULL
     * where nothing did. Not part of any series' identity. */
    "CREATE TABLE IF NOT EXISTS provenance ("
    " id INTEGER PRIMARY KEY,"
    " \"case\" INTEGER NOT NULL REFERENCES cases(id) ON DELETE CASCADE,"
    " name TEXT NOT NULL,"
    " per TEXT NOT NULL CHECK (per IN ('node','rank')),"
    " unit TEXT NOT NULL,"
    " matched TEXT,"
    " UNIQUE (\"case\", name, unit));",

    /* 8: a record of every ingest taken back by `assay store forget`: what
     * it was (its ingest id, run id, file, format, sha256, rows, when it
     * was ingested), when it was forgotten, by whom (user and host) and
     * why. Its run and rows are gone; this row stays. */
    "CREATE TABLE IF NOT EXISTS forgotten ("
    " id INTEGER PRIMARY KEY,"
    " ingest INTEGER NOT NULL,"
    " run_id TEXT NOT NULL,"
    " file TEXT NOT NULL, format TEXT NOT NULL, sha256 TEXT NOT NULL,"
    " rows INTEGER NOT NULL,"
    " ingested TEXT NOT NULL,"
    " forgotten TEXT NOT NULL,"
    " by_user TEXT NOT NULL, by_host TEXT NOT NULL,"
    " note TEXT);",

    /* 9: times keep their fraction of a second (rows.c, row_prepare).
     * Rows stored before were cut to whole seconds: below is the first id
     * stored after this migration (no row when the store held none), and
     * an ingested row with a fraction is also found under its whole second
     * among the rows below it (legacy_find), so a history ingested again
     * after the upgrade adds nothing twice. */
    "CREATE TABLE IF NOT EXISTS seconds_cut ("
    " id INTEGER PRIMARY KEY,"
    " below INTEGER NOT NULL);"
    "INSERT INTO seconds_cut (below) SELECT id + 1 FROM measurements ORDER BY id DESC LIMIT 1;",

    /* 10 (issue 33, notify): what was sent to which notification target:
     * one row per target name and event identity (a hex SHA-256 of the
     * event kind, series key and revision), so an event is announced once
     * per target. Written after a delivery succeeded; no URL or token. */
    "CREATE TABLE IF NOT EXISTS notifications ("
    " id INTEGER PRIMARY KEY,"
    " target TEXT NOT NULL,"
    " event TEXT NOT NULL CHECK (length(event) = 64),"
    " kind TEXT NOT NULL,"
    " series_key TEXT, revision TEXT,"
    " sent TEXT NOT NULL,"
    " UNIQUE (target, event));",
};

/* The oldest version a read-only open reads as it is (3 only changed an
 * index; older ones are migrated by the next writable open). */
#define STORE_READABLE_FROM 2

_Static_assert(sizeof(migrations) / sizeof(migrations[0]) == ASSAY_STORE_SCHEMA_VERSION,
	       "one migration per schema version");

const char *store_sqlite_migration(int v)
{
	return v >= 1 && v <= ASSAY_STORE_SCHEMA_VERSION ? migrations[v - 1] : NULL;
}

static assay_err pragma_int(struct assay_store *s, const char *sql, int *out, struct assay_error *e)
{
	struct store_stmt *st = store_prepare(s, sql, e);
	if (!st)
		return e ? e->code : ASSAY_INFRA;
	int rc = store_step(st);
	if (rc == STORE_ROW)
		*out = (int)store_column_int64(st, 0);
	store_finalize(st);
	if (rc == STORE_ROW)
		return ASSAY_OK;
	return store_sqlerr(s, e, "reading the schema version");
}

static assay_err check_identity(struct assay_store *s, int *version, struct assay_error *e)
{
	int app = 0, tables = 0;
	if (s->be->identity(s->db, &app, version, &tables) != 0)
		return store_sqlerr(s, e, "reading the schema version");
	if ((app && app != STORE_APPLICATION_ID) || (!app && tables))
		return assay_error_set(e, ASSAY_USAGE, "%s: %s, but not an assay store", s->path,
				       s->be->what);
	if (*version > ASSAY_STORE_SCHEMA_VERSION)
		return assay_error_set(e, ASSAY_INFRA,
				       "%s: store schema version %d is newer than this assay "
				       "understands (%d); use a newer assay",
				       s->path, *version, ASSAY_STORE_SCHEMA_VERSION);
	return ASSAY_OK;
}

assay_err store_migrate(struct assay_store *s, struct assay_error *e)
{
	int version = 0;
	assay_err rc = check_identity(s, &version, e);
	if (rc != ASSAY_OK)
		return rc;
	if (version == ASSAY_STORE_SCHEMA_VERSION)
		return s->readonly ? ASSAY_OK : store_exec(s, s->be->writable_sql, e);
	/* Versions that differ from this one only in indexes read the same. */
	if (s->readonly && version >= STORE_READABLE_FROM)
		return ASSAY_OK;
	/* Version 0 is no schema at all: a 0-byte file, or a database
	 * without tables, which only a writer initialises. */
	if (s->readonly && !version) {
		struct stat sb;
		bool empty_file = stat(s->path, &sb) == 0 && S_ISREG(sb.st_mode) && !sb.st_size;
		return assay_error_set(e, ASSAY_USAGE, "%s: not an assay store (%s)", s->path,
				       empty_file ? "empty file" : "an empty database");
	}
	if (s->readonly)
		return assay_error_set(e, ASSAY_USAGE,
				       "%s: store schema version %d needs migrating to %d: run "
				       "'assay store migrate --store %s' once",
				       s->path, version, ASSAY_STORE_SCHEMA_VERSION, s->path);
	/* SQLite: foreign keys off while tables are rebuilt (dropping the old
	 * cases table must not cascade to its rows); checked before the commit. */
	if ((rc = store_exec(s, s->be->migrate_begin_sql, e)) != ASSAY_OK ||
	    (rc = store_begin(s, e)) != ASSAY_OK)
		goto fk_on;
	/* Another process may have migrated while this one waited for the lock. */
	if ((rc = check_identity(s, &version, e)) != ASSAY_OK)
		goto fail;
	for (int v = version; v < ASSAY_STORE_SCHEMA_VERSION; v++) {
		const char *sql = s->be->migration(v + 1);
		if (!sql || (*sql && s->be->exec(s->db, sql) != 0)) {
			char what[64];
			snprintf(what, sizeof(what), "migrating to schema version %d", v + 1);
			rc = store_sqlerr(s, e, what);
			rc = rc == ASSAY_USAGE ? ASSAY_INFRA : rc;
			goto fail;
		}
	}
	if (version < 4 && (rc = store_merge_aliases(s, NULL, e)) != ASSAY_OK)
		goto fail;
	int dangling = 0;
	if ((rc = pragma_int(s, s->be->dangling_sql, &dangling, e)) != ASSAY_OK)
		goto fail;
	if (dangling) {
		rc = assay_error_set(e, ASSAY_INFRA,
				     "%s: migrating to schema version %d: %d rows refer to missing "
				     "parents; the store is left as it was",
				     s->path, ASSAY_STORE_SCHEMA_VERSION, dangling);
		goto fail;
	}
	if (s->be->stamp(s->db, STORE_APPLICATION_ID, ASSAY_STORE_SCHEMA_VERSION) != 0) {
		rc = store_sqlerr(s, e, "writing");
		goto fail;
	}
	rc = store_commit(s, e);
	goto fk_on;
fail:
	store_rollback(s);
fk_on:
	if (store_exec(s, s->be->migrate_end_sql, rc == ASSAY_OK ? e : NULL) != ASSAY_OK &&
	    rc == ASSAY_OK)
		rc = ASSAY_INFRA;
	return rc;
}

/* Run one statement with up to two integer and two text parameters. */
static assay_err exec_bound(struct assay_store *s, const char *sql, long long a, long long b,
			    const char *t1, const char *t2, struct assay_error *e)
{
	struct store_stmt *st = store_prepare(s, sql, e);
	if (!st)
		return e ? e->code : ASSAY_INFRA;
	int n = store_params(st);
	if (n >= 1)
		store_bind_int64(st, 1, a);
	if (n >= 2)
		store_bind_int64(st, 2, b);
	if (n >= 3)
		store_bind_text(st, 3, t1);
	if (n >= 4)
		store_bind_text(st, 4, t2);
	int step = store_step(st);
	store_finalize(st);
	return step == STORE_DONE ? ASSAY_OK : store_sqlerr(s, e, "merging series");
}

struct alias_move {
	long long id;
	char old_key[65], new_key[65];
	char *fields, *precision, *scale;
};

/* The series whose stored key is not the key of their canonical fields. */
static assay_err alias_list(struct assay_store *s, struct alias_move **out, size_t *nout,
			    struct assay_error *e)
{
	struct store_stmt *st = store_prepare(s, "SELECT id, key, fields FROM series", e);
	if (!st)
		return e ? e->code : ASSAY_INFRA;
	struct alias_move *v = NULL;
	size_t n = 0, alloc = 0;
	int step;
	while ((step = store_step(st)) == STORE_ROW) {
		const char *text = store_column_text(st, 2);
		json_t *f = json_loads(text ? text : "", 0, NULL);
		if (!json_is_object(f)) {
			json_decref(f);
			continue;
		}
		assay_series_canonicalize(f);
		char key[65];
		assay_json_sha256(f, key);
		const char *old = store_column_text(st, 1);
		if (old && strcmp(old, key)) {
			ALLOC_GROW(v, n + 1, alloc);
			struct alias_move *m = &v[n++];
			m->id = store_column_int64(st, 0);
			snprintf(m->old_key, sizeof(m->old_key), "%s", old);
			memcpy(m->new_key, key, sizeof(key));
			m->fields = assay_json_canonical(f);
			const json_t *p = json_object_get(f, "precision"),
				     *sc = json_object_get(f, "scale");
			m->precision = json_is_string(p) ? xstrdup(json_string_value(p)) : NULL;
			m->scale = json_is_string(sc) ? xstrdup(json_string_value(sc)) : NULL;
		}
		json_decref(f);
	}
	store_finalize(st);
	*out = v;
	*nout = n;
	return step == STORE_DONE ? ASSAY_OK : store_sqlerr(s, e, "listing series");
}

/* The canonical series m's points belong to, when it exists with the same
 * unit and direction: its history takes m's points and annotations. *moved
 * is false when there is none. */
static assay_err alias_join(struct assay_store *s, const struct alias_move *m, bool *moved,
			    struct assay_error *e)
{
	long long target = 0;
	struct store_stmt *q =
	    store_prepare(s,
			  "SELECT t.id FROM series t JOIN series o ON o.id = ?2 WHERE t.key = ?1 "
			  "AND t.unit = o.unit AND t.direction = o.direction",
			  e);
	if (!q)
		return e ? e->code : ASSAY_INFRA;
	store_bind_static(q, 1, m->new_key);
	store_bind_int64(q, 2, m->id);
	if (store_step(q) == STORE_ROW)
		target = store_column_int64(q, 0);
	store_finalize(q);
	*moved = target != 0;
	if (!target)
		return ASSAY_OK;
	assay_err rc;
	if ((rc = exec_bound(s, "UPDATE measurements SET series = ?2 WHERE series = ?1", m->id,
			     target, NULL, NULL, e)) != ASSAY_OK ||
	    (rc = exec_bound(s,
			     "INSERT INTO annotations (series, revision, kind, "
			     "note, created) SELECT ?2, revision, kind, note, created "
			     "FROM annotations WHERE series = ?1 ON CONFLICT DO NOTHING",
			     m->id, target, NULL, NULL, e)) != ASSAY_OK ||
	    (rc = exec_bound(s, "DELETE FROM annotations WHERE series = ?1 AND ?2 = ?2", m->id, 0,
			     NULL, NULL, e)) != ASSAY_OK)
		return rc;
	return exec_bound(s, "DELETE FROM series WHERE id = ?1 AND ?2 = ?2", m->id, 0, NULL, NULL,
			  e);
}

/* No canonical series yet: m's row takes the canonical key and fields.
 * *renamed is false when another series holds the key (another unit). */
static assay_err alias_rename(struct assay_store *s, const struct alias_move *m, bool *renamed,
			      struct assay_error *e)
{
	struct store_stmt *u = store_prepare(s,
					     "UPDATE series SET key = ?2, fields = ?3, "
					     "precision = coalesce(?4, precision), scale = "
					     "coalesce(?5, scale) WHERE id = ?1 AND NOT EXISTS "
					     "(SELECT 1 FROM series WHERE key = ?2)",
					     e);
	if (!u)
		return e ? e->code : ASSAY_INFRA;
	store_bind_int64(u, 1, m->id);
	store_bind_static(u, 2, m->new_key);
	store_bind_static(u, 3, m->fields);
	store_bind_text(u, 4, m->precision);
	store_bind_text(u, 5, m->scale);
	int us = store_step(u);
	store_finalize(u);
	if (us != STORE_DONE)
		return store_sqlerr(s, e, "renaming a series");
	*renamed = store_changes(s) != 0;
	return ASSAY_OK;
}

/* Verdicts name series by key: the old key becomes the new one. */
static assay_err alias_verdicts(struct assay_store *s, const struct alias_move *m,
				struct assay_error *e)
{
	struct store_stmt *vq =
	    store_prepare(s, "UPDATE verdicts SET series_key = ?2 WHERE series_key = ?1", e);
	if (!vq)
		return e ? e->code : ASSAY_INFRA;
	store_bind_static(vq, 1, m->old_key);
	store_bind_static(vq, 2, m->new_key);
	int vs = store_step(vq);
	store_finalize(vq);
	return vs == STORE_DONE ? ASSAY_OK : store_sqlerr(s, e, "renaming a series in verdicts");
}

assay_err store_merge_aliases(struct assay_store *s, long *merged, struct assay_error *e)
{
	struct alias_move *v = NULL;
	size_t n = 0;
	assay_err rc = alias_list(s, &v, &n, e);
	long done = 0;
	for (size_t i = 0; i < n && rc == ASSAY_OK; i++) {
		bool moved = false, renamed = false;
		if ((rc = alias_join(s, &v[i], &moved, e)) != ASSAY_OK)
			break;
		if (!moved && (rc = alias_rename(s, &v[i], &renamed, e)) != ASSAY_OK)
			break;
		if (!moved && !renamed)
			continue; /* same key, other unit: left apart */
		if ((rc = alias_verdicts(s, &v[i], e)) != ASSAY_OK)
			break;
		done++;
	}
	for (size_t i = 0; i < n; i++) {
		free(v[i].fields);
		free(v[i].precision);
		free(v[i].scale);
	}
	free(v);
	store_cache_clear(s);
	store_read_ids_release(s);
	if (rc == ASSAY_OK && merged)
		*merged = done;
	return rc;
}

assay_err assay_store_merge_aliases(struct assay_store *s, long *merged, struct assay_error *e)
{
	assay_err rc = store_begin(s, e);
	if (rc != ASSAY_OK)
		return rc;
	if ((rc = store_merge_aliases(s, merged, e)) != ASSAY_OK) {
		store_rollback(s);
		return rc;
	}
	return store_commit(s, e);
}
