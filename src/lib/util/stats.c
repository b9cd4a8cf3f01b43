/* Order statistics: quickselect and the median, used by change-point
 * detection (robust spreads) and the training parsers (steady-state medians). */
#include <stddef.h>

#include "assay/stats.h"

double assay_select_kth(double *v, size_t n, size_t k)
{
	ptrdiff_t lo = 0, hi = (ptrdiff_t)n - 1, kk = (ptrdiff_t)k;
	while (lo < hi) {
		double pivot = v[lo + (hi - lo) / 2];
		ptrdiff_t i = lo, j = hi;
		while (i <= j) {
			while (v[i] < pivot)
				i++;
			while (v[j] > pivot)
				j--;
			if (i <= j) {
				double t = v[i];
				v[i] = v[j];
				v[j] = t;
				i++;
				j--;
			}
		}
		if (kk <= j)
			hi = j;
		else if (kk >= i)
			lo = i;
		else
			break; /* between j and i: equal to the pivot */
	}
	return v[k];
}

double assay_median(double *v, size_t n)
{
	double hi = assay_select_kth(v, n, n / 2);
	if (n % 2)
		return hi;
	/* The lower middle is the largest of the lower half. */
	double lo = v[0];
	for (size_t i = 1; i < n / 2; i++)
		if (v[i] > lo)
			lo = v[i];
	return 0.5 * (lo + hi);
}
