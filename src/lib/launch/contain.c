/* Containment of a local case: a cgroup of its own (v2, else the v1 freezer
 * or pids hierarchy), else assay as child subreaper; listing, freezing and
 * killing its members; and ending what a killed assay left behind, from
 * what the run recorded in the store. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "assay/contain.h"

#define CGROUP2_MAGIC 0x63677270
#define CGROUP1_MAGIC 0x27e0eb

const char *assay_contain_kind_name(enum assay_contain_kind k)
{
	switch (k) {
	case ASSAY_CONTAIN_CGROUP2: return "cgroup2";
	case ASSAY_CONTAIN_FREEZER: return "freezer";
	case ASSAY_CONTAIN_PIDS: return "pids";
	case ASSAY_CONTAIN_SUBREAPER: return "subreaper";
	default: return "none";
	}
}

static enum assay_contain_kind kind_from_name(const char *s)
{
	for (int k = ASSAY_CONTAIN_CGROUP2; k <= ASSAY_CONTAIN_SUBREAPER; k++)
		if (s && !strcmp(s, assay_contain_kind_name((enum assay_contain_kind)k)))
			return (enum assay_contain_kind)k;
	return ASSAY_CONTAIN_NONE;
}

static void sleep_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
	nanosleep(&ts, NULL);
}

static bool is_fs(const char *path, long magic)
{
	struct statfs st;
	return statfs(path, &st) == 0 && (long)st.f_type == magic;
}

/* Our own path in hierarchy `controller` ("" for v2) from /proc/self/cgroup. */
static bool own_path(const char *controller, char *out, size_t n)
{
	FILE *f = fopen("/proc/self/cgroup", "r");
	if (!f)
		return false;
	char line[4096];
	bool found = false;
	while (!found && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		char *c1 = strchr(line, ':');
		char *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
		if (!c2)
			continue;
		*c1 = *c2 = '\0';
		const char *ctrls = c1 + 1;
		if (!controller[0]) {
			found = !strcmp(line, "0") && !ctrls[0];
		} else {
			/* "freezer" or a list such as "cpu,cpuacct" */
			size_t cl = strlen(controller);
			for (const char *p = ctrls; *p && !found;) {
				size_t k = strcspn(p, ",");
				found = k == cl && !strncmp(p, controller, cl);
				p += k + (p[k] == ',');
			}
		}
		if (found)
			snprintf(out, n, "%s", strcmp(c2 + 1, "/") ? c2 + 1 : "");
	}
	fclose(f);
	return found;
}

/* The directory new groups of kind k go under, or false. */
static bool base_dir(enum assay_contain_kind k, char *out, size_t n)
{
	char own[3072];
	const char *mount = NULL;
	if (k == ASSAY_CONTAIN_CGROUP2) {
		if (is_fs("/sys/fs/cgroup", CGROUP2_MAGIC))
			mount = "/sys/fs/cgroup";
		else if (is_fs("/sys/fs/cgroup/unified", CGROUP2_MAGIC))
			mount = "/sys/fs/cgroup/unified";
		if (!mount || !own_path("", own, sizeof(own)))
			return false;
	} else {
		const char *ctl = k == ASSAY_CONTAIN_FREEZER ? "freezer" : "pids";
		mount =
		    k == ASSAY_CONTAIN_FREEZER ? "/sys/fs/cgroup/freezer" : "/sys/fs/cgroup/pids";
		if (!is_fs(mount, CGROUP1_MAGIC) || !own_path(ctl, own, sizeof(own)))
			return false;
	}
	snprintf(out, n, "%s%s", mount, own);
	return true;
}

static int write_str(const char *dir, const char *file, const char *text)
{
	char path[4200];
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return errno;
	size_t len = strlen(text);
	int err = write(fd, text, len) == (ssize_t)len ? 0 : errno;
	close(fd);
	return err;
}

static bool read_str(const char *dir, const char *file, char *buf, size_t n)
{
	char path[4200];
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	ssize_t got = read(fd, buf, n - 1);
	close(fd);
	if (got < 0)
		return false;
	buf[got] = '\0';
	return true;
}

int assay_contain_join(const struct assay_contain *c)
{
	if (!c->path[0])
		return 0;
	/* Writing "0" moves the writer: no formatting needed after fork. */
	return write_str(c->path, "cgroup.procs", "0");
}

