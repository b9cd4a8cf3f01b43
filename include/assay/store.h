/* The results store: one SQLite database (rollback journal, foreign keys, busy timeout)
 * holding runs, their cases, measurement rows, series and annotations. The
 * schema is documented for sqlite3 users in docs/store.md. Every write is one
 * transaction, so a process killed at any moment leaves a consistent store. */
#ifndef ASSAY_STORE_H
#define ASSAY_STORE_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "assay/error.h"
#include "assay/measure.h"
#include "assay/outcome.h"

struct assay_verdict; /* include/assay/gate.h */
struct assay_verdicts;

/* The schema version this build writes (PRAGMA user_version). Older stores
 * are migrated forward on open; a newer one is refused. */
#define ASSAY_STORE_SCHEMA_VERSION 10
/* Default path of the store used by the commands. */
#define ASSAY_STORE_DEFAULT_PATH "assay.db"

struct assay_store; /* opaque; one connection, not shared between threads */

enum {
	ASSAY_STORE_CREATE = 1,   /* create the file (and migrate) when missing */
	ASSAY_STORE_READONLY = 2, /* no writes; the file must exist */
	ASSAY_STORE_NOMAP = 4,    /* read through SQLite's page cache only (no memory map):
				   * a second connection to a store already mapped */
};

/* Open (and with ASSAY_STORE_CREATE create) the store at path, migrating it
 * to ASSAY_STORE_SCHEMA_VERSION. Writers in other processes are waited for
 * (busy timeout, ASSAY_STORE_BUSY_MS in the environment or 300000 ms).
 * Errors: ASSAY_USAGE when the file is missing without CREATE or is not a
 * store; ASSAY_INFRA for I/O, a newer schema or a lock held too long. */
assay_err assay_store_open(const char *path, int flags, struct assay_store **out,
			   struct assay_error *e);
/* Finalize every statement and close; NULL is fine. ASSAY_INFRA when SQLite
 * refuses (which would mean a statement was left unfinalized). */
assay_err assay_store_close(struct assay_store *s, struct assay_error *e);
int assay_store_schema_version(struct assay_store *s);
/* Check the store: SQLite integrity, foreign keys, and that no row belongs
 * to an unfinished case. ASSAY_INFRA naming the first problem. */
assay_err assay_store_verify(struct assay_store *s, struct assay_error *e);
const char *assay_store_path(const struct assay_store *s);
/* What assay_store_copy copied. */
struct assay_copy_counts {
	long long runs, series, rows; /* rows: measurements */
	long long total;              /* rows of every table */
};

/* Copy every row of from (at the current schema version) into to, which
 * must hold no runs or series yet, in one transaction of to's: ids, runs,
 * cases, verdicts, series, measurements, annotations, ingests. */
assay_err assay_store_copy(struct assay_store *from, struct assay_store *to,
			   struct assay_copy_counts *counts, struct assay_error *e);

/* A store's name as it may be shown or written (malloc'd): a connection
 * string with its password taken out; a file's path as it is. */
char *assay_store_name(const char *store);
/* The store is a file (SQLite), not a database server's. */
bool assay_store_is_file(const char *store);
/* Give every series its canonical precision and scale spelling
 * (assay_series_canonicalize): a series that differs from an existing one
 * only in an alias is merged into it (its points, annotations and verdicts
 * move), others are renamed. One transaction; *merged (when not NULL) counts
 * the series changed. `assay store migrate` runs it. */
assay_err assay_store_merge_aliases(struct assay_store *s, long *merged, struct assay_error *e);

/* Batches: between batch_begin and batch_commit every write joins one
 * transaction (all or nothing across several files, and faster). A failed
 * write inside a batch rolls the whole batch back and ends it. Other
 * writers wait while a batch is open. */
assay_err assay_store_batch_begin(struct assay_store *s, struct assay_error *e);
assay_err assay_store_batch_commit(struct assay_store *s, struct assay_error *e);
void assay_store_batch_rollback(struct assay_store *s);

/* A read snapshot: between snapshot_begin and snapshot_end every read sees
 * the store as of the first one, under one read transaction (one shared
 * lock for all the statements instead of one each); a writer's commit waits
 * until it ends. For commands that read many series. */
