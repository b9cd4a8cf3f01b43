/* Reading the store: series with counts and last values, a series' points
 * in time order, and a walk over stored rows (for export and detection). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "assay/json.h"
#include "store_int.h"

void assay_series_filter_release(struct assay_series_filter *f)
{
	strlist_clear(&f->keys);
	strlist_clear(&f->match);
}

static bool hex_prefix(const char *s)
{
	size_t n = strlen(s);
	if (n < 8 || n > 64)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isdigit((unsigned char)s[i]) && !(s[i] >= 'a' && s[i] <= 'f'))
			return false;
	return true;
}

/* The value of series field k as text, for field=value matching. */
static bool series_field_is(const json_t *fields, const char *k, size_t klen, const char *want)
{
	char key[256];
	snprintf(key, sizeof(key), "%.*s", (int)klen, k);
	const json_t *v = json_object_get(fields, key);
	if (!v)
		return false;
	char a[128], b[128];
	if (json_is_string(v) && !strcmp(key, "precision")) {
		/* Aliases name the same precision (a store not yet migrated may hold one). */
		assay_precision_canonical(json_string_value(v), a, sizeof(a));
		assay_precision_canonical(want, b, sizeof(b));
		return !strcmp(a, b);
	}
	if (json_is_string(v) && !strcmp(key, "scale") &&
	    assay_scale_canonical(json_string_value(v), a, sizeof(a)) &&
	    assay_scale_canonical(want, b, sizeof(b)))
		return !strcmp(a, b);
	if (json_is_string(v))
		return !strcmp(json_string_value(v), want);
	if (json_is_number(v) || json_is_boolean(v)) {
		char *t = assay_json_dumps(v, 0);
		bool eq = !strcmp(t, want);
		free(t);
		return eq;
	}
	return false;
}

/* The bounds of a filter's points, normalised to stored timestamps. */
struct bounds {
	char since[32], until[32];
	long long last;
};

/* t as an RFC 3339 time (name: since or until) into out; a date alone ends
 * at the end of its day for until. */
static assay_err time_bound(const char *name, const char *t, char out[32], struct assay_error *e)
{
	int64_t v;
	if (!assay_time_parse(t, &v))
		return assay_error_set(e, ASSAY_USAGE,
				       "%s \"%s\": expected a date (2026-11-01) or an RFC "
				       "3339 time",
				       name, t);
	if (!strcmp(name, "until") && strlen(t) == 10)
		v += 86399;
	assay_time_rfc3339(v, out);
	return ASSAY_OK;
}

static assay_err check_range(const struct assay_series_filter *f, struct bounds *b,
			     struct assay_error *e)
{
	/* No bound: below and above every stored timestamp. */
	snprintf(b->since, sizeof(b->since), "%s", "");
	snprintf(b->until, sizeof(b->until), "%s", "9999-12-31T23:59:59Z");
	b->last = 0;
	if (!f)
		return ASSAY_OK;
	assay_err rc;
	if (f->since && (rc = time_bound("since", f->since, b->since, e)) != ASSAY_OK)
		return rc;
	if (f->until && (rc = time_bound("until", f->until, b->until, e)) != ASSAY_OK)
		return rc;
	if (f->last < 0)
		return assay_error_set(e, ASSAY_USAGE, "last %lld: expected a count of at least 1",
				       f->last);
	b->last = f->last;
	return ASSAY_OK;
}

static assay_err check_filter(const struct assay_series_filter *f, struct bounds *b,
			      struct assay_error *e)
{
	for (size_t i = 0; i < f->keys.n; i++)
		if (!hex_prefix(f->keys.v[i]))
			return assay_error_set(
			    e, ASSAY_USAGE,
			    "series \"%s\": expected a series key or a prefix of "
			    "at least 8 lower-case hex digits",
			    f->keys.v[i]);
	for (size_t i = 0; i < f->match.n; i++) {
		const char *eq = strchr(f->match.v[i], '=');
		if (!eq || eq == f->match.v[i])
			return assay_error_set(e, ASSAY_USAGE, "match \"%s\": expected FIELD=VALUE",
					       f->match.v[i]);
	}
	return check_range(f, b, e);
}

/* Bind a points statement's series (?1), bounds (?2, ?3) and, reading the
 * newest first, the count (?4). */
