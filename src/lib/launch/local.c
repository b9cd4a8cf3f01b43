/* The local launcher: one case = one new session in a cgroup of its own
 * (include/assay/contain.h), stdout/stderr captured through pipes,
 * redacted, written to the case folder and handed to the watcher; timeout
 * and cancel stop the whole group (SIGTERM, then freeze and SIGKILL after
 * the grace period), and leftovers are stopped when the command ends. A
 * case with a podman/docker container runs `RUNTIME run --rm --name ...`,
 * and every stop also reaches the container by name (kill, then rm -f). */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "assay/contain.h"
#include "assay/container.h"
#include "assay/json.h"
#include "assay/launch.h"
#include "assay/proc.h"

extern char **environ;

int assay_launch_local_parse(struct assay_cfg *c, const json_t *opts, const char *path,
			     struct assay_launcher **out);

struct local_launcher {
	struct assay_launcher base;
	struct assay_local_opts o;
	int openmpi; /* -1: not asked yet */
};

static const char *const stream_names[2] = {"stdout", "stderr"};

struct local_job {
	struct local_launcher *l;
	char *case_id, *dir, *cwd;
	struct strlist argv, env;
	double timeout_s;
	const struct assay_redactor *redact;
	assay_output_fn on_output;
	assay_record_fn on_record;
	void *ctx;

	struct assay_contain cg;      /* the case's cgroup (or the subreaper fallback) */
	unsigned long long pid_start; /* the first process's start time */
	pid_t pid;                    /* also the session id */
	struct assay_proc_set procs;  /* every process of the case seen so far */
	struct assay_proc_set termed; /* those sent SIGTERM */
	double tracked_at;
	int pipe_fd[2], log_fd[2];
	struct assay_redact_stream rs[2];
	double start, term_at, end_time;
	bool started, killed, reaped, done;
	int status;
	enum assay_job_end forced;
	char start_error[512];
	/* A podman/docker container: its runtime and name (ctr_name NULL: none). */
	enum assay_ctr_runtime ctr_rt;
	char *ctr_name;
	bool ctr_gone;
};

/* struct assay_job is opaque to callers; ours is a local_job. */
struct assay_job {
	struct local_job j;
};

static struct local_job *J(const struct assay_job *job)
{
	return (struct local_job *)&job->j;
}

/* The case's ranks under mpirun (inner: the command with its starter). */
static void mpi_command(struct local_launcher *l, const struct assay_launch_spec *s,
			struct strlist *inner)
{
	if (l->openmpi < 0) {
		const char *starter = l->o.mpirun.n ? l->o.mpirun.v[0] : "mpirun";
		l->openmpi = assay_mpi_is_openmpi(starter);
	}
	/* Each rank's output apart (a per-rank expectation): Open MPI's
	 * DIR/<job>/rank.N/stdout|stderr, DIR = <case>/ranks. */
	struct assay_local_opts o = l->o;
	struct strlist args = STRLIST_INIT;
	if (s->per_task_logs && l->openmpi) {
		for (size_t i = 0; i < l->o.mpirun_args.n; i++)
			strlist_push(&args, l->o.mpirun_args.v[i]);
		char cwd[4096];
		char *ranks = s->dir[0] == '/' || !getcwd(cwd, sizeof(cwd))
				  ? xasprintf("%s/ranks", s->dir)
				  : xasprintf("%s/%s/ranks", cwd, s->dir);
		strlist_push(&args, "--output-filename");
		strlist_push(&args, ranks);
		free(ranks);
		o.mpirun_args = args;
	}
	assay_mpi_command(&o, l->openmpi, s->mpi_ranks, s->argv, inner);
	strlist_clear(&args);
}

/* A podman/docker container: j->argv runs inner (cleared) in it, all ranks
 * in one container (mpirun runs inside it). Variables and secrets cross by
 * name; their values stay in podman's environment. */
