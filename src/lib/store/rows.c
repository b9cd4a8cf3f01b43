/* Writing measurement rows: series identity checks, the series table (with a
 * per-connection cache of key -> id), and ingest of a parsed file as one run
 * in one transaction. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "assay/json.h"
#include "store_int.h"

const char *const assay_store_identity_fields[] = {"cluster", "scale", "precision", NULL};

/* Text of an identity value: a non-empty string or a number. */
static bool field_text(const json_t *v, char *buf, size_t size)
{
	if (json_is_string(v) && json_string_length(v) > 0) {
		snprintf(buf, size, "%s", json_string_value(v));
		return true;
	}
	if (json_is_integer(v)) {
		snprintf(buf, size, "%lld", (long long)json_integer_value(v));
		return true;
	}
	if (json_is_real(v)) {
		char *t = assay_json_dumps(v, 0);
		snprintf(buf, size, "%s", t);
		free(t);
		return true;
	}
	return false;
}

static bool scale_ok(const char *s)
{
	const char *p = s;
	if (!isdigit((unsigned char)*p))
		return false;
	while (isdigit((unsigned char)*p))
		p++;
	if (*p++ != 'x' || !isdigit((unsigned char)*p))
		return false;
	while (isdigit((unsigned char)*p))
		p++;
	return *p == '\0';
}

assay_err assay_store_check_identity(const struct assay_row *r, struct assay_error *e)
{
	for (int i = 0; assay_store_identity_fields[i]; i++) {
		const char *f = assay_store_identity_fields[i];
		const json_t *v = r->series ? json_object_get(r->series, f) : NULL;
		bool ok =
		    v && ((json_is_string(v) && json_string_length(v) > 0) || json_is_number(v));
		if (!ok)
			return assay_error_set(e, ASSAY_USAGE,
					       "%s/%s: series has no \"%s\" (cluster, scale and "
					       "precision identify every stored series)",
					       r->metric, r->statistic, f);
		if (!strcmp(f, "scale") && !(json_is_string(v) && scale_ok(json_string_value(v)))) {
			char buf[256];
			field_text(v, buf, sizeof(buf));
			return assay_error_set(e, ASSAY_USAGE,
					       "%s/%s: series scale \"%s\": expected NODESxGPUS, "
					       "e.g. 2x8",
					       r->metric, r->statistic, buf);
		}
	}
	return ASSAY_OK;
}

static size_t key_hash(const char *key)
{
	size_t h = 0;
	for (int i = 0; i < 16; i++)
		h = h * 16 +
		    (size_t)(isdigit((unsigned char)key[i]) ? key[i] - '0' : key[i] - 'a' + 10);
	return h;
}

static struct series_slot *cache_find(struct assay_store *s, const char *key)
{
	if (!s->cache_cap)
		return NULL;
	for (size_t i = key_hash(key) & (s->cache_cap - 1);; i = (i + 1) & (s->cache_cap - 1)) {
		if (!s->cache[i].key[0])
			return NULL;
		if (!strcmp(s->cache[i].key, key))
			return &s->cache[i];
	}
}

static void cache_put(struct assay_store *s, const char *key, long long id, const char *unit,
		      enum assay_direction dir)
{
	if ((s->cache_n + 1) * 2 > s->cache_cap) {
		struct series_slot *old = s->cache;
		size_t old_cap = s->cache_cap;
		s->cache_cap = old_cap ? old_cap * 2 : 256;
		s->cache = xcalloc(s->cache_cap, sizeof(*s->cache));
		s->cache_n = 0;
		for (size_t i = 0; i < old_cap; i++)
			if (old[i].key[0]) {
				cache_put(s, old[i].key, old[i].id, old[i].unit, old[i].direction);
				struct series_slot *c = cache_find(s, old[i].key);
				c->fresh = old[i].fresh;
				c->probed = old[i].probed;
				free(old[i].unit);
			}
		free(old);
	}
	size_t i = key_hash(key) & (s->cache_cap - 1);
	while (s->cache[i].key[0])
		i = (i + 1) & (s->cache_cap - 1);
	snprintf(s->cache[i].key, sizeof(s->cache[i].key), "%s", key);
	s->cache[i].id = id;
	s->cache[i].unit = xstrdup(unit);
	s->cache[i].direction = dir;
	s->cache_n++;
}