assay_err assay_store_snapshot_begin(struct assay_store *s, struct assay_error *e);
void assay_store_snapshot_end(struct assay_store *s);

/* ---- runs and cases: what the runner calls ---- */

struct assay_run_info {
	const char *run_id;         /* NULL: the store makes one (YYYYMMDDTHHMMSSZ-xxxxxx) */
	const char *suite;          /* each field below may be NULL */
	const char *revision;       /* source revision under test */
	const char *config_sha256;  /* digest of the suite/sweep config */
	const char *matrix_sha256;  /* assay_matrix.matrix_sha256 */
	const char *catalog_sha256; /* assay_matrix.catalog_sha256 */
	const char *host;
	const char *launcher; /* "local", "mpirun", "slurm", "ingest", ... */
	const char *started;  /* RFC 3339; NULL: now */
};

/* Insert a run. run_id_out (when not NULL) receives the id. ASSAY_USAGE
 * when a run with that id exists. */
assay_err assay_store_run_begin(struct assay_store *s, const struct assay_run_info *info,
				char run_id_out[64], struct assay_error *e);
/* Record the end time (now) and the run's exit code. Ending again (after a
 * resume) overwrites both. ASSAY_USAGE for an unknown run. */
assay_err assay_store_run_end(struct assay_store *s, const char *run_id, assay_err exit_code,
			      struct assay_error *e);
/* Mark run_id as resumed (clears end and exit code, counts the resume).
 * "last" means the most recently begun run. run_id_out gets the real id. */
assay_err assay_store_run_resume(struct assay_store *s, const char *run_id, char run_id_out[64],
				 struct assay_error *e);
/* The most recently begun run; ASSAY_USAGE when the store has none. */
assay_err assay_store_last_run(struct assay_store *s, char run_id_out[64], struct assay_error *e);

struct assay_case_info {
	const char *case_id;      /* required: the matrix case id */
	const json_t *factors;    /* the case's factors (assay_case_to_json), may be NULL */
	const char *artifact_dir; /* may be NULL */
	const char *stdout_log;   /* may be NULL */
	const char *stderr_log;   /* may be NULL */
	const char *started;      /* RFC 3339; NULL: now */
};

/* Record that a case started (committed at once, outcome still NULL). A
 * case that was begun but never finished (the run was killed), or that
 * finished as skipped or infrastructure (it may run again), is begun again
 * in place: its outcome is cleared and its attempt count goes up.
 * ASSAY_USAGE when the case has already finished in this run with a final
 * outcome (assay_outcome_final): a case is never stored twice (enforced by
 * constraints and triggers, see docs/store.md). */
assay_err assay_store_case_begin(struct assay_store *s, const char *run_id,
				 const struct assay_case_info *info, struct assay_error *e);

struct assay_case_result {
	enum assay_outcome outcome;
	const char *reason;            /* one line, may be NULL */
	const char *ended;             /* RFC 3339; NULL: now */
	double duration_s;             /* wall time; < 0: computed from start and end */
	const struct assay_rows *rows; /* the case's measurement rows, may be NULL */
	const struct assay_verdicts
	    *verdicts; /* its gate verdicts (include/assay/gate.h), may be NULL */
};

/* Finish a begun case: its outcome, reason, end, every row and every
 * verdict, in ONE transaction (all or nothing). Rows must be finished
 * (assay_row_finish) and their series must name cluster, scale and
 * precision; their run_id and case_id are set to this case. A skipped or
 * infrastructure case stores no rows or verdicts. ASSAY_USAGE for a case not
 * begun or already finished, or a bad row (nothing is written). */
assay_err assay_store_case_finish(struct assay_store *s, const char *run_id, const char *case_id,
				  const struct assay_case_result *res, struct assay_error *e);

/* Record a case that did not run (or stopped before it could finish): its
 * outcome (unsupported, skipped or infrastructure) and reason, no rows, in
 * one transaction. The case may be new (it is added with 0 attempts), begun
 * and unfinished, or skipped or infrastructure before; ASSAY_USAGE when it
 * finished with a final outcome, or for another outcome. */
assay_err assay_store_case_record(struct assay_store *s, const char *run_id,
				  const struct assay_case_info *info,
				  const struct assay_case_result *res, struct assay_error *e);