static void bind_range(struct store_stmt *st, long long sid, const struct bounds *b)
{
	store_bind_int64(st, 1, sid);
	store_bind_static(st, 2, b->since);
	store_bind_static(st, 3, b->until);
	if (b->last)
		store_bind_int64(st, 4, b->last);
}

static bool filter_accepts(const struct assay_series_filter *f, const char *key,
			   const json_t *fields)
{
	if (f->keys.n) {
		bool any = false;
		for (size_t i = 0; i < f->keys.n && !any; i++)
			any = assay_starts_with(key, f->keys.v[i]);
		if (!any)
			return false;
	}
	for (size_t i = 0; i < f->match.n; i++) {
		const char *m = f->match.v[i], *eq = strchr(m, '=');
		if (!series_field_is(fields, m, (size_t)(eq - m), eq + 1))
			return false;
	}
	return true;
}

bool assay_series_filter_accepts(const struct assay_series_filter *f, const char *key,
				 const json_t *fields)
{
	return filter_accepts(f, key, fields);
}

/* One matching series as read from the series table. */
struct picked {
	long long id;
	char *key, *metric, *statistic, *unit;
	enum assay_direction dir;
	json_t *fields;
	char *fields_text; /* instead of fields, in a bare listing without matches */
};

static void picked_release(struct picked *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(p[i].key);
		free(p[i].metric);
		free(p[i].statistic);
		free(p[i].unit);
		json_decref(p[i].fields);
		free(p[i].fields_text);
	}
	free(p);
}

static size_t key_slot(const struct read_ids *m, const char *key)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	for (const unsigned char *p = (const unsigned char *)key; *p; p++)
		h = (h ^ *p) * 0x100000001b3ULL;
	size_t i = (size_t)assay_mix64(h) & (m->cap - 1);
	while (m->v[i].key[0] && strcmp(m->v[i].key, key))
		i = (i + 1) & (m->cap - 1);
	return i;
}

static void read_id_put(struct read_ids *m, const char *key, long long id)
{
	if (strlen(key) != 64)
		return;
	if ((m->n + 1) * 2 > m->cap) {
		struct read_ids old = *m;
		m->cap = old.cap ? old.cap * 2 : 1024;
		m->v = xcalloc(m->cap, sizeof(*m->v));
		m->n = 0;
		for (size_t i = 0; i < old.cap; i++)
			if (old.v[i].key[0])
				read_id_put(m, old.v[i].key, old.v[i].id);
		free(old.v);
	}
	size_t i = key_slot(m, key);
	if (!m->v[i].key[0]) {
		memcpy(m->v[i].key, key, 65);
		m->n++;
	}
	m->v[i].id = id;
}

/* The id of listed series key, 0 when it was not listed. */
static long long read_id_get(const struct read_ids *m, const char *key)
{
	if (!m->cap)
		return 0;
	size_t i = key_slot(m, key);
	return m->v[i].key[0] ? m->v[i].id : 0;
}

void store_read_ids_release(struct assay_store *s)
{
	free(s->read_ids.v);
	memset(&s->read_ids, 0, sizeof(s->read_ids));
}

static assay_err pick_series(struct assay_store *s, const struct assay_series_filter *f,
			     struct picked **out, size_t *n_out, struct assay_error *e)
{
	struct store_stmt *st = store_prepare(
	    s,
	    "SELECT id, key, fields, metric, statistic, unit, direction FROM series ORDER BY key",
	    e);
	if (!st)
		return e ? e->code : ASSAY_INFRA;
	struct picked *v = NULL;
	size_t n = 0, alloc = 0;
	int step;
	while ((step = store_step(st)) == STORE_ROW) {
		const char *key = store_column_text(st, 1);
		const char *text = store_column_text(st, 2);
		/* A bare listing without matches leaves the fields as text: parsing
		 * them is most of listing, and a detection prints few series. */
		bool lazy = f->bare && !f->match.n;
		json_t *fields = lazy ? NULL : json_loads(text ? text : "{}", 0, NULL);
		if (!fields && !lazy)
			fields = json_object();
		if (!filter_accepts(f, key, fields)) {
			json_decref(fields);
			continue;
		}
		ALLOC_GROW(v, n + 1, alloc);
		struct picked *p = &v[n++];
		p->id = store_column_int64(st, 0);
		p->key = xstrdup(key);
		read_id_put(&s->read_ids, key, p->id);
		p->fields = fields;
		p->fields_text = lazy ? xstrdup(text ? text : "{}") : NULL;
		p->metric = store_column_dup(st, 3);
		p->statistic = store_column_dup(st, 4);
		p->unit = store_column_dup(st, 5);
		p->dir = (enum assay_direction)assay_direction_parse(store_column_text(st, 6));
	}
	store_finalize(st);
	if (step != STORE_DONE) {
		picked_release(v, n);
		return store_sqlerr(s, e, "listing series");
	}
	*out = v;
	*n_out = n;
	return ASSAY_OK;
}

