/* assay publish, the library half: pick and qualify the runs, gather every
 * series across them, check stability, attach the bootstrap CI, and write
 * the publication folder atomically (docs/publish.md). Never prints. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "assay/json.h"
#include "publish_int.h"

void assay_publish_defaults(struct assay_publish_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->limits = (struct assay_publish_limits){.p50_spread = 1.10,
						  .p99_spread = 1.25,
						  .trial_drift = 1.10,
						  .mad_k = 6,
						  .outlier_frac = 0.05};
	o->last = 3;
	o->resamples = 10000;
	o->level = 0.95;
	o->seed = 1;
}

void assay_publish_result_release(struct assay_publish_result *r)
{
	strlist_clear(&r->run_ids);
	strlist_clear(&r->problems);
	memset(r, 0, sizeof(*r));
}

bool pub_problem(struct assay_publish_result *res, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = NULL;
	if (vasprintf(&s, fmt, ap) < 0)
		abort();
	va_end(ap);
	strlist_push(&res->problems, s);
	free(s);
	return false;
}

struct runs {
	struct assay_store_run *v;
	size_t n;
};

static void runs_release(struct runs *r)
{
	for (size_t i = 0; i < r->n; i++)
		assay_store_run_release(&r->v[i]);
	free(r->v);
	r->v = NULL;
	r->n = 0;
}

static const char *or_none(const char *s)
{
	return s ? s : "none";
}

static bool same(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

/* The runs: as listed, or the newest `last` of the suite at the revision,
 * oldest first. */
static assay_err select_runs(struct assay_store *s, const struct assay_publish_opts *o,
			     struct runs *out, struct assay_publish_result *res,
			     struct assay_error *e)
{
	struct strlist ids = STRLIST_INIT;
	if (o->run_ids.n) {
		for (size_t i = 0; i < o->run_ids.n; i++)
			strlist_push(&ids, o->run_ids.v[i]);
	} else {
		struct assay_run_list l = {0};
		if (assay_store_runs(s, 0, &l, e) != ASSAY_OK)
			return e->code;
		for (size_t i = 0; i < l.n && ids.n < (size_t)o->last; i++)
			if (same(l.v[i].suite, o->suite) && same(l.v[i].revision, o->revision))
				strlist_push(&ids, l.v[i].run_id);
		assay_run_list_release(&l);
		if (ids.n < (size_t)o->last) {
			pub_problem(res, "suite %s has %zu run%s of revision %s, %ld wanted",
				    o->suite, ids.n, ids.n == 1 ? "" : "s", o->revision, o->last);
			strlist_clear(&ids);
			return ASSAY_GATE_FAILED;
		}
		for (size_t i = 0; i < ids.n / 2; i++) { /* oldest first */
			char *t = ids.v[i];
			ids.v[i] = ids.v[ids.n - 1 - i];
			ids.v[ids.n - 1 - i] = t;
		}
	}
	out->v = xcalloc(ids.n, sizeof(*out->v));
	assay_err rc = ASSAY_OK;
	for (size_t i = 0; i < ids.n && rc == ASSAY_OK; i++) {
		for (size_t j = 0; j < i; j++)
			if (!strcmp(ids.v[i], ids.v[j]))
				rc = assay_error_set(e, ASSAY_USAGE, "run %s is listed twice",
						     ids.v[i]);
		if (rc == ASSAY_OK)
			rc = assay_store_run_get(s, ids.v[i], &out->v[i], e);
		if (rc == ASSAY_OK)
			out->n++;
	}
	strlist_clear(&ids);
	return rc;
}

/* Qualification: one suite, one revision, one matrix, finished first
 * attempts, and every case of the matrix present and valid in every run. */