static void in_container(struct local_job *j, const struct assay_launch_spec *s,
			 struct strlist *inner)
{
	struct sbuf name = SBUF_INIT;
	struct strlist names = STRLIST_INIT;
	assay_container_name(s->run_id ? s->run_id : "run", s->case_id, s->attempt, &name);
	for (size_t i = 0; s->env && i < s->env->n; i++) {
		const char *eq = strchr(s->env->v[i], '=');
		char *n =
		    xstrndup(s->env->v[i], eq ? (size_t)(eq - s->env->v[i]) : strlen(s->env->v[i]));
		strlist_push(&names, n);
		free(n);
	}
	for (size_t i = 0; s->redact && i < s->redact->n; i++)
		if (!strlist_has(&names, s->redact->v[i].name))
			strlist_push(&names, s->redact->v[i].name);
	j->ctr_rt = s->container->runtime;
	j->ctr_name = sbuf_detach(&name, NULL);
	char cwd[4096];
	char *abs_dir = j->dir[0] == '/' || !getcwd(cwd, sizeof(cwd))
			    ? xstrdup(j->dir)
			    : xasprintf("%s/%s", cwd, j->dir);
	assay_container_run_argv(s->container, j->ctr_name, s->run_id ? s->run_id : "run",
				 s->case_id, abs_dir, &names, inner, &j->argv);
	free(abs_dir);
	strlist_clear(&names);
	strlist_clear(inner);
}

static assay_err prepare(struct assay_launcher *base, const struct assay_launch_spec *s,
			 struct assay_job **out, struct assay_error *e)
{
	struct local_launcher *l = (struct local_launcher *)base;
	if (!s->argv || !s->argv->n)
		return assay_error_set(e, ASSAY_USAGE, "%s: empty command", s->case_id);
	if (s->container && s->container->on && s->container->runtime == ASSAY_CTR_PYXIS)
		return assay_error_set(
		    e, ASSAY_USAGE,
		    "case %s: container runtime pyxis is a Slurm plugin; run the "
		    "suite with the slurm launcher, or use podman or docker",
		    s->case_id);
	struct assay_job *job = xcalloc(1, sizeof(*job));
	struct local_job *j = J(job);
	j->l = l;
	j->case_id = xstrdup(s->case_id);
	j->dir = xstrdup(s->dir);
	j->cwd = s->cwd ? xstrdup(s->cwd) : NULL;
	j->timeout_s = s->timeout_s;
	j->redact = s->redact;
	j->on_output = s->on_output;
	j->on_record = s->on_record;
	j->ctx = s->ctx;
	j->pid = -1;
	for (int i = 0; i < 2; i++)
		j->pipe_fd[i] = j->log_fd[i] = -1;
	struct strlist inner = STRLIST_INIT;
	if (s->mpi_ranks > 0) {
		mpi_command(l, s, &inner);
	} else {
		for (size_t i = 0; i < s->argv->n; i++)
			strlist_push(&inner, s->argv->v[i]);
	}
	if (assay_container_is_local(s->container)) {
		in_container(j, s, &inner);
	} else if (s->container && s->container->on && s->container->runtime != ASSAY_CTR_PYXIS) {
		/* enroot, apptainer: the same wrapper a Slurm step gets. */
		struct strlist names = STRLIST_INIT;
		for (size_t i = 0; s->redact && i < s->redact->n; i++)
			strlist_push(&names, s->redact->v[i].name);
		assay_container_wrap_argv(s->container, j->dir, &names, &inner, &j->argv);
		strlist_clear(&names);
		strlist_clear(&inner);
	} else {
		j->argv = inner;
	}
	for (size_t i = 0; s->env && i < s->env->n; i++)
		strlist_push(&j->env, s->env->v[i]);
	*out = job;
	return ASSAY_OK;
}

