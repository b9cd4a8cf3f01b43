/* The E-divisive detector's merge loop: re-testing a change point against
 * its neighbours, dropping the weakest points until every survivor passes,
 * and (assay flavour) moving each point to its best split. */
#include <math.h>
#include <stdlib.h>

#include "assay/stats.h"
#include "detect/edivisive_int.h"

/* Re-test the change point at position pos against its neighbours. */
void ediv_retest(const double *x, size_t n, struct cplist *l, size_t pos, bool compat)
{
	if (pos >= l->n)
		return;
	size_t a = pos ? l->v[pos - 1].index : 0;
	size_t c = pos + 1 < l->n ? l->v[pos + 1].index : n;
	ediv_ttest(x, a, l->v[pos].index, c, compat, true, compat ? NULL : l->sorted, 0.0,
		   &l->v[pos].st);
}

/* Position of the weakest point by p-value (first maximum). */
static size_t max_p(const struct cplist *l)
{
	size_t w = 0;
	for (size_t i = 1; i < l->n; i++)
		if (l->v[i].st.p > l->v[w].st.p)
			w = i;
	return w;
}

static size_t min_magnitude(const struct cplist *l)
{
	size_t w = 0;
	for (size_t i = 1; i < l->n; i++)
		if (magnitude(&l->v[i].st) < magnitude(&l->v[w].st))
			w = i;
	return w;
}

/* Assay flavour: the boundary to drop for the shortest segment (other than
 * the newest) with fewer than min_segment points, or -1 when there is none. */
static long short_segment(const struct cplist *l, int min_segment)
{
	long pick = -1;
	size_t shortest = (size_t)min_segment;
	for (size_t i = 0; i < l->n; i++) {
		size_t a = i ? l->v[i - 1].index : 0, len = l->v[i].index - a;
		if (len >= shortest)
			continue;
		shortest = len;
		/* Segment [a, v[i]) is bounded by v[i-1] (when i > 0) and v[i]. */
		pick = (long)i;
		if (i > 0 && l->v[i - 1].st.p > l->v[i].st.p)
			pick = (long)i - 1;
	}
	return pick;
}

void ediv_merge(const double *x, size_t n, const struct assay_detect_opts *o, struct cplist *l)
{
	while (l->n) {
		size_t w = max_p(l);
		if (l->v[w].st.p < o->max_pvalue) {
			long s = o->otava_compat ? -1 : short_segment(l, o->min_segment);
			if (s >= 0) {
				w = (size_t)s;
			} else {
				w = min_magnitude(l);
				if (magnitude(&l->v[w].st) > o->min_magnitude)
					return;
			}
		}
		cp_remove(l, w);
		if (o->otava_compat) {
			/* Otava re-tests the point that moved into w and the next one, not
			 * the left neighbour whose right side just grew. */
			ediv_retest(x, n, l, w, true);
			ediv_retest(x, n, l, w + 1, true);
		} else {
			if (w > 0)
				ediv_retest(x, n, l, w - 1, false);
			ediv_retest(x, n, l, w, false);
		}
	}
}

/* Assay flavour: move each change point to the split between its
 * neighbours where the level difference is most significant, measured on a
 * de-spiked copy of the series (a point further than 4 robust sd from the
 * median of itself and its neighbours takes that median; the robust sd comes
 * from the MAD of first differences, which level shifts hardly touch). This
 * keeps a spike next to a step from pulling the step onto itself. */
void ediv_refine(const double *x, size_t n, struct cplist *l, int min_segment)
{
	if (!l->n || n < 4)
		return;
	double *y = xmalloc(n * sizeof(*y)), *tmp = xmalloc(n * sizeof(*tmp));
	double *pre = xmalloc((n + 1) * sizeof(*pre));
	for (size_t i = 1; i < n; i++)
		tmp[i - 1] = fabs(x[i] - x[i - 1]);
	double sd = 1.4826 * assay_median(tmp, n - 1) / sqrt(2.0);
	for (size_t i = 0; i < n; i++) {
		y[i] = x[i];
		if (i == 0 || i + 1 == n || sd == 0)
			continue;
		double a = x[i - 1], b = x[i], c = x[i + 1]; /* their median, inline */
		double lo = a < b ? a : b, hi = a < b ? b : a;
		double med = c < lo ? lo : (c > hi ? hi : c);
		if (fabs(x[i] - med) > 4.0 * sd)
			y[i] = med;
	}
	pre[0] = 0;
	for (size_t i = 0; i < n; i++)
		pre[i + 1] = pre[i] + y[i];
	for (size_t k = 0; k < l->n; k++) {
		size_t a = k ? l->v[k - 1].index : 0, c = k + 1 < l->n ? l->v[k + 1].index : n;
		size_t lo = a + (size_t)min_segment,
		       hi = c - (k + 1 < l->n ? (size_t)min_segment : 1);
		if (lo < a + 1)
			lo = a + 1;
		if (c < (size_t)min_segment || hi > c - 1 || lo > hi)
			continue;
		size_t best = l->v[k].index;
		double best_stat = -1;
		for (size_t t = lo; t <= hi; t++) {
			double n1 = (double)(t - a), n2 = (double)(c - t);
			double d = (pre[t] - pre[a]) / n1 - (pre[c] - pre[t]) / n2;
			double stat = fabs(d) * sqrt(n1 * n2 / (n1 + n2));
			if (stat > best_stat) {
				best_stat = stat;
				best = t;
			}
		}
		l->v[k].index = best;
	}
	free(y);
	free(tmp);
	free(pre);
}