static assay_err qualify(struct assay_store *s, const struct assay_publish_opts *o,
			 const struct runs *runs, struct assay_publish_result *res,
			 struct assay_error *e)
{
	const char *rev = o->revision ? o->revision : runs->v[0].revision;
	const char *matrix = runs->v[0].matrix_sha256;
	struct assay_store_cases *cases = xcalloc(runs->n, sizeof(*cases));
	struct strlist all = STRLIST_INIT;
	assay_err rc = ASSAY_OK;
	for (size_t i = 0; i < runs->n && rc == ASSAY_OK; i++) {
		const struct assay_store_run *r = &runs->v[i];
		if (!same(r->suite, o->suite))
			pub_problem(res, "run %s: suite %s, not %s", r->run_id, or_none(r->suite),
				    o->suite);
		if (!same(r->revision, rev))
			pub_problem(res, "run %s: revision %s, not %s", r->run_id,
				    or_none(r->revision), or_none(rev));
		if (!same(r->matrix_sha256, matrix))
			pub_problem(res, "run %s: matrix digest %s, not %s (run %s)", r->run_id,
				    or_none(r->matrix_sha256), or_none(matrix), runs->v[0].run_id);
		if (!r->ended || r->exit_code < 0)
			pub_problem(res, "run %s: did not finish", r->run_id);
		if (r->resumed > 0)
			pub_problem(res, "run %s: resumed %d time%s, not a first attempt",
				    r->run_id, r->resumed, r->resumed == 1 ? "" : "s");
		rc = assay_store_case_details(s, r->run_id, &cases[i], e);
		for (size_t c = 0; rc == ASSAY_OK && c < cases[i].n; c++) {
			const struct assay_store_case *k = &cases[i].v[c];
			if (!strlist_has(&all, k->case_id))
				strlist_push(&all, k->case_id);
			if (!k->outcome)
				pub_problem(res, "run %s: case %s: did not finish", r->run_id,
					    k->case_id);
			else if (strcmp(k->outcome, "passed") && strcmp(k->outcome, "unsupported"))
				pub_problem(res, "run %s: case %s: %s%s%s", r->run_id, k->case_id,
					    k->outcome, k->reason ? ": " : "",
					    k->reason ? k->reason : "");
			if (k->attempts > 1)
				pub_problem(res,
					    "run %s: case %s: %d attempts, not a first attempt",
					    r->run_id, k->case_id, k->attempts);
		}
	}
	for (size_t i = 0; i < runs->n && rc == ASSAY_OK; i++)
		for (size_t c = 0; c < all.n; c++) {
			bool found = false;
			for (size_t k = 0; k < cases[i].n && !found; k++)
				found = !strcmp(cases[i].v[k].case_id, all.v[c]);
			if (!found)
				pub_problem(res, "run %s: case %s: missing", runs->v[i].run_id,
					    all.v[c]);
		}
	for (size_t i = 0; i < runs->n; i++)
		assay_store_cases_release(&cases[i]);
	free(cases);
	strlist_clear(&all);
	return rc;
}

/* ---- the series ---- */

struct prow {
	char *key, *case_id, *fields_json, *metric, *statistic, *unit;
	enum assay_direction dir;
	size_t run, seq;
	double value;
};
struct prows {
	struct prow *v;
	size_t n, alloc, run;
};

static int collect_row(const struct assay_store_rowview *r, void *ctx)
{
	struct prows *p = ctx;
	ALLOC_GROW(p->v, p->n + 1, p->alloc);
	p->v[p->n] = (struct prow){.key = xstrdup(r->series_key),
				   .case_id = xstrdup(r->case_id ? r->case_id : ""),
				   .fields_json = xstrdup(r->fields_json),
				   .metric = xstrdup(r->metric),
				   .statistic = xstrdup(r->statistic),
				   .unit = xstrdup(r->unit ? r->unit : ""),
				   .dir = r->direction,
				   .run = p->run,
				   .seq = p->n,
				   .value = r->value};
	p->n++;
	return 0;
}