static void describe(const struct assay_job *job, struct sbuf *out)
{
	const struct local_job *j = J(job);
	if (j->cwd) {
		sbuf_adds(out, "cd ");
		struct strlist one = STRLIST_INIT;
		strlist_push(&one, j->cwd);
		assay_command_line(NULL, &one, j->redact, out);
		strlist_clear(&one);
		sbuf_adds(out, " && ");
	}
	assay_command_line(&j->env, &j->argv, j->redact, out);
	sbuf_addch(out, '\n');
	sbuf_addf(out, "  logs: %s/stdout.log, %s/stderr.log", j->dir, j->dir);
	if (j->timeout_s > 0)
		sbuf_addf(out, "; timeout %g s (then SIGTERM, SIGKILL after %g s)", j->timeout_s,
			  j->l->o.grace_s);
	sbuf_addch(out, '\n');
}

/* The child's environment: ours, with the spec's NAME=VALUE entries set. */
static char **make_envp(const struct strlist *env)
{
	size_t n = 0;
	while (environ[n])
		n++;
	char **envp = xcalloc(n + env->n + 1, sizeof(*envp));
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		const char *eq = strchr(environ[i], '=');
		size_t nl = eq ? (size_t)(eq - environ[i]) : strlen(environ[i]);
		bool overridden = false;
		for (size_t m = 0; m < env->n && !overridden; m++)
			overridden = !strncmp(env->v[m], environ[i], nl) && env->v[m][nl] == '=';
		if (!overridden)
			envp[k++] = environ[i];
	}
	for (size_t m = 0; m < env->n; m++)
		envp[k++] = env->v[m];
	envp[k] = NULL;
	return envp;
}

static int open_log(const char *dir, const char *name, struct assay_error *e)
{
	char *path = xasprintf("%s/%s.log", dir, name);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		assay_error_at(e, ASSAY_INFRA, path, NULL, 0, "cannot write: %s", strerror(errno));
	free(path);
	return fd;
}

/* In the child, after fork: become a session of our own, die with assay,
 * and run the command. Only async-signal-safe calls until exec. */
static void child(struct local_job *j, int out_w, int err_w, int errp, int go, pid_t parent,
		  char **envp)
{
	int err = 0;
	if (setsid() < 0)
		err = errno;
	if (!err)
		err = assay_contain_join(&j->cg);
	/* If assay dies (even by SIGKILL) the command gets SIGTERM, and mpirun
	 * takes its ranks down with it. */
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (getppid() != parent)
		_exit(127);
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGPIPE, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	int null = open("/dev/null", O_RDONLY);
	if (null >= 0 && null != 0) {
		dup2(null, 0);
		close(null);
	}
	dup2(out_w, 1);
	dup2(err_w, 2);
	if (!err && j->cwd && chdir(j->cwd) != 0)
		err = errno;
	/* Wait until assay has recorded how to find us (EOF: it gave up). */
	char ok = 0;
	ssize_t got;
	do
		got = read(go, &ok, 1);
	while (got < 0 && errno == EINTR);
	if (got != 1)
		_exit(127);
	if (!err) {
		execvpe(j->argv.v[0], j->argv.v, envp);
		err = errno;
	}
	ssize_t w = write(errp, &err, sizeof(err));
	(void)w;
	_exit(127);
}

/* Close what is open of submit's pipes. */
static void close_pipes(int outp[2], int errp_[2], int errp[2], int gop[2])
{
	for (int i = 0; i < 2; i++) {
		if (outp[i] >= 0)
			close(outp[i]);
		if (errp_[i] >= 0)
			close(errp_[i]);
		if (errp[i] >= 0)
			close(errp[i]);
		if (gop[i] >= 0)
			close(gop[i]);
	}
}

/* Hand the runner what finds the case's processes again (its first
 * process, cgroup and container). */