/* Take back case_id of run_id that finished with a final outcome, so that
 * it runs again (`assay run --resume`: the suite's teardown after a main
 * that ran again): it is left begun and unfinished, its attempts kept.
 * Nothing to do for a case absent, unfinished, skipped or infrastructure.
 * ASSAY_USAGE when it stored rows or verdicts, or holds processes an
 * earlier attempt could not end (procs). */
assay_err assay_store_case_rerun(struct assay_store *s, const char *run_id, const char *case_id,
				 struct assay_error *e);

struct assay_case_status {
	char *case_id;
	bool finished;              /* it has an outcome */
	enum assay_outcome outcome; /* when finished */
	int attempts;
};
struct assay_case_list {
	struct assay_case_status *v;
	size_t n, alloc;
};
/* The cases of run_id ("last" allowed), in the order they were begun, with
 * their outcomes; for `assay run --resume`. */
assay_err assay_store_run_cases(struct assay_store *s, const char *run_id,
				struct assay_case_list *out, struct assay_error *e);
/* Whether case_id finished with a final outcome: a resume keeps it. */
bool assay_case_list_finished(const struct assay_case_list *l, const char *case_id);
void assay_case_list_release(struct assay_case_list *l);

/* ---- what a case runs as (table procs, src/lib/store/procs.c) ---- */

struct assay_proc_record; /* include/assay/contain.h */
/* The attempt the run is in: 1, plus one per --resume. */
assay_err assay_store_run_attempt(struct assay_store *s, const char *run_id, int *attempt,
				  struct assay_error *e);
/* Record, committed at once, what case_id of run_id runs as in this
 * attempt (before the workload runs), so a later attempt can end it. */
assay_err assay_store_proc_record(struct assay_store *s, const char *run_id, const char *case_id,
				  int run_attempt, const struct assay_proc_record *r,
				  struct assay_error *e);
/* The container image a case runs in: the reference as written and its
 * resolved digest (cases.image, cases.image_digest); the run's columns get
 * the same, or "mixed" when its cases differ. Provenance only. */
assay_err assay_store_case_image(struct assay_store *s, const char *run_id, const char *case_id,
				 const char *image, const char *digest, struct assay_error *e);
/* Case provenance (table provenance, schema 7): what each expectation
 * matched on each node or rank ("unit"); matched NULL where nothing did.
 * Replaces what an earlier attempt of the case recorded. */
struct assay_provenance {
	char *case_id; /* when read back */
	char *name;
	char *per; /* "node" or "rank" */
	char *unit;
	char *matched; /* redacted; NULL: no match */
};
assay_err assay_store_case_provenance(struct assay_store *s, const char *run_id,
				      const char *case_id, const struct assay_provenance *v,
				      size_t n, struct assay_error *e);
/* Every provenance record of run_id, by case, name and unit; *v (free with
 * assay_provenance_free) is NULL and *n 0 for a store older than schema 7. */
assay_err assay_store_run_provenance(struct assay_store *s, const char *run_id,
				     struct assay_provenance **v, size_t *n, struct assay_error *e);
void assay_provenance_free(struct assay_provenance *v, size_t n);
/* Split a finished case's duration: queue_s of it waiting in a queue
 * (cases.queue_s), the rest running (cases.run_s). */
assay_err assay_store_case_queue(struct assay_store *s, const char *run_id, const char *case_id,
				 double queue_s, struct assay_error *e);
/* Mark the records of case_id (NULL: every case of the run) ended. */
assay_err assay_store_procs_end(struct assay_store *s, const char *run_id, const char *case_id,
				struct assay_error *e);
/* Call fn for every record of run_id not marked ended (earlier attempts
 * that were killed), oldest first. */
typedef void (*assay_store_proc_fn)(const char *case_id, int run_attempt,
				    const struct assay_proc_record *r, void *ctx);
assay_err assay_store_procs_open(struct assay_store *s, const char *run_id, assay_store_proc_fn fn,
				 void *ctx, struct assay_error *e);

/* ---- verdicts (docs/store.md, table verdicts) ---- */

/* Call fn for every stored verdict of run_id ("last" allowed), of one case
 * (case_id) or of all (NULL), in case order then the order the gates gave
 * them. The verdict is only valid during the call; a non-zero return from
 * fn stops the walk and is returned as is. ASSAY_USAGE for an unknown run. */