static const char *opt_field(const json_t *series, const char *k, char *buf, size_t size)
{
	const json_t *v = json_object_get(series, k);
	return v && field_text(v, buf, size) ? buf : NULL;
}

/* The series id of r, inserting the series when new; *slot (when not NULL)
 * gets its cache slot, valid until the next series is cached. */
static assay_err series_id(struct assay_store *s, const struct assay_row *r, long long *id,
			   struct series_slot **slot, struct assay_error *e)
{
	struct series_slot *c = cache_find(s, r->series_key);
	const char *unit;
	enum assay_direction dir;
	if (c) {
		*id = c->id;
		unit = c->unit;
		dir = c->direction;
		goto check;
	}
	struct store_stmt *st = store_cached(s, ST_SERIES_FIND, e);
	if (!st)
		return e ? e->code : ASSAY_INFRA;
	store_bind_static(st, 1, r->series_key);
	int rc = store_step(st);
	if (rc == STORE_ROW) {
		*id = store_column_int64(st, 0);
		cache_put(s, r->series_key, *id, store_column_text(st, 1),
			  (enum assay_direction)assay_direction_parse(store_column_text(st, 2)));
		store_reset(st);
		c = cache_find(s, r->series_key);
		unit = c->unit;
		dir = c->direction;
		goto check;
	}
	store_reset(st);
	if (rc != STORE_DONE)
		return store_sqlerr(s, e, "finding a series");
	if (!(st = store_cached(s, ST_SERIES_INSERT, e)))
		return e ? e->code : ASSAY_INFRA;
	char *fields = assay_json_canonical(r->series);
	char cl[256], sc[256], pr[256], wl[256];
	store_bind_static(st, 1, r->series_key);
	store_bind_static(st, 2, fields); /* freed once the statement is reset */
	store_bind_static(st, 3, r->metric);
	store_bind_static(st, 4, r->statistic);
	store_bind_text(st, 5, opt_field(r->series, "cluster", cl, sizeof(cl)));
	store_bind_text(st, 6, opt_field(r->series, "scale", sc, sizeof(sc)));
	store_bind_text(st, 7, opt_field(r->series, "precision", pr, sizeof(pr)));
	store_bind_text(st, 8, opt_field(r->series, "workload", wl, sizeof(wl)));
	store_bind_static(st, 9, r->unit);
	store_bind_static(st, 10, assay_direction_name(r->direction));
	rc = store_step(st);
	store_reset(st);
	free(fields);
	if (rc != STORE_DONE)
		return store_sqlerr(s, e, "adding a series");
	*id = store_last_id(s);
	cache_put(s, r->series_key, *id, r->unit, r->direction);
	c = cache_find(s, r->series_key);
	c->fresh = s->ident_gen; /* new in this transaction: it holds no rows yet */
	if (slot)
		*slot = c;
	return ASSAY_OK;
check:
	if (strcmp(unit, r->unit) || dir != r->direction)
		return assay_error_set(
		    e, ASSAY_USAGE,
		    "%s/%s: series %.12s is stored in %s (%s is better), the row "
		    "says %s (%s is better)",
		    r->metric, r->statistic, r->series_key, unit, assay_direction_name(dir),
		    r->unit, assay_direction_name(r->direction));
	if (slot)
		*slot = c;
	return ASSAY_OK;
}

/* Say where row i is: "FILE:LINE: ..." when its file is known and the
 * parser knew its line (the text formats), else "row N (line M): ..." or
 * "row N: ..." (assay_store_ingest_rows adds the file then). */
static void row_where(struct assay_error *e, const char *file, const struct assay_row *r, size_t i)
{
	if (!e)
		return;
	if (file && r->line > 0) {
		snprintf(e->file, sizeof(e->file), "%s", file);
		e->line = r->line;
	} else if (r->line > 0) {
		assay_error_prefix(e, "row %zu (line %ld)", i + 1, r->line);
	} else {
		assay_error_prefix(e, "row %zu", i + 1);
	}
}

