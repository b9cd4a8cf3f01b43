/* E-divisive means change points, Otava flavour: split (sliding windows,
 * recursive best split by the energy divergence Q, accepted by a pooled
 * t-test at a relaxed p-value) and merge (weakest points removed until all
 * survivors pass max_pvalue and min_magnitude). The otava_compat flavour
 * follows Apache Otava step for step, including its floating-point order
 * where it matters for ties; see include/assay/detect.h for the assay one.
 * Here: the options, the sliding windows and the recursive split; the Q
 * search, the t-test, the sorted copies and the merge loop are in
 * edivisive_q.c, _ttest.c, _sort.c and _merge.c. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "detect/edivisive_int.h"

void assay_detect_defaults(struct assay_detect_opts *o)
{
	o->window = 50;
	o->max_pvalue = 1e-4;
	o->min_magnitude = 0.0;
	o->otava_compat = false;
	o->min_segment = 5;
}

void assay_detect_otava_defaults(struct assay_detect_opts *o)
{
	o->window = 50;
	o->max_pvalue = 0.001;
	o->min_magnitude = 0.0;
	o->otava_compat = true;
	o->min_segment = 1;
}

assay_err assay_detect_check(const struct assay_detect_opts *o, struct assay_error *e)
{
	if (o->window < 2 || o->window > 1000)
		return assay_error_set(e, ASSAY_USAGE,
				       "window %d: expected an integer from 2 to 1000", o->window);
	if (!(o->max_pvalue > 0 && o->max_pvalue <= 1))
		return assay_error_set(
		    e, ASSAY_USAGE, "max p-value %g: expected a number in (0, 1]", o->max_pvalue);
	if (!(o->min_magnitude >= 0 && isfinite(o->min_magnitude)))
		return assay_error_set(e, ASSAY_USAGE, "min magnitude %g: expected a number >= 0",
				       o->min_magnitude);
	if (o->min_segment < 1 || o->min_segment > 1000)
		return assay_error_set(e, ASSAY_USAGE,
				       "min segment %d: expected an integer from 1 to 1000",
				       o->min_segment);
	return ASSAY_OK;
}

void assay_changes_release(struct assay_changes *c)
{
	free(c->v);
	memset(c, 0, sizeof(*c));
}

bool assay_change_is_regression(const struct assay_change *c, enum assay_direction dir)
{
	if (dir == ASSAY_DIR_LOWER)
		return c->mean_after > c->mean_before;
	return c->mean_after < c->mean_before;
}

/* The split of [s, stop) with the largest score, the first in (tau, kappa)
 * order among equals (a skipped split scores -INFINITY); -INFINITY when
 * none. */
static double best_split(const double *tq, size_t s, size_t stop, size_t *tau_out)
{
	double best = -INFINITY;
	size_t best_tau = s + 1;
	for (size_t tau = s + 1; tau < stop; tau++) {
		if (tq[tau] > best) {
			best = tq[tau];
			best_tau = tau;
		}
	}
	*tau_out = best_tau;
	return best;
}

/* Recursive E-divisive on one window z[0..m): change points (local indexes)
 * accepted while the best candidate passes p <= max_p. Otava stops at the
 * first candidate that fails; the assay flavour skips up to 6 of them (a
 * spike or a short excursion often has the largest Q) before it stops. */
