/* The worker pool (include/assay/pool.h): a lock, two conditions, tasks
 * taken in number order. Each task's done flag lives in a byte array that
 * grows with the submitted count. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "assay/pool.h"
#include "assay/util.h"

enum { TASK_PENDING = 0, TASK_DONE = 1 };

struct assay_pool {
	assay_pool_fn *fn;
	void *ctx;
	struct assay_pool_opts o;
	size_t ready, next; /* tasks [0, ready) may run; next is the next to start */
	unsigned char *done;
	size_t done_alloc;
	bool closed, cancelled;
	int sleeping; /* pool threads waiting for a task */
	int callers;  /* threads in assay_pool_wait() */
	pthread_mutex_t lock;
	pthread_cond_t more;     /* a task is ready, or the pool closed */
	pthread_cond_t finished; /* a task is done */
	pthread_t *threads;
	int started;
};

struct worker_arg {
	struct assay_pool *p;
	int id;
};

int assay_pool_threads(size_t tasks, int cap)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	long n = cpus > 1 ? cpus : 1;
	if (cap > 0 && n > cap)
		n = cap;
	if ((size_t)n > tasks)
		n = tasks > 0 ? (long)tasks : 1;
	return (int)n;
}

/* Run the next ready task, if any (lock held on entry and on return). */
static bool take(struct assay_pool *p, int worker)
{
	if (p->cancelled || p->next >= p->ready)
		return false;
	size_t i = p->next++;
	pthread_mutex_unlock(&p->lock);
	p->fn(p->ctx, i, worker);
	pthread_mutex_lock(&p->lock);
	p->done[i] = TASK_DONE;
	if (p->callers)
		pthread_cond_broadcast(&p->finished);
	return true;
}

static void *worker_main(void *arg)
{
	struct worker_arg *w = arg;
	struct assay_pool *p = w->p;
	pthread_mutex_lock(&p->lock);
	for (;;) {
		if (take(p, w->id))
			continue;
		if (p->closed || p->cancelled)
			break;
		p->sleeping++;
		pthread_cond_wait(&p->more, &p->lock);
		p->sleeping--;
	}
	pthread_mutex_unlock(&p->lock);
	free(w);
	return NULL;
}

struct assay_pool *assay_pool_start(const struct assay_pool_opts *o, assay_pool_fn *fn, void *ctx)
{
	struct assay_pool *p = xcalloc(1, sizeof(*p));
	p->fn = fn;
	p->ctx = ctx;
	p->o = *o;
	if (p->o.wake < 1)
		p->o.wake = 1;
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->more, NULL);
	pthread_cond_init(&p->finished, NULL);
	/* jansson seeds its hash function on first use; do it before the threads. */
	json_object_seed(0);
	int n = o->threads > 0 ? o->threads : 0;
	p->threads = xcalloc((size_t)n + 1, sizeof(*p->threads));
	for (int t = 0; t < n; t++) {
		struct worker_arg *w = xmalloc(sizeof(*w));
		*w = (struct worker_arg){p, p->started + 1};
		if (pthread_create(&p->threads[p->started], NULL, worker_main, w) != 0) {
			free(w);
			break;
		}
		p->started++;
	}
	/* Without a thread nobody but the caller can run the tasks. */
	if (!p->started)
		p->o.caller_runs = true;
	return p;
}

void assay_pool_submit(struct assay_pool *p, size_t ready)
{
	pthread_mutex_lock(&p->lock);
	if (ready > p->ready) {
		if (ready > p->done_alloc) {
			size_t grow = p->done_alloc < 64 ? 64 : p->done_alloc * 2;
			if (grow < ready)
				grow = ready;
			p->done = xrealloc(p->done, grow);
			memset(p->done + p->done_alloc, TASK_PENDING, grow - p->done_alloc);
			p->done_alloc = grow;
		}
		p->ready = ready;
	}
	/* A wake-up costs about as much as a short task: wake one thread per
	 * o.wake tasks waiting. */
	size_t waiting = p->ready - p->next;
	if (p->sleeping && waiting >= p->o.wake) {
		size_t wake = waiting / p->o.wake;
		if (wake >= (size_t)p->sleeping)
			pthread_cond_broadcast(&p->more);
		else
			while (wake--)
				pthread_cond_signal(&p->more);
	}
	pthread_mutex_unlock(&p->lock);
}

bool assay_pool_wait(struct assay_pool *p, size_t task)
{
	pthread_mutex_lock(&p->lock);
	while (task < p->ready && p->done[task] != TASK_DONE) {
		if (p->o.caller_runs && take(p, 0))
			continue;
		if (p->cancelled && task >= p->next)
			break;
		p->callers++;
		pthread_cond_wait(&p->finished, &p->lock);
		p->callers--;
	}
	bool done = task < p->ready && p->done[task] == TASK_DONE;
	pthread_mutex_unlock(&p->lock);
	return done;
}

bool assay_pool_done(struct assay_pool *p, size_t task)
{
	pthread_mutex_lock(&p->lock);
	bool done = task < p->ready && p->done[task] == TASK_DONE;
	pthread_mutex_unlock(&p->lock);
	return done;
}

void assay_pool_cancel(struct assay_pool *p)
{
	pthread_mutex_lock(&p->lock);
	p->cancelled = true;
	pthread_cond_broadcast(&p->more);
	pthread_cond_broadcast(&p->finished);
	pthread_mutex_unlock(&p->lock);
}

void assay_pool_finish(struct assay_pool *p)
{
	pthread_mutex_lock(&p->lock);
	p->closed = true;
	pthread_cond_broadcast(&p->more);
	pthread_mutex_unlock(&p->lock);
	/* The caller's share; then wait for what the threads still run. */
	if (p->ready)
		assay_pool_wait(p, p->ready - 1);
	for (int t = 0; t < p->started; t++)
		pthread_join(p->threads[t], NULL);
	pthread_cond_destroy(&p->finished);
	pthread_cond_destroy(&p->more);
	pthread_mutex_destroy(&p->lock);
	free(p->threads);
	free(p->done);
	free(p);
}