/* Check row i, find its series and normalize its time into ts. */
static assay_err row_prepare(struct assay_store *s, const char *file, const struct assay_row *r,
			     size_t i, const char *default_time, long long *sid,
			     struct series_slot **slot, char ts[32], struct assay_error *e)
{
	assay_err rc;
	if (!r->series || strlen(r->series_key) != 64) {
		rc = assay_error_set(e, ASSAY_USAGE, "not finished (no series key)");
		row_where(e, file, r, i);
		return rc;
	}
	if ((rc = assay_store_check_identity(r, e)) != ASSAY_OK ||
	    (rc = series_id(s, r, sid, slot, e)) != ASSAY_OK) {
		row_where(e, file, r, i);
		return rc;
	}
	if (r->timestamp) {
		/* In UTC, with the fraction of a second the data gives (schema 9:
		 * rows stored before kept whole seconds; see legacy_find). */
		if (!assay_time_canonical(r->timestamp, ts)) {
			rc = assay_error_set(e, ASSAY_USAGE,
					     "timestamp \"%s\" is not an RFC 3339 time",
					     r->timestamp);
			row_where(e, file, r, i);
			return rc;
		}
	} else {
		snprintf(ts, 32, "%s", default_time);
	}
	return ASSAY_OK;
}

static assay_err row_insert(struct assay_store *s, long long run_pk, long long case_pk,
			    long long sid, const struct assay_row *r, bool keep_provenance,
			    const char *ts, size_t i, struct assay_error *e)
{
	struct store_stmt *st = store_cached(s, ST_MEASURE_INSERT, e);
	if (!st)
		return e ? e->code : ASSAY_INFRA;
	store_bind_int64(st, 1, run_pk);
	if (case_pk)
		store_bind_int64(st, 2, case_pk);
	store_bind_int64(st, 3, sid);
	if (keep_provenance) {
		store_bind_text(st, 4, r->run_id);
		store_bind_text(st, 5, r->case_id);
	}
	store_bind_double(st, 6, r->value);
	store_bind_int64(st, 7, r->samples);
	store_bind_text(st, 8, r->revision);
	store_bind_text(st, 9, ts);
	int step = store_step(st);
	store_reset(st);
	if (step != STORE_DONE) {
		assay_err rc = store_sqlerr(s, e, "storing a row");
		row_where(e, NULL, r, i);
		return rc;
	}
	return ASSAY_OK;
}

assay_err store_insert_rows(struct assay_store *s, long long run_pk, long long case_pk,
			    const struct assay_rows *rows, bool keep_provenance,
			    const char *default_time, struct assay_error *e)
{
	for (size_t i = 0; i < rows->n; i++) {
		long long sid;
		char ts[32];
		assay_err rc =
		    row_prepare(s, NULL, &rows->v[i], i, default_time, &sid, NULL, ts, e);
		if (rc == ASSAY_OK)
			rc = row_insert(s, run_pk, case_pk, sid, &rows->v[i], keep_provenance, ts,
					i, e);
		if (rc != ASSAY_OK)
			return rc;
	}
	return ASSAY_OK;
}

/* The run that ingested the same bytes before ("" when none). */
static assay_err earlier_ingest(struct assay_store *s, const char *sha256, char run[64],
				struct assay_error *e)
{
	run[0] = '\0';
	if (!sha256)
		return ASSAY_OK;
	struct store_stmt *st =
	    store_prepare(s,
			  "SELECT r.run_id FROM ingests i JOIN runs r ON r.id = "
			  "i.run WHERE i.sha256 = ?1 ORDER BY i.id LIMIT 1",
			  e);
	if (!st)
		return e ? e->code : ASSAY_INFRA;
	store_bind_static(st, 1, sha256);
	int step = store_step(st);
	if (step == STORE_ROW)
		snprintf(run, 64, "%s", store_column_text(st, 0));
	store_finalize(st);
	if (step != STORE_ROW && step != STORE_DONE)
		return store_sqlerr(s, e, "looking up earlier ingests");
	return ASSAY_OK;
}

/* The first row id stored with fractions of a second (schema 9's
 * seconds_cut; 0 when none is recorded) into s->seconds_below. */
static assay_err seconds_cut(struct assay_store *s, struct assay_error *e)
{
	s->seconds_below = 0;
	if (assay_store_schema_version(s) < 9)
		return ASSAY_OK;
	struct store_stmt *st = store_prepare(s, "SELECT MAX(below) FROM seconds_cut", e);
	if (!st)
		return e ? e->code : ASSAY_INFRA;
	int step = store_step(st);
	if (step == STORE_ROW)
		s->seconds_below = store_column_int64(st, 0);
	store_finalize(st);
	if (step != STORE_ROW && step != STORE_DONE)
		return store_sqlerr(s, e, "reading seconds_cut");
	return ASSAY_OK;
}