static assay_err record(const struct local_job *j, struct assay_error *e)
{
	char host[256], boot[64];
	if (gethostname(host, sizeof(host)) != 0)
		snprintf(host, sizeof(host), "localhost");
	host[sizeof(host) - 1] = '\0';
	assay_boot_id(boot);
	struct assay_proc_record r = {host,
				      boot,
				      j->pid,
				      j->pid_start,
				      assay_contain_kind_name(j->cg.kind),
				      j->cg.path[0] ? j->cg.path : NULL,
				      NULL,
				      j->ctr_name};
	return j->on_record(j->ctx, &r, e);
}

/* Wait for the child's exec through errp_r (closed here): an errno means it
 * could not start. After a failed record (rec) the child exits unexecuted:
 * reap it and end the case with rec. */
static assay_err exec_result(struct local_job *j, int errp_r, assay_err rec)
{
	/* Blocks until exec succeeded (the pipe closes) or failed (errno). */
	int child_err = 0;
	ssize_t got;
	do
		got = read(errp_r, &child_err, sizeof(child_err));
	while (got < 0 && errno == EINTR);
	close(errp_r);
	if (rec != ASSAY_OK) {
		for (int i = 0; i < 2; i++) {
			close(j->pipe_fd[i]);
			j->pipe_fd[i] = -1;
		}
		while (waitpid(j->pid, &j->status, 0) < 0 && errno == EINTR)
			;
		j->reaped = j->done = true;
		assay_contain_remove(&j->cg);
		return rec;
	}
	if (got == (ssize_t)sizeof(child_err)) {
		snprintf(j->start_error, sizeof(j->start_error), "cannot execute '%s'%s%s: %s",
			 j->argv.v[0], j->cwd ? " in " : "", j->cwd ? j->cwd : "",
			 strerror(child_err));
		j->forced = ASSAY_JOB_NOT_STARTED;
	}
	return ASSAY_OK;
}

static assay_err submit(struct assay_job *job, struct assay_error *e)
{
	struct local_job *j = J(job);
	int outp[2] = {-1, -1}, errp_[2] = {-1, -1}, errp[2] = {-1, -1}, gop[2] = {-1, -1};
	for (int i = 0; i < 2; i++) {
		j->log_fd[i] = open_log(j->dir, stream_names[i], e);
		if (j->log_fd[i] < 0)
			return ASSAY_INFRA;
	}
	if (pipe2(outp, O_CLOEXEC) || pipe2(errp_, O_CLOEXEC) || pipe2(errp, O_CLOEXEC) ||
	    pipe2(gop, O_CLOEXEC)) {
		int err = errno;
		close_pipes(outp, errp_, errp, gop);
		return assay_error_set(e, ASSAY_INFRA, "pipe: %s", strerror(err));
	}
	/* The argv strlist must be NULL-terminated for exec. */
	ALLOC_GROW(j->argv.v, j->argv.n + 1, j->argv.alloc);
	j->argv.v[j->argv.n] = NULL;
	char **envp = make_envp(&j->env);
	pid_t parent = getpid();
	static unsigned seq;
	char name[64];
	snprintf(name, sizeof(name), "assay-%ld-%u", (long)parent, ++seq);
	assay_contain_create(&j->cg, name);
	j->start = assay_monotonic();
	pid_t pid = fork();
	if (pid < 0) {
		int err = errno;
		free(envp);
		close_pipes(outp, errp_, errp, gop);
		assay_contain_remove(&j->cg);
		return assay_error_set(e, ASSAY_INFRA, "fork: %s", strerror(err));
	}
	if (pid == 0) {
		close(gop[1]);
		child(j, outp[1], errp_[1], errp[1], gop[0], parent, envp);
	}
	free(envp);
	close(outp[1]);
	close(errp_[1]);
	close(errp[1]);
	close(gop[0]);
	j->pid = pid;
	j->started = true;
	if (!assay_proc_start(pid, &j->pid_start))
		j->pid_start = 0;
	/* Recorded before the workload runs, so a later assay can find it. */
	assay_err rec = j->on_record ? record(j, e) : ASSAY_OK;
	if (rec == ASSAY_OK) {
		char ok = 1;
		ssize_t w;
		do
			w = write(gop[1], &ok, 1);
		while (w < 0 && errno == EINTR);
	}
	close(gop[1]); /* without the byte: the child exits 127 unexecuted */
	j->pipe_fd[0] = outp[0];
	j->pipe_fd[1] = errp_[0];
	for (int i = 0; i < 2; i++) {
		fcntl(j->pipe_fd[i], F_SETFL, fcntl(j->pipe_fd[i], F_GETFL) | O_NONBLOCK);
		assay_redact_stream_init(&j->rs[i], j->redact);
	}
	return exec_result(j, errp[0], rec);
}

