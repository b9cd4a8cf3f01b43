/* The one worker pool of assay: tasks numbered 0, 1, 2, ... run on a few
 * threads, started in number order, each exactly once. Every parallel path
 * (detect over a store, ingest's parsing, lint, the report's history) uses
 * it; docs/architecture.md says how.
 *
 * Sizing: assay_pool_threads() counts the online cores. Errors: a task
 * records its own result in the caller's slot for its number; the pool
 * itself cannot fail (a thread that cannot start leaves fewer threads, and
 * with none the caller runs every task while it waits). Stopping:
 * assay_pool_cancel() starts no further task; assay_pool_finish() waits for
 * those started, joins the threads and frees the pool. */
#ifndef ASSAY_POOL_H
#define ASSAY_POOL_H

#include <stdbool.h>
#include <stddef.h>

/* Run task number task. worker is 0 on the thread that created the pool and
 * 1..threads on the pool's own threads (for per-thread buffers). */
typedef void assay_pool_fn(void *ctx, size_t task, int worker);

struct assay_pool_opts {
	int threads;      /* threads the pool starts (0: none; the caller runs tasks) */
	bool caller_runs; /* the caller runs ready tasks while it waits */
	size_t wake;      /* wake a sleeping thread once this many tasks wait (0 or 1: at once) */
};

/* How many threads for tasks: the online cores, at most cap (when cap > 0)
 * and at most tasks, at least 1. */
int assay_pool_threads(size_t tasks, int cap);

/* A pool of o->threads threads running fn(ctx, i, worker) for each task i
 * made ready by assay_pool_submit(). Seeds jansson's hashing first, so that
 * tasks may build JSON. */
struct assay_pool *assay_pool_start(const struct assay_pool_opts *o, assay_pool_fn *fn, void *ctx);

/* Tasks [0, ready) may run (ready never goes down). */
void assay_pool_submit(struct assay_pool *p, size_t ready);

/* Wait until task is done and say true, or false when it will never run (it
 * was not submitted, or the pool was cancelled before it started). With
 * caller_runs the caller runs ready tasks meanwhile. */
bool assay_pool_wait(struct assay_pool *p, size_t task);

/* Whether task is done, without waiting. */
bool assay_pool_done(struct assay_pool *p, size_t task);

/* Start no further task (those running finish). */
void assay_pool_cancel(struct assay_pool *p);

/* Run every submitted task that is not cancelled, join the threads and free
 * the pool. */
void assay_pool_finish(struct assay_pool *p);

#endif
