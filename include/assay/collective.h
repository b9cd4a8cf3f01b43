/* Collective benchmarks (nccl-tests, rccl-tests, assay-coll): the bus
 * bandwidth factor of each operation, as nccl-tests' doc/PERFORMANCE.md
 * defines it (busbw = algbw * factor for n ranks). */
#ifndef ASSAY_COLLECTIVE_H
#define ASSAY_COLLECTIVE_H

#include <stdbool.h>

/* The operation's name as nccl-tests spells its program without "_perf":
 * all_reduce 2(n-1)/n; all_gather, reduce_scatter, alltoall (n-1)/n;
 * broadcast, reduce, sendrecv 1. False for another name or nranks < 1. */
bool assay_coll_busbw_factor(const char *operation, int nranks, double *factor);
/* Whether name is one of the operations above. */
bool assay_coll_known(const char *operation);

#endif
