/* Inference suites in the pipeline (docs/inference.md): the server is
 * started before the first case that runs, in a session of its own, its
 * output appended to <run>/server/server.log; assay waits for its health URL
 * (a plain HTTP GET answering 2xx) for health_timeout_s, and a server that
 * exits or never answers is an infrastructure failure (exit 5). Each case's
 * client runs against it (the case watches server.log for the suite's
 * signatures). At the end of the cases, whatever happened, the server's
 * whole process group gets SIGTERM, then SIGKILL after stop_grace_s. Its
 * pid, start time and boot id are kept in <run>/server/server.pid, so that a
 * resumed run first ends a server its killed attempt left behind. Role
 * servers ("servers"): each the same in <run>/server-<role>/, started in
 * the suite's order (each healthy before the next starts), stopped the last
 * started first; one that fails stops every one started. */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "assay/contain.h"
#include "assay/proc.h"
#include "run_int.h"

static void nap(double s)
{
	struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* ---- the health check: GET url, true on a 2xx status ---- */

static int connect_within(const char *host, const char *port, double timeout_s)
{
	struct addrinfo hints = {0}, *res = NULL;
	hints.ai_socktype = SOCK_STREAM;
	if (getaddrinfo(host, port, &hints, &res) != 0)
		return -1;
	int fd = -1;
	for (struct addrinfo *a = res; a && fd < 0; a = a->ai_next) {
		fd = socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC,
			    a->ai_protocol);
		if (fd < 0)
			continue;
		if (connect(fd, a->ai_addr, a->ai_addrlen) == 0)
			break;
		struct pollfd p = {fd, POLLOUT, 0};
		int err = 0;
		socklen_t len = sizeof(err);
		if (errno != EINPROGRESS || poll(&p, 1, (int)(timeout_s * 1000)) != 1 ||
		    getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) < 0 || err) {
			close(fd);
			fd = -1;
		}
	}
	freeaddrinfo(res);
	return fd;
}

/* http://HOST[:PORT][/PATH] */
static bool http_ok(const char *url, double timeout_s)
{
	char host[256], port[16] = "80";
	const char *h = url + 7, *path = strchr(h, '/');
	size_t hn = path ? (size_t)(path - h) : strlen(h);
	if (hn == 0 || hn >= sizeof(host))
		return false;
	memcpy(host, h, hn);
	host[hn] = '\0';
	char *colon = strrchr(host, ':');
	if (colon && !strchr(host, ']')) {
		snprintf(port, sizeof(port), "%s", colon + 1);
		*colon = '\0';
	}
	int fd = connect_within(host, port, timeout_s);
	if (fd < 0)
		return false;
	char req[1024];
	int n =
	    snprintf(req, sizeof(req), "GET %s HTTP/1.0\r\nHost: %s\r\nConnection: close\r\n\r\n",
		     path ? path : "/", host);
	bool ok = n > 0 && (size_t)n < sizeof(req) && send(fd, req, (size_t)n, MSG_NOSIGNAL) == n;
	/* The status line, then the rest read and dropped up to the server's
	 * close: closing with unread data would reset the connection, and a
	 * server may log that as an error (a signature in its log). */
	char buf[64], rest[4096];
	size_t got = 0;
	double until = assay_monotonic() + timeout_s;
	while (ok && assay_monotonic() < until) {
		struct pollfd p = {fd, POLLIN, 0};
		if (poll(&p, 1, 200) != 1)
			continue;
		ssize_t r = got < sizeof(buf) - 1 ? recv(fd, buf + got, sizeof(buf) - 1 - got, 0)
						  : recv(fd, rest, sizeof(rest), 0);
		if (r <= 0)
			break;
		if (got < sizeof(buf) - 1)
			got += (size_t)r;
	}
	close(fd);
	buf[got] = '\0';
	/* "HTTP/1.x 2xx" */
	return ok && got >= 12 && !strncmp(buf, "HTTP/1.", 7) && buf[9] == '2';
}

/* ---- the server's process ---- */

static char *server_dir(const struct run_ctx *rc, const struct run_server *sv)
{
	return xasprintf("%s/%s", rc->res->run_dir, sv->k->id);
}

/* "server", or "prefill server": how messages name it. */
static void server_name(const struct run_server *sv, char *out, size_t n)
{
	snprintf(out, n, "%s%sserver", sv->k->role ? sv->k->role : "", sv->k->role ? " " : "");
}

/* Its keys' JSON path: $.server, $.servers[i]. */
static void server_path(const struct run_server *sv, const char *key, char *out, size_t n)
{
	if (sv->k->role)
		snprintf(out, n, "$.servers[%zu].%s", sv->index, key);
	else
		snprintf(out, n, "$.server.%s", key);
}