static assay_err deliver(struct local_job *j, int i, const char *data, size_t len, bool eof,
			 struct assay_error *e)
{
	struct sbuf red = SBUF_INIT;
	if (len)
		assay_redact_stream_feed(&j->rs[i], data, len, &red);
	if (eof)
		assay_redact_stream_flush(&j->rs[i], &red);
	size_t off = 0;
	while (off < red.len) {
		ssize_t n = write(j->log_fd[i], red.buf + off, red.len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int err = errno;
			sbuf_release(&red);
			return assay_error_at(e, ASSAY_INFRA, j->dir, NULL, 0,
					      "cannot write %s.log: %s", stream_names[i],
					      strerror(err));
		}
		off += (size_t)n;
	}
	if (red.len && j->on_output)
		j->on_output(j->ctx, stream_names[i], red.buf, red.len);
	sbuf_release(&red);
	return ASSAY_OK;
}

/* Read what is available on pipe i (at most about 1 MiB per call so a chatty
 * command cannot starve the timeout checks). */
static assay_err drain(struct local_job *j, int i, struct assay_error *e)
{
	char buf[65536];
	for (int rounds = 0; rounds < 16 && j->pipe_fd[i] >= 0; rounds++) {
		ssize_t n = read(j->pipe_fd[i], buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			break;
		if (n <= 0) {
			close(j->pipe_fd[i]);
			j->pipe_fd[i] = -1;
			return deliver(j, i, NULL, 0, true, e);
		}
		assay_err rc = deliver(j, i, buf, (size_t)n, false, e);
		if (rc != ASSAY_OK)
			return rc;
	}
	return ASSAY_OK;
}

/* The live processes of the case: its cgroup's members; without a cgroup,
 * its session and every descendant seen (and, as subreaper, the orphans
 * reparented to assay). */
static size_t track(struct local_job *j)
{
	if (j->cg.path[0])
		return assay_contain_members(&j->cg, &j->procs);
	return assay_proc_track_adopted(
	    &j->procs, j->pid, j->cg.kind == ASSAY_CONTAIN_SUBREAPER ? getpid() : 0, j->pid_start);
}

/* SIGTERM to every process of the case that has not had one yet (a process
 * forked while the first ones were being signalled gets its own). */
static void terminate(struct local_job *j)
{
	track(j);
	assay_proc_signal_new(&j->procs, &j->termed, SIGTERM);
	if (!j->term_at) {
		j->term_at = assay_monotonic();
		/* The container's processes are the runtime's, not in our group. */
		if (j->ctr_name)
			assay_container_signal(j->ctr_rt, j->ctr_name, "TERM");
	}
}

/* The container is gone for good: killed and removed (once). */
static void remove_container(struct local_job *j)
{
	if (!j->ctr_name || j->ctr_gone)
		return;
	assay_container_remove_wait(j->ctr_rt, j->ctr_name, 10.0);
	j->ctr_gone = true;
}

/* Freeze the group and SIGKILL all of it (without a cgroup: every process
 * tracked). */
static void kill_now(struct local_job *j)
{
	remove_container(j);
	if (j->cg.path[0]) {
		assay_contain_kill(&j->cg);
	} else {
		track(j);
		assay_proc_signal(&j->procs, SIGKILL);
	}
	j->killed = true;
}

static void reap(struct local_job *j)
{
	if (j->cg.kind == ASSAY_CONTAIN_SUBREAPER) {
		/* Orphans of the case are our children now: reap them too. */
		for (;;) {
			int status;
			pid_t r = waitpid(-1, &status, WNOHANG);
			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0)
				break;
			if (r == j->pid && !j->reaped) {
				j->status = status;
				j->reaped = true;
			}
		}
	}
	if (j->reaped)
		return;
	pid_t r;
	do
		r = waitpid(j->pid, &j->status, WNOHANG);
	while (r < 0 && errno == EINTR);
	if (r == j->pid || (r < 0 && errno == ECHILD))
		j->reaped = true;
}

