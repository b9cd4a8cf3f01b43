/* The bus bandwidth factors of the collective operations (nccl-tests'
 * doc/PERFORMANCE.md and the *GetBw functions of its src/<op>.cu), shared by
 * the nccl-tests readers and assay-coll. */
#include <string.h>

#include "assay/collective.h"

enum kind { ALLREDUCE, RING, ONE };

static const struct {
	const char *name;
	enum kind kind;
} ops[] = {
    {"all_reduce", ALLREDUCE},
    {"all_gather", RING},
    {"reduce_scatter", RING},
    {"alltoall", RING},
    {"broadcast", ONE},
    {"reduce", ONE},
    {"sendrecv", ONE},
    /* src/gather.cu, scatter.cu, alltoallv.cu: (n-1)/n; hypercube.cu: 1 */
    {"gather", RING},
    {"scatter", RING},
    {"alltoallv", RING},
    {"hypercube", ONE},
};

bool assay_coll_busbw_factor(const char *operation, int nranks, double *factor)
{
	if (!operation || nranks < 1)
		return false;
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		if (strcmp(ops[i].name, operation))
			continue;
		double n = nranks;
		*factor = ops[i].kind == ALLREDUCE ? 2.0 * (n - 1) / n
			  : ops[i].kind == RING    ? (n - 1) / n
						   : 1.0;
		return true;
	}
	return false;
}

bool assay_coll_known(const char *operation)
{
	double f;
	return assay_coll_busbw_factor(operation, 1, &f);
}
