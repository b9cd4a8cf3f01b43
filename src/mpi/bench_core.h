/* Helpers shared by the MPI programs (src/assay-ep, src/assay-coll),
 * built once as the static library assay_bench_core (bench_core.c). */
#ifndef ASSAY_BENCH_CORE_H
#define ASSAY_BENCH_CORE_H

#include <mpi.h>
#include <stdbool.h>
#include <stddef.h>

#include "assay/error.h"

/* The program name in messages: "assay-ep" unless the program sets it. */
extern const char *ep_prog;

/* Check an MPI call; on failure name the rank and call and abort the job
 * with exit code 5 (ASSAY_INFRA). */
#define MPI_CHECK(call)                                                                            \
	do {                                                                                       \
		int mpi_rc_ = (call);                                                              \
		if (mpi_rc_ != MPI_SUCCESS)                                                        \
			ep_mpi_fail(#call, mpi_rc_, __FILE__, __LINE__);                           \
	} while (0)
_Noreturn void ep_mpi_fail(const char *call, int rc, const char *file, int line);
/* Print "PROG: rank R: message" to stderr and abort the job with code. */
_Noreturn void ep_die(int code, const char *fmt, ...) ASSAY_PRINTF(2, 3);

enum ep_copy_kind { EP_COPY_MEMCPY = 0, EP_COPY_NT = 1 };
extern const char *const ep_copy_names[]; /* "memcpy", "nt", NULL */
/* Copy n bytes; EP_COPY_NT uses non-temporal stores (call ep_copy_fence()
 * before publishing the data). */
void ep_copy(void *dst, const void *src, size_t n, enum ep_copy_kind kind);
void ep_copy_fence(void);
/* n bytes of 0xFF written as kind writes: EP_COPY_MEMCPY with memset (the
 * lines end dirty in this core's cache), EP_COPY_NT with non-temporal
 * stores, fenced (the lines leave every cache unread). */
void ep_poison(void *dst, size_t n, enum ep_copy_kind kind);
/* n bytes (at least 1) on a 64-byte line boundary, so records padded to 64
 * bytes never straddle a line; aborts on exhaustion like xmalloc. Free with
 * free(). */
void *ep_alloc_lines(size_t n);

/* MPI-3 shared windows (the shm backends). one_node: whether all ranks of
 * comm share a node (collective); when not, reason says which rank does not.
 * window: a new shared window of comm (noncontiguous) in which every rank
 * has bytes of its own starting on a page boundary; seg (one per rank of
 * comm) gets every rank's segment as this process sees it, and the return
 * value is this rank's. The page boundary matters: Open MPI's osc/sm
 * returns segments that start 8 bytes past a 64-byte line (0x...108), which
 * split every 64-byte record across cache lines and made non-temporal
 * copies into them about 2x slower than into aligned memory. */
bool ep_shm_one_node(MPI_Comm comm, int rank, int size, char *reason, size_t len);
unsigned char *ep_shm_window(MPI_Comm comm, size_t bytes, MPI_Win *win, unsigned char **seg);

/* Whether this process is rank 0 (or runs without a launcher), known from
 * the launcher's environment before MPI starts. */
bool ep_env_rank0(void);
/* Return rc from a command that failed before MPI started, after meeting the
 * other ranks when run under a launcher (so rank 0's message is not lost). */
int ep_usage_done(int rc);

#endif