static void fill_status(const struct local_job *j, struct assay_job_status *st)
{
	memset(st, 0, sizeof(*st));
	double now = j->done ? j->end_time : assay_monotonic();
	st->elapsed_s = j->started ? now - j->start : 0;
	if (!j->done) {
		st->end = ASSAY_JOB_RUNNING;
		return;
	}
	if (j->forced) {
		st->end = j->forced;
		if (j->forced == ASSAY_JOB_NOT_STARTED)
			snprintf(st->detail, sizeof(st->detail), "%s", j->start_error);
		else if (j->forced == ASSAY_JOB_TIMED_OUT)
			snprintf(st->detail, sizeof(st->detail), "timeout after %g s",
				 j->timeout_s);
		else
			snprintf(st->detail, sizeof(st->detail), "cancelled");
	} else if (WIFEXITED(j->status)) {
		st->end = ASSAY_JOB_EXITED;
		st->exit_code = WEXITSTATUS(j->status);
		snprintf(st->detail, sizeof(st->detail), "exit code %d", st->exit_code);
	} else if (WIFSIGNALED(j->status)) {
		st->end = ASSAY_JOB_SIGNALED;
		st->signal = WTERMSIG(j->status);
		snprintf(st->detail, sizeof(st->detail), "killed by signal %d (%s)", st->signal,
			 sigabbrev_np(st->signal) ? sigabbrev_np(st->signal) : "?");
	}
}

/* Sleep until output comes, or no longer than the next deadline (wait_s at
 * most). */
static assay_err wait_output(const struct local_job *j, double wait_s, double grace,
			     struct assay_error *e)
{
	double now = assay_monotonic();
	double wait = wait_s;
	if (j->timeout_s > 0 && !j->term_at)
		wait = fmin(wait, j->start + j->timeout_s - now);
	if (j->term_at && !j->killed)
		wait = fmin(wait, j->term_at + grace - now);
	if (j->reaped || j->term_at)
		wait = fmin(wait, 0.02); /* stopping, or only leftovers remain: check often */
	if (wait < 0)
		wait = 0;
	struct pollfd pfd[2];
	int np = 0;
	for (int i = 0; i < 2; i++) {
		if (j->pipe_fd[i] >= 0) {
			pfd[np].fd = j->pipe_fd[i];
			pfd[np].events = POLLIN;
			pfd[np].revents = 0;
			np++;
		}
	}
	int ms = (int)ceil(wait * 1000);
	if (np) {
		if (poll(pfd, (nfds_t)np, ms) < 0 && errno != EINTR)
			return assay_error_set(e, ASSAY_INFRA, "poll: %s", strerror(errno));
	} else if (ms > 0) {
		struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
		nanosleep(&ts, NULL);
	}
	return ASSAY_OK;
}

/* Nobody of the session can write any more: take what the pipes still
 * hold, then close them (a process that left the session could keep them
 * open forever). */
