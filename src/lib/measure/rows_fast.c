/* The hot path of reading NDJSON measurement rows: a line of the usual
 * shape (one flat object, ASCII strings without escapes) becomes a row
 * without a JSON document, and the rows of one series share one series
 * object, read, canonicalised and hashed once per file. Any other line
 * returns 0 and goes to the general reader (row.c), which also words every
 * error, so what is accepted and every message stay the same. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "assay/json.h"
#include "measure_int.h"

/* A series as written (its text, metric and statistic) and what it became. */
struct memo_entry {
	char *text; /* series text, NUL, metric, NUL, statistic */
	size_t len;
	uint64_t hash;
	json_t *series;   /* canonical, with metric and statistic */
	char key[65];     /* its series key */
	char raw_key[65]; /* the key of the series as written (older exports) */
};

struct row_memo {
	struct memo_entry *v; /* open addressing, text NULL = empty */
	size_t n, cap;
	struct sbuf tmp;
};

struct row_memo *row_memo_new(void)
{
	struct row_memo *m = xcalloc(1, sizeof(*m));
	sbuf_init(&m->tmp);
	return m;
}

void row_memo_free(struct row_memo *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->cap; i++)
		if (m->v[i].text) {
			free(m->v[i].text);
			json_decref(m->v[i].series);
		}
	free(m->v);
	sbuf_release(&m->tmp);
	free(m);
}

static uint64_t hash_bytes(const char *p, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)p[i]) * 0x100000001b3ULL;
	return h ^ (h >> 29);
}

static struct memo_entry *memo_slot(struct row_memo *m, const char *text, size_t len, uint64_t hash)
{
	for (size_t i = hash & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
		struct memo_entry *me = &m->v[i];
		if (!me->text ||
		    (me->hash == hash && me->len == len && !memcmp(me->text, text, len)))
			return me;
	}
}

static void memo_grow(struct row_memo *m)
{
	struct memo_entry *old = m->v;
	size_t old_cap = m->cap;
	m->cap = old_cap ? old_cap * 2 : 64;
	m->v = xcalloc(m->cap, sizeof(*m->v));
	for (size_t i = 0; i < old_cap; i++)
		if (old[i].text)
			*memo_slot(m, old[i].text, old[i].len, old[i].hash) = old[i];
	free(old);
}

/* The entry of this series text, metric and statistic; NULL when the text
 * is not a JSON object the general reader would take. */
static struct memo_entry *memo_get(struct row_memo *m, const char *series, size_t slen,
				   const char *metric, const char *statistic)
{
	struct sbuf *t = &m->tmp;
	sbuf_reset(t);
	sbuf_add(t, series, slen);
	sbuf_addch(t, '\0');
	sbuf_adds(t, metric);
	sbuf_addch(t, '\0');
	sbuf_adds(t, statistic);
	size_t len = t->len;
	uint64_t hash = hash_bytes(sbuf_str(t), len);
	if ((m->n + 1) * 2 > m->cap)
		memo_grow(m);
	struct memo_entry *me = memo_slot(m, sbuf_str(t), len, hash);
	if (me->text)
		return me;
	json_error_t je;
	json_t *obj = json_loadb(series, slen, JSON_REJECT_DUPLICATES, &je);
	if (!json_is_object(obj)) {
		json_decref(obj);
		return NULL;
	}
	/* As assay_row_from_json and assay_row_finish make them. */
	json_t *raw = json_deep_copy(obj);
	json_object_set_new(raw, "metric", json_string(metric));
	json_object_set_new(raw, "statistic", json_string(statistic));
	assay_json_sha256(raw, me->raw_key);
	json_decref(raw);
	assay_series_canonicalize(obj);
	json_object_set_new(obj, "metric", json_string(metric));
	json_object_set_new(obj, "statistic", json_string(statistic));
	assay_json_sha256(obj, me->key);
	me->series = obj;
	me->text = xmalloc(len);
	memcpy(me->text, sbuf_str(t), len);
	me->len = len;
	me->hash = hash;
	m->n++;
	return me;
}

/* ---- the line ---- */

struct lx {
	const char *p, *end;
};

static void ws(struct lx *x)
{
	while (x->p < x->end && (*x->p == ' ' || *x->p == '\t' || *x->p == '\r' || *x->p == '\n'))
		x->p++;
}