/* ---- identities of the rows of fresh series ----
 *
 * A series created in this transaction, or one the store held no ingested
 * rows of when this transaction first asked, holds only the rows this
 * transaction ingested into it. Their identities are kept as hashes: a row
 * of such a series whose hash is not in the set is new, and the index
 * lookup is skipped; a hash in the set (the row, or a collision) is looked
 * up as any other row, and so is a row without a timestamp of its own
 * (which matches any). */

static uint64_t hash_text(uint64_t h, const char *v)
{
	if (!v)
		return assay_mix64(h ^ 0x6e756c6cULL); /* NULL differs from "" */
	size_t n = 0;
	for (; v[n]; n++)
		h = (h ^ (unsigned char)v[n]) * 0x100000001b3ULL;
	return assay_mix64(h + n + 1);
}

/* The hash of an identity stored with timestamp ts. */
static uint64_t ident_hash(long long sid, const struct assay_row *r, const char *ts)
{
	uint64_t h = assay_mix64((uint64_t)sid);
	h = hash_text(h, r->run_id);
	h = hash_text(h, r->revision);
	h = hash_text(h, r->case_id);
	h = hash_text(h, ts);
	return h ? h : 1;
}

static struct ident_set *idents(struct assay_store *s)
{
	struct ident_set *set = &s->idents;
	if (set->gen != s->ident_gen) {
		if (set->v)
			memset(set->v, 0, set->cap * sizeof(*set->v));
		set->n = 0;
		set->gen = s->ident_gen;
	}
	return set;
}

static bool ident_has(struct ident_set *set, uint64_t h)
{
	if (!set->cap)
		return false;
	for (size_t i = h & (set->cap - 1);; i = (i + 1) & (set->cap - 1)) {
		if (set->v[i] == h)
			return true;
		if (!set->v[i])
			return false;
	}
}

static void ident_add(struct ident_set *set, uint64_t h)
{
	if ((set->n + 1) * 2 > set->cap) {
		uint64_t *old = set->v;
		size_t old_cap = set->cap;
		set->cap = old_cap ? old_cap * 2 : 1024;
		set->v = xcalloc(set->cap, sizeof(*set->v));
		set->n = 0;
		for (size_t i = 0; i < old_cap; i++)
			if (old[i])
				ident_add(set, old[i]);
		free(old);
	}
	size_t i = h & (set->cap - 1);
	while (set->v[i] && set->v[i] != h)
		i = (i + 1) & (set->cap - 1);
	if (!set->v[i]) {
		set->v[i] = h;
		set->n++;
	}
}

void store_idents_release(struct assay_store *s)
{
	store_finalize(s->ident_probe);
	s->ident_probe = NULL;
	store_finalize(s->insert_many);
	s->insert_many = NULL;
	free(s->idents.v);
	memset(&s->idents, 0, sizeof(s->idents));
	store_known_release(s);
}

/* 1 when the series of slot c (id sid) is fresh in this transaction, 0
 * when not, -1 on error. A series asked about for the first time in this
 * transaction is fresh when the store holds no ingested row of it. */
static int series_fresh(struct assay_store *s, struct series_slot *c, long long sid,
			struct assay_error *e)
{
	if (c->fresh == s->ident_gen)
		return 1;
	if (c->probed == s->ident_gen)
		return 0;
	if (!s->ident_probe &&
	    !(s->ident_probe = store_prepare(s,
					     "SELECT 1 FROM measurements WHERE series = ?1 AND "
					     "\"case\" IS NULL LIMIT 1",
					     e)))
		return -1;
	struct store_stmt *st = s->ident_probe;
	store_bind_int64(st, 1, sid);
	int step = store_step(st);
	store_reset(st);
	if (step != STORE_ROW && step != STORE_DONE) {
		store_sqlerr(s, e, "looking up a series' rows");
		return -1;
	}
	c->probed = s->ident_gen;
	if (step == STORE_ROW)
		return 0;
	c->fresh = s->ident_gen;
	return 1;
}

/* 1 and the stored row's id, value and run when r's identity is stored,
 * 0 when not, -1 on error. */