static assay_err drain_last(struct local_job *j, struct assay_error *e)
{
	for (int i = 0; i < 2; i++) {
		while (j->pipe_fd[i] >= 0) {
			assay_err rc = drain(j, i, e);
			if (rc != ASSAY_OK)
				return rc;
			if (j->pipe_fd[i] < 0)
				break;
			struct pollfd p = {j->pipe_fd[i], POLLIN, 0};
			if (poll(&p, 1, 0) > 0 && (p.revents & (POLLIN | POLLHUP)))
				continue;
			rc = deliver(j, i, NULL, 0, true, e);
			close(j->pipe_fd[i]);
			j->pipe_fd[i] = -1;
			if (rc != ASSAY_OK)
				return rc;
		}
	}
	return ASSAY_OK;
}

/* The command ended: anything left in its group is a leftover, stopped
 * like the command; once none is left, the case is done. */
static assay_err after_exit(struct local_job *j, double now, double grace, struct assay_error *e)
{
	size_t left = track(j);
	if (left && !j->killed)
		terminate(j);
	if (left && (j->killed || now >= j->term_at + grace))
		kill_now(j);
	if (!left) {
		assay_err rc = drain_last(j, e);
		if (rc != ASSAY_OK)
			return rc;
		j->done = true;
		j->end_time = assay_monotonic();
		/* `run` returned by itself: its container has ended, and with
		 * --rm both podman and docker return only once it is removed.
		 * Killed, it may have left the container: kill and remove it. */
		if (j->ctr_name && WIFEXITED(j->status) && !j->killed)
			j->ctr_gone = true;
		remove_container(j);
		assay_contain_remove(&j->cg);
	}
	return ASSAY_OK;
}

static assay_err poll_job(struct assay_job *job, double wait_s, struct assay_job_status *st,
			  struct assay_error *e)
{
	struct local_job *j = J(job);
	if (!j->started || j->done) {
		fill_status(j, st);
		return ASSAY_OK;
	}
	double grace = j->l->o.grace_s;
	if (wait_output(j, wait_s, grace, e) != ASSAY_OK)
		return ASSAY_INFRA;
	for (int i = 0; i < 2; i++) {
		assay_err rc = drain(j, i, e);
		if (rc != ASSAY_OK)
			return rc;
	}
	reap(j);
	double now = assay_monotonic();
	if (!j->reaped && now - j->tracked_at >= 1.0) {
		/* Keep the family current while its tree is intact, so a process that
		 * leaves the session is still known as the case's. */
		track(j);
		j->tracked_at = now;
	}
	if (j->timeout_s > 0 && !j->term_at && !j->reaped && now - j->start >= j->timeout_s) {
		if (!j->forced)
			j->forced = ASSAY_JOB_TIMED_OUT;
		terminate(j);
	}
	if (j->reaped) {
		assay_err rc = after_exit(j, now, grace, e);
		if (rc != ASSAY_OK)
			return rc;
	} else if (j->term_at) {
		if (!j->killed)
			terminate(j);
		if (j->killed || now >= j->term_at + grace)
			kill_now(j);
	}
	fill_status(j, st);
	return ASSAY_OK;
}

static void cancel(struct assay_job *job)
{
	struct local_job *j = J(job);
	if (!j->started || j->done)
		return;
	if (!j->term_at) {
		if (!j->forced)
			j->forced = ASSAY_JOB_CANCELLED;
		terminate(j);
	} else if (!j->killed) {
		kill_now(j);
	}
}

static assay_err collect(struct assay_job *job, struct assay_error *e)
{
	(void)job;
	(void)e;
	return ASSAY_OK; /* the logs are already in the case folder */
}