/* Can a process join it? A throw-away child tries. */
static bool joinable(const struct assay_contain *c)
{
	pid_t pid = fork();
	if (pid < 0)
		return false;
	if (pid == 0)
		_exit(assay_contain_join(c) ? 1 : 0);
	int st;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

/* Groups an assay that is gone left empty (killed after making one and
 * before its case ran): removed. A group with members is never removed
 * (rmdir refuses), so a resume still finds what a killed case left. */
static void sweep(const char *base)
{
	DIR *d = opendir(base);
	if (!d)
		return;
	struct dirent *de;
	while ((de = readdir(d))) {
		long pid;
		unsigned seq;
		char tail;
		if (sscanf(de->d_name, "assay-%ld-%u%c", &pid, &seq, &tail) != 2 || pid <= 0 ||
		    pid == (long)getpid() || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		char path[4400];
		snprintf(path, sizeof(path), "%s/%s", base, de->d_name);
		rmdir(path);
	}
	closedir(d);
}

static bool try_kind(struct assay_contain *c, enum assay_contain_kind k, const char *name)
{
	char base[3600];
	static bool swept[ASSAY_CONTAIN_SUBREAPER + 1];
	if (base_dir(k, base, sizeof(base)) && !swept[k]) {
		swept[k] = true;
		sweep(base);
	}
	if (!base_dir(k, base, sizeof(base))) {
		snprintf(c->why + strlen(c->why), sizeof(c->why) - strlen(c->why),
			 "%s%s: not mounted", c->why[0] ? "; " : "", assay_contain_kind_name(k));
		return false;
	}
	c->kind = k;
	snprintf(c->path, sizeof(c->path), "%s/%s", base, name);
	if (mkdir(c->path, 0755) != 0 && errno != EEXIST) {
		snprintf(c->why + strlen(c->why), sizeof(c->why) - strlen(c->why),
			 "%s%s: cannot create %s: %s", c->why[0] ? "; " : "",
			 assay_contain_kind_name(k), c->path, strerror(errno));
		c->path[0] = '\0';
		return false;
	}
	if (!joinable(c)) {
		snprintf(c->why + strlen(c->why), sizeof(c->why) - strlen(c->why),
			 "%s%s: cannot move a process into %s", c->why[0] ? "; " : "",
			 assay_contain_kind_name(k), c->path);
		rmdir(c->path);
		c->path[0] = '\0';
		return false;
	}
	return true;
}

void assay_contain_create(struct assay_contain *c, const char *name)
{
	memset(c, 0, sizeof(*c));
	enum assay_contain_kind want = kind_from_name(getenv("ASSAY_CONTAIN"));
	for (int k = ASSAY_CONTAIN_CGROUP2; k < ASSAY_CONTAIN_SUBREAPER; k++) {
		if (want && (int)want != k)
			continue;
		if (try_kind(c, (enum assay_contain_kind)k, name))
			return;
	}
	c->kind = ASSAY_CONTAIN_SUBREAPER;
	c->path[0] = '\0';
	if (prctl(PR_SET_CHILD_SUBREAPER, 1) != 0)
		c->kind = ASSAY_CONTAIN_NONE;
}

size_t assay_contain_members(const struct assay_contain *c, struct assay_proc_set *out)
{
	out->n = 0;
	if (!c->path[0])
		return 0;
	char path[4200];
	snprintf(path, sizeof(path), "%s/cgroup.procs", c->path);
	FILE *f = fopen(path, "re");
	if (!f)
		return 0;
	long pid;
	while (fscanf(f, "%ld", &pid) == 1) {
		unsigned long long start;
		if (!assay_proc_start((pid_t)pid, &start))
			continue; /* gone, or a zombie */
		ALLOC_GROW(out->v, out->n + 1, out->alloc);
		out->v[out->n].pid = (pid_t)pid;
		out->v[out->n].start = start;
		out->n++;
	}
	fclose(f);
	return out->n;
}

/* Freeze (v2: cgroup.freeze; v1: freezer.state) and wait until it holds. */
static void freeze(const struct assay_contain *c, bool on)
{
	char buf[256];
	if (c->kind == ASSAY_CONTAIN_CGROUP2) {
		write_str(c->path, "cgroup.freeze", on ? "1" : "0");
		for (int i = 0; on && i < 100; i++) {
			if (read_str(c->path, "cgroup.events", buf, sizeof(buf)) &&
			    strstr(buf, "frozen 1"))
				break;
			sleep_ms(5);
		}
	} else if (c->kind == ASSAY_CONTAIN_FREEZER) {
		write_str(c->path, "freezer.state", on ? "FROZEN" : "THAWED");
		for (int i = 0; on && i < 100; i++) {
			if (read_str(c->path, "freezer.state", buf, sizeof(buf)) &&
			    !strncmp(buf, "FROZEN", 6))
				break;
			sleep_ms(5);
		}
	}
}

size_t assay_contain_kill(const struct assay_contain *c)
{
	if (!c->path[0])
		return 0;
	struct assay_proc_set m = ASSAY_PROC_SET_INIT;
	size_t sent = 0;
	if (c->kind == ASSAY_CONTAIN_PIDS)
		write_str(c->path, "pids.max", "0"); /* no more forks */
	freeze(c, true);
	/* A few rounds: a pids group cannot be frozen, and a fork in flight
	 * may land a moment later. */
	for (int round = 0; round < 5 && assay_contain_members(c, &m); round++) {
		sent += assay_proc_signal(&m, SIGKILL);
		if (c->kind == ASSAY_CONTAIN_CGROUP2)
			write_str(c->path, "cgroup.kill", "1");
		if (c->kind != ASSAY_CONTAIN_PIDS)
			break;
		sleep_ms(10);
	}
	freeze(c, false);
	if (c->kind == ASSAY_CONTAIN_PIDS)
		write_str(c->path, "pids.max", "max");
	assay_proc_set_release(&m);
	return sent;
}

bool assay_contain_remove(const struct assay_contain *c)
{
	if (!c->path[0])
		return true;
	return rmdir(c->path) == 0 || errno == ENOENT;
}

void assay_boot_id(char out[64])
{
	out[0] = '\0';
	int fd = open("/proc/sys/kernel/random/boot_id", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	ssize_t n = read(fd, out, 63);
	close(fd);
	out[n > 0 ? n : 0] = '\0';
	out[strcspn(out, "\n")] = '\0';
}

size_t assay_contain_end_record(const struct assay_proc_record *r, struct sbuf *report)
{
	char host[256], boot[64];
	if (gethostname(host, sizeof(host)) != 0)
		snprintf(host, sizeof(host), "localhost");
	host[sizeof(host) - 1] = '\0';
	assay_boot_id(boot);
	if ((r->host && strcmp(r->host, host)) ||
	    (r->boot_id && r->boot_id[0] && boot[0] && strcmp(r->boot_id, boot))) {
		sbuf_addf(report, "not on this machine (host %s%s): not checked",
			  r->host ? r->host : "?",
			  r->host && !strcmp(r->host, host) ? ", another boot" : "");
		return 0;
	}
	size_t killed = 0;
	struct assay_contain c;
	memset(&c, 0, sizeof(c));
	c.kind = kind_from_name(r->contain);
	struct stat st;
	if (r->cgroup && r->cgroup[0] && stat(r->cgroup, &st) == 0 && S_ISDIR(st.st_mode)) {
		snprintf(c.path, sizeof(c.path), "%s", r->cgroup);
		struct assay_proc_set m = ASSAY_PROC_SET_INIT;
		for (int i = 0; i < 100 && assay_contain_members(&c, &m); i++) {
			size_t k = assay_contain_kill(&c);
			killed = killed ? killed : k; /* later rounds see the same dying ones */
			sleep_ms(20);
		}
		assay_proc_set_release(&m);
		assay_contain_remove(&c);
		sbuf_addf(report, "%zu process(es) in cgroup %s", killed, r->cgroup);
		return killed;
	}
	if (r->pid > 0) {
		struct assay_proc_set m = ASSAY_PROC_SET_INIT;
		for (int i = 0; i < 100 && assay_proc_session(r->pid, r->start, &m); i++) {
			size_t k = assay_proc_signal(&m, SIGKILL);
			killed = killed ? killed : k;
			sleep_ms(20);
		}
		assay_proc_set_release(&m);
		sbuf_addf(report, "%zu process(es) of session %ld", killed, (long)r->pid);
	}
	return killed;
}
