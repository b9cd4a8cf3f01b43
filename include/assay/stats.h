/* Small order statistics shared by the detectors and the parsers. */
#ifndef ASSAY_STATS_H
#define ASSAY_STATS_H

#include <stddef.h>

/* The k-th smallest of v[0..n) (quickselect, expected O(n)); v is reordered
 * so that every element before index k is <= v[k]. n >= 1, k < n. */
double assay_select_kth(double *v, size_t n, size_t k);
/* Median of v[0..n), the mean of the two middle values when n is even;
 * n >= 1; v is reordered. */
double assay_median(double *v, size_t n);

#endif