static int cmp_prow(const void *a, const void *b)
{
	const struct prow *x = a, *y = b;
	int c = strcmp(x->key, y->key);
	if (c)
		return c;
	if (x->run != y->run)
		return x->run < y->run ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

struct series_set {
	struct pub_series *v;
	size_t n, alloc, nruns;
};

static void series_release(struct series_set *ss)
{
	for (size_t i = 0; i < ss->n; i++) {
		struct pub_series *s = &ss->v[i];
		free(s->key);
		free(s->case_id);
		free(s->fields_json);
		free(s->metric);
		free(s->statistic);
		free(s->unit);
		for (size_t r = 0; r < ss->nruns; r++)
			free(s->vals[r]);
		free(s->vals);
		free(s->n);
		free(s->alloc);
	}
	free(ss->v);
	memset(ss, 0, sizeof(*ss));
}

static assay_err gather(struct assay_store *s, const struct runs *runs, struct series_set *ss,
			struct assay_error *e)
{
	struct prows p = {0};
	assay_err rc = ASSAY_OK;
	for (size_t i = 0; i < runs->n && rc == ASSAY_OK; i++) {
		p.run = i;
		rc = assay_store_run_rows(s, runs->v[i].run_id, NULL, NULL, collect_row, &p, e);
	}
	if (rc == ASSAY_OK && p.n)
		qsort(p.v, p.n, sizeof(*p.v), cmp_prow);
	ss->nruns = runs->n;
	for (size_t i = 0; i < p.n; i++) {
		struct prow *r = &p.v[i];
		if (rc == ASSAY_OK && (!ss->n || strcmp(ss->v[ss->n - 1].key, r->key))) {
			ALLOC_GROW(ss->v, ss->n + 1, ss->alloc);
			struct pub_series *n = &ss->v[ss->n++];
			*n = (struct pub_series){.key = r->key,
						 .case_id = r->case_id,
						 .fields_json = r->fields_json,
						 .metric = r->metric,
						 .statistic = r->statistic,
						 .unit = r->unit,
						 .dir = r->dir,
						 .vals = xcalloc(runs->n, sizeof(double *)),
						 .n = xcalloc(runs->n, sizeof(size_t)),
						 .alloc = xcalloc(runs->n, sizeof(size_t))};
			r->key = r->case_id = r->fields_json = r->metric = r->statistic = r->unit =
			    NULL;
		}
		if (rc == ASSAY_OK) {
			struct pub_series *n = &ss->v[ss->n - 1];
			ALLOC_GROW(n->vals[r->run], n->n[r->run] + 1, n->alloc[r->run]);
			n->vals[r->run][n->n[r->run]++] = r->value;
		}
		free(r->key);
		free(r->case_id);
		free(r->fields_json);
		free(r->metric);
		free(r->statistic);
		free(r->unit);
	}
	free(p.v);
	return rc;
}

static void series_label(const struct pub_series *s, char *buf, size_t size)
{
	snprintf(buf, size, "series %.12s (case %s, %s/%s)", s->key, s->case_id, s->metric,
		 s->statistic);
}

/* A string field of the series that looks like a file path. */
static const char *path_field(const json_t *o, const char **field)
{
	const char *k;
	json_t *v;
	json_object_foreach((json_t *)o, k, v)
	{
		const char *t = json_string_value(v);
		if (t && (t[0] == '/' || !strncmp(t, "~/", 2) || strstr(t, "/home/") ||
			  strstr(t, "/Users/"))) {
			*field = k;
			return t;
		}
	}
	return NULL;
}

/* Whether w occurs in s as a whole word: not next to a letter or digit. */
static bool has_word(const char *s, const char *w)
{
	size_t n = strlen(w);
	for (const char *p = s; n && (p = strstr(p, w)); p++)
		if ((p == s || !isalnum((unsigned char)p[-1])) && !isalnum((unsigned char)p[n]))
			return true;
	return false;
}

/* Whether the row holds a private (host or user) name. A name of 3 or more
 * characters anywhere in its text; a shorter one (`vm`, `n1`) only as a
 * whole word of a series field's value or the case id, where a cluster or
 * case named after the host puts it (anywhere, `us` would match a unit). */
static bool holds_private(const char *text, const json_t *row, const char *name)
{
	if (strlen(name) >= 3)
		return strstr(text, name) != NULL;
	const char *k;
	json_t *v;
	const char *cid = json_string_value(json_object_get(row, "case_id"));
	if (cid && has_word(cid, name))
		return true;
	json_object_foreach((json_t *)json_object_get(row, "series"), k, v)
	{
		char *t =
		    json_is_string(v) ? xstrdup(json_string_value(v)) : assay_json_canonical(v);
		bool hit = has_word(t, name);
		free(t);
		if (hit)
			return true;
	}
	return false;
}

/* ---- writing ---- */

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *run_ids_json(const struct runs *runs)
{
	json_t *a = json_array();
	for (size_t i = 0; i < runs->n; i++)
		json_array_append_new(a, json_string(runs->v[i].run_id));
	return a;
}

static json_t *limits_json(const struct assay_publish_limits *l)
{
	return json_pack("{s:f, s:f, s:f, s:f, s:f}", "p50_spread", l->p50_spread, "p99_spread",
			 l->p99_spread, "trial_drift", l->trial_drift, "mad_k", l->mad_k,
			 "outlier_fraction", l->outlier_frac);
}

/* A number, or null when not finite (a failed check's infinite spread). */
static json_t *num(double x)
{
	return isfinite(x) ? json_real(x) : json_null();
}

/* The row of one series. */
static json_t *series_row(const struct pub_series *s, const struct runs *runs,
			  const struct assay_publish_opts *o, const struct pub_stability *st,
			  const struct assay_publish_ci *ci)
{
	json_t *fields = json_loads(s->fields_json, 0, NULL);
	json_t *rv = json_array();
	for (size_t r = 0; r < runs->n; r++)
		json_array_append_new(rv, num(pub_median(s->vals[r], s->n[r])));
	const struct assay_store_run *r0 = &runs->v[0];
	json_t *prov = json_pack("{s:s, s:o, s:o, s:o, s:o}", "suite", o->suite, "revision",
				 str_or_null(r0->revision), "matrix_sha256",
				 str_or_null(r0->matrix_sha256), "catalog_sha256",
				 str_or_null(r0->catalog_sha256), "run_ids", run_ids_json(runs));
	json_t *stab = json_object();
	json_object_set_new(stab, "spread", num(st->spread));
	json_object_set_new(stab, "spread_limit", num(st->spread_limit));
	json_object_set_new(stab, "trial_drift", num(st->drift));
	json_object_set_new(stab, "trial_drift_limit", num(o->limits.trial_drift));
	json_object_set_new(stab, "trials", json_integer((json_int_t)st->trials));
	json_object_set_new(stab, "outliers", json_integer((json_int_t)st->outliers));
	json_object_set_new(stab, "outlier_fraction", num(st->outlier_fraction));
	json_object_set_new(stab, "outlier_limit", num(o->limits.outlier_frac));
	json_t *cij =
	    json_pack("{s:s, s:f, s:f, s:f, s:I, s:I}", "method", "hierarchical-bootstrap", "level",
		      o->level, "low", ci->low, "high", ci->high, "resamples",
		      (json_int_t)o->resamples, "seed", (json_int_t)o->seed);
	return json_pack("{s:s, s:s, s:o, s:s, s:s, s:s, s:s, s:s, s:o, s:o, s:o, s:o, s:o}",
			 "schema", ASSAY_PUBLISH_ROW_SCHEMA, "series_key", s->key, "series",
			 fields ? fields : json_object(), "case_id", s->case_id, "metric",
			 s->metric, "statistic", s->statistic, "unit", s->unit, "direction",
			 assay_direction_name(s->dir), "value", num(ci->value), "ci", cij,
			 "run_values", rv, "stability", stab, "provenance", prov);
}

/* A file of the folder: written under tmp, its digest added to files. */
static assay_err put_file(const char *tmp, const char *name, const char *data, size_t len,
			  json_t *files, struct assay_error *e)
{
	char *path = xasprintf("%s/%s", tmp, name);
	assay_err rc = assay_write_file_atomic(path, data, len, e);
	free(path);
	if (rc == ASSAY_OK && files) {
		char sha[65];
		assay_sha256_hex(data, len, sha);
		json_object_set_new(
		    files, name, json_pack("{s:s, s:I}", "sha256", sha, "bytes", (json_int_t)len));
	}
	return rc;
}

/* The manifest's canonical text with its own digest (of the canonical JSON
 * without the manifest_sha256 key) set. */
char *pub_manifest_text(json_t *m, char sha_out[65])
{
	json_object_del(m, "manifest_sha256");
	assay_json_sha256(m, sha_out);
	json_object_set_new(m, "manifest_sha256", json_string(sha_out));
	char *c = assay_json_canonical(m);
	char *t = xasprintf("%s\n", c);
	free(c);
	return t;
}

static bool tag_ok(const char *t)
{
	size_t n = strlen(t);
	if (!n || n > 128)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!(t[i] == '.' || t[i] == '_' || t[i] == '-' || (t[i] >= '0' && t[i] <= '9') ||
		      (t[i] >= 'a' && t[i] <= 'z') || (t[i] >= 'A' && t[i] <= 'Z')))
			return false;
	return true;
}

