/* Helper processes and sessions: capture a short command's output, and list
 * or signal every live process of a session from /proc. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "assay/proc.h"

assay_err assay_proc_capture(const char *const argv[], const char *cwd, struct sbuf *out,
			     int *exit_code, struct assay_error *e)
{
	int fds[2], errp[2];
	*exit_code = 127;
	if (pipe2(fds, O_CLOEXEC) != 0)
		return assay_error_set(e, ASSAY_INFRA, "pipe: %s", strerror(errno));
	if (pipe2(errp, O_CLOEXEC) != 0) {
		close(fds[0]);
		close(fds[1]);
		return assay_error_set(e, ASSAY_INFRA, "pipe: %s", strerror(errno));
	}
	pid_t pid = fork();
	if (pid < 0) {
		int err = errno;
		close(fds[0]);
		close(fds[1]);
		close(errp[0]);
		close(errp[1]);
		return assay_error_set(e, ASSAY_INFRA, "fork: %s", strerror(err));
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);
		if (null >= 0) {
			dup2(null, 0);
			dup2(null, 2);
		}
		dup2(fds[1], 1);
		int err = 0;
		if (cwd && chdir(cwd) != 0)
			err = errno;
		if (!err) {
			execvp(argv[0], (char *const *)argv);
			err = errno;
		}
		if (write(errp[1], &err, sizeof(err)) < 0)
			_exit(127);
		_exit(127);
	}
	close(fds[1]);
	close(errp[1]);
	int child_err = 0;
	ssize_t got;
	do
		got = read(errp[0], &child_err, sizeof(child_err));
	while (got < 0 && errno == EINTR);
	close(errp[0]);
	char buf[4096];
	for (;;) {
		ssize_t n = read(fds[0], buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		sbuf_add(out, buf, (size_t)n);
	}
	close(fds[0]);
	int status;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (got == (ssize_t)sizeof(child_err))
		return assay_error_set(e, ASSAY_INFRA, "cannot run '%s'%s%s: %s", argv[0],
				       cwd ? " in " : "", cwd ? cwd : "", strerror(child_err));
	*exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	return ASSAY_OK;
}

struct proc_entry {
	pid_t pid, ppid, sid;
	unsigned long long start;
	bool member;
};

/* Parse /proc/PID/stat; false when the process is gone or a zombie. */
static bool read_stat(pid_t pid, struct proc_entry *p)
{
	char path[64], buf[1024];
	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	/* pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt
	 * majflt cmajflt utime stime cutime cstime priority nice threads
	 * itrealvalue starttime; comm may hold spaces and ')'. */
	char *s = strrchr(buf, ')');
	char state;
	long ppid, pgrp, session;
	unsigned long long start;
	if (!s || sscanf(s + 1,
			 " %c %ld %ld %ld %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s "
			 "%llu",
			 &state, &ppid, &pgrp, &session, &start) != 5)
		return false;
	if (state == 'Z' || state == 'X')
		return false;
	p->pid = pid;
	p->ppid = (pid_t)ppid;
	p->sid = (pid_t)session;
	p->start = start;
	p->member = false;
	return true;
}

static bool known(const struct assay_proc_set *set, const struct proc_entry *p)
{
	for (size_t i = 0; i < set->n; i++)
		if (set->v[i].pid == p->pid && set->v[i].start == p->start)
			return true;
	return false;
}

size_t assay_proc_track(struct assay_proc_set *set, pid_t sid)
{
	DIR *d = opendir("/proc");
	if (!d)
		return set->n;
	struct proc_entry *all = NULL;
	size_t n = 0, alloc = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		char *end;
		long pid = strtol(de->d_name, &end, 10);
		if (*end || pid <= 0)
			continue;
		ALLOC_GROW(all, n + 1, alloc);
		if (read_stat((pid_t)pid, &all[n]))
			n++;
	}
	closedir(d);
	for (size_t i = 0; i < n; i++)
		all[i].member = all[i].sid == sid || known(set, &all[i]);
	/* Descendants of members, to a fixed point (a tree needs depth rounds). */
	for (bool grew = true; grew;) {
		grew = false;
		for (size_t i = 0; i < n; i++) {
			if (all[i].member)
				continue;
			for (size_t k = 0; k < n; k++) {
				if (all[k].member && all[k].pid == all[i].ppid) {
					all[i].member = grew = true;
					break;
				}
			}
		}
	}
	set->n = 0;
	for (size_t i = 0; i < n; i++) {
		if (!all[i].member)
			continue;
		ALLOC_GROW(set->v, set->n + 1, set->alloc);
		set->v[set->n].pid = all[i].pid;
		set->v[set->n].start = all[i].start;
		set->n++;
	}
	free(all);
	return set->n;
}

size_t assay_proc_signal(const struct assay_proc_set *set, int sig)
{
	size_t sent = 0;
	for (size_t i = 0; i < set->n; i++) {
		/* Check the start time again right before: the pid must still be ours. */
		struct proc_entry p;
		if (read_stat(set->v[i].pid, &p) && p.start == set->v[i].start &&
		    kill(set->v[i].pid, sig) == 0)
			sent++;
	}
	return sent;
}

size_t assay_proc_signal_new(const struct assay_proc_set *set, struct assay_proc_set *done, int sig)
{
	struct assay_proc_set fresh = ASSAY_PROC_SET_INIT;
	for (size_t i = 0; i < set->n; i++) {
		bool seen = false;
		for (size_t k = 0; k < done->n && !seen; k++)
			seen = done->v[k].pid == set->v[i].pid && done->v[k].start == set->v[i].start;
		if (seen)
			continue;
		ALLOC_GROW(fresh.v, fresh.n + 1, fresh.alloc);
		fresh.v[fresh.n++] = set->v[i];
		ALLOC_GROW(done->v, done->n + 1, done->alloc);
		done->v[done->n++] = set->v[i];
	}
	size_t sent = assay_proc_signal(&fresh, sig);
	assay_proc_set_release(&fresh);
	return sent;
}

void assay_proc_set_release(struct assay_proc_set *set)
{
	free(set->v);
	memset(set, 0, sizeof(*set));
}