static void release(struct assay_job *job)
{
	if (!job)
		return;
	struct local_job *j = J(job);
	if (j->started && !j->done) {
		/* Error paths: never leave a process of the case behind. */
		kill_now(j);
		while (!j->reaped && waitpid(j->pid, &j->status, 0) < 0 && errno == EINTR)
			;
	}
	if (j->started && j->cg.path[0]) {
		struct assay_proc_set m = ASSAY_PROC_SET_INIT;
		for (int i = 0; i < 200 && assay_contain_members(&j->cg, &m); i++) {
			assay_contain_kill(&j->cg);
			struct timespec ts = {0, 10000000L};
			nanosleep(&ts, NULL);
		}
		assay_proc_set_release(&m);
		assay_contain_remove(&j->cg);
	}
	for (int i = 0; i < 2; i++) {
		if (j->pipe_fd[i] >= 0)
			close(j->pipe_fd[i]);
		if (j->log_fd[i] >= 0)
			close(j->log_fd[i]);
		if (j->started)
			assay_redact_stream_release(&j->rs[i]);
	}
	assay_proc_set_release(&j->procs);
	assay_proc_set_release(&j->termed);
	free(j->case_id);
	free(j->dir);
	free(j->cwd);
	free(j->ctr_name);
	strlist_clear(&j->argv);
	strlist_clear(&j->env);
	free(job);
}

static void free_launcher(struct assay_launcher *base)
{
	struct local_launcher *l = (struct local_launcher *)base;
	strlist_clear(&l->o.mpirun);
	strlist_clear(&l->o.mpirun_args);
	free(l);
}

static const struct assay_launcher_ops local_ops = {
    "local", prepare, describe,      submit, poll_job, cancel,
    collect, release, free_launcher, NULL,   NULL,
};

struct assay_launcher *assay_launcher_local_new(const struct assay_local_opts *o)
{
	struct local_launcher *l = xcalloc(1, sizeof(*l));
	l->base.ops = &local_ops;
	l->base.priv = l;
	l->openmpi = -1;
	l->o.grace_s = o ? o->grace_s : 5;
	l->o.auto_flags = o ? o->auto_flags : true;
	for (size_t i = 0; o && i < o->mpirun.n; i++)
		strlist_push(&l->o.mpirun, o->mpirun.v[i]);
	for (size_t i = 0; o && i < o->mpirun_args.n; i++)
		strlist_push(&l->o.mpirun_args, o->mpirun_args.v[i]);
	return &l->base;
}

static const char *const local_keys[] = {"type",        "grace_s",           "mpirun",
					 "mpirun_args", "mpirun_auto_flags", NULL};

int assay_launch_local_parse(struct assay_cfg *c, const json_t *opts, const char *path,
			     struct assay_launcher **out)
{
	struct assay_local_opts o = {5, STRLIST_INIT, STRLIST_INIT, true};
	int rc = -1;
	if (opts) {
		if (assay_cfg_object(c, opts, path, local_keys) < 0 ||
		    assay_cfg_number(c, opts, path, "grace_s", ASSAY_CFG_OPTIONAL, 0, 3600,
				     &o.grace_s) < 0 ||
		    assay_cfg_bool(c, opts, path, "mpirun_auto_flags", ASSAY_CFG_OPTIONAL,
				   &o.auto_flags) < 0)
			goto out;
		json_t *m = json_object_get(opts, "mpirun");
		char p[256];
		assay_json_path_key(p, sizeof(p), path, "mpirun");
		if (m && json_is_string(m) && json_string_length(m)) {
			strlist_push(&o.mpirun, json_string_value(m));
		} else if (m && assay_cfg_string_list(c, opts, path, "mpirun", ASSAY_CFG_REQUIRED,
						      NULL, &o.mpirun) < 0) {
			goto out;
		}
		json_t *a = json_object_get(opts, "mpirun_args");
		if (a && json_is_array(a) && !json_array_size(a)) {
			/* An empty list is fine: no extra arguments. */
		} else if (a &&
			   assay_cfg_string_list(c, opts, path, "mpirun_args", ASSAY_CFG_REQUIRED,
						 NULL, &o.mpirun_args) < 0) {
			goto out;
		}
	}
	*out = assay_launcher_local_new(&o);
	rc = 0;
out:
	strlist_clear(&o.mpirun);
	strlist_clear(&o.mpirun_args);
	return rc;
}
