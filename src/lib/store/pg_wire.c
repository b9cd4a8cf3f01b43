/* Bounded waits on the PostgreSQL connection: the connection is
 * non-blocking, and every round trip (a query, a COPY's data and its end)
 * waits for the socket with poll() until a deadline, so a server that stops
 * answering (frozen, or cut off without a reset) is an error after the
 * statement timeout and a margin, never a hang. */
#include <errno.h>
#include <poll.h>
#include <time.h>

#include "pg_int.h"

static long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Wait for the socket (events) until deadline: 1 ready, 0 timed out, -1 failed. */
static int wait_socket(PGconn *pg, short events, long long deadline)
{
	for (;;) {
		long long left = deadline - now_ms();
		if (left <= 0)
			return 0;
		struct pollfd p = {.fd = PQsocket(pg), .events = events};
		if (p.fd < 0)
			return -1;
		int n = poll(&p, 1, left > 60000 ? 60000 : (int)left);
		if (n > 0)
			return 1;
		if (n < 0 && errno != EINTR)
			return -1;
	}
}

/* Send what libpq holds: 0, or -1 with *why set. */
static int flush_all(PGconn *pg, long long deadline, const char **why)
{
	int f;
	while ((f = PQflush(pg)) == 1) {
		int w = wait_socket(pg, POLLOUT | POLLIN, deadline);
		if (w <= 0 || !PQconsumeInput(pg)) {
			*why = w == 0 ? "the server did not take the request in time" : NULL;
			return -1;
		}
	}
	if (f < 0)
		*why = NULL;
	return f < 0 ? -1 : 0;
}

/* Wait until libpq has a whole result to give. */
static int wait_result(PGconn *pg, long long deadline, const char **why)
{
	while (PQisBusy(pg)) {
		int w = wait_socket(pg, POLLIN, deadline);
		if (w == 0) {
			*why = "the server did not answer in time";
			return -1;
		}
		if (w < 0 || !PQconsumeInput(pg)) {
			*why = NULL;
			return -1;
		}
	}
	return 0;
}

PGresult *pg_wire_answer(PGconn *pg, long ms, const char **why)
{
	long long deadline = now_ms() + ms;
	*why = NULL;
	if (flush_all(pg, deadline, why) != 0)
		return NULL;
	PGresult *keep = NULL;
	for (;;) {
		if (wait_result(pg, deadline, why) != 0) {
			PQclear(keep);
			return NULL;
		}
		PGresult *r = PQgetResult(pg);
		if (!r)
			break;
		ExecStatusType st = PQresultStatus(r);
		/* The first failure is the one to report; a COPY waits for its rows. */
		if (keep && PQresultStatus(keep) == PGRES_FATAL_ERROR) {
			PQclear(r);
		} else {
			PQclear(keep);
			keep = r;
		}
		if (st == PGRES_COPY_IN || st == PGRES_COPY_OUT)
			break;
	}
	return keep;
}

int pg_wire_copy(PGconn *pg, const char *buf, size_t len, long ms, const char **why)
{
	long long deadline = now_ms() + ms;
	*why = NULL;
	size_t off = 0;
	while (off < len) {
		size_t n = len - off > (1u << 20) ? (1u << 20) : len - off;
		int rc = PQputCopyData(pg, buf + off, (int)n);
		if (rc < 0)
			return -1;
		if (rc == 0) { /* libpq's buffer is full: wait until it can send */
			if (flush_all(pg, deadline, why) != 0)
				return -1;
			continue;
		}
		off += n;
	}
	return flush_all(pg, deadline, why);
}
