/* -T: nccl-tests' timeout. A watchdog thread wakes every 50 ms; when the
 * call in progress started more than -T seconds ago (a peer that never
 * comes), it prints nccl-tests' "HOST: Test timeout (Ns)" line and ends the
 * process with exit 5 (mpirun then ends the job). A call costs two atomic
 * stores. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "assay/util.h"
#include "coll.h"

static _Atomic long long busy_since; /* ms on the monotonic clock; 0 idle */
static long long limit_ms;

static long long now_ms(void)
{
	return (long long)(assay_monotonic() * 1e3) + 1; /* never 0 */
}

static void *watch(void *arg)
{
	(void)arg;
	for (;;) {
		struct timespec ts = {0, 50 * 1000 * 1000};
		nanosleep(&ts, NULL);
		long long since = atomic_load_explicit(&busy_since, memory_order_relaxed);
		if (since && now_ms() - since > limit_ms) {
			char host[256] = "";
			gethostname(host, sizeof(host) - 1);
			printf("%s: Test timeout (%llds) assay-coll\n", host, limit_ms / 1000);
			fflush(stdout);
			_exit(ASSAY_INFRA);
		}
	}
	return NULL;
}

void coll_watch_start(long long secs)
{
	if (secs <= 0)
		return;
	limit_ms = secs * 1000;
	pthread_t th;
	if (pthread_create(&th, NULL, watch, NULL) == 0)
		pthread_detach(th);
	else
		ep_die(ASSAY_INFRA, "cannot start the -T watchdog thread");
}

void coll_watch_enter(void)
{
	if (limit_ms)
		atomic_store_explicit(&busy_since, now_ms(), memory_order_relaxed);
}

void coll_watch_leave(void)
{
	if (limit_ms)
		atomic_store_explicit(&busy_since, 0, memory_order_relaxed);
}