typedef int (*assay_store_verdict_fn)(const char *case_id, const struct assay_verdict *v,
				      void *ctx);
assay_err assay_store_verdicts(struct assay_store *s, const char *run_id, const char *case_id,
			       assay_store_verdict_fn fn, void *ctx, struct assay_error *e);
/* The newest stored verdict on series_key (the gate's name and its status:
 * PASS, FAIL, RECORD or SKIPPED, each allocated), or both NULL when no gate
 * judged it (src/lib/store/generation.c). */
assay_err assay_store_series_verdict(struct assay_store *s, const char *series_key, char **gate,
				     char **status, struct assay_error *e);
/* The verdicts of one case, appended to out (copies). */
assay_err assay_store_case_verdicts(struct assay_store *s, const char *run_id, const char *case_id,
				    struct assay_verdicts *out, struct assay_error *e);
/* The measurement rows stored with one case, appended to out (copies, in
 * storage order). */
assay_err assay_store_case_rows(struct assay_store *s, const char *run_id, const char *case_id,
				struct assay_rows *out, struct assay_error *e);

struct assay_run_summary {
	char *run_id, *suite, *revision, *launcher, *started, *ended;
	int exit_code; /* -1 while running (or killed) */
	long long cases, finished, rows;
};
struct assay_run_list {
	struct assay_run_summary *v;
	size_t n, alloc;
};
/* The newest `limit` runs (0: all), newest first. */
assay_err assay_store_runs(struct assay_store *s, size_t limit, struct assay_run_list *out,
			   struct assay_error *e);
void assay_run_list_release(struct assay_run_list *l);

/* ---- rows and series ---- */

/* The identity fields every stored series must have (non-empty string or
 * number). Scale is written "NxG" (nodes x GPUs per node). */
extern const char *const assay_store_identity_fields[]; /* cluster, scale, precision, NULL */
/* ASSAY_USAGE naming the missing field when r's series lacks one. */
assay_err assay_store_check_identity(const struct assay_row *r, struct assay_error *e);

struct assay_ingest_info {
	const char *file;   /* shown in errors and kept in the ingests table */
	const char *format; /* format name */
	const char *sha256; /* of the file's bytes */
	const char *suite;  /* the run's suite, may be NULL */
	bool force;   /* store rows without an identity even when the same bytes were ingested */
	bool replace; /* a row whose identity is stored with another value takes the new value */
};
struct assay_ingest_result {
	size_t added;         /* rows stored */
	size_t present;       /* rows whose identity was stored with the same value */
	size_t replaced;      /* rows whose stored value --replace changed */
	size_t skipped;       /* rows without an identity in a file ingested before */
	char run_id[64];      /* the run made for the added rows ("" when none) */
	char earlier_run[64]; /* a run that ingested the same bytes before, "" if none */
};
/* Store rows parsed from one file in one transaction. A row's identity is
 * its series, its own run_id, revision, case_id and timestamp (a row with
 * neither run_id nor timestamp has none): a row whose identity is stored
 * already is counted as present when its value is the same, and is a
 * conflict (ASSAY_USAGE naming the row, nothing written) when it differs,
 * unless info->replace. Rows without an identity are skipped when the same
 * bytes were ingested before (unless info->force). New rows go into one new
 * run (launcher "ingest"); no run is made when nothing is new. */
assay_err assay_store_ingest_rows(struct assay_store *s, const struct assay_ingest_info *info,
				  const struct assay_rows *rows, struct assay_ingest_result *res,
				  struct assay_error *e);

/* ---- ingests and forgetting them (tables ingests and forgotten) ---- */

/* One ingest: a file `assay store ingest` stored (its own run), or one that
 * `assay store forget` took back (forgotten is then set). */
struct assay_ingest_record {
	long long id; /* the ingest's id (what `store forget` takes, with its run id) */
	char *run_id, *file, *format, *sha256;
	long long rows;
	char *ingested; /* RFC 3339 */
	/* Forgotten ingests only, else NULL: when, by whom (user, host), why. */
	char *forgotten, *by_user, *by_host, *note;
};
struct assay_ingest_list {
	struct assay_ingest_record *v;
	size_t n, alloc;
};
/* Every ingest, stored and forgotten, oldest first (by id). A store older
 * than schema 8 has no forgotten ones. */