/* A new empty folder beside dir, DIR.tmp-XXXXXX, made as mkdir -p would
 * (0777 less the umask; mkdtemp's 0700 would be the publication's mode
 * after the rename); NULL with e set when none can be made. */
static char *temp_folder(const char *dir, struct assay_error *e)
{
	unsigned long x = (unsigned long)getpid() * 2654435761UL ^ (unsigned long)time(NULL);
	for (int i = 0; i < 100; i++) {
		x = x * 6364136223846793005UL + 1442695040888963407UL;
		char *t = xasprintf("%s.tmp-%06lx", dir, (x >> 20) & 0xffffff);
		if (mkdir(t, 0777) == 0)
			return t;
		int err = errno;
		free(t);
		if (err != EEXIST) {
			assay_error_set(e, ASSAY_INFRA, "%s: cannot create a temporary folder: %s",
					dir, strerror(err));
			return NULL;
		}
	}
	assay_error_set(e, ASSAY_INFRA, "%s: cannot create a temporary folder: %s", dir,
			strerror(EEXIST));
	return NULL;
}

static assay_err write_folder(const struct assay_publish_opts *o, const struct runs *runs,
			      const struct sbuf *rows, size_t nseries,
			      struct assay_publish_result *res, struct assay_error *e)
{
	const struct assay_store_run *r0 = &runs->v[0];
	res->released = o->tag && o->expect_matrix && r0->matrix_sha256 &&
			!strcmp(o->expect_matrix, r0->matrix_sha256);
	char *tmpl = temp_folder(o->out_dir, e);
	if (!tmpl)
		return ASSAY_INFRA;
	json_t *files = json_object();
	assay_err rc =
	    put_file(tmpl, "rows.ndjson", rows->buf ? rows->buf : "", rows->len, files, e);
	if (rc == ASSAY_OK && res->released) {
		json_t *rel =
		    json_pack("{s:s, s:s, s:s, s:o, s:o}", "schema", "assay.publication.release/1",
			      "tag", o->tag, "matrix_sha256", r0->matrix_sha256, "revision",
			      str_or_null(r0->revision), "suite", json_string(o->suite));
		char *c = assay_json_canonical(rel);
		char *t = xasprintf("%s\n", c);
		rc = put_file(tmpl, "RELEASE", t, strlen(t), files, e);
		free(c);
		free(t);
		json_decref(rel);
	}
	json_t *m = json_pack(
	    "{s:s, s:s, s:o, s:s, s:o, s:o, s:o, s:o, s:I, s:o, s:{s:s, s:s, s:I, s:f, s:I}, s:o, "
	    "s:o}",
	    "schema", ASSAY_PUBLISH_MANIFEST_SCHEMA, "status",
	    res->released ? "released" : "unversioned", "tag",
	    res->released ? json_string(o->tag) : json_null(), "suite", o->suite, "revision",
	    str_or_null(r0->revision), "matrix_sha256", str_or_null(r0->matrix_sha256),
	    "catalog_sha256", str_or_null(r0->catalog_sha256), "run_ids", run_ids_json(runs),
	    "series", (json_int_t)nseries, "limits", limits_json(&o->limits), "bootstrap", "method",
	    "hierarchical-bootstrap", "prng", "xoshiro256**/splitmix64", "resamples",
	    (json_int_t)o->resamples, "level", o->level, "seed", (json_int_t)o->seed,
	    "assay_version", str_or_null(o->assay_version), "files", files);
	if (rc == ASSAY_OK) {
		char *t = pub_manifest_text(m, res->manifest_sha256);
		rc = put_file(tmpl, "manifest.json", t, strlen(t), NULL, e);
		free(t);
	}
	json_decref(m);
	if (rc == ASSAY_OK && rename(tmpl, o->out_dir) != 0)
		rc = assay_error_set(
		    e, errno == EEXIST || errno == ENOTEMPTY ? ASSAY_USAGE : ASSAY_INFRA,
		    "%s: cannot move the publication into place: %s", o->out_dir, strerror(errno));
	if (rc != ASSAY_OK)
		assay_remove_flat_dir(tmpl);
	free(tmpl);
	return rc;
}