static void window_detect(const double *z, size_t m, double max_p, bool compat, struct qscratch *q,
			  struct cplist *found)
{
	size_t skip[6], nskip = 0;
	/* The scores of an interval's splits depend only on the interval:
	 * computed once per interval (valid[s]: for the interval starting at
	 * s, up to stop[s]); a skipped split is passed over, not recomputed. */
	double *tq = xmalloc((m + 1) * sizeof(*tq));
	size_t *scored = xcalloc(m + 1, sizeof(*scored)); /* stop + 1 of the scored interval */
	found->n = 0;
	/* The window sorted: cut from the sorted series (one pass over it), or
	 * sorted afresh where the series is much longer than the window. */
	if (!compat && found->sorted->n > 8 * m)
		ediv_wsort_fill(&q->w, z, m);
	else if (!compat)
		ediv_wsort_window(&q->w, found->sorted, (size_t)(z - found->base), m);
	for (;;) {
		double best = -INFINITY;
		size_t best_tau = 0, best_s = 0, best_stop = 0;
		for (size_t i = 0; i <= found->n; i++) {
			size_t s = i ? found->v[i - 1].index : 0;
			size_t stop = i < found->n ? found->v[i].index : m;
			if (stop - s < 2)
				continue;
			if (scored[s] != stop + 1) {
				ediv_split_scores(z, s, stop, q, tq);
				scored[s] = stop + 1;
				for (size_t k = 0; k < nskip; k++)
					if (skip[k] > s && skip[k] < stop)
						tq[skip[k]] = -INFINITY;
			}
			size_t tau;
			double qv = best_split(tq, s, stop, &tau);
			if (qv > best) {
				best = qv;
				best_tau = tau;
				best_s = s;
				best_stop = stop;
			}
		}
		if (best == -INFINITY)
			break;
		struct side_stats st = {0};
		/* Only whether p passes matters here (split() re-tests every point
		 * it keeps): the assay flavour skips the means of all points and,
		 * for a t that cannot pass, the exact p. */
		ediv_ttest(z, best_s, best_tau, best_stop, compat, false, compat ? NULL : &q->w,
			   compat ? 0.0 : max_p, &st);
		if (st.p <= max_p) {
			cp_insert(found, best_tau, &st);
		} else if (!compat && nskip < ARRAY_SIZE(skip)) {
			skip[nskip++] = best_tau;
			tq[best_tau] = -INFINITY; /* its interval's scores stay cached */
		} else {
			break;
		}
	}
	free(tq);
	free(scored);
}

static void split(const double *x, size_t n, const struct assay_detect_opts *o, double first_p,
		  struct cplist *out)
{
	struct qscratch q = {NULL, 0, {NULL, NULL, 0}};
	struct cplist local = {NULL, 0, 0, out->sorted, x};
	size_t step = (size_t)o->window / 2, start = 0;
	while (start < n) {
		size_t end = start + (size_t)o->window < n ? start + (size_t)o->window : n;
		window_detect(x + start, end - start, first_p, o->otava_compat, &q, &local);
		size_t last = local.n ? local.v[local.n - 1].index + start : 0;
		for (size_t i = 0; i < local.n; i++) {
			size_t idx = local.v[i].index + start;
			bool dup = false;
			for (size_t j = 0; j < out->n && !dup; j++)
				dup = out->v[j].index == idx;
			if (!dup)
				cp_insert(out, idx, &local.v[i].st);
		}
		start = last > start + step ? last : start + step;
	}
	free(local.v);
	free(q.p);
	free(q.w.v);
	free(q.w.pos);
	for (size_t i = 0; i < out->n; i++)
		ediv_retest(x, n, out, i, o->otava_compat);
}

assay_err assay_detect(const double *x, size_t n, const struct assay_detect_opts *o,
		       struct assay_changes *out, struct assay_error *e)
{
	assay_err rc = assay_detect_check(o, e);
	if (rc != ASSAY_OK)
		return rc;
	for (size_t i = 0; i < n; i++)
		if (!isfinite(x[i]))
			return assay_error_set(e, ASSAY_USAGE, "point %zu: value is not finite",
					       i + 1);
	/* Otava's relaxed first pass. */
	double p = o->max_pvalue;
	double first = p < 0.05 ? p * 10 : (p < 0.5 ? p * 2 : p);
	struct cplist l = {NULL, 0, 0, NULL, x};
	struct wsort sorted = {NULL, NULL, 0};
	if (n >= 2 && !o->otava_compat) {
		ediv_wsort_fill(&sorted, x, n);
		l.sorted = &sorted;
	}
	if (n >= 2) {
		split(x, n, o, first, &l);
		ediv_merge(x, n, o, &l);
		if (!o->otava_compat && l.n) {
			ediv_refine(x, n, &l, o->min_segment);
			for (size_t i = 0; i < l.n; i++)
				ediv_retest(x, n, &l, i, false);
			ediv_merge(x, n, o, &l);
		}
	}
	for (size_t i = 0; i < l.n; i++) {
		/* Every point's statistics are those of its final neighbours: the
		 * last merge re-tested the neighbours of each point it removed. */
		const struct side_stats *st = &l.v[i].st;
		ALLOC_GROW(out->v, out->n + 1, out->alloc);
		struct assay_change *c = &out->v[out->n++];
		c->index = l.v[i].index;
		c->n_before = st->n1;
		c->n_after = st->n2;
		c->mean_before = st->mean1;
		c->mean_after = st->mean2;
		c->std_before = st->sd1;
		c->std_after = st->sd2;
		c->pvalue = st->p;
		c->rel_change = rel(st->mean2, st->mean1);
		c->magnitude = magnitude(st);
	}
	free(l.v);
	free(sorted.v);
	free(sorted.pos);
	return ASSAY_OK;
}
