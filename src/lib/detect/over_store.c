/* Change points as `assay detect` reports them: one series' points with its
 * annotations applied (ignore left out, ack and expected marked), and every
 * series of a store as of one snapshot, detected on the util pool in a ring
 * and handed back in order (docs/detect.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/detect.h"
#include "assay/pool.h"
#include "assay/util.h"

/* One series on its way through detection: its points (those annotated
 * ignore left out of x), and the changes found. */
struct series_job {
	const struct assay_points *pts;
	const struct assay_annotations *ann;
	const struct assay_detect_opts *o;
	double *x;
	size_t *idx, n;
	struct assay_changes ch;
	assay_err rc;
	char err[512];
};

static void job_prepare(struct series_job *j)
{
	const struct assay_points *pts = j->pts;
	j->x = xmalloc((pts->n + 1) * sizeof(*j->x));
	j->idx = xmalloc((pts->n + 1) * sizeof(*j->idx));
	j->n = 0;
	for (size_t i = 0; i < pts->n; i++) {
		const char *rev = pts->v[i].revision;
		if (j->ann && rev && assay_annotations_has(j->ann, rev, ASSAY_ANN_IGNORE))
			continue;
		j->idx[j->n] = i;
		j->x[j->n++] = pts->v[i].value;
	}
}

/* The detection itself: pure computation, safe on any thread. */
static void job_detect(struct series_job *j)
{
	struct assay_error e;
	j->rc = assay_detect(j->x, j->n, j->o, &j->ch, &e);
	if (j->rc != ASSAY_OK)
		snprintf(j->err, sizeof(j->err), "%s", e.message);
}

/* A detected job's changes as reported, into out. */
static void job_report(const struct series_job *j, struct assay_change_points *out)
{
	const struct assay_points *pts = j->pts;
	const struct assay_annotations *ann = j->ann;
	out->n = 0;
	out->points = j->n;
	ALLOC_GROW(out->v, j->ch.n, out->alloc);
	for (size_t i = 0; i < j->ch.n; i++) {
		const struct assay_point *now = &pts->v[j->idx[j->ch.v[i].index]];
		const struct assay_point *before = &pts->v[j->idx[j->ch.v[i].index - 1]];
		struct assay_change_point *cp = &out->v[out->n++];
		*cp = (struct assay_change_point){j->ch.v[i], now->revision, before->revision,
						  now->timestamp, NULL};
		cp->c.index = j->idx[j->ch.v[i].index]; /* position in the stored series */
		if (ann && now->revision) {
			if (assay_annotations_has(ann, now->revision, ASSAY_ANN_ACK))
				cp->annotation = "ack";
			else if (assay_annotations_has(ann, now->revision, ASSAY_ANN_EXPECTED))
				cp->annotation = "expected";
		}
	}
}

static void job_release(struct series_job *j)
{
	assay_changes_release(&j->ch);
	free(j->x);
	free(j->idx);
	j->x = NULL;
	j->idx = NULL;
}

void assay_change_points_release(struct assay_change_points *c)
{
	free(c->v);
	*c = (struct assay_change_points){0};
}

assay_err assay_detect_points(const struct assay_points *pts, const struct assay_annotations *ann,
			      const struct assay_detect_opts *o, struct assay_change_points *out,
			      struct assay_error *e)
{
	struct series_job j = {.pts = pts, .ann = ann, .o = o};
	job_prepare(&j);
	j.rc = assay_detect(j.x, j.n, o, &j.ch, e);
	out->n = 0;
	out->points = j.n;
	if (j.rc == ASSAY_OK)
		job_report(&j, out);
	job_release(&j);
	return j.rc;
}

/* ---- every series of a store ---- */

/* Series are read (from the series index alone) and handed over in order on
 * the calling thread, detected on every CPU meanwhile: task i of the util
 * pool is job i % DETECT_RING, made ready once the reading thread has
 * prepared it. The reading thread hands the jobs over in order as they are
 * done, and detects too when it has to wait, so reading, detection and the
 * caller's work overlap and at most DETECT_RING series are in memory. A
 * waiting thread is woken once a few jobs wait for it (a wake-up costs
 * about as much as detecting a short series). */