/* A string of printable ASCII without escapes: its bytes in [*s, *s + *n). */
static bool plain_string(struct lx *x, const char **s, size_t *n)
{
	if (x->p >= x->end || *x->p != '"')
		return false;
	const char *b = ++x->p;
	while (x->p < x->end) {
		unsigned char c = (unsigned char)*x->p;
		if (c == '"') {
			*s = b;
			*n = (size_t)(x->p - b);
			x->p++;
			return true;
		}
		if (c < 0x20 || c >= 0x7f || c == '\\')
			return false;
		x->p++;
	}
	return false;
}

/* A JSON object's text, found by its brackets (the series reader checks it). */
static bool object_span(struct lx *x, const char **s, size_t *n)
{
	if (x->p >= x->end || *x->p != '{')
		return false;
	const char *b = x->p;
	int depth = 0;
	bool in_str = false;
	for (; x->p < x->end; x->p++) {
		char c = *x->p;
		if (in_str) {
			if (c == '\\')
				x->p++;
			else if (c == '"')
				in_str = false;
		} else if (c == '"') {
			in_str = true;
		} else if (c == '{' || c == '[') {
			if (++depth > 64)
				return false;
		} else if (c == '}' || c == ']') {
			if (--depth == 0) {
				x->p++;
				*s = b;
				*n = (size_t)(x->p - b);
				return true;
			}
		}
	}
	return false;
}

/* A JSON number; integers as jansson reads them (long long), reals by strtod. */
static bool number(struct lx *x, bool *integer, double *d, long long *ll)
{
	const char *b = x->p, *p = x->p;
	if (p < x->end && *p == '-')
		p++;
	if (p >= x->end || *p < '0' || *p > '9')
		return false;
	if (*p == '0')
		p++;
	else
		while (p < x->end && *p >= '0' && *p <= '9')
			p++;
	*integer = true;
	if (p < x->end && *p == '.') {
		*integer = false;
		if (++p >= x->end || *p < '0' || *p > '9')
			return false;
		while (p < x->end && *p >= '0' && *p <= '9')
			p++;
	}
	if (p < x->end && (*p == 'e' || *p == 'E')) {
		*integer = false;
		p++;
		if (p < x->end && (*p == '+' || *p == '-'))
			p++;
		if (p >= x->end || *p < '0' || *p > '9')
			return false;
		while (p < x->end && *p >= '0' && *p <= '9')
			p++;
	}
	size_t n = (size_t)(p - b);
	char buf[64];
	if (n >= sizeof(buf) || (*integer && n > 18))
		return false; /* long: the general reader (and its range errors) */
	memcpy(buf, b, n);
	buf[n] = '\0';
	if (*integer) {
		*ll = strtoll(buf, NULL, 10);
		*d = (double)*ll;
	} else {
		*d = strtod(buf, NULL);
		if (!isfinite(*d))
			return false; /* jansson: "real number overflow" */
	}
	x->p = p;
	return true; /* an underflow reads as jansson reads it: 0 or subnormal */
}

enum field {
	F_RUN_ID,
	F_CASE_ID,
	F_SERIES,
	F_SERIES_KEY,
	F_METRIC,
	F_STATISTIC,
	F_VALUE,
	F_UNIT,
	F_DIRECTION,
	F_SAMPLES,
	F_REVISION,
	F_TIMESTAMP,
	F_COUNT
};

static const char *const field_names[F_COUNT] = {"run_id",    "case_id",   "series",   "series_key",
						 "metric",    "statistic", "value",    "unit",
						 "direction", "samples",   "revision", "timestamp"};

static int field_of(const char *s, size_t n)
{
	for (int i = 0; i < F_COUNT; i++)
		if (strlen(field_names[i]) == n && !memcmp(field_names[i], s, n))
			return i;
	return -1;
}