static int identity_find(struct assay_store *s, long long sid, const struct assay_row *r,
			 const char *ts, long long *id, double *value, struct assay_error *e)
{
	struct store_stmt *st = store_cached(s, ST_IDENT_FIND, e);
	if (!st)
		return -1;
	store_bind_int64(st, 1, sid);
	store_bind_text(st, 2, r->run_id);
	store_bind_text(st, 3, r->revision);
	store_bind_text(st, 4, r->case_id);
	store_bind_text(st, 5, r->timestamp ? ts : NULL);
	int step = store_step(st);
	if (step == STORE_ROW) {
		*id = store_column_int64(st, 0);
		*value = store_column_double(st, 1);
	}
	store_reset(st);
	if (step == STORE_ROW)
		return 1;
	if (step == STORE_DONE)
		return 0;
	store_sqlerr(s, e, "looking up a row");
	return -1;
}

/* ---- new rows of an ingest, stored CHUNK at a time ----
 *
 * Every INSERT into measurements runs in a statement transaction (its
 * trigger may abort it), which copies each page the statement changes
 * into the statement journal first: a page per index and one of the table
 * for each row alone. One statement for CHUNK rows copies the table's last
 * page once, and costs one statement's overhead. Rows wait here only while
 * nothing reads the table: a lookup or replacement stores them first. */

#define CHUNK 32

struct pending {
	struct assay_store *s;
	long long run_pk;
	size_t n;
	struct {
		const struct assay_row *r;
		long long sid;
		size_t i;
		char ts[32];
	} v[CHUNK];
};

/* ---- new rows of an ingest through COPY (backends that have it) ----
 *
 * The rows wait as COPY text lines until a lookup needs them stored, the
 * buffer is full, or the ingest ends: then one COPY sends them all. */

#define COPY_FLUSH (8u << 20)

void store_copy_text(struct sbuf *b, const char *v)
{
	if (!v) {
		sbuf_adds(b, "\\N");
		return;
	}
	for (const char *p = v; *p; p++) {
		switch (*p) {
		case '\\': sbuf_adds(b, "\\\\"); break;
		case '\t': sbuf_adds(b, "\\t"); break;
		case '\n': sbuf_adds(b, "\\n"); break;
		case '\r': sbuf_adds(b, "\\r"); break;
		default: sbuf_addch(b, *p);
		}
	}
}

assay_err store_copy_send(struct assay_store *s, const char *sql, const char *what,
			  struct assay_error *e)
{
	struct sbuf *b = &s->copy_buf;
	const struct store_backend *be = s->be;
	assay_err rc = ASSAY_OK;
	if (!b->len)
		return ASSAY_OK;
	if (be->copy_begin(s->db, sql) != 0) {
		rc = store_sqlerr(s, e, what);
	} else if (be->copy_put(s->db, b->buf, b->len) != 0) {
		rc = store_sqlerr(s, e, what); /* before the end's own failure */
		be->copy_end(s->db);
	} else if (be->copy_end(s->db) != 0) {
		rc = store_sqlerr(s, e, what);
	}
	sbuf_reset(b);
	return rc;
}

static assay_err copy_flush(struct assay_store *s, struct assay_error *e)
{
	return store_copy_send(s,
			       "COPY measurements (run, \"case\", series, run_id, case_id, value, "
			       "samples, revision, timestamp) FROM STDIN",
			       "storing rows", e);
}

static assay_err copy_add(struct pending *p, const struct assay_row *r, long long sid,
			  const char *ts, struct assay_error *e)
{
	struct sbuf *b = &p->s->copy_buf;
	char num[32];
	sbuf_addf(b, "%lld\t\\N\t%lld\t", p->run_pk, sid);
	store_copy_text(b, r->run_id);
	sbuf_addch(b, '\t');
	store_copy_text(b, r->case_id);
	store_double_text(num, sizeof(num), r->value);
	sbuf_addf(b, "\t%s\t%lld\t", num, (long long)r->samples);
	store_copy_text(b, r->revision);
	sbuf_addch(b, '\t');
	store_copy_text(b, ts);
	sbuf_addch(b, '\n');
	return b->len >= COPY_FLUSH ? copy_flush(p->s, e) : ASSAY_OK;
}