assay_err assay_store_series(struct assay_store *s, const struct assay_series_filter *f,
			     struct assay_series_list *out, struct assay_error *e)
{
	struct bounds b;
	struct picked *p = NULL;
	size_t n = 0;
	assay_err rc = check_filter(f, &b, e);
	if (rc != ASSAY_OK || (rc = pick_series(s, f, &p, &n, e)) != ASSAY_OK)
		return rc;
	struct store_stmt *cnt = NULL, *last = NULL;
	if (f->bare) {
		for (size_t i = 0; i < n; i++) {
			ALLOC_GROW(out->v, out->n + 1, out->alloc);
			struct assay_series_info *si = &out->v[out->n++];
			*si = (struct assay_series_info){.key = p[i].key,
							 .fields = p[i].fields,
							 .fields_text = p[i].fields_text,
							 .unit = p[i].unit,
							 .direction = p[i].dir};
			p[i].key = p[i].unit = p[i].fields_text = NULL;
			p[i].fields = NULL;
		}
		goto done;
	}
	cnt = store_prepare(s,
			    "SELECT count(*) FROM measurements WHERE series = ?1 AND timestamp "
			    ">= ?2 AND timestamp <= ?3",
			    e);
	last = cnt ? store_prepare(s,
				   "SELECT value, revision, timestamp FROM measurements "
				   "WHERE series = ?1 AND timestamp >= ?2 AND timestamp <= ?3 "
				   "ORDER BY timestamp DESC, id DESC LIMIT 1",
				   e)
		   : NULL;
	if (!last) {
		rc = e ? e->code : ASSAY_INFRA;
		goto done;
	}
	for (size_t i = 0; i < n; i++) {
		store_reset(cnt);
		store_reset(last);
		struct bounds all = b;
		all.last = 0; /* the count is cut at b.last below */
		bind_range(cnt, p[i].id, &all);
		bind_range(last, p[i].id, &all);
		if (store_step(cnt) != STORE_ROW) {
			rc = store_sqlerr(s, e, "counting rows");
			goto done;
		}
		long long count = store_column_int64(cnt, 0);
		if (b.last && count > b.last)
			count = b.last;
		if (!count)
			continue;
		if (store_step(last) != STORE_ROW) {
			rc = store_sqlerr(s, e, "reading the last row");
			goto done;
		}
		ALLOC_GROW(out->v, out->n + 1, out->alloc);
		struct assay_series_info *si = &out->v[out->n++];
		*si = (struct assay_series_info){0};
		si->key = xstrdup(p[i].key);
		si->fields = json_incref(p[i].fields);
		si->unit = xstrdup(p[i].unit);
		si->direction = p[i].dir;
		si->count = count;
		si->last_value = store_column_double(last, 0);
		si->last_revision = store_column_dup(last, 1);
		si->last_timestamp = store_column_dup(last, 2);
	}
done:
	store_finalize(cnt);
	store_finalize(last);
	picked_release(p, n);
	return rc;
}

const json_t *assay_series_fields(struct assay_series_info *si)
{
	if (!si->fields && si->fields_text) {
		si->fields = json_loads(si->fields_text, 0, NULL);
		if (!si->fields)
			si->fields = json_object();
	}
	return si->fields;
}

void assay_series_list_release(struct assay_series_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].key);
		json_decref(l->v[i].fields);
		free(l->v[i].fields_text);
		free(l->v[i].unit);
		free(l->v[i].last_revision);
		free(l->v[i].last_timestamp);
	}
	free(l->v);
	memset(l, 0, sizeof(*l));
}

/* A series' points: the run column names the run that stored the point.
 * A store older than schema 6 (read-only, not migrated) has no image. */