/* Series checks and the rows' text. */
static void publish_series(const struct series_set *ss, const struct runs *runs,
			   const struct assay_publish_opts *o, const struct strlist *private,
			   struct sbuf *out, struct assay_publish_result *res)
{
	char label[256];
	for (size_t i = 0; i < ss->n; i++) {
		const struct pub_series *s = &ss->v[i];
		series_label(s, label, sizeof(label));
		bool complete = true;
		for (size_t r = 0; r < runs->n; r++)
			if (!s->n[r]) {
				pub_problem(res, "%s: no rows in run %s", label, runs->v[r].run_id);
				complete = false;
			}
		if (!complete)
			continue;
		struct pub_stability st;
		pub_stability_compute(s, runs->n, &o->limits, &st);
		if (!(st.spread <= st.spread_limit))
			pub_problem(res, "%s: %s spread %.4gx above the limit %.4gx", label,
				    st.tail ? "p99" : "p50", st.spread, st.spread_limit);
		if (!(st.drift <= o->limits.trial_drift))
			pub_problem(res, "%s: trial drift %.4g above the limit %.4g", label,
				    st.drift, o->limits.trial_drift);
		/* The same rule at every count of runs and trials: an outlier is
		 * beyond the spread limit from the median too (stats.c), so a
		 * published row never states a fraction above its limit. */
		if (!(st.outlier_fraction <= o->limits.outlier_frac))
			pub_problem(res,
				    "%s: %zu of %zu trials farther than %gxMAD and %.3g%% from the "
				    "median (%.3g%%, limit %.3g%%)",
				    label, st.outliers, st.trials, o->limits.mad_k,
				    (st.spread_limit - 1) * 100, st.outlier_fraction * 100,
				    o->limits.outlier_frac * 100);
		struct assay_publish_ci ci;
		assay_publish_bootstrap((const double *const *)s->vals, s->n, runs->n, o->resamples,
					o->level, pub_series_seed(o->seed, s->key), &ci);
		json_t *row = series_row(s, runs, o, &st, &ci);
		const char *field = NULL;
		if (path_field(json_object_get(row, "series"), &field))
			pub_problem(res, "%s: series field %s holds a file path", label, field);
		char *text = assay_json_canonical(row);
		for (size_t k = 0; k < private->n; k++)
			if (holds_private(text, row, private->v[k])) {
				pub_problem(
				    res,
				    "%s: holds a host or user name; set the suite's cluster "
				    "and keep names out of series fields",
				    label);
				break;
			}
		sbuf_adds(out, text);
		sbuf_addch(out, '\n');
		free(text);
		json_decref(row);
		res->series++;
	}
}

