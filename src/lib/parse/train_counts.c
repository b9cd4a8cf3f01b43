/* Exact value counts for a training log's steady-state median in bounded
 * memory: logs print their timings with few digits, so a long run has far
 * fewer distinct values than steps. A table of value -> count, given up
 * (overflow) past TRAIN_COUNTS_MAX distinct values. */
#include <stdlib.h>
#include <string.h>

#include "train_scan.h"

#define EMPTY UINT64_MAX /* a NaN bit pattern: only finite values go in */

static uint64_t bits_of(double v)
{
	uint64_t b;
	if (v == 0)
		v = 0; /* -0.0 and 0.0 are one value */
	memcpy(&b, &v, sizeof(b));
	return b;
}

static void grow(struct train_counts *c)
{
	size_t cap = c->cap ? c->cap * 2 : 1024;
	uint64_t *keys = xmalloc(cap * sizeof(*keys));
	long long *counts = xcalloc(cap, sizeof(*counts));
	for (size_t i = 0; i < cap; i++)
		keys[i] = EMPTY;
	for (size_t i = 0; i < c->cap; i++) {
		if (c->keys[i] == EMPTY)
			continue;
		size_t h = assay_mix64(c->keys[i]) & (cap - 1);
		while (keys[h] != EMPTY)
			h = (h + 1) & (cap - 1);
		keys[h] = c->keys[i];
		counts[h] = c->counts[i];
	}
	free(c->keys);
	free(c->counts);
	c->keys = keys;
	c->counts = counts;
	c->cap = cap;
}

void train_counts_add(struct train_counts *c, double v, long long delta)
{
	if (c->overflow)
		return;
	uint64_t k = bits_of(v);
	if ((c->n + 1) * 2 > c->cap) {
		if (c->n >= TRAIN_COUNTS_MAX) {
			c->overflow = true;
			train_counts_release(c);
			c->overflow = true;
			return;
		}
		grow(c);
	}
	size_t h = assay_mix64(k) & (c->cap - 1);
	while (c->keys[h] != EMPTY && c->keys[h] != k)
		h = (h + 1) & (c->cap - 1);
	if (c->keys[h] == EMPTY) {
		c->keys[h] = k;
		c->n++;
	}
	c->counts[h] += delta;
}

struct entry {
	double v;
	long long n;
};

static int cmp_entry(const void *a, const void *b)
{
	double x = ((const struct entry *)a)->v, y = ((const struct entry *)b)->v;
	return (x > y) - (x < y);
}

bool train_counts_median(const struct train_counts *c, double *out, size_t *count)
{
	if (c->overflow || !c->n)
		return false;
	struct entry *e = xmalloc(c->n * sizeof(*e));
	size_t m = 0;
	long long total = 0;
	for (size_t i = 0; i < c->cap; i++)
		if (c->keys[i] != EMPTY && c->counts[i] > 0) {
			memcpy(&e[m].v, &c->keys[i], sizeof(double));
			e[m].n = c->counts[i];
			total += e[m].n;
			m++;
		}
	bool ok = total > 0;
	if (ok) {
		qsort(e, m, sizeof(*e), cmp_entry);
		/* The values at ranks total/2 - 1 and total/2 (0-based), as assay_median(). */
		long long want_hi = total / 2, want_lo = total % 2 ? want_hi : want_hi - 1;
		double lo = 0, hi = 0;
		long long seen = 0;
		for (size_t i = 0; i < m; i++) {
			if (seen <= want_lo && want_lo < seen + e[i].n)
				lo = e[i].v;
			if (seen <= want_hi && want_hi < seen + e[i].n) {
				hi = e[i].v;
				break;
			}
			seen += e[i].n;
		}
		*out = total % 2 ? hi : 0.5 * (lo + hi);
		*count = (size_t)total;
	}
	free(e);
	return ok;
}

void train_counts_release(struct train_counts *c)
{
	free(c->keys);
	free(c->counts);
	memset(c, 0, sizeof(*c));
}