static char *dup_n(const char *s, size_t n)
{
	char *d = xmalloc(n + 1);
	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

/* The fields of one line as read: string values as spans of the line. */
struct fields {
	const char *sv[F_COUNT];
	size_t sn[F_COUNT];
	bool seen[F_COUNT], null[F_COUNT];
	double value;
	long long samples;
};

/* The value of field f at x->p: false when it is not of the plain shape. */
static inline bool field_value(struct lx *x, int f, struct fields *fs)
{
	bool integer;
	double d;
	long long ll;
	if (f == F_SERIES)
		return object_span(x, &fs->sv[f], &fs->sn[f]);
	if (f == F_VALUE) {
		if (!number(x, &integer, &d, &ll))
			return false;
		fs->value = d;
		return true;
	}
	if (f == F_SAMPLES) {
		if (!number(x, &integer, &d, &ll) || !integer || ll < 1)
			return false;
		fs->samples = ll;
		return true;
	}
	if (x->end - x->p >= 4 && !memcmp(x->p, "null", 4) &&
	    (f == F_RUN_ID || f == F_CASE_ID || f == F_REVISION || f == F_TIMESTAMP)) {
		x->p += 4;
		fs->null[f] = true;
		return true;
	}
	return plain_string(x, &fs->sv[f], &fs->sn[f]) && fs->sn[f];
}

/* The line's one flat object of known fields, each at most once, and
 * nothing after it. */
static inline bool read_fields(struct lx *x, struct fields *fs)
{
	ws(x);
	if (x->p >= x->end || *x->p++ != '{')
		return false;
	ws(x);
	if (x->p < x->end && *x->p == '}')
		return false;
	for (;;) {
		const char *k;
		size_t kn;
		ws(x);
		if (!plain_string(x, &k, &kn))
			return false;
		int f = field_of(k, kn);
		if (f < 0 || fs->seen[f])
			return false; /* unknown or twice: the general reader says so */
		fs->seen[f] = true;
		ws(x);
		if (x->p >= x->end || *x->p++ != ':')
			return false;
		ws(x);
		if (!field_value(x, f, fs))
			return false;
		ws(x);
		if (x->p < x->end && *x->p == ',') {
			x->p++;
			continue;
		}
		if (x->p < x->end && *x->p == '}') {
			x->p++;
			break;
		}
		return false;
	}
	ws(x);
	return x->p == x->end;
}

/* The row from the fields and the series' memo entry; it takes metric and
 * statistic. */
static inline void fill_row(struct assay_row *r, const struct fields *fs,
			    const struct memo_entry *me, char *metric, char *statistic,
			    enum assay_direction dir)
{
	assay_row_init(r);
	r->series = json_incref(me->series);
	memcpy(r->series_key, me->key, sizeof(r->series_key));
	r->metric = metric;
	r->statistic = statistic;
	r->value = fs->value;
	r->unit = dup_n(fs->sv[F_UNIT], fs->sn[F_UNIT]);
	r->direction = dir;
	r->samples = fs->samples;
	static const enum field opt[] = {F_RUN_ID, F_CASE_ID, F_REVISION, F_TIMESTAMP};
	char **dst[] = {&r->run_id, &r->case_id, &r->revision, &r->timestamp};
	for (size_t i = 0; i < 4; i++)
		if (fs->seen[opt[i]] && !fs->null[opt[i]])
			*dst[i] = dup_n(fs->sv[opt[i]], fs->sn[opt[i]]);
}

int row_parse_fast(struct row_memo *m, const char *line, size_t len, struct assay_row *r)
{
	struct lx x = {line, line + len};
	struct fields fs = {.value = 0, .samples = 1};
	if (!read_fields(&x, &fs))
		return 0;
	const bool *seen = fs.seen;
	if (!seen[F_SERIES] || !seen[F_METRIC] || !seen[F_STATISTIC] || !seen[F_VALUE] ||
	    !seen[F_UNIT] || !seen[F_DIRECTION])
		return 0;
	enum assay_direction dir;
	if (fs.sn[F_DIRECTION] == 6 && !memcmp(fs.sv[F_DIRECTION], "higher", 6))
		dir = ASSAY_DIR_HIGHER;
	else if (fs.sn[F_DIRECTION] == 5 && !memcmp(fs.sv[F_DIRECTION], "lower", 5))
		dir = ASSAY_DIR_LOWER;
	else
		return 0;
	char *metric = dup_n(fs.sv[F_METRIC], fs.sn[F_METRIC]);
	char *statistic = dup_n(fs.sv[F_STATISTIC], fs.sn[F_STATISTIC]);
	struct memo_entry *me = memo_get(m, fs.sv[F_SERIES], fs.sn[F_SERIES], metric, statistic);
	const char *key = fs.sv[F_SERIES_KEY];
	if (!me || (seen[F_SERIES_KEY] &&
		    !((fs.sn[F_SERIES_KEY] == 64 && !memcmp(key, me->key, 64)) ||
		      (fs.sn[F_SERIES_KEY] == 64 && !memcmp(key, me->raw_key, 64))))) {
		free(metric);
		free(statistic);
		return 0;
	}
	fill_row(r, &fs, me, metric, statistic, dir);
	return 1;
}