#define DETECT_RING 256
#define POOL_WAKE   8

struct ring_slot {
	struct assay_points pts;
	struct assay_annotations ann; /* a view into all of them */
};

struct over_store {
	struct assay_store *s;
	struct assay_series_list *l;
	const struct assay_series_filter *range;
	const struct assay_detect_opts *o;
	assay_detect_series_fn *fn;
	void *ctx;
	struct assay_error *e;
	struct assay_annotations ann;  /* every one of the store, grouped by series */
	struct series_job *jobs;       /* job i at jobs[i % DETECT_RING] */
	struct ring_slot *slots;       /* its points at slots[i % DETECT_RING] */
	struct assay_change_points cp; /* the series being handed over */
};

static void job_task(void *ctx, size_t i, int worker)
{
	(void)worker;
	struct over_store *r = ctx;
	job_detect(&r->jobs[i % DETECT_RING]);
}

/* Every annotation of the store is read once (one statement, not one per
 * series) and grouped by series, each series' in store order. */
struct ann_key {
	const char *key;
	size_t i;
};

static int ann_cmp(const void *a, const void *b)
{
	const struct ann_key *x = a, *y = b;
	int c = strcmp(x->key, y->key);
	return c ? c : (x->i > y->i) - (x->i < y->i);
}

static void ann_group(struct assay_annotations *all)
{
	struct ann_key *ix = xmalloc((all->n + 1) * sizeof(*ix));
	for (size_t i = 0; i < all->n; i++)
		ix[i] = (struct ann_key){all->v[i].series_key, i};
	qsort(ix, all->n, sizeof(*ix), ann_cmp);
	struct assay_annotation *v = xmalloc((all->n + 1) * sizeof(*v));
	for (size_t i = 0; i < all->n; i++)
		v[i] = all->v[ix[i].i];
	free(all->v);
	all->v = v;
	all->alloc = all->n;
	free(ix);
}