/* An event of the server: "started ...", or "prefill: started ...". */
static void server_event(struct run_ctx *rc, const struct run_server *sv, const char *text)
{
	char *t =
	    xasprintf("%s%s%s", sv->k->role ? sv->k->role : "", sv->k->role ? ": " : "", text);
	run_event(rc, ASSAY_EVENT_SERVER, 0, NULL, NULL, 0, t);
	free(t);
}

/* The server's templates with the run's built-ins. */
static json_t *server_vars(const struct run_ctx *rc)
{
	char host[256];
	if (gethostname(host, sizeof(host)) != 0)
		snprintf(host, sizeof(host), "localhost");
	host[sizeof(host) - 1] = '\0';
	char *dot = strchr(host, '.');
	if (dot)
		*dot = '\0';
	return json_pack("{s:s, s:s, s:s, s:s}", "RUN_ID", rc->res->run_id, "OUT",
			 rc->o->output ? rc->o->output : rc->suite.output, "HOST", host, "RUN_DIR",
			 rc->res->run_dir);
}

static assay_err expand(const struct run_ctx *rc, const char *tmpl, const json_t *vars,
			const char *path, char **out, struct assay_error *e)
{
	/* Checked when the suite loaded: every placeholder has a value. */
	struct sbuf sb = SBUF_INIT;
	char *missing = NULL;
	assay_err err = ASSAY_OK;
	if (assay_template_expand(tmpl, vars, &sb, &missing) < 0)
		err = assay_error_at(e, ASSAY_USAGE, rc->suite.file, path, 0,
				     "placeholder {%s} has no value", missing);
	free(missing);
	*out = sbuf_detach(&sb, NULL);
	return err;
}

/* The child: its own session (so the group can be ended whole), output to
 * the log, then the program. */
