/* Shared by the E-divisive detector's files: the driver (edivisive.c), the
 * Q search (edivisive_q.c), the t-test (edivisive_ttest.c), the sorted
 * window (edivisive_sort.c) and the merge loop (edivisive_merge.c). Small
 * helpers the hot paths call are static inline here. Not a public header. */
#ifndef ASSAY_EDIVISIVE_INT_H
#define ASSAY_EDIVISIVE_INT_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "assay/detect.h"
#include "assay/util.h"

/* A window's values in ascending order with their positions, so that the
 * sorted values of any stretch [a, b) of it come out in one pass. */
struct wsort {
	double *v;
	unsigned *pos;
	size_t n;
};

/* The sorted values of [a, b) and of [b, c) into sl and sr. */
static inline void wsort_split(const struct wsort *w, size_t a, size_t b, size_t c, double *sl,
			       double *sr)
{
	size_t nl = 0, nr = 0;
	for (size_t i = 0; i < w->n; i++) {
		size_t p = w->pos[i];
		double v = w->v[i];
		sl[nl] = v;
		sr[nr] = v;
		nl += p - a < b - a;
		nr += p - b < c - b;
	}
}

/* A t-test's two sides: their means, standard deviations, sizes and p. */
struct side_stats {
	double mean1, mean2, sd1, sd2, p;
	size_t n1, n2;
};

/* num / den - 1, 0 when den is 0; a change's size, the larger of both ways. */
static inline double rel(double num, double den)
{
	return den == 0 ? 0.0 : num / den - 1.0;
}

static inline double magnitude(const struct side_stats *s)
{
	double f = fabs(rel(s->mean2, s->mean1)), b = fabs(rel(s->mean1, s->mean2));
	return f > b ? f : b;
}

/* A change point while the algorithm runs. */
struct cpt {
	size_t index;
	struct side_stats st;
};
struct cplist {
	struct cpt *v;
	size_t n, alloc;
	const struct wsort *sorted; /* the whole series sorted (assay flavour) */
	const double *base;         /* the series sorted is of */
};

static inline void cp_insert(struct cplist *l, size_t index, const struct side_stats *st)
{
	ALLOC_GROW(l->v, l->n + 1, l->alloc);
	size_t i = l->n;
	while (i > 0 && l->v[i - 1].index > index) {
		l->v[i] = l->v[i - 1];
		i--;
	}
	l->v[i].index = index;
	l->v[i].st = *st;
	l->n++;
}

static inline void cp_remove(struct cplist *l, size_t pos)
{
	memmove(l->v + pos, l->v + pos + 1, (l->n - pos - 1) * sizeof(*l->v));
	l->n--;
}

/* Scratch for the Q search: column prefix sums P[k][r] = sum_{i=s}^{r-1} |z_i - z_k|. */
struct qscratch {
	double *p;
	size_t cap;
	struct wsort w; /* the window sorted (assay flavour) */
};

/* edivisive_sort.c: the series or a window sorted, positions kept. */
void ediv_wsort_fill(struct wsort *w, const double *z, size_t m);
/* w: the stretch [start, start + m) of the sorted series, positions made
 * relative to start (one pass; no sort). */
void ediv_wsort_window(struct wsort *w, const struct wsort *series, size_t start, size_t m);

/* edivisive_ttest.c: two-sided pooled t-test of x[a..b) against x[b..c)
 * (see there for the flavours, w and cut). */
void ediv_ttest(const double *x, size_t a, size_t b, size_t c, bool compat, bool serial,
		const struct wsort *w, double cut, struct side_stats *s);

/* edivisive_q.c: for every split tau in [s+1, stop-1] of z[s..stop), the
 * largest Q over the end points kappa, into tq[tau]. */
void ediv_split_scores(const double *z, size_t s, size_t stop, struct qscratch *q, double *tq);

/* edivisive_merge.c: re-test the change point at position pos against its
 * neighbours; drop the weakest points until all pass (merge); move each
 * point to its best split on a de-spiked copy (refine, assay flavour). */
void ediv_retest(const double *x, size_t n, struct cplist *l, size_t pos, bool compat);
void ediv_merge(const double *x, size_t n, const struct assay_detect_opts *o, struct cplist *l);
void ediv_refine(const double *x, size_t n, struct cplist *l, int min_segment);

#endif