static assay_err pending_flush(struct pending *p, struct assay_error *e)
{
	struct assay_store *s = p->s;
	if (s->be->copy_begin)
		return copy_flush(s, e);
	size_t n = p->n;
	p->n = 0;
	if (n < CHUNK) {
		for (size_t k = 0; k < n; k++) {
			assay_err rc = row_insert(s, p->run_pk, 0, p->v[k].sid, p->v[k].r, true,
						  p->v[k].ts, p->v[k].i, e);
			if (rc != ASSAY_OK)
				return rc;
		}
		return ASSAY_OK;
	}
	if (!s->insert_many) {
		struct sbuf sql = SBUF_INIT;
		sbuf_adds(&sql, "INSERT INTO measurements (run, \"case\", series, run_id, case_id, "
				"value, samples, revision, timestamp) VALUES ");
		for (int k = 0; k < CHUNK; k++)
			sbuf_addf(&sql, "%s(?1, NULL, ?, ?, ?, ?, ?, ?, ?)", k ? ", " : "");
		s->insert_many = store_prepare(s, sql.buf, e);
		sbuf_release(&sql);
		if (!s->insert_many)
			return e ? e->code : ASSAY_INFRA;
	}
	struct store_stmt *st = s->insert_many;
	store_bind_int64(st, 1, p->run_pk);
	for (size_t k = 0; k < n; k++) {
		const struct assay_row *r = p->v[k].r;
		int b = 2 + (int)k * 7;
		store_bind_int64(st, b, p->v[k].sid);
		store_bind_text(st, b + 1, r->run_id);
		store_bind_text(st, b + 2, r->case_id);
		store_bind_double(st, b + 3, r->value);
		store_bind_int64(st, b + 4, r->samples);
		store_bind_text(st, b + 5, r->revision);
		store_bind_static(st, b + 6, p->v[k].ts);
	}
	int step = store_step(st);
	store_reset(st);
	store_clear(st);
	if (step == STORE_DONE)
		return ASSAY_OK;
	/* The statement changed nothing; one row at a time names the row. */
	assay_err rc = store_sqlerr(s, e, "storing rows");
	for (size_t k = 0; k < n; k++)
		if ((rc = row_insert(s, p->run_pk, 0, p->v[k].sid, p->v[k].r, true, p->v[k].ts,
				     p->v[k].i, e)) != ASSAY_OK)
			return rc;
	return store_sqlerr(s, e, "storing rows");
}

static assay_err pending_add(struct pending *p, const struct assay_row *r, long long sid, size_t i,
			     const char *ts, struct assay_error *e)
{
	if (p->s->be->copy_begin)
		return copy_add(p, r, sid, ts, e);
	p->v[p->n].r = r;
	p->v[p->n].sid = sid;
	p->v[p->n].i = i;
	snprintf(p->v[p->n].ts, sizeof(p->v[p->n].ts), "%s", ts);
	return ++p->n == CHUNK ? pending_flush(p, e) : ASSAY_OK;
}

/* Make the ingest's run and its ingests row (once, at the first new row). */
static assay_err ingest_run(struct assay_store *s, const struct assay_ingest_info *info,
			    size_t nrows, struct assay_ingest_result *res, long long *pk,
			    struct assay_error *e)
{
	struct assay_run_info ri = {.suite = info->suite, .launcher = "ingest"};
	assay_err rc = store_run_insert(s, &ri, res->run_id, e);
	if (rc == ASSAY_OK)
		rc = store_run_pk(s, res->run_id, pk, NULL, e);
	if (rc != ASSAY_OK)
		return rc;
	/* The ingest's id is its run's: never used again, also after `store
	 * forget` deleted the newest ingest (a new row would take its id). */
	struct store_stmt *st =
	    store_prepare(s,
			  "INSERT INTO ingests (id, run, file, format, sha256, rows) VALUES "
			  "(?1, ?1, ?2, ?3, ?4, ?5)",
			  e);
	if (!st)
		return e ? e->code : ASSAY_INFRA;
	store_bind_int64(st, 1, *pk);
	store_bind_text(st, 2, info->file ? info->file : "-");
	store_bind_text(st, 3, info->format ? info->format : "rows");
	store_bind_text(st, 4, info->sha256 ? info->sha256 : "");
	store_bind_int64(st, 5, (int64_t)nrows);
	int step = store_step(st);
	store_finalize(st);
	if (step == STORE_DONE) {
		/* An ingest run ends as it begins, with outcome ok. */
		if (!(st = store_prepare(
			  s, "UPDATE runs SET ended = started, exit_code = 0 WHERE id = ?1", e)))
			return e ? e->code : ASSAY_INFRA;
		store_bind_int64(st, 1, *pk);
		step = store_step(st);
		store_finalize(st);
	}
	return step == STORE_DONE ? ASSAY_OK : store_sqlerr(s, e, "recording the ingest");
}