#define POINTS_FROM_V5                                                                             \
	"SELECT m.value, m.samples, m.revision, m.timestamp, coalesce(m.run_id, r.run_id), "       \
	"NULL FROM measurements m JOIN runs r ON r.id = m.run WHERE m.series = ?1 AND "            \
	"m.timestamp >= ?2 AND m.timestamp <= ?3"
#define POINTS_FROM                                                                                \
	"SELECT m.value, m.samples, m.revision, m.timestamp, coalesce(m.run_id, r.run_id), "       \
	"c.image_digest FROM measurements m JOIN runs r ON r.id = m.run LEFT JOIN cases c ON "     \
	"c.id = m.\"case\" WHERE m.series = ?1 AND m.timestamp >= ?2 AND m.timestamp <= ?3"
#define M_ASC " ORDER BY m.timestamp, m.id"
/* --last N: the newest N first (read backwards, then turned round). */
#define M_LAST " ORDER BY m.timestamp DESC, m.id DESC LIMIT ?4"
static const char *const points_sql[2][2] = {{POINTS_FROM_V5 M_ASC, POINTS_FROM_V5 M_LAST},
					     {POINTS_FROM M_ASC, POINTS_FROM M_LAST}};

/* Rows as stored: an ingested row keeps its own run id, NULL included.
 * With --last the newest N of each series, in time order. */
#define ROWS_RUN                                                                                   \
	"CASE WHEN m.\"case\" IS NULL AND r.launcher = 'ingest' THEN m.run_id ELSE "               \
	"coalesce(m.run_id, r.run_id) END"
#define ROWS_CASE "coalesce(m.case_id, c.case_id)"
#define ROWS_FROM                                                                                  \
	" FROM measurements m JOIN runs r ON r.id = m.run LEFT JOIN cases c ON c.id = "            \
	"m.\"case\" WHERE m.series = ?1 AND m.timestamp >= ?2 AND m.timestamp <= ?3"
static const char rows_sql[] =
    "SELECT m.value, m.samples, m.revision, m.timestamp, " ROWS_RUN ", " ROWS_CASE ROWS_FROM M_ASC;
static const char rows_last_sql[] =
    "SELECT value, samples, revision, timestamp, rid, cid FROM (SELECT m.id AS id, m.value AS "
    "value, m.samples AS samples, m.revision AS revision, m.timestamp AS timestamp, " ROWS_RUN
    " AS rid, " ROWS_CASE " AS cid" ROWS_FROM M_LAST ") t ORDER BY timestamp, id";

assay_err assay_store_rows(struct assay_store *s, const struct assay_series_filter *f,
			   assay_store_row_fn fn, void *ctx, struct assay_error *e)
{
	struct bounds b;
	struct picked *p = NULL;
	size_t n = 0;
	assay_err rc = check_filter(f, &b, e);
	if (rc != ASSAY_OK || (rc = pick_series(s, f, &p, &n, e)) != ASSAY_OK)
		return rc;
	struct store_stmt *st = store_prepare(s, b.last ? rows_last_sql : rows_sql, e);
	if (!st) {
		picked_release(p, n);
		return e ? e->code : ASSAY_INFRA;
	}
	for (size_t i = 0; i < n && rc == ASSAY_OK; i++) {
		store_reset(st);
		bind_range(st, p[i].id, &b);
		struct assay_row r;
		assay_row_init(&r);
		r.series = p[i].fields;
		snprintf(r.series_key, sizeof(r.series_key), "%s", p[i].key);
		r.metric = p[i].metric;
		r.statistic = p[i].statistic;
		r.unit = p[i].unit;
		r.direction = p[i].dir;
		int step;
		while ((step = store_step(st)) == STORE_ROW) {
			r.value = store_column_double(st, 0);
			r.samples = store_column_int64(st, 1);
			r.revision = (char *)store_column_text(st, 2);
			r.timestamp = (char *)store_column_text(st, 3);
			r.run_id = (char *)store_column_text(st, 4);
			r.case_id = (char *)store_column_text(st, 5);
			int stop = fn(&r, ctx);
			if (stop) {
				rc = (assay_err)stop;
				break;
			}
		}
		if (rc == ASSAY_OK && step != STORE_DONE)
			rc = store_sqlerr(s, e, "reading rows");
	}
	store_finalize(st);
	picked_release(p, n);
	return rc;
}

/* A series' id and the bounds of its points normalised, before reading
 * them into the empty list out. */