/* The annotations of one series: a view into the grouped list. */
static struct assay_annotations ann_view(const struct assay_annotations *all, const char *key)
{
	size_t lo = 0, hi = all->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(all->v[mid].series_key, key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	size_t end = lo;
	while (end < all->n && !strcmp(all->v[end].series_key, key))
		end++;
	return (struct assay_annotations){all->v + lo, end - lo, 0};
}

static bool has_ignore(const struct assay_annotations *a)
{
	for (size_t i = 0; i < a->n; i++)
		if (a->v[i].kind == ASSAY_ANN_IGNORE)
			return true;
	return false;
}

/* Read series i into its slot and prepare its job. */
static assay_err read_series(struct over_store *r, size_t i)
{
	struct ring_slot *sl = &r->slots[i % DETECT_RING];
	const char *key = r->l->v[i].key;
	/* Revisions only where an ignore annotation needs them: reading every
	 * point's strings costs more than detecting. */
	sl->ann = ann_view(&r->ann, key);
	assay_err rc = assay_store_series_values_lean(r->s, key, r->range, has_ignore(&sl->ann),
						      &sl->pts, r->e);
	if (rc != ASSAY_OK) {
		assay_points_release(&sl->pts);
		sl->ann = (struct assay_annotations){0};
		return rc;
	}
	struct series_job *j = &r->jobs[i % DETECT_RING];
	*j = (struct series_job){.pts = &sl->pts, .ann = &sl->ann, .o = r->o};
	job_prepare(j);
	return ASSAY_OK;
}

/* The points were read lean (values and row ids): read the revision and
 * timestamp of the points a change reports (its first point and the one
 * before it) into sl's points, as strings that *fetched owns. */
static assay_err fill_changes(struct over_store *r, const struct series_job *j,
			      struct ring_slot *sl, char ***fetched, size_t *nfetched)
{
	size_t alloc = 0;
	for (size_t i = 0; j->rc == ASSAY_OK && i < j->ch.n; i++) {
		for (size_t back = 0; back < 2; back++) {
			struct assay_point *pt = &sl->pts.v[j->idx[j->ch.v[i].index - back]];
			if (pt->timestamp || !pt->id)
				continue;
			char *rev, *ts;
			assay_err rc = assay_store_point_strings(r->s, pt->id, &rev, &ts, r->e);
			if (rc != ASSAY_OK)
				return rc;
			ALLOC_GROW(*fetched, *nfetched + 2, alloc);
			(*fetched)[(*nfetched)++] = ts;
			pt->timestamp = ts;
			if (!pt->revision && rev) {
				(*fetched)[(*nfetched)++] = rev;
				pt->revision = rev;
			} else {
				free(rev);
			}
		}
	}
	return ASSAY_OK;
}

/* Hand job i over (while rc is still ok and the series has points since
 * `since`) and free its slot. */
static assay_err hand_over(struct over_store *r, size_t i, assay_err rc)
{
	struct series_job *j = &r->jobs[i % DETECT_RING];
	struct ring_slot *sl = &r->slots[i % DETECT_RING];
	struct assay_series_info *si = &r->l->v[i];
	char **fetched = NULL;
	size_t nfetched = 0;
	if (rc == ASSAY_OK && sl->pts.n) /* none since `since`: not a series here */
		rc = fill_changes(r, j, sl, &fetched, &nfetched);
	if (rc == ASSAY_OK && sl->pts.n && j->rc != ASSAY_OK) {
		rc = assay_error_set(r->e, ASSAY_USAGE, "%s: %s", si->key, j->err);
	} else if (rc == ASSAY_OK && sl->pts.n) {
		job_report(j, &r->cp);
		rc = (assay_err)r->fn(r->ctx, si, &r->cp);
	}
	for (size_t k = 0; k < nfetched; k++)
		free(fetched[k]);
	free(fetched);
	job_release(j);
	assay_points_release(&sl->pts);
	sl->ann = (struct assay_annotations){0};
	*j = (struct series_job){0};
	return rc;
}

/* The ring itself: read, submit, hand over what is done; then what was read
 * is detected and freed, also after an error. */
static assay_err run_ring(struct over_store *r)
{
	int nthreads = assay_pool_threads(r->l->n, 64);
	struct assay_pool_opts po = {nthreads - 1, true, POOL_WAKE};
	struct assay_pool *jp = assay_pool_start(&po, job_task, r);
	assay_err rc = ASSAY_OK;
	size_t got = 0, done = 0;
	for (; got < r->l->n; got++) {
		if (got - done == DETECT_RING) { /* the ring is full: the oldest goes */
			assay_pool_wait(jp, done);
			rc = hand_over(r, done, rc);
			done++;
		}
		if (rc != ASSAY_OK || (rc = read_series(r, got)) != ASSAY_OK)
			break;
		assay_pool_submit(jp, got + 1);
		while (done <= got && assay_pool_done(jp, done)) {
			rc = hand_over(r, done, rc);
			done++;
		}
	}
	for (; done < got; done++) {
		assay_pool_wait(jp, done);
		rc = hand_over(r, done, rc);
	}
	assay_pool_finish(jp);
	return rc;
}

assay_err assay_detect_store(struct assay_store *s, struct assay_series_list *l,
			     const struct assay_series_filter *range,
			     const struct assay_detect_opts *o, assay_detect_series_fn *fn,
			     void *ctx, struct assay_error *e)
{
	struct over_store r = {
	    .s = s, .l = l, .range = range, .o = o, .fn = fn, .ctx = ctx, .e = e};
	/* Every series as of one moment, under one read lock. */
	assay_err rc = assay_store_snapshot_begin(s, e);
	if (rc != ASSAY_OK)
		return rc;
	rc = assay_store_annotations(s, NULL, &r.ann, e);
	if (rc == ASSAY_OK) {
		ann_group(&r.ann);
		r.slots = xcalloc(DETECT_RING, sizeof(*r.slots));
		r.jobs = xcalloc(DETECT_RING, sizeof(*r.jobs));
		rc = run_ring(&r);
	}
	assay_store_snapshot_end(s);
	assay_annotations_release(&r.ann);
	assay_change_points_release(&r.cp);
	free(r.jobs);
	free(r.slots);
	return rc;
}
