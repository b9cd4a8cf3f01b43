/* Processes: run a helper command and capture its output (git, mpirun
 * --version), and find or signal every process of a session, which is how
 * assay makes sure no process of a case outlives it. */
#ifndef ASSAY_PROC_H
#define ASSAY_PROC_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "assay/error.h"
#include "assay/util.h"

/* Run argv (NULL-terminated, looked up in PATH) in cwd (NULL: here), stdin
 * from /dev/null, stderr discarded; append its stdout to out and set
 * *exit_code (-1 when killed by a signal). ASSAY_INFRA when it cannot be
 * started (*exit_code 127). */
assay_err assay_proc_capture(const char *const argv[], const char *cwd, struct sbuf *out,
			     int *exit_code, struct assay_error *e);
/* The same with stderr appended to err (NULL: discarded). */
assay_err assay_proc_output(const char *const argv[], const char *cwd, struct sbuf *out,
			    struct sbuf *err, int *exit_code, struct assay_error *e);

/* The processes of one case: its session, plus every process seen in it or
 * descended from one (which catches a child that started a session of its
 * own). Members are kept with their start time, so a reused pid is never
 * mistaken for a member. */
struct assay_proc_id {
	pid_t pid;
	unsigned long long start; /* clock ticks after boot, /proc/PID/stat field 22 */
};
struct assay_proc_set {
	struct assay_proc_id *v;
	size_t n, alloc;
};
#define ASSAY_PROC_SET_INIT                                                                        \
	{                                                                                          \
		NULL, 0, 0                                                                         \
	}
/* Re-read /proc: keep the live members, add every live process in session
 * sid or whose parent is a member. Returns how many members are alive. */
size_t assay_proc_track(struct assay_proc_set *set, pid_t sid);
/* The same, and also adopt every live child of parent (assay itself, as
 * the cases' subreaper: orphans of the case are reparented to it) that
 * started at or after since (clock ticks after boot). */
size_t assay_proc_track_adopted(struct assay_proc_set *set, pid_t sid, pid_t parent,
				unsigned long long since);
/* The live processes of session sid that started at or after since, into
 * out (replacing its contents). */
size_t assay_proc_session(pid_t sid, unsigned long long since, struct assay_proc_set *out);
/* The start time of a live process (false when gone or a zombie). */
bool assay_proc_start(pid_t pid, unsigned long long *start);
/* Send sig to every member (after assay_proc_track); returns how many. */
size_t assay_proc_signal(const struct assay_proc_set *set, int sig);
/* Send sig to the members of set not in done yet, and add them to done:
 * processes started after a first SIGTERM get theirs too. */
size_t assay_proc_signal_new(const struct assay_proc_set *set, struct assay_proc_set *done,
			     int sig);
void assay_proc_set_release(struct assay_proc_set *set);

#endif