static assay_err points_start(struct assay_store *s, const char *series_key,
			      const struct assay_series_filter *range,
			      const struct assay_points *out, long long *sid, struct bounds *b,
			      struct assay_error *e)
{
	if (out->n || out->strings)
		return assay_error_set(e, ASSAY_USAGE, "points are read into an empty list");
	assay_err rc = check_range(range, b, e);
	if (rc != ASSAY_OK)
		return rc;
	if ((*sid = read_id_get(&s->read_ids, series_key)))
		return ASSAY_OK;
	struct store_stmt *id = store_cached(s, ST_SERIES_ID, e);
	if (!id)
		return e ? e->code : ASSAY_INFRA;
	store_bind_static(id, 1, series_key);
	int step = store_step(id);
	*sid = step == STORE_ROW ? store_column_int64(id, 0) : 0;
	store_reset(id);
	if (step != STORE_ROW)
		return step == STORE_DONE ? assay_error_set(e, ASSAY_USAGE, "%s: no series %s",
							    s->path, series_key)
					  : store_sqlerr(s, e, "finding a series");
	return ASSAY_OK;
}

/* Points read newest first (--last): into time order. */
static void points_reverse(struct assay_points *out)
{
	for (size_t i = 0, j = out->n; i + 1 < j; i++, j--) {
		struct assay_point t = out->v[i];
		out->v[i] = out->v[j - 1];
		out->v[j - 1] = t;
	}
}

/* Points of one series: with_run reads each point's run id too (which
 * leaves the index for the runs table and the row), else only what the
 * series index covers. */
static assay_err read_points(struct assay_store *s, const char *series_key,
			     const struct assay_series_filter *range, bool with_run,
			     struct assay_points *out, struct assay_error *e)
{
	struct bounds b;
	long long sid;
	assay_err rc = points_start(s, series_key, range, out, &sid, &b, e);
	if (rc != ASSAY_OK)
		return rc;
	int step;
	struct store_stmt *st =
	    with_run
		? store_prepare(s, points_sql[assay_store_schema_version(s) >= 6][b.last != 0], e)
		: store_cached(s, b.last ? ST_VALUES_LAST : ST_VALUES, e);
	if (!st)
		return e ? e->code : ASSAY_INFRA;
	bind_range(st, sid, &b);
	/* The points' strings go to one block, as offsets + 1 (0: NULL) until
	 * it stops growing: one allocation per series instead of two to four
	 * per point. */
	struct sbuf strings = SBUF_INIT;
	size_t(*off)[4] = NULL, off_alloc = 0, first = out->n;
	sbuf_addch(&strings, '\0');
	while ((step = store_step(st)) == STORE_ROW) {
		ALLOC_GROW(out->v, out->n + 1, out->alloc);
		ALLOC_GROW(off, out->n - first + 1, off_alloc);
		size_t *o = off[out->n - first];
		struct assay_point *pt = &out->v[out->n++];
		pt->value = store_column_double(st, 0);
		for (int c = 0; c < 4; c++)
			o[c] = c < 2 || with_run ? store_column_append(&strings, st, 2 + c) : 0;
	}
	if (step != STORE_DONE)
		rc = store_sqlerr(s, e, "reading points");
	char *block = sbuf_detach(&strings, NULL);
	for (size_t i = first; i < out->n; i++) {
		size_t *o = off[i - first];
		struct assay_point *pt = &out->v[i];
		pt->revision = store_block_str(block, o[0]);
		pt->timestamp = store_block_str(block, o[1]);
		pt->run_id = store_block_str(block, o[2]);
		pt->image_digest = store_block_str(block, o[3]);
	}
	if (b.last)
		points_reverse(out);
	free(off);
	out->strings = block;
	if (with_run)
		store_finalize(st);
	else
		store_reset(st);
	return rc;
}

assay_err assay_store_points(struct assay_store *s, const char *series_key,
			     const struct assay_series_filter *range, struct assay_points *out,
			     struct assay_error *e)
{
	return read_points(s, series_key, range, true, out, e);
}

assay_err assay_store_series_values(struct assay_store *s, const char *series_key,
				    const struct assay_series_filter *range,
				    struct assay_points *out, struct assay_error *e)
{
	return read_points(s, series_key, range, false, out, e);
}