assay_err assay_store_ingests(struct assay_store *s, struct assay_ingest_list *out,
			      struct assay_error *e);
void assay_ingest_list_release(struct assay_ingest_list *l);
void assay_ingest_record_release(struct assay_ingest_record *r);

/* Take back one ingest (ingest: its id, or its run id): its run and rows go,
 * and a row of table forgotten records what it was, now, by_user, by_host
 * and note (may be NULL). One transaction. *out (when not NULL) gets the
 * record as written. ASSAY_USAGE naming ingest when no stored ingest has
 * that id (also when it was forgotten already). */
assay_err assay_store_forget(struct assay_store *s, const char *ingest, const char *by_user,
			     const char *by_host, const char *note, struct assay_ingest_record *out,
			     struct assay_error *e);

struct assay_series_info {
	char *key;         /* series_key */
	json_t *fields;    /* the series object (owned); NULL in a bare listing without
			    * matches, until assay_series_fields() */
	char *fields_text; /* its JSON text where fields is not parsed yet (owned) */
	char *unit;
	enum assay_direction direction;
	long long count;
	double last_value;
	char *last_revision; /* may be NULL */
	char *last_timestamp;
};
struct assay_series_list {
	struct assay_series_info *v;
	size_t n, alloc;
};
/* A listed series' fields, parsed on first use. */
const json_t *assay_series_fields(struct assay_series_info *si);

/* Which series a query covers: a key (or a unique key prefix of at least 8
 * hex digits), and/or field=value matches on the series object; all must hold. */
struct assay_series_filter {
	struct strlist keys;  /* series keys or prefixes; empty: all */
	struct strlist match; /* "field=value" entries */
	const char *since;    /* RFC 3339 timestamp (or a prefix: 2026-11-01); rows at or after */
	bool bare;         /* list the series without counting their rows or reading the last one:
			    * a series with no row at or after since is listed too (count 0);
			    * without matches the fields stay text (assay_series_fields) */
	const char *until; /* the same as since; rows at or before (a date: to the end of it) */
	long long last;    /* only each series' newest `last` rows in since..until (0: all) */
};
void assay_series_filter_release(struct assay_series_filter *f);

/* Series matching f (sorted by key), with counts and last value (of the
 * rows in since..until, the count at most f->last). */
assay_err assay_store_series(struct assay_store *s, const struct assay_series_filter *f,
			     struct assay_series_list *out, struct assay_error *e);
void assay_series_list_release(struct assay_series_list *l);
/* The document `assay store series --format json` prints: one object per
 * series (series_key, series, unit, direction, count, last_value,
 * last_revision, last_timestamp); a new reference (series_json.c). */
json_t *assay_series_list_json(struct assay_series_list *l);

/* Call fn for every row matching f in storage order (series key, then
 * timestamp, then insertion). The row is only valid during the call. A
 * non-zero return from fn stops the walk and is returned as is. */
typedef int (*assay_store_row_fn)(const struct assay_row *r, void *ctx);
assay_err assay_store_rows(struct assay_store *s, const struct assay_series_filter *f,
			   assay_store_row_fn fn, void *ctx, struct assay_error *e);

/* One series' points in time order (timestamp, then insertion), read into
 * an empty list: those in range's since..until, only the newest range->last
 * of them when it is not 0 (read newest first, so the cost is that of the
 * points returned); range NULL: all. Only those three fields of range are
 * read. */
struct assay_point {
	char *revision; /* may be NULL */
	char *timestamp;
	char *run_id;
	double value;
	char *image_digest; /* the container image its case ran in (with the run id), or NULL */
	long long id;       /* the measurement's row in the store (lean reads), else 0 */
};
struct assay_points {
	struct assay_point *v;
	size_t n, alloc;
	char *strings; /* the points' strings in one block (owned), or NULL: each owned */
};
assay_err assay_store_points(struct assay_store *s, const char *series_key,
			     const struct assay_series_filter *range, struct assay_points *out,
			     struct assay_error *e);
