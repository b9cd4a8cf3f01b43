/* Helper processes and sessions: capture a short command's output (and its
 * stderr), and list or signal every live process of a session from /proc. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "assay/proc.h"

/* Read both pipes until both are closed (either may be -1). */
static void read_both(int out_fd, int err_fd, struct sbuf *out, struct sbuf *err)
{
	int fds[2] = {out_fd, err_fd};
	struct sbuf *dst[2] = {out, err};
	char buf[4096];
	while (fds[0] >= 0 || fds[1] >= 0) {
		struct pollfd p[2];
		nfds_t n = 0;
		for (int i = 0; i < 2; i++)
			if (fds[i] >= 0)
				p[n++] = (struct pollfd){fds[i], POLLIN, 0};
		if (poll(p, n, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (nfds_t k = 0; k < n; k++) {
			if (!p[k].revents)
				continue;
			int i = p[k].fd == fds[0] ? 0 : 1;
			ssize_t got = read(fds[i], buf, sizeof(buf));
			if (got < 0 && errno == EINTR)
				continue;
			if (got <= 0) {
				close(fds[i]);
				fds[i] = -1;
			} else if (dst[i]) {
				sbuf_add(dst[i], buf, (size_t)got);
			}
		}
	}
	for (int i = 0; i < 2; i++)
		if (fds[i] >= 0)
			close(fds[i]);
}

assay_err assay_proc_output(const char *const argv[], const char *cwd, struct sbuf *out,
			    struct sbuf *err, int *exit_code, struct assay_error *e)
{
	int fds[2] = {-1, -1}, efds[2] = {-1, -1}, errp[2] = {-1, -1};
	*exit_code = 127;
	if (pipe2(fds, O_CLOEXEC) != 0 || pipe2(errp, O_CLOEXEC) != 0 ||
	    (err && pipe2(efds, O_CLOEXEC) != 0)) {
		int saved = errno;
		for (int i = 0; i < 2; i++) {
			if (fds[i] >= 0)
				close(fds[i]);
			if (errp[i] >= 0)
				close(errp[i]);
		}
		return assay_error_set(e, ASSAY_INFRA, "pipe: %s", strerror(saved));
	}
	pid_t pid = fork();
	if (pid < 0) {
		int saved = errno;
		close(fds[0]);
		close(fds[1]);
		close(errp[0]);
		close(errp[1]);
		if (err) {
			close(efds[0]);
			close(efds[1]);
		}
		return assay_error_set(e, ASSAY_INFRA, "fork: %s", strerror(saved));
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);
		if (null >= 0) {
			dup2(null, 0);
			dup2(null, 2);
		}
		dup2(fds[1], 1);
		if (err)
			dup2(efds[1], 2);
		int cerr = 0;
		if (cwd && chdir(cwd) != 0)
			cerr = errno;
		if (!cerr) {
			execvp(argv[0], (char *const *)argv);
			cerr = errno;
		}
		if (write(errp[1], &cerr, sizeof(cerr)) < 0)
			_exit(127);
		_exit(127);
	}
	close(fds[1]);
	close(errp[1]);
	if (err)
		close(efds[1]);
	int child_err = 0;
	ssize_t got;
	do
		got = read(errp[0], &child_err, sizeof(child_err));
	while (got < 0 && errno == EINTR);
	close(errp[0]);
	read_both(fds[0], efds[0], out, err);
	int status;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (got == (ssize_t)sizeof(child_err))
		return assay_error_set(e, ASSAY_INFRA, "cannot run '%s'%s%s: %s", argv[0],
				       cwd ? " in " : "", cwd ? cwd : "", strerror(child_err));
	*exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	return ASSAY_OK;
}

assay_err assay_proc_capture(const char *const argv[], const char *cwd, struct sbuf *out,
			     int *exit_code, struct assay_error *e)
{
	return assay_proc_output(argv, cwd, out, NULL, exit_code, e);
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
	if (!s ||
	    sscanf(s + 1,
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

bool assay_proc_start(pid_t pid, unsigned long long *start)
{
	struct proc_entry p;
	if (!read_stat(pid, &p))
		return false;
	*start = p.start;
	return true;
}

/* Every live process of /proc; *n gets how many. */
static struct proc_entry *list_all(size_t *n)
{
	DIR *d = opendir("/proc");
	*n = 0;
	if (!d)
		return NULL;
	struct proc_entry *all = NULL;
	size_t alloc = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		char *end;
		long pid = strtol(de->d_name, &end, 10);
		if (*end || pid <= 0)
			continue;
		ALLOC_GROW(all, *n + 1, alloc);
		if (read_stat((pid_t)pid, &all[*n]))
			(*n)++;
	}
	closedir(d);
	return all;
}

size_t assay_proc_session(pid_t sid, unsigned long long since, struct assay_proc_set *out)
{
	size_t n;
	struct proc_entry *all = list_all(&n);
	out->n = 0;
	for (size_t i = 0; i < n; i++) {
		if (all[i].sid != sid || all[i].start < since)
			continue;
		ALLOC_GROW(out->v, out->n + 1, out->alloc);
		out->v[out->n].pid = all[i].pid;
		out->v[out->n].start = all[i].start;
		out->n++;
	}
	free(all);
	return out->n;
}

size_t assay_proc_track(struct assay_proc_set *set, pid_t sid)
{
	return assay_proc_track_adopted(set, sid, 0, 0);
}

size_t assay_proc_track_adopted(struct assay_proc_set *set, pid_t sid, pid_t parent,
				unsigned long long since)
{
	size_t n;
	struct proc_entry *all = list_all(&n);
	if (!all)
		return set->n;
	for (size_t i = 0; i < n; i++)
		all[i].member = all[i].sid == sid || known(set, &all[i]) ||
				(parent > 0 && all[i].ppid == parent && all[i].start >= since);
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
			seen =
			    done->v[k].pid == set->v[i].pid && done->v[k].start == set->v[i].start;
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