static assay_err set_ingest_rows(struct assay_store *s, long long pk, size_t n,
				 struct assay_error *e)
{
	struct store_stmt *st = store_prepare(s, "UPDATE ingests SET rows = ?2 WHERE run = ?1", e);
	if (!st)
		return e ? e->code : ASSAY_INFRA;
	store_bind_int64(st, 1, pk);
	store_bind_int64(st, 2, (int64_t)n);
	int step = store_step(st);
	store_finalize(st);
	return step == STORE_DONE ? ASSAY_OK : store_sqlerr(s, e, "recording the ingest");
}

/* Row i (r, at timestamp ts) is stored already, with value stored (row
 * id): counted when the value is the same, replaced with --replace, an
 * error otherwise. Off the hot path: only a file ingested again gets here. */
static assay_err row_stored(struct assay_store *s, const struct assay_ingest_info *info,
			    const struct assay_row *r, size_t i, const char *ts, long long id,
			    double stored, struct assay_ingest_result *res, struct assay_error *e)
{
	if (stored == r->value) {
		res->present++;
		return ASSAY_OK;
	}
	if (!info->replace) {
		assay_error_set(e, ASSAY_USAGE,
				"%s/%s (run_id %s, revision %s, timestamp %s) is stored "
				"with value %.10g, this file says %.10g; --replace stores the "
				"new value",
				r->metric, r->statistic, r->run_id ? r->run_id : "-",
				r->revision ? r->revision : "-", r->timestamp ? ts : "-", stored,
				r->value);
		row_where(e, info->file, r, i);
		return ASSAY_USAGE;
	}
	struct store_stmt *u =
	    store_prepare(s, "UPDATE measurements SET value = ?2, samples = ?3 WHERE id = ?1", e);
	if (!u)
		return e ? e->code : ASSAY_INFRA;
	store_bind_int64(u, 1, id);
	store_bind_double(u, 2, r->value);
	store_bind_int64(u, 3, r->samples);
	enum store_step step = store_step(u);
	store_finalize(u);
	res->replaced++;
	return step == STORE_DONE ? ASSAY_OK : store_sqlerr(s, e, "replacing a row");
}

/* The earliest timestamp of the rows that have one ("" when they cannot
 * be read: every time then), into since[32]. */
static void earliest(const struct assay_rows *rows, char since[32])
{
	int64_t min = INT64_MAX, t;
	for (size_t i = 0; i < rows->n; i++)
		if (rows->v[i].timestamp && assay_time_parse(rows->v[i].timestamp, &t) && t < min)
			min = t;
	/* A second earlier: a stored time with a fraction sorts before its
	 * whole second as text ("05.5Z" < "05Z"). */
	if (min == INT64_MAX)
		since[0] = 0;
	else
		assay_time_rfc3339(min - 1, since);
}

/* A row whose time has a fraction of a second is also the row of the same
 * identity stored before schema version 9 at its whole second (those
 * stores cut every time to seconds; s->seconds_below is the first row id
 * stored with fractions). 1 (*id, *stored), 0, or -1. */
static int legacy_find(struct assay_store *s, struct series_slot *slot, long long sid,
		       const struct assay_row *r, const char *ts, const char *since, long long *id,
		       double *stored, struct assay_error *e)
{
	char sec[32];
	if (s->seconds_below <= 1 || !assay_time_whole_second(ts, sec))
		return 0;
	int found = store_known_find(s, slot, sid, r, sec, since, id, stored, e);
	return found > 0 && *id > 0 && *id < s->seconds_below ? 1 : found < 0 ? -1 : 0;
}

/* Whether row r (ts) of a series that holds ingested rows is stored: from
 * the series' identities read at once (rows_known.c); a row this ingest
 * added itself, or one without a timestamp (any time matches), by a
 * lookup. 1 (*id, *stored), 0, or -1. */
static int stored_find(struct pending *pend, struct series_slot *slot, long long sid,
		       const struct assay_row *r, const char *ts, const struct assay_rows *rows,
		       char since[33], long long *id, double *stored, struct assay_error *e)
{
	struct assay_store *s = pend->s;
	int found = 0;
	if (r->timestamp) {
		if (!since[32]) {
			earliest(rows, since);
			since[32] = 1;
		}
		found = store_known_find(s, slot, sid, r, ts, since, id, stored, e);
		if (found == 0)
			found = legacy_find(s, slot, sid, r, ts, since, id, stored, e);
		if (found <= 0 || *id)
			return found;
	}
	return pending_flush(pend, e) != ASSAY_OK ? -1
						  : identity_find(s, sid, r, ts, id, stored, e);
}