/* The same points without their run ids (run_id NULL), read from the series
 * index alone (measurements_by_series covers value, revision and
 * timestamp): what detection and the gates need. */
assay_err assay_store_series_values(struct assay_store *s, const char *series_key,
				    const struct assay_series_filter *range,
				    struct assay_points *out, struct assay_error *e);
/* Detection over many series: only each point's value and row id (and its
 * revision when revisions is set; the other strings NULL), which is all the
 * series index must give per point; assay_store_point_strings then reads
 * the revision and timestamp of the few points reported (allocated, the
 * revision NULL when the row has none). */
assay_err assay_store_series_values_lean(struct assay_store *s, const char *series_key,
					 const struct assay_series_filter *range, bool revisions,
					 struct assay_points *out, struct assay_error *e);
assay_err assay_store_point_strings(struct assay_store *s, long long id, char **revision,
				    char **timestamp, struct assay_error *e);
void assay_points_release(struct assay_points *p);

/* Resolve a full key or unique prefix to the series key. ASSAY_USAGE when
 * unknown or ambiguous. */
assay_err assay_store_resolve_series(struct assay_store *s, const char *key_or_prefix,
				     char key_out[65], struct assay_error *e);

/* A short text that changes whenever what the store shows changes (rows
 * stored or forgotten, runs begun, annotations added or removed): the
 * server's ETag. */
assay_err assay_store_generation(struct assay_store *s, char out[96], struct assay_error *e);

/* ---- annotations ---- */

enum assay_annotation_kind {
	ASSAY_ANN_ACK = 0,      /* a known change: gates no longer fail on it */
	ASSAY_ANN_IGNORE = 1,   /* the point is left out of detection and gates */
	ASSAY_ANN_EXPECTED = 2, /* a planned change, reported but not failed on */
};
const char *assay_annotation_kind_name(enum assay_annotation_kind k);
int assay_annotation_kind_parse(const char *s); /* -1 when unknown */

struct assay_annotation {
	char *series_key;
	char *revision;
	enum assay_annotation_kind kind;
	char *note;
	char *created;
};
struct assay_annotations {
	struct assay_annotation *v;
	size_t n, alloc;
};

/* Add (or replace the note of) an annotation. ASSAY_USAGE for an unknown series. */
assay_err assay_store_annotate(struct assay_store *s, const char *series_key, const char *revision,
			       enum assay_annotation_kind kind, const char *note,
			       struct assay_error *e);
/* Remove one; *removed says whether it existed. */
assay_err assay_store_unannotate(struct assay_store *s, const char *series_key,
				 const char *revision, enum assay_annotation_kind kind,
				 bool *removed, struct assay_error *e);
/* Whether series_key has a point at revision (*has). */
assay_err assay_store_series_has_revision(struct assay_store *s, const char *series_key,
					  const char *revision, bool *has, struct assay_error *e);
/* Annotations of one series (series_key NULL: all), oldest first. */
assay_err assay_store_annotations(struct assay_store *s, const char *series_key,
				  struct assay_annotations *out, struct assay_error *e);
bool assay_annotations_has(const struct assay_annotations *a, const char *revision,
			   enum assay_annotation_kind kind);
void assay_annotations_release(struct assay_annotations *a);

/* ---- one run read back (src/lib/store/run_read.c): what reports read ---- */

struct assay_store_run {
	char *run_id, *suite, *revision;
	char *config_sha256, *matrix_sha256, *catalog_sha256;
	char *host, *launcher;
	char *started, *ended; /* ended: NULL while running or after a kill */
	int exit_code;         /* -1 while running or after a kill */
	int resumed;
	long long ncases; /* cases recorded (begun) */
	/* The container image its cases ran in, and its digest ("mixed" when
	 * they differ); NULL without a container or in a store older than 6. */
	char *image, *image_digest;
};
/* The run run_id ("last": the newest). ASSAY_USAGE when unknown. */
assay_err assay_store_run_get(struct assay_store *s, const char *run_id,
			      struct assay_store_run *out, struct assay_error *e);
void assay_store_run_release(struct assay_store_run *r);

