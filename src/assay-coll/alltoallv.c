/* alltoallv's traffic: nccl-tests' generated pattern (src/alltoallv.cu,
 * AlltoAllvGetPeerBytesDistanceWeighted at a0b82b2). Rank i sends rank j a
 * share of count x nranks elements that grows with the ring distance
 * (j - i) mod nranks, mixed with the uniform share by
 * NCCL_TESTS_ALLTOALLV_SPREAD (0 uniform, 1 by distance, the default), each
 * part rounded down to 16 bytes. Every rank sends and receives the same
 * total. nccl-tests' traffic-matrix file is refused (args.c). */
#include <stdlib.h>

#include "coll.h"

double coll_v_spread(void)
{
	static double spread = -1;
	if (spread < 0) {
		const char *e = getenv("NCCL_TESTS_ALLTOALLV_SPREAD");
		char *end = NULL;
		double v = e ? strtod(e, &end) : 1.0;
		if (!e || end == e || *end)
			v = 1.0;
		spread = v < 0 ? 0 : v > 1 ? 1 : v;
	}
	return spread;
}

size_t coll_v_bytes(int i, int j, int nranks, size_t count, size_t elt)
{
	size_t total = count * (size_t)nranks * elt;
	if (nranks == 1)
		return total & ~(size_t)15;
	int distance = (j - i + nranks) % nranks;
	double sum = (double)nranks * (nranks - 1) / 2;
	double uniform = (double)total / nranks;
	double dist = (double)distance * (double)total / sum;
	double w = coll_v_spread();
	double bytes = (1.0 - w) * uniform + w * dist;
	return (size_t)bytes & ~(size_t)15;
}

size_t coll_v_total(size_t count, size_t elt, int nranks)
{
	size_t n = 0;
	for (int j = 0; j < nranks; j++)
		n += coll_v_bytes(0, j, nranks, count, elt) / elt;
	return n;
}

size_t coll_v_offset(int i, int j, int nranks, size_t count, size_t elt)
{
	size_t n = 0;
	for (int k = 0; k < j; k++)
		n += coll_v_bytes(i, k, nranks, count, elt) / elt;
	return n;
}
