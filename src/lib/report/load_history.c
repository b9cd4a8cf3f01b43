/* The report's history of the series the run follows, as the run saw it:
 * the newest points of each, its change points at the CI detection
 * defaults and the regression gates' verdicts, ranked (docs/report.md,
 * "History"); a second thread reads half of a long list. */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "assay/detect.h"
#include "assay/pool.h"
#include "report/load_int.h"

/* Points of a series shown and searched for change points: the newest ones. */
#define HISTORY_POINTS 100

/* The followed series' fields, interned: every distinct key and value is
 * kept once and a series holds pairs of their indexes (a parsed object per
 * series was most of a big report's memory). */
struct fpair {
	unsigned key, val;
};

struct fintern {
	json_t *key_ids, *val_ids; /* name or value text -> index */
	struct strlist keys;       /* by index */
	json_t **vals;             /* by index */
	size_t nvals, vals_alloc;
	struct sbuf text;
};

static unsigned intern_key(struct fintern *I, const char *k)
{
	const json_t *id = json_object_get(I->key_ids, k);
	if (id)
		return (unsigned)json_integer_value(id);
	json_object_set_new(I->key_ids, k, json_integer((json_int_t)I->keys.n));
	strlist_push(&I->keys, k);
	return (unsigned)I->keys.n - 1;
}

static unsigned intern_val(struct fintern *I, json_t *v)
{
	/* The text that tells values apart as json_equal does: a string as
	 * "s" and itself, anything else as "j" and its canonical JSON. */
	sbuf_reset(&I->text);
	const char *str = json_string_value(v);
	if (str && strlen(str) == json_string_length(v)) {
		sbuf_addch(&I->text, 's');
		sbuf_adds(&I->text, str);
	} else {
		char *t = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT | JSON_SORT_KEYS);
		sbuf_addch(&I->text, 'j');
		sbuf_adds(&I->text, t ? t : "");
		free(t);
	}
	const json_t *id = json_object_get(I->val_ids, I->text.buf);
	if (id)
		return (unsigned)json_integer_value(id);
	json_object_set_new(I->val_ids, I->text.buf, json_integer((json_int_t)I->nvals));
	ALLOC_GROW(I->vals, I->nvals + 1, I->vals_alloc);
	I->vals[I->nvals++] = json_incref(v);
	return (unsigned)I->nvals - 1;
}

static void intern_release(struct fintern *I)
{
	json_decref(I->key_ids);
	json_decref(I->val_ids);
	strlist_clear(&I->keys);
	for (size_t i = 0; i < I->nvals; i++)
		json_decref(I->vals[i]);
	free(I->vals);
	sbuf_release(&I->text);
}

/* Series s's value of key k, NULL when it has none. */
static const json_t *fvalue(const struct fintern *I, const struct fpair *f, size_t nf, unsigned k)
{
	for (size_t i = 0; i < nf; i++)
		if (f[i].key == k)
			return I->vals[f[i].val];
	return NULL;
}

/* How interesting a series is: 0 this run starts a worse regime, 1 a
 * better one, 2 change points elsewhere, 3 nothing; within a rank, the
 * biggest move of this run's point against the mean of the earlier ones
 * first. */
struct hrank {
	size_t index;
	int rank;
	double move;
	struct assay_changes ch;
};

struct hseries {
	struct hrank r; /* found as it is read */
	char *key, *unit;
	struct fpair *f; /* its fields, interned */
	size_t nf;
	enum assay_direction dir;
	struct assay_report_hpoint *pts; /* revisions in strings */
	char *strings;                   /* the points' revisions, one block */
	size_t n;
	long mine;      /* this run's point, -1 when ignored */
	size_t ignored; /* points left out (annotated ignore) */
};

/* What the threads reading the history share (read only, but for in). */
struct hshared {
	const struct loader *L;
	const struct assay_annotation **ign; /* the ignore annotations, by series key */
	size_t nign;
	struct fintern in;
	pthread_mutex_t lock; /* of in */
};