assay_err assay_store_series_values_lean(struct assay_store *s, const char *series_key,
					 const struct assay_series_filter *range, bool revisions,
					 struct assay_points *out, struct assay_error *e)
{
	struct bounds b;
	long long sid;
	assay_err rc = points_start(s, series_key, range, out, &sid, &b, e);
	if (rc != ASSAY_OK)
		return rc;
	static const enum store_stmt_id ids[2][2] = {{ST_VALUES_LEAN, ST_VALUES_LEAN_LAST},
						     {ST_VALUES_LEAN_REV, ST_VALUES_LEAN_REV_LAST}};
	struct store_stmt *st = store_cached(s, ids[revisions][b.last != 0], e);
	if (!st)
		return e ? e->code : ASSAY_INFRA;
	bind_range(st, sid, &b);
	struct sbuf strings = SBUF_INIT;
	size_t *off = NULL, off_alloc = 0, first = out->n;
	int step;
	sbuf_addch(&strings, '\0');
	while ((step = store_step(st)) == STORE_ROW) {
		ALLOC_GROW(out->v, out->n + 1, out->alloc);
		struct assay_point *pt = &out->v[out->n++];
		memset(pt, 0, sizeof(*pt));
		pt->value = store_column_double(st, 0);
		pt->id = store_column_int64(st, 1);
		if (revisions) {
			ALLOC_GROW(off, out->n - first, off_alloc);
			off[out->n - first - 1] = store_column_append(&strings, st, 2);
		}
	}
	if (step != STORE_DONE)
		rc = store_sqlerr(s, e, "reading points");
	char *block = sbuf_detach(&strings, NULL);
	for (size_t i = first; revisions && i < out->n; i++)
		out->v[i].revision = store_block_str(block, off[i - first]);
	if (b.last)
		points_reverse(out);
	free(off);
	out->strings = block;
	store_reset(st);
	return rc;
}

assay_err assay_store_point_strings(struct assay_store *s, long long id, char **revision,
				    char **timestamp, struct assay_error *e)
{
	*revision = *timestamp = NULL;
	struct store_stmt *st = store_cached(s, ST_POINT_STRINGS, e);
	if (!st)
		return e ? e->code : ASSAY_INFRA;
	store_bind_int64(st, 1, id);
	int step = store_step(st);
	if (step == STORE_ROW) {
		const char *r = store_column_text(st, 0);
		*revision = r ? xstrdup(r) : NULL;
		*timestamp = xstrdup(store_column_text(st, 1));
	}
	store_reset(st);
	if (step == STORE_ROW)
		return ASSAY_OK;
	return step == STORE_DONE
		   ? assay_error_set(e, ASSAY_USAGE, "%s: no measurement %lld", s->path, id)
		   : store_sqlerr(s, e, "reading a point");
}

void assay_points_release(struct assay_points *p)
{
	if (!p->strings) /* filled point by point (CSV input, history walk) */
		for (size_t i = 0; i < p->n; i++) {
			free(p->v[i].revision);
			free(p->v[i].timestamp);
			free(p->v[i].run_id);
			free(p->v[i].image_digest);
		}
	free(p->strings);
	free(p->v);
	memset(p, 0, sizeof(*p));
}

assay_err assay_store_resolve_series(struct assay_store *s, const char *key_or_prefix,
				     char key_out[65], struct assay_error *e)
{
	if (!hex_prefix(key_or_prefix))
		return assay_error_set(
		    e, ASSAY_USAGE,
		    "series \"%s\": expected a series key or a prefix of at least "
		    "8 lower-case hex digits",
		    key_or_prefix);
	struct store_stmt *st = store_prepare(
	    s, "SELECT key FROM series WHERE key >= ?1 AND key < ?1 || 'g' ORDER BY key LIMIT 2",
	    e);
	if (!st)
		return e ? e->code : ASSAY_INFRA;
	store_bind_static(st, 1, key_or_prefix);
	int found = 0, step;
	while ((step = store_step(st)) == STORE_ROW) {
		if (!found)
			snprintf(key_out, 65, "%s", store_column_text(st, 0));
		found++;
	}
	store_finalize(st);
	if (step != STORE_DONE)
		return store_sqlerr(s, e, "finding a series");
	if (!found)
		return assay_error_set(e, ASSAY_USAGE, "%s: no series %s", s->path, key_or_prefix);
	if (found > 1)
		return assay_error_set(e, ASSAY_USAGE,
				       "%s: series prefix %s is ambiguous; give more "
				       "digits",
				       s->path, key_or_prefix);
	return ASSAY_OK;
}