struct assay_store_case {
	char *case_id;
	json_t *factors; /* owned; NULL when none */
	char *outcome;   /* "ok", "gate-failed", ... as stored; NULL: begun, never finished */
	char *reason;
	char *started, *ended;
	double duration_s; /* NAN when unknown */
	int attempts;
	long long rows; /* -1 when not finished */
	char *artifact_dir, *stdout_log, *stderr_log;
};
struct assay_store_cases {
	struct assay_store_case *v;
	size_t n, alloc;
};
/* Every recorded case of run_id with everything the store keeps about it,
 * in the order the cases were begun. */
assay_err assay_store_case_details(struct assay_store *s, const char *run_id,
				   struct assay_store_cases *out, struct assay_error *e);
void assay_store_cases_release(struct assay_store_cases *l);

/* One stored row of a run, as the walk below hands it over (valid during
 * the call only). */
struct assay_store_rowview {
	const char *case_id; /* NULL for a row without a case (ingested) */
	const char *series_key;
	const char *fields_json; /* the series object as stored (canonical JSON) */
	const char *metric, *statistic, *unit;
	enum assay_direction direction;
	double value;
	/* field[i]: series field fields[i] as text (numbers as written), NULL
	 * when the series has no such field. */
	const char *const *field;
};
typedef int (*assay_store_rowview_fn)(const struct assay_store_rowview *r, void *ctx);
/* Walk the rows stored by run_id (case by case in the order cases were
 * begun, each case's rows in insertion order). skip: a NULL-terminated list
 * of "METRIC[/STATISTIC][@FIELD]": rows of that metric (and statistic) whose
 * series object has a key FIELD (at any depth) are left out (NULL: none);
 * fields: a NULL-terminated list of series fields to extract (NULL: none).
 * A non-zero return from fn stops the walk and is returned. */
assay_err assay_store_run_rows(struct assay_store *s, const char *run_id, const char *const *skip,
			       const char *const *fields, assay_store_rowview_fn fn, void *ctx,
			       struct assay_error *e);

/* One series' history as run_id saw it: its points in time order up to and
 * including the last point run_id stored (the newest max_points of them;
 * only value and revision are filled in). The points and their strings
 * belong to the walk and are valid during the call only. */
struct assay_store_history {
	const char *series_key;
	const char *fields_json;
	const char *unit;
	enum assay_direction direction;
	const struct assay_points *points;
	long this_run; /* index of run_id's (last) point, -1 when it has none */
};
typedef int (*assay_store_history_fn)(const struct assay_store_history *h, void *ctx);
/* Call fn once per key of keys (in that order; unknown keys are skipped). */
assay_err assay_store_run_history(struct assay_store *s, const char *run_id,
				  const struct strlist *keys, size_t max_points,
				  assay_store_history_fn fn, void *ctx, struct assay_error *e);

/* fn(key, fields_json, ctx) for each key of keys that names a stored series
 * (exact keys, in that order; unknown keys are skipped). */
typedef int (*assay_store_series_key_fn)(const char *key, const char *fields_json, void *ctx);
assay_err assay_store_series_by_key(struct assay_store *s, const struct strlist *keys,
				    assay_store_series_key_fn fn, void *ctx, struct assay_error *e);

/* ---- notifications (issue 33): what was sent to which target ---- */

/* Whether target has been sent event (a 64-digit hex identity). */
assay_err assay_store_notified(struct assay_store *s, const char *target, const char *event,
			       bool *sent, struct assay_error *e);
/* Record that target was sent event (kind, series_key and revision may be
 * NULL), in its own transaction; recording it again changes nothing. */
assay_err assay_store_notify_record(struct assay_store *s, const char *target, const char *event,
				    const char *kind, const char *series_key, const char *revision,
				    struct assay_error *e);
/* fn(series_key, failed, ctx) for every series a stored gate verdict judged,
 * in key order: failed when a verdict of the newest case that judged it
 * failed. A non-zero return from fn stops the walk and is returned. */
typedef int (*assay_store_series_gate_fn)(const char *series_key, bool failed, void *ctx);
assay_err assay_store_series_gates(struct assay_store *s, assay_store_series_gate_fn fn, void *ctx,
				   struct assay_error *e);
/* Whether a series (key, fields) passes f's keys and field=value matches
 * (its time bounds are not looked at). */
bool assay_series_filter_accepts(const struct assay_series_filter *f, const char *key,
				 const json_t *fields);

#endif