assay_err assay_publish(struct assay_store *s, const struct assay_publish_opts *o,
			struct assay_publish_result *res, struct assay_error *e)
{
	memset(res, 0, sizeof(*res));
	if (!o->suite || !o->out_dir)
		return assay_error_set(e, ASSAY_USAGE, "a suite and an output folder are needed");
	if (!o->run_ids.n && (!o->revision || o->last < 2))
		return assay_error_set(e, ASSAY_USAGE,
				       "name the runs, or --last N (2 or more) and --revision");
	if (o->run_ids.n == 1)
		return assay_error_set(e, ASSAY_USAGE,
				       "one run cannot show stability: name 2 or more");
	if (o->tag && !tag_ok(o->tag))
		return assay_error_set(
		    e, ASSAY_USAGE, "--tag '%s': expected 1-128 letters, digits, '.', '_' or '-'",
		    o->tag);
	struct stat sb;
	if (lstat(o->out_dir, &sb) == 0)
		return assay_error_set(e, ASSAY_USAGE,
				       "%s exists: a publication is never overwritten", o->out_dir);
	struct runs runs = {0};
	struct series_set ss = {0};
	struct sbuf rows = SBUF_INIT;
	struct strlist private = STRLIST_INIT;
	assay_err rc = select_runs(s, o, &runs, res, e);
	if (rc == ASSAY_OK)
		rc = qualify(s, o, &runs, res, e);
	if (rc == ASSAY_OK && !res->problems.n)
		rc = gather(s, &runs, &ss, e);
	if (rc == ASSAY_OK && !res->problems.n && !ss.n)
		pub_problem(res, "the runs stored no rows");
	for (size_t i = 0; i < runs.n; i++) {
		const char *h = runs.v[i].host;
		if (h && *h && !strlist_has(&private, h))
			strlist_push(&private, h);
		const char *dot = h ? strchr(h, '.') : NULL;
		if (dot && dot > h) {
			char *sh = xstrndup(h, (size_t)(dot - h));
			if (!strlist_has(&private, sh))
				strlist_push(&private, sh);
			free(sh);
		}
		strlist_push(&res->run_ids, runs.v[i].run_id);
	}
	for (size_t i = 0; i < o->private_names.n; i++)
		if (*o->private_names.v[i] && !strlist_has(&private, o->private_names.v[i]))
			strlist_push(&private, o->private_names.v[i]);
	if (rc == ASSAY_OK && !res->problems.n)
		publish_series(&ss, &runs, o, &private, &rows, res);
	if ((rc == ASSAY_OK || rc == ASSAY_GATE_FAILED) && res->problems.n)
		rc = assay_error_set(e, ASSAY_GATE_FAILED, "not published: %zu check%s failed",
				     res->problems.n, res->problems.n == 1 ? "" : "s");
	if (rc == ASSAY_OK) {
		char *parent = xstrdup(o->out_dir);
		char *slash = strrchr(parent, '/');
		if (slash && slash != parent) {
			*slash = 0;
			rc = assay_mkdirs(parent, e);
		}
		free(parent);
	}
	if (rc == ASSAY_OK)
		rc = write_folder(o, &runs, &rows, ss.n, res, e);
	strlist_clear(&private);
	sbuf_release(&rows);
	series_release(&ss);
	runs_release(&runs);
	return rc;
}
