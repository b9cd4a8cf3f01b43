/* Unit tests for the worker pool (src/lib/util/pool.c): every submitted task
 * runs exactly once on a thread of the pool or the caller, whatever the
 * thread count; tasks submitted one at a time and waited for in order (the
 * ring of assay detect); cancelling starts nothing more; the sizing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "assay/pool.h"

#define NTASKS 2000

struct counts {
	atomic_int runs[NTASKS];
	atomic_int by_worker[9];
	atomic_int bad_worker;
	int threads;
	atomic_int total;
};

static void count_task(void *ctx, size_t task, int worker)
{
	struct counts *c = ctx;
	atomic_fetch_add(&c->runs[task], 1);
	atomic_fetch_add(&c->total, 1);
	if (worker < 0 || worker > c->threads)
		atomic_fetch_add(&c->bad_worker, 1);
	else
		atomic_fetch_add(&c->by_worker[worker], 1);
}

static void run_all(int threads, bool caller_runs, size_t wake)
{
	struct counts *c = calloc(1, sizeof(*c));
	c->threads = threads;
	struct assay_pool_opts o = {threads, caller_runs, wake};
	struct assay_pool *p = assay_pool_start(&o, count_task, c);
	assay_pool_submit(p, NTASKS);
	assay_pool_finish(p);
	for (size_t i = 0; i < NTASKS; i++)
		assert_int_equal(atomic_load(&c->runs[i]), 1);
	assert_int_equal(atomic_load(&c->bad_worker), 0);
	if (!caller_runs && threads > 0)
		assert_int_equal(atomic_load(&c->by_worker[0]), 0);
	if (threads == 0)
		assert_int_equal(atomic_load(&c->by_worker[0]), NTASKS);
	free(c);
}

static void test_every_task_once(void **state)
{
	(void)state;
	for (int t = 0; t <= 8; t++) {
		run_all(t, true, 1);
		run_all(t, false, 1);
		run_all(t, true, 8);
	}
}

/* The detect pattern: submit one task at a time, wait for them in order
 * with a bounded number in flight. */
static void test_ring(void **state)
{
	(void)state;
	struct counts *c = calloc(1, sizeof(*c));
	c->threads = 3;
	struct assay_pool_opts o = {3, true, 8};
	struct assay_pool *p = assay_pool_start(&o, count_task, c);
	size_t waited = 0;
	for (size_t i = 0; i < NTASKS; i++) {
		if (i - waited == 16)
			assert_true(assay_pool_wait(p, waited++));
		assay_pool_submit(p, i + 1);
		while (waited <= i && assay_pool_done(p, waited))
			waited++;
	}
	for (; waited < NTASKS; waited++)
		assert_true(assay_pool_wait(p, waited));
	assay_pool_finish(p);
	for (size_t i = 0; i < NTASKS; i++)
		assert_int_equal(atomic_load(&c->runs[i]), 1);
	free(c);
}

static void never_task(void *ctx, size_t task, int worker)
{
	(void)task;
	(void)worker;
	atomic_fetch_add((atomic_int *)ctx, 1);
}

static void test_wait_unsubmitted(void **state)
{
	(void)state;
	atomic_int n = 0;
	struct assay_pool_opts o = {2, true, 1};
	struct assay_pool *p = assay_pool_start(&o, never_task, &n);
	assert_false(assay_pool_wait(p, 0));
	assert_false(assay_pool_done(p, 5));
	assay_pool_submit(p, 3);
	assert_true(assay_pool_wait(p, 2));
	assay_pool_submit(p, 1); /* never goes down */
	assert_true(assay_pool_wait(p, 2));
	assay_pool_finish(p);
	assert_int_equal(atomic_load(&n), 3);
}

/* Cancelling: the task that cancels runs, nothing submitted after it
 * starts; wait says false for what never ran. */
struct cancel_ctx {
	struct assay_pool *p;
	atomic_int ran[64];
};

static void cancel_task(void *ctx, size_t task, int worker)
{
	(void)worker;
	struct cancel_ctx *c = ctx;
	atomic_fetch_add(&c->ran[task], 1);
	if (task == 10)
		assay_pool_cancel(c->p);
}

static void test_cancel(void **state)
{
	(void)state;
	struct cancel_ctx *c = calloc(1, sizeof(*c));
	struct assay_pool_opts o = {0, true, 1}; /* the caller alone: deterministic */
	c->p = assay_pool_start(&o, cancel_task, c);
	assay_pool_submit(c->p, 64);
	assert_true(assay_pool_wait(c->p, 10));
	assert_false(assay_pool_wait(c->p, 11));
	assert_false(assay_pool_wait(c->p, 63));
	assay_pool_finish(c->p);
	for (size_t i = 0; i < 64; i++)
		assert_int_equal(atomic_load(&c->ran[i]), i <= 10 ? 1 : 0);
	free(c);
}

static void test_threads(void **state)
{
	(void)state;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	assert_int_equal(assay_pool_threads(1, 0), 1);
	assert_int_equal(assay_pool_threads(0, 0), 1);
	assert_int_equal(assay_pool_threads(1000, 1), 1);
	assert_int_equal(assay_pool_threads(1000, 0), cpus > 1 ? cpus : 1);
	assert_true(assay_pool_threads(2, 64) <= 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_every_task_once),  cmocka_unit_test(test_ring),
	    cmocka_unit_test(test_wait_unsubmitted), cmocka_unit_test(test_cancel),
	    cmocka_unit_test(test_threads),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