/* One reading thread's series and detection buffers. */
struct hctx {
	struct hshared *S;
	struct hseries *v;
	size_t n, alloc;
	struct assay_detect_opts opts;
	double *x;
	size_t xalloc;
};

static int cmp_ann(const void *a, const void *b)
{
	const struct assay_annotation *x = *(const struct assay_annotation *const *)a;
	const struct assay_annotation *y = *(const struct assay_annotation *const *)b;
	return strcmp(x->series_key, y->series_key);
}

/* The ignore annotations of series key: [*from, return value). */
static size_t ignores_of(const struct hshared *H, const char *key, size_t *from)
{
	size_t lo = 0, hi = H->nign;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(H->ign[mid]->series_key, key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*from = lo;
	while (hi < H->nign && !strcmp(H->ign[hi]->series_key, key))
		hi++;
	return hi;
}

static bool ignored(const struct hshared *H, size_t from, size_t to, const char *rev)
{
	for (size_t i = from; rev && i < to; i++)
		if (!strcmp(H->ign[i]->revision, rev))
			return true;
	return false;
}

static void rank_one(struct hctx *H, struct hseries *s);

static int on_history(const struct assay_store_history *h, void *ctx)
{
	struct hctx *H = ctx;
	ALLOC_GROW(H->v, H->n + 1, H->alloc);
	struct hseries *s = &H->v[H->n++];
	memset(s, 0, sizeof(*s));
	s->key = xstrdup(h->series_key);
	s->unit = xstrdup(h->unit ? h->unit : "");
	json_t *fields = json_loads(h->fields_json ? h->fields_json : "{}", 0, NULL);
	s->f = xcalloc(json_object_size(fields) + 1, sizeof(*s->f));
	const char *k;
	json_t *v;
	pthread_mutex_lock(&H->S->lock);
	json_object_foreach(fields, k, v)
	{
		s->f[s->nf++] = (struct fpair){intern_key(&H->S->in, k), intern_val(&H->S->in, v)};
	}
	pthread_mutex_unlock(&H->S->lock);
	json_decref(fields);
	s->dir = h->direction;
	s->pts = xcalloc(h->points->n + 1, sizeof(*s->pts));
	s->mine = -1;
	/* Revisions go to one block per series (offsets until it is made). */
	size_t size = 0, from, to = H->S->nign ? ignores_of(H->S, h->series_key, &from) : 0;
	for (size_t i = 0; i < h->points->n; i++) {
		const struct assay_point *p = &h->points->v[i];
		if (to && ignored(H->S, from, to, p->revision)) {
			s->ignored++;
			continue;
		}
		if ((long)i == h->this_run)
			s->mine = (long)s->n;
		s->pts[s->n].revision = (char *)p->revision; /* the walk's, for now */
		s->pts[s->n].value = p->value;
		size += strlen(p->revision ? p->revision : "-") + 1;
		s->n++;
	}
	char *at = s->strings = xmalloc(size + 1);
	for (size_t i = 0; i < s->n; i++) {
		const char *rev = s->pts[i].revision ? s->pts[i].revision : "-";
		size_t len = strlen(rev) + 1;
		memcpy(at, rev, len);
		s->pts[i].revision = at;
		at += len;
	}
	rank_one(H, s);
	return 0;
}

static int cmp_rank(const void *a, const void *b)
{
	const struct hrank *x = a, *y = b;
	if (x->rank != y->rank)
		return x->rank - y->rank;
	if (x->move != y->move)
		return x->move < y->move ? 1 : -1;
	return (x->index > y->index) - (x->index < y->index);
}

/* |this run's value / the mean of the earlier points - 1|, 0 when unknown. */
static double earlier_mean(const struct hseries *s)
{
	double sum = 0;
	for (long k = 0; k < s->mine; k++)
		sum += s->pts[k].value;
	return s->mine >= 1 ? sum / (double)s->mine : NAN;
}

static double move_of(const struct hseries *s)
{
	double mean = earlier_mean(s);
	double m = s->mine >= 1 ? fabs(s->pts[s->mine].value / mean - 1) : 0;
	return mean != 0 && isfinite(m) ? m : 0;
}

static void history_message(const struct hseries *s, const struct assay_changes *ch, bool gated,
			    struct sbuf *sb)
{
	sbuf_adds(sb, gated ? "detector: " : "no regression gate ran on this series; ");
	if (!ch->n) {
		sbuf_addf(sb, "no change point in %zu point%s", s->n, s->n == 1 ? "" : "s");
		double mean = earlier_mean(s);
		if (s->mine >= 1 && mean != 0) {
			sbuf_addf(sb, " (this run %+.1f%% against the mean of the %ld before)",
				  (s->pts[s->mine].value / mean - 1) * 100, s->mine);
		}
	} else {
		const struct assay_change *c = &ch->v[ch->n - 1];
		bool worse = assay_change_is_regression(c, s->dir);
		if (s->mine >= 0 && c->index == (size_t)s->mine)
			sbuf_addf(sb,
				  "this run starts a new regime: %+.1f%% against the previous "
				  "mean (%s, p=%.2g)",
				  c->rel_change * 100, worse ? "worse" : "better", c->pvalue);
		else
			sbuf_addf(sb, "%zu change point%s; the latest at %s: %+.1f%% (%s)", ch->n,
				  ch->n == 1 ? "" : "s", s->pts[c->index].revision,
				  c->rel_change * 100, worse ? "worse" : "better");
	}
	if (s->ignored)
		sbuf_addf(sb, "; %zu point%s annotated ignore left out", s->ignored,
			  s->ignored == 1 ? "" : "s");
}

/* Keep the first occurrence of every key. */
static void dedupe(struct strlist *keys)
{
	size_t n = keys->n;
	size_t *idx = xcalloc(n + 1, sizeof(size_t));
	for (size_t i = 0; i < n; i++)
		idx[i] = i;
	/* Sort indexes by key (stable by index), then mark repeats. */
	for (size_t gap = n / 2; gap > 0; gap /= 2)
		for (size_t i = gap; i < n; i++)
			for (size_t j = i; j >= gap; j -= gap) {
				int c = strcmp(keys->v[idx[j - gap]], keys->v[idx[j]]);
				if (c < 0 || (c == 0 && idx[j - gap] < idx[j]))
					break;
				size_t t = idx[j];
				idx[j] = idx[j - gap];
				idx[j - gap] = t;
			}
	bool *drop = xcalloc(n + 1, sizeof(bool));
	for (size_t i = 1; i < n; i++)
		if (!strcmp(keys->v[idx[i - 1]], keys->v[idx[i]]))
			drop[idx[i]] = true;
	size_t w = 0;
	for (size_t i = 0; i < n; i++) {
		if (drop[i])
			free(keys->v[i]);
		else
			keys->v[w++] = keys->v[i];
	}
	keys->n = w;
	free(drop);
	free(idx);
}

static int cmp_hgate(const void *a, const void *b)
{
	return strcmp(((const struct hgate *)a)->key, ((const struct hgate *)b)->key);
}

/* The regression gates' verdict on series key: FAIL if any failed, else
 * PASS if any passed, else SKIPPED, with their messages; false when no
 * gate judged it. L->hgates is sorted by key. */
static bool gate_verdict(const struct loader *L, const char *key, enum assay_report_verdict *v,
			 struct sbuf *msg)
{
	size_t lo = 0, hi = L->nhgates;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(L->hgates[mid].key, key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	bool any = false, fail = false, pass = false, skipped = false;
	for (size_t i = lo; i < L->nhgates && !strcmp(L->hgates[i].key, key); i++) {
		const struct hgate *g = &L->hgates[i];
		sbuf_addf(msg, "%s%s %s: %s", any ? "; " : "", g->gate,
			  assay_report_verdict_name(g->verdict), g->message);
		any = true;
		fail |= g->verdict == ASSAY_VERDICT_FAIL;
		pass |= g->verdict == ASSAY_VERDICT_PASS;
		skipped |= g->verdict == ASSAY_VERDICT_SKIPPED;
	}
	*v = fail      ? ASSAY_VERDICT_FAIL
	     : pass    ? ASSAY_VERDICT_PASS
	     : skipped ? ASSAY_VERDICT_SKIPPED
		       : ASSAY_VERDICT_RECORD;
	return any;
}

/* Change points and rank of series s, found by the thread that read it. */
static void rank_one(struct hctx *H, struct hseries *s)
{
	struct hrank *r = &s->r;
	r->rank = 3;
	r->move = move_of(s);
	ALLOC_GROW(H->x, s->n + 1, H->xalloc);
	for (size_t k = 0; k < s->n; k++)
		H->x[k] = s->pts[k].value;
	struct assay_error de;
	if (assay_detect(H->x, s->n, &H->opts, &r->ch, &de) != ASSAY_OK)
		r->ch.n = 0; /* stored values are finite; nothing to find */
	if (r->ch.n) {
		const struct assay_change *c = &r->ch.v[r->ch.n - 1];
		r->rank = s->mine >= 0 && c->index == (size_t)s->mine
			      ? (assay_change_is_regression(c, s->dir) ? 0 : 1)
			      : 2;
	}
	struct sbuf ignore = SBUF_INIT;
	enum assay_report_verdict v;
	if (gate_verdict(H->S->L, s->key, &v, &ignore) && v == ASSAY_VERDICT_FAIL)
		r->rank = -1; /* a failed regression gate comes first */
	sbuf_release(&ignore);
}

/* A second thread reading (and detecting) the second half of the followed
 * series on a connection of its own: reading the points and detection are
 * most of a big report's time, and the series are independent (the result
 * does not depend on the split). */
struct hworker {
	struct hctx H;
	struct strlist keys; /* a view into the loader's keys */
	const char *store, *run_id;
	bool opened;
	assay_err rc;
	struct assay_error e;
};

static void read_share(void *arg, size_t task, int worker)
{
	(void)task;
	(void)worker;
	struct hworker *w = arg;
	struct assay_store *s;
	/* No memory map of its own: its pages would count a second time in
	 * the report's resident memory. */
	w->rc = assay_store_open(w->store, ASSAY_STORE_READONLY | ASSAY_STORE_NOMAP, &s, &w->e);
	if (w->rc != ASSAY_OK)
		return;
	w->opened = true;
	w->rc = assay_store_run_history(s, w->run_id, &w->keys, HISTORY_POINTS, on_history, &w->H,
					&w->e);
	struct assay_error ce;
	assay_store_close(s, &ce);
}

static void hctx_init(struct hctx *H, struct hshared *S)
{
	memset(H, 0, sizeof(*H));
	H->S = S;
	assay_detect_defaults(&H->opts);
}

static void hseries_release(struct hseries *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct hseries *s = &v[i];
		free(s->key);
		free(s->unit);
		free(s->f);
		free(s->strings);
		free(s->pts);
		assay_changes_release(&s->r.ch);
	}
	free(v);
}

/* Read the history of L->keys into H (in key order), on two threads when
 * there are many series and more than one CPU: the second half is one task
 * of a util pool, this thread reads the first. */
static assay_err read_all(struct loader *L, struct hctx *H, struct assay_error *e)
{
	const struct strlist *keys = &L->keys;
	size_t half = keys->n;
	struct hworker w;
	struct assay_pool *pool = NULL;
	bool two = keys->n >= 512 && L->store && assay_pool_threads(2, 2) > 1;
	if (two) {
		memset(&w, 0, sizeof(w));
		hctx_init(&w.H, H->S);
		half = keys->n / 2;
		w.keys = (struct strlist){keys->v + half, keys->n - half, 0};
		w.store = L->store;
		w.run_id = L->run_id;
		struct assay_pool_opts o = {1, false, 1};
		pool = assay_pool_start(&o, read_share, &w);
		assay_pool_submit(pool, 1);
	}
	struct strlist mine = {keys->v, half, 0};
	assay_err rc =
	    assay_store_run_history(L->s, L->run_id, &mine, HISTORY_POINTS, on_history, H, e);
	if (!two)
		return rc;
	assay_pool_finish(pool);
	if (rc == ASSAY_OK && w.rc == ASSAY_OK) {
		ALLOC_GROW(H->v, H->n + w.H.n, H->alloc);
		if (w.H.n)
			memcpy(H->v + H->n, w.H.v, w.H.n * sizeof(*H->v));
		H->n += w.H.n;
		w.H.n = 0;
	} else if (rc == ASSAY_OK && !w.opened) {
		/* No second connection: the rest here. */
		struct strlist rest = {keys->v + half, keys->n - half, 0};
		rc = assay_store_run_history(L->s, L->run_id, &rest, HISTORY_POINTS, on_history, H,
					     e);
	} else if (rc == ASSAY_OK) {
		rc = w.rc;
		if (e)
			*e = w.e;
	}
	hseries_release(w.H.v, w.H.n);
	free(w.H.x);
	return rc;
}

/* The ignore annotations of ann, sorted by series key, into S. */
static void ignores_sort(struct hshared *S, struct assay_annotations *ann)
{
	S->ign = xcalloc(ann->n + 1, sizeof(*S->ign));
	for (size_t i = 0; i < ann->n; i++)
		if (ann->v[i].kind == ASSAY_ANN_IGNORE && ann->v[i].series_key &&
		    ann->v[i].revision)
			S->ign[S->nign++] = &ann->v[i];
	if (S->nign)
		qsort(S->ign, S->nign, sizeof(*S->ign), cmp_ann);
}

/* The fields that label the followed series: the keys whose values differ
 * between the series that have them (as varying_keys, over the interned
 * pairs), sorted, with their ids; and the ids of metric and statistic. */
struct hlabels {
	struct strlist vary;
	unsigned *vary_ids;
	unsigned metric_id, stat_id;
};

static void hlabels_find(struct hshared *S, const struct hctx *H, struct hlabels *o)
{
	size_t nkeys = S->in.keys.n;
	unsigned *first = xcalloc(nkeys + 1, sizeof(*first));
	bool *varies = xcalloc(nkeys + 1, sizeof(*varies));
	for (size_t i = 0; i < H->n; i++)
		for (size_t k = 0; k < H->v[i].nf; k++) {
			const struct fpair *f = &H->v[i].f[k];
			if (!first[f->key])
				first[f->key] = f->val + 1;
			else if (first[f->key] != f->val + 1)
				varies[f->key] = true;
		}
	o->vary = (struct strlist)STRLIST_INIT;
	for (size_t k = 0; k < nkeys; k++)
		if (varies[k] && strcmp(S->in.keys.v[k], "metric") &&
		    strcmp(S->in.keys.v[k], "statistic"))
			strlist_push(&o->vary, S->in.keys.v[k]);
	if (o->vary.n)
		qsort(o->vary.v, o->vary.n, sizeof(char *), load_cmp_str);
	o->vary_ids = xcalloc(o->vary.n + 1, sizeof(*o->vary_ids));
	for (size_t k = 0; k < o->vary.n; k++)
		o->vary_ids[k] = intern_key(&S->in, o->vary.v[k]);
	o->metric_id = intern_key(&S->in, "metric");
	o->stat_id = intern_key(&S->in, "statistic");
	free(first);
	free(varies);
}

/* "metric statistic · k=v · ..." of series s into label (v: scratch). */
static void history_label(const struct hshared *S, const struct hlabels *lb,
			  const struct hseries *s, struct sbuf *label, struct sbuf *v)
{
	const char *metric = json_string_value(fvalue(&S->in, s->f, s->nf, lb->metric_id));
	const char *stat = json_string_value(fvalue(&S->in, s->f, s->nf, lb->stat_id));
	sbuf_reset(label);
	sbuf_addf(label, "%s %s", metric ? metric : "?", stat ? stat : "");
	for (size_t k = 0; k < lb->vary.n; k++) {
		const json_t *val = fvalue(&S->in, s->f, s->nf, lb->vary_ids[k]);
		if (!val)
			continue;
		load_factor_value(val, v);
		sbuf_addf(label, " · %s=%s", lb->vary.v[k], v->buf);
	}
}

/* Series s into the model under label: the gates' verdict and the message,
 * its points (handed over, no copies) and its change points (rk's). */
static void history_add(struct loader *L, struct hseries *s, const struct hrank *rk,
			const char *label, struct sbuf *msg)
{
	struct assay_report_history *h = assay_report_add_history(L->r, label, s->unit);
	h->lower_is_better = s->dir == ASSAY_DIR_LOWER;
	sbuf_reset(msg);
	enum assay_report_verdict verdict = ASSAY_VERDICT_RECORD;
	bool gated = gate_verdict(L, s->key, &verdict, msg);
	if (gated)
		sbuf_adds(msg, "; ");
	history_message(s, &rk->ch, gated, msg);
	assay_report_set(&h->message, msg->buf);
	h->verdict = verdict;
	/* The model takes the points as they are (no copies). */
	h->points = s->pts;
	h->npoints = h->points_alloc = s->n;
	h->strings = s->strings;
	s->pts = NULL;
	s->strings = NULL;
	for (size_t k = 0; k < rk->ch.n; k++)
		assay_report_history_change(h, rk->ch.v[k].index);
	h->new_point = s->mine;
	const struct assay_change *c = rk->ch.n ? &rk->ch.v[rk->ch.n - 1] : NULL;
	if (c && s->mine >= 0 && c->index == (size_t)s->mine)
		h->regime = assay_change_is_regression(c, s->dir) ? ASSAY_REGIME_WORSE
								  : ASSAY_REGIME_BETTER;
}

/* The series read into the model, in the order of their ranks. */
static void history_to_model(struct loader *L, struct hshared *S, struct hctx *H)
{
	struct hlabels lb;
	hlabels_find(S, H, &lb);
	/* The ranks as found while reading (their change points move here). */
	struct hrank *rank = xcalloc(H->n + 1, sizeof(*rank));
	for (size_t i = 0; i < H->n; i++) {
		rank[i] = H->v[i].r;
		rank[i].index = i;
		memset(&H->v[i].r.ch, 0, sizeof(H->v[i].r.ch));
	}
	qsort(rank, H->n, sizeof(*rank), cmp_rank);
	struct sbuf label = SBUF_INIT, msg = SBUF_INIT, v = SBUF_INIT;
	for (size_t j = 0; j < H->n; j++) {
		struct hseries *s = &H->v[rank[j].index];
		history_label(S, &lb, s, &label, &v);
		history_add(L, s, &rank[j], label.buf, &msg);
	}
	for (size_t i = 0; i < H->n; i++)
		assay_changes_release(&rank[i].ch);
	free(rank);
	sbuf_release(&label);
	sbuf_release(&msg);
	sbuf_release(&v);
	strlist_clear(&lb.vary);
	free(lb.vary_ids);
}

assay_err load_history(struct loader *L, struct assay_error *e)
{
	if (L->nhgates)
		qsort(L->hgates, L->nhgates, sizeof(*L->hgates), cmp_hgate);
	struct assay_annotations ann = {0};
	struct hshared S = {L,
			    NULL,
			    0,
			    {json_object(), json_object(), STRLIST_INIT, NULL, 0, 0, SBUF_INIT},
			    PTHREAD_MUTEX_INITIALIZER};
	struct hctx H;
	hctx_init(&H, &S);
	dedupe(&L->keys);
	assay_err rc = assay_store_annotations(L->s, NULL, &ann, e);
	ignores_sort(&S, &ann);
	if (rc == ASSAY_OK)
		rc = read_all(L, &H, e);
	if (rc == ASSAY_OK)
		history_to_model(L, &S, &H);
	hseries_release(H.v, H.n);
	free(H.x);
	free(S.ign);
	intern_release(&S.in);
	pthread_mutex_destroy(&S.lock);
	assay_annotations_release(&ann);
	return rc;
}