static void exec_server(char **argv, const char *cwd, int log_fd)
{
	setsid();
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	int null = open("/dev/null", O_RDONLY);
	if (null >= 0)
		dup2(null, 0);
	dup2(log_fd, 1);
	dup2(log_fd, 2);
	if (cwd && chdir(cwd) < 0) {
		dprintf(2, "assay: server: cannot enter %s: %s\n", cwd, strerror(errno));
		_exit(127);
	}
	execvp(argv[0], argv);
	dprintf(2, "assay: server: cannot run %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

static void write_pidfile(const struct run_ctx *rc, const struct run_server *sv)
{
	unsigned long long start = 0;
	char boot[64];
	assay_proc_start(sv->pid, &start);
	assay_boot_id(boot);
	char *dir = server_dir(rc, sv);
	char *path = xasprintf("%s/server.pid", dir);
	char *text = xasprintf("%ld %llu %s\n", (long)sv->pid, start, boot);
	struct assay_error ignore;
	assay_write_file_atomic(path, text, strlen(text), &ignore);
	free(text);
	free(path);
	free(dir);
}

/* End what a killed attempt's local server left running (the session it
 * started, no process older than it, on this boot only). */
static void leftover_one(struct run_ctx *rc, const struct run_server *sv)
{
	char *dir = server_dir(rc, sv);
	char *path = xasprintf("%s/server.pid", dir);
	FILE *f = fopen(path, "r");
	long pid = 0;
	unsigned long long start = 0;
	char boot[64] = "";
	if (f && fscanf(f, "%ld %llu %63s", &pid, &start, boot) == 3 && pid > 1) {
		char host[256], name[64];
		if (gethostname(host, sizeof(host)) != 0)
			host[0] = '\0';
		host[sizeof(host) - 1] = '\0';
		struct assay_proc_record r = {host,      boot, (pid_t)pid, start,
					      "session", NULL, NULL,       NULL};
		struct sbuf what = SBUF_INIT;
		server_name(sv, name, sizeof(name));
		if (assay_contain_end_record(&r, &what)) {
			char *text =
			    xasprintf("%s of an earlier attempt: ended %s", name, sbuf_str(&what));
			run_event(rc, ASSAY_EVENT_CLEANUP, 0, NULL, NULL, 0, text);
			free(text);
		}
		sbuf_release(&what);
	}
	if (f)
		fclose(f);
	unlink(path);
	free(path);
	free(dir);
}

/* Each server's state, made once. */
static void servers_init(struct run_ctx *rc)
{
	if (rc->servers)
		return;
	rc->servers = xcalloc(rc->suite.n_infer, sizeof(*rc->servers));
	for (size_t i = 0; i < rc->suite.n_infer; i++) {
		rc->servers[i].k = &rc->suite.infer[i];
		rc->servers[i].index = i;
		rc->servers[i].log = -1;
	}
}

void run_server_leftover(struct run_ctx *rc)
{
	servers_init(rc);
	for (size_t i = 0; i < rc->suite.n_infer; i++)
		leftover_one(rc, &rc->servers[i]);
}

/* The server is gone: its folder redacted (server.log holds no secret's
 * value), and said. */
static void stopped(struct run_ctx *rc, const struct run_server *sv)
{
	char *dir = server_dir(rc, sv);
	size_t n = 0;
	struct assay_error ignore;
	run_redact_case_dir(rc, dir, &n, &ignore);
	free(dir);
	server_event(rc, sv, "stopped");
}

/* Stop one server: on nodes, the launcher's stop; here, SIGTERM to its
 * process group, SIGKILL to what is left after the grace period, the
 * leader reaped. */
static void stop_one(struct run_ctx *rc, struct run_server *sv)
{
	pid_t pid = sv->pid;
	if (sv->job) {
		run_nodes_stop(rc, sv);
		stopped(rc, sv);
		return;
	}
	if (pid <= 0)
		return;
	sv->pid = 0;
	kill(-pid, SIGTERM);
	double until = assay_monotonic() + sv->k->stop_grace_s;
	bool reaped = false;
	int status;
	while (assay_monotonic() < until) {
		if (!reaped && waitpid(pid, &status, WNOHANG) == pid)
			reaped = true;
		if (reaped && kill(-pid, 0) < 0 && errno == ESRCH)
			break; /* the whole group is gone */
		nap(0.05);
	}
	kill(-pid, SIGKILL);
	if (!reaped)
		waitpid(pid, &status, 0);
	char *dir = server_dir(rc, sv);
	char *path = xasprintf("%s/server.pid", dir);
	unlink(path);
	free(path);
	free(dir);
	stopped(rc, sv);
}

/* Every server stopped, the last started first. */
void run_server_stop(struct run_ctx *rc)
{
	for (size_t i = rc->servers ? rc->suite.n_infer : 0; i > 0; i--)
		stop_one(rc, &rc->servers[i - 1]);
}

/* The server's argv and cwd, filled from the run's built-ins. */
static assay_err fill(const struct run_ctx *rc, const struct run_server *sv, const json_t *vars,
		      struct strlist *argv, char **cwd, struct assay_error *e)
{
	const struct assay_suite_infer *k = sv->k;
	assay_err err = ASSAY_OK;
	for (size_t i = 0; i < k->argv.n && err == ASSAY_OK; i++) {
		char path[96], base[64], *v = NULL;
		server_path(sv, "argv", base, sizeof(base));
		snprintf(path, sizeof(path), "%s[%zu]", base, i);
		err = expand(rc, k->argv.v[i], vars, path, &v, e);
		strlist_push(argv, v);
		free(v);
	}
	if (err == ASSAY_OK && k->cwd) {
		char path[64];
		server_path(sv, "cwd", path, sizeof(path));
		err = expand(rc, k->cwd, vars, path, cwd, e);
	}
	return err;
}

/* Start the server here (fork and exec, output to the log); 0 on failure
 * (e). */
static pid_t spawn(const struct strlist *args, const char *cwd, const char *dir,
		   struct assay_error *e)
{
	char **argv = xcalloc(args->n + 1, sizeof(*argv));
	for (size_t i = 0; i < args->n; i++)
		argv[i] = args->v[i];
	char *log = xasprintf("%s/server.log", dir);
	int fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	pid_t pid = 0;
	if (fd < 0)
		assay_error_set(e, ASSAY_INFRA, "cannot write %s: %s", log, strerror(errno));
	else if ((pid = fork()) == 0)
		exec_server(argv, cwd, fd);
	if (pid < 0) {
		assay_error_set(e, ASSAY_INFRA, "cannot start the server: %s", strerror(errno));
		pid = 0;
	}
	if (fd >= 0)
		close(fd);
	free(argv);
	free(log);
	return pid;
}

/* Is the server still running? Here: its leader not exited; on nodes: no
 * node's process ended (their output taken). why: how it ended. Once
 * false, the local server is reaped (pid 0): ask no more. */
static bool server_alive(struct run_ctx *rc, struct run_server *sv, char *why, size_t n)
{
	if (sv->job)
		return run_nodes_alive(rc, sv, 0, why, n);
	int status;
	if (sv->pid <= 0) {
		snprintf(why, n, "not running");
		return false;
	}
	if (waitpid(sv->pid, &status, WNOHANG) == sv->pid) {
		sv->pid = 0;
		snprintf(why, n, "%s %d", WIFEXITED(status) ? "status" : "signal",
			 WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
		return false;
	}
	return true;
}

/* Poll the health URL until it answers 2xx, the server exits or the time
 * is up. ASSAY_INFRA (e) unless it answered. */
static assay_err wait_healthy(struct run_ctx *rc, struct run_server *sv, const char *url,
			      const char *dir, struct assay_error *e)
{
	double t0 = assay_monotonic(), limit = sv->k->health_timeout_s;
	char why[600], name[64];
	server_name(sv, name, sizeof(name));
	while (!http_ok(url, 5)) {
		if (!server_alive(rc, sv, why, sizeof(why)))
			return assay_error_set(
			    e, ASSAY_INFRA,
			    "the %s exited (%s) before %s answered; its output: %s/server.log",
			    name, why, url, dir);
		if (assay_monotonic() - t0 >= limit || run_interrupt_pending(rc))
			return assay_error_set(e, ASSAY_INFRA,
					       "the %s did not become healthy: %s did not "
					       "answer 2xx within %gs (health_timeout_s); its "
					       "output: %s/server.log",
					       name, url, limit, dir);
		if (sv->job) /* its output taken while waiting; its end seen above */
			run_nodes_alive(rc, sv, 0.5, why, sizeof(why));
		else
			nap(0.5);
	}
	return ASSAY_OK;
}

/* Start it, here or on its nodes, and say so. */
static assay_err start(struct run_ctx *rc, struct run_server *sv, const json_t *vars,
		       const char *dir, const char *url, struct assay_error *e)
{
	struct strlist argv = STRLIST_INIT;
	char *cwd = NULL;
	assay_err err = fill(rc, sv, vars, &argv, &cwd, e);
	long long nodes = sv->k->nodes;
	if (err == ASSAY_OK && nodes > 0)
		err = run_nodes_start(rc, sv, &argv, cwd, dir, e);
	else if (err == ASSAY_OK && (sv->pid = spawn(&argv, cwd, dir, e)) == 0)
		err = ASSAY_INFRA;
	strlist_clear(&argv);
	free(cwd);
	if (err != ASSAY_OK)
		return err;
	rc->server_started = true;
	char *shown = assay_redactor_str(&rc->redact, url); /* a token in the URL */
	char *text;
	if (nodes > 0) {
		text = xasprintf("started on %lld node(s), waiting for %s", nodes, shown);
	} else {
		write_pidfile(rc, sv);
		text = xasprintf("started (pid %ld), waiting for %s", (long)sv->pid, shown);
	}
	server_event(rc, sv, text);
	free(text);
	free(shown);
	return ASSAY_OK;
}

/* Start one server and wait for its health. */
static assay_err start_one(struct run_ctx *rc, struct run_server *sv, const json_t *vars,
			   struct assay_error *e)
{
	char *dir = server_dir(rc, sv);
	char *url = NULL, path[64];
	server_path(sv, "health", path, sizeof(path));
	assay_err err = assay_mkdirs(dir, e);
	if (err == ASSAY_OK)
		err = expand(rc, sv->k->health, vars, path, &url, e);
	if (err == ASSAY_OK)
		err = start(rc, sv, vars, dir, url, e);
	if (err == ASSAY_OK)
		err = wait_healthy(rc, sv, url, dir, e);
	free(url);
	free(dir);
	return err;
}

/* Are all servers running? The first that is not is named. */
static bool all_alive(struct run_ctx *rc, char *name, size_t n)
{
	char why[600];
	for (size_t i = 0; i < rc->suite.n_infer; i++)
		if (!server_alive(rc, &rc->servers[i], why, sizeof(why))) {
			server_name(&rc->servers[i], name, n);
			return false;
		}
	return true;
}

assay_err run_server_start(struct run_ctx *rc, struct assay_error *e)
{
	if (!rc->suite.infer)
		return ASSAY_OK;
	servers_init(rc);
	char name[64];
	bool running = false;
	for (size_t i = 0; i < rc->suite.n_infer; i++)
		running = running || rc->servers[i].pid > 0 || rc->servers[i].job;
	if (running) {
		if (all_alive(rc, name, sizeof(name)))
			return ASSAY_OK;
		run_server_stop(rc); /* what is left of them */
		char *text = rc->suite.n_infer > 1
				 ? xasprintf("the %s exited during the last case: starting every "
					     "server again",
					     name)
				 : xstrdup("exited during the last case: starting it again");
		run_event(rc, ASSAY_EVENT_SERVER, 0, NULL, NULL, 0, text);
		free(text);
	}
	if (!rc->server_started) /* first start of this attempt */
		run_server_leftover(rc);
	json_t *vars = server_vars(rc);
	assay_err err = ASSAY_OK;
	/* In the suite's order (prefill, decode, then the router), each healthy
	 * before the next starts. */
	for (size_t i = 0; i < rc->suite.n_infer && err == ASSAY_OK; i++)
		err = start_one(rc, &rc->servers[i], vars, e);
	if (err != ASSAY_OK) {
		if (err == ASSAY_USAGE)
			err = ASSAY_INFRA;
		run_server_stop(rc);
	}
	json_decref(vars);
	return err;
}