/* Every row of the ingest: present, replaced, skipped or added (the run
 * made at the first added row), in the open transaction. */
static assay_err ingest_each(struct assay_store *s, const struct assay_ingest_info *info,
			     const struct assay_rows *rows, struct assay_ingest_result *res,
			     struct assay_error *e)
{
	char now[32];
	assay_now_rfc3339(now);
	long long pk = 0;
	struct pending pend = {.s = s};
	assay_err rc = ASSAY_OK;
	char since[33] = {0}; /* since[32]: computed */
	s->known_gen++;       /* this file's identities, from its own since */
	for (size_t i = 0; i < rows->n; i++) {
		const struct assay_row *r = &rows->v[i];
		long long sid, id;
		double stored;
		char ts[32];
		struct series_slot *slot;
		if ((rc = row_prepare(s, info->file, r, i, now, &sid, &slot, ts, e)) != ASSAY_OK)
			return rc;
		bool has_identity = r->run_id || r->timestamp;
		/* Every row stored into a fresh series enters the set, those
		 * without an identity too (a later row's timestamp may equal the
		 * time such a row was given). */
		int fresh = series_fresh(s, slot, sid, e);
		int found = 0;
		if (fresh < 0)
			found = -1;
		else if (has_identity && !fresh)
			found = stored_find(&pend, slot, sid, r, ts, rows, since, &id, &stored, e);
		else if (has_identity &&
			 (!r->timestamp || ident_has(idents(s), ident_hash(sid, r, ts))))
			found = (rc = pending_flush(&pend, e)) != ASSAY_OK
				    ? -1
				    : identity_find(s, sid, r, ts, &id, &stored, e);
		if (found < 0)
			return e ? e->code : ASSAY_INFRA;
		if (found) {
			if ((rc = row_stored(s, info, r, i, ts, id, stored, res, e)) != ASSAY_OK)
				return rc;
			continue;
		}
		if (!has_identity && res->earlier_run[0] && !info->force) {
			res->skipped++;
			continue;
		}
		if (!pk && (rc = ingest_run(s, info, rows->n, res, &pk, e)) != ASSAY_OK)
			return rc;
		pend.run_pk = pk;
		if ((rc = pending_add(&pend, r, sid, i, ts, e)) != ASSAY_OK)
			return rc;
		res->added++;
		if (fresh > 0) {
			struct ident_set *set = idents(s);
			ident_add(set, ident_hash(sid, r, ts));
		} else if (has_identity && r->timestamp) {
			store_known_add(s, sid, r, ts);
		}
	}
	if ((rc = pending_flush(&pend, e)) == ASSAY_OK && pk)
		rc = set_ingest_rows(s, pk, res->added, e);
	return rc;
}

assay_err assay_store_ingest_rows(struct assay_store *s, const struct assay_ingest_info *info,
				  const struct assay_rows *rows, struct assay_ingest_result *res,
				  struct assay_error *e)
{
	memset(res, 0, sizeof(*res));
	/* Everything commits together: the run, its rows and any replacements. */
	assay_err rc = store_begin(s, e);
	if (rc != ASSAY_OK)
		return rc;
	if ((rc = earlier_ingest(s, info->sha256, res->earlier_run, e)) != ASSAY_OK ||
	    (rc = seconds_cut(s, e)) != ASSAY_OK)
		goto fail;
	/* The backend's setting for a large write (SQLite: a page cache that
	 * holds the changed pages, so that they reach the file once, at the
	 * commit). */
	if (s->be->bulk_sql && (rc = store_exec(s, s->be->bulk_sql, e)) != ASSAY_OK)
		goto fail;
	if ((rc = ingest_each(s, info, rows, res, e)) != ASSAY_OK) {
		if (info->file && e && !e->file[0]) /* else row_where named it */
			assay_error_prefix(e, "%s", info->file);
		goto fail;
	}
	if ((rc = store_commit(s, e)) != ASSAY_OK) {
		memset(res, 0, sizeof(*res));
		return rc;
	}
	return ASSAY_OK;
fail:
	store_rollback(s);
	memset(res, 0, sizeof(*res));
	return rc;
}
