/* The ssh launcher (docs/ssh.md): a case runs one process per node over
 * OpenSSH's client, each host reached through one master connection kept
 * for the run. This file: the launcher's options, ssh's command line, the
 * masters, the sweep that ends a run's processes on a host by their label,
 * and what --resume does with it. One case's processes: ssh_job.c. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "assay/container.h"
#include "assay/json.h"
#include "assay/proc.h"
#include "assay/slurm.h" /* assay_shell_quote */
#include "ssh_int.h"

int assay_launch_ssh_parse(struct assay_cfg *c, const json_t *opts, const char *path,
			   struct assay_launcher **out);
int ssh_cluster_read(struct assay_cfg *c, const char *file, const char *path, struct ssh_opts *o);

/* On a host: signal every process labelled with the prefix ($2 the signal,
 * $3 the prefix), one line per process signalled. Nothing else is read. */
static const char sweep_script[] =
    "S=; sudo -n true >/dev/null 2>&1 && S='sudo -n'; "
    "for f in $($S grep -lsz \"^ASSAY_SSH_LABEL=$2\" /proc/[0-9]*/environ); do f=${f#/proc/}; "
    "$S kill -\"$1\" \"${f%/environ}\" 2>/dev/null && echo \"${f%/environ}\"; done; exit 0";
/* On a host: remove the containers labelled assay.run=$1 (podman, docker),
 * one line per container removed. */
static const char ctr_sweep_script[] =
    "S=; sudo -n true >/dev/null 2>&1 && S='sudo -n'; "
    "for r in podman docker; do command -v $r >/dev/null 2>&1 || continue; "
    "for c in $($S $r ps -a --filter \"label=assay.run=$1\" --format '{{.Names}}' 2>/dev/null); "
    "do $S $r rm -f \"$c\" >/dev/null 2>&1 && echo \"$c\"; done; done; exit 0";

void ssh_label(const char *run_id, const char *case_id, int attempt, struct sbuf *out)
{
	size_t at = out->len;
	if (case_id)
		sbuf_addf(out, "assay-%s-%s-a%d", run_id, case_id, attempt > 0 ? attempt : 1);
	else
		sbuf_addf(out, "assay-%s-", run_id);
	/* A label is matched as a regular expression on the host: only
	 * characters that stand for themselves. */
	for (size_t i = at; i < out->len; i++)
		if (!isalnum((unsigned char)out->buf[i]) && out->buf[i] != '_' &&
		    out->buf[i] != '-')
			out->buf[i] = '-';
}

void ssh_argv(const struct ssh_launcher *l, size_t k, const char *const extra[],
	      struct strlist *out)
{
	const struct ssh_opts *o = &l->o;
	strlist_push(out, o->program ? o->program : "ssh");
	if (o->config) {
		strlist_push(out, "-F");
		strlist_push(out, o->config);
	}
	char buf[256];
	strlist_push(out, "-o");
	strlist_push(out, "BatchMode=yes");
	snprintf(buf, sizeof(buf), "ConnectTimeout=%lld", (long long)(o->connect_timeout_s + 0.5));
	strlist_push(out, "-o");
	strlist_push(out, buf);
	strlist_push(out, "-o");
	strlist_push(out, o->accept_new ? "StrictHostKeyChecking=accept-new"
					: "StrictHostKeyChecking=yes");
	strlist_push(out, "-o");
	strlist_push(out, "ServerAliveInterval=10");
	if (l->ctl_dir[0]) {
		snprintf(buf, sizeof(buf), "ControlPath=%s/h%zu", l->ctl_dir, k);
		strlist_push(out, "-o");
		strlist_push(out, buf);
	}
	if (o->user) {
		strlist_push(out, "-l");
		strlist_push(out, o->user);
	}
	if (o->identity) {
		strlist_push(out, "-i");
		strlist_push(out, o->identity);
	}
	if (o->port) {
		snprintf(buf, sizeof(buf), "%lld", o->port);
		strlist_push(out, "-p");
		strlist_push(out, buf);
	}
	strlist_push(out, "-T");
	for (size_t i = 0; extra && extra[i]; i++)
		strlist_push(out, extra[i]);
	strlist_push(out, "--");
	strlist_push(out, o->hosts[k].host);
}

/* What went wrong, in words, from what ssh printed. */
static const char *ssh_why(const char *text)
{
	if (strstr(text, "IDENTIFICATION HAS CHANGED"))
		return "its host key changed (known_hosts holds another key for it)";
	if (strstr(text, "Host key verification failed") || strstr(text, "No ED25519 host key") ||
	    strstr(text, "host key for") || strstr(text, "No matching host key"))
		return "its host key is not in known_hosts (accept_new_host_keys adds new ones)";
	if (strstr(text, "Permission denied"))
		return "the key was refused";
	if (strstr(text, "Connection refused") || strstr(text, "timed out") ||
	    strstr(text, "No route to host") || strstr(text, "Network is unreachable") ||
	    strstr(text, "Could not resolve"))
		return "unreachable";
	return "ssh failed";
}

/* The last non-empty line of text (ssh's own verdict), into out. */
static void last_line(const char *text, char *out, size_t size)
{
	const char *end = text + strlen(text);
	while (end > text && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' '))
		end--;
	const char *start = end;
	while (start > text && start[-1] != '\n')
		start--;
	snprintf(out, size, "%.*s", (int)(end - start), start);
}

/* Start host k's master in the background: ssh authenticates, then keeps
 * the connection for 60 s after its last session (ControlPersist). Its
 * stderr goes to ctl_dir/hK.log. Returns the pid of the ssh that exits once
 * the master is up (or failed), or -1. */
static pid_t start_master(const struct ssh_launcher *l, size_t k)
{
	struct strlist argv = STRLIST_INIT;
	static const char *const master[] = {"-M", "-N", "-o", "ControlPersist=60", NULL};
	ssh_argv(l, k, master, &argv);
	ALLOC_GROW(argv.v, argv.n + 1, argv.alloc);
	argv.v[argv.n] = NULL;
	char *log = xasprintf("%s/h%zu.log", l->ctl_dir, k);
	pid_t pid = fork();
	if (pid == 0) {
		int in = open("/dev/null", O_RDWR);
		int err = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (in < 0 || err < 0)
			_exit(127);
		dup2(in, 0);
		dup2(in, 1);
		dup2(err, 2);
		setsid(); /* no terminal signal reaches it */
		signal(SIGPIPE, SIG_DFL);
		execvp(argv.v[0], argv.v);
		dprintf(2, "cannot execute %s: %s\n", argv.v[0], strerror(errno));
		_exit(127);
	}
	free(log);
	strlist_clear(&argv);
	return pid;
}

/* `ssh -O VERB` (check, exit) to host k's master, started with its output
 * discarded: its pid, or -1 (not started; no master socket). */
static pid_t start_control(const struct ssh_launcher *l, size_t k, const char *verb)
{
	char sock[96];
	snprintf(sock, sizeof(sock), "%s/h%zu", l->ctl_dir, k);
	if (!l->ctl_dir[0] || access(sock, F_OK) != 0)
		return -1;
	struct strlist argv = STRLIST_INIT;
	const char *const control[] = {"-O", verb, NULL};
	ssh_argv(l, k, control, &argv);
	ALLOC_GROW(argv.v, argv.n + 1, argv.alloc);
	argv.v[argv.n] = NULL;
	pid_t pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);
		if (null < 0)
			_exit(127);
		dup2(null, 0);
		dup2(null, 1);
		dup2(null, 2);
		signal(SIGPIPE, SIG_DFL);
		execvp(argv.v[0], argv.v);
		_exit(127);
	}
	strlist_clear(&argv);
	return pid;
}

static bool exited_ok(pid_t pid)
{
	int status = 0;
	if (pid < 0)
		return false;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return false;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

bool ssh_master_alive(const struct ssh_launcher *l, size_t k)
{
	return exited_ok(start_control(l, k, "check"));
}

static assay_err make_ctl_dir(struct ssh_launcher *l, struct assay_error *e)
{
	if (l->ctl_dir[0])
		return ASSAY_OK;
	/* Unix socket paths are short (108 bytes): a folder of /tmp. */
	snprintf(l->ctl_dir, sizeof(l->ctl_dir), "/tmp/assay-ssh.XXXXXX");
	if (!mkdtemp(l->ctl_dir)) {
		int err = errno;
		l->ctl_dir[0] = '\0';
		return assay_error_set(e, ASSAY_INFRA, "ssh: cannot make a folder in /tmp: %s",
				       strerror(err));
	}
	return ASSAY_OK;
}

/* Host k's master failed: its words into e. */
static assay_err master_failed(const struct ssh_launcher *l, size_t k, int code,
			       struct assay_error *e)
{
	char *log = xasprintf("%s/h%zu.log", l->ctl_dir, k);
	size_t len;
	struct assay_error ignore;
	char *text = assay_read_file(log, &len, &ignore);
	free(log);
	char line[300];
	last_line(text ? text : "", line, sizeof(line));
	assay_error_set(e, ASSAY_INFRA, "ssh: host %s: %s (ssh exit %d: %s)", l->o.hosts[k].host,
			ssh_why(text ? text : ""), code, line[0] ? line : "no message");
	free(text);
	return ASSAY_INFRA;
}

assay_err ssh_masters(struct ssh_launcher *l, const size_t *want, size_t n, struct assay_error *e)
{
	if (make_ctl_dir(l, e) != ASSAY_OK)
		return ASSAY_INFRA;
	pid_t *pids = xcalloc(n ? n : 1, sizeof(*pids));
	/* A master removes its socket when it ends (idle for 60 s, its
	 * connection lost): a host whose socket is there has one. Should it be
	 * stale, ssh connects directly instead. The missing ones start at once. */
	for (size_t i = 0; i < n; i++) {
		char sock[96];
		snprintf(sock, sizeof(sock), "%s/h%zu", l->ctl_dir, want[i]);
		pids[i] = access(sock, F_OK) == 0 ? 0 : start_master(l, want[i]);
	}
	assay_err rc = ASSAY_OK;
	for (size_t i = 0; i < n; i++) {
		if (pids[i] == 0)
			continue;
		int status = 0;
		if (pids[i] < 0 || (waitpid(pids[i], &status, 0) < 0 && errno != ECHILD) ||
		    !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
			/* The first failure is the error; keep waiting for the others. */
			if (rc == ASSAY_OK)
				rc = master_failed(l, want[i],
						   WIFEXITED(status) ? WEXITSTATUS(status) : -1, e);
		}
		/* Read or not needed: a killed assay leaves no log behind. */
		char *log = xasprintf("%s/h%zu.log", l->ctl_dir, want[i]);
		unlink(log);
		free(log);
	}
	free(pids);
	return rc;
}

long ssh_host_script(const struct ssh_launcher *l, size_t k, const char *script, const char *name,
		     const char *const args[], struct sbuf *output)
{
	struct strlist argv = STRLIST_INIT;
	ssh_argv(l, k, NULL, &argv);
	struct sbuf cmd = SBUF_INIT;
	sbuf_adds(&cmd, "exec sh -c ");
	assay_shell_quote(&cmd, script);
	sbuf_addf(&cmd, " %s", name);
	for (size_t i = 0; args[i]; i++) {
		sbuf_addch(&cmd, ' ');
		assay_shell_quote(&cmd, args[i]);
	}
	strlist_push(&argv, sbuf_str(&cmd));
	sbuf_release(&cmd);
	ALLOC_GROW(argv.v, argv.n + 1, argv.alloc);
	argv.v[argv.n] = NULL;
	struct sbuf out = SBUF_INIT, err = SBUF_INIT;
	int code = -1;
	struct assay_error e;
	long n = -1;
	if (assay_proc_output((const char *const *)argv.v, NULL, &out, &err, &code, &e) ==
		ASSAY_OK &&
	    code == 0) {
		n = 0;
		for (const char *p = sbuf_str(&out); *p; p++)
			n += *p == '\n';
		if (output)
			sbuf_add(output, out.buf, out.len);
	}
	sbuf_release(&out);
	sbuf_release(&err);
	strlist_clear(&argv);
	return n;
}

long ssh_sweep(const struct ssh_launcher *l, size_t k, const char *sig, const char *prefix)
{
	const char *args[] = {sig, prefix, NULL};
	return ssh_host_script(l, k, sweep_script, "assay-ssh-sweep", args, NULL);
}

/* --resume: on every host, end what the earlier attempts of the run left
 * (a connection that dropped while assay was gone, a node that kept
 * running), by the run's label, before anything runs again. */
static void ssh_resume(struct assay_launcher *base, const char *run_id, const char *run_dir,
		       int attempt, const struct strlist *jobs, struct sbuf *report)
{
	(void)run_dir;
	(void)attempt;
	(void)jobs;
	struct ssh_launcher *l = (struct ssh_launcher *)base;
	struct sbuf prefix = SBUF_INIT;
	ssh_label(run_id, NULL, 0, &prefix);
	for (size_t k = 0; k < l->o.n_hosts; k++) {
		struct assay_error e;
		if (ssh_masters(l, &k, 1, &e) != ASSAY_OK) {
			sbuf_addf(report,
				  "%s; what an earlier attempt left there was not checked\n",
				  e.message);
			continue;
		}
		/* Containers first: a node still ending the attempt removes its
		 * container itself as soon as its processes are gone. */
		const char *args[] = {run_id, NULL};
		long c =
		    ssh_host_script(l, k, ctr_sweep_script, "assay-ssh-containers", args, NULL);
		long n = ssh_sweep(l, k, "KILL", sbuf_str(&prefix));
		if (n > 0)
			sbuf_addf(report, "host %s: ended %ld process(es) of an earlier attempt\n",
				  l->o.hosts[k].host, n);
		if (c > 0)
			sbuf_addf(report,
				  "host %s: removed %ld container(s) of an earlier attempt\n",
				  l->o.hosts[k].host, c);
		else if (n < 0)
			sbuf_addf(report,
				  "host %s: could not look for an earlier attempt's processes\n",
				  l->o.hosts[k].host);
	}
	sbuf_release(&prefix);
}

/* A case the hosts cannot hold, or one this launcher does not run. */
static assay_err ssh_check(struct assay_launcher *base, const struct assay_launch_spec *s,
			   struct assay_error *e)
{
	struct ssh_launcher *l = (struct ssh_launcher *)base;
	long long nodes = s->nodes > 0 ? s->nodes : 1;
	long long first = s->first_host > 0 ? s->first_host : 0;
	if ((size_t)nodes > l->o.n_hosts)
		return assay_error_at(e, ASSAY_USAGE, l->o.suite_file, l->o.path, 0,
				      "case %s needs %lld node(s) but the ssh launcher has %zu "
				      "host(s)%s%s",
				      s->case_id, nodes, l->o.n_hosts,
				      l->o.cluster_file ? " in " : "",
				      l->o.cluster_file ? l->o.cluster_file : "");
	if ((size_t)first + (size_t)nodes > l->o.n_hosts)
		return assay_error_at(e, ASSAY_USAGE, l->o.suite_file, l->o.path, 0,
				      "case %s needs %lld node(s) from host index %lld but the "
				      "ssh launcher has %zu host(s) (indices 0..%zu)%s%s",
				      s->case_id, nodes, first, l->o.n_hosts, l->o.n_hosts - 1,
				      l->o.cluster_file ? " in " : "",
				      l->o.cluster_file ? l->o.cluster_file : "");
	if (s->mpi_ranks > 0)
		return assay_error_set(
		    e, ASSAY_USAGE,
		    "case %s: the ssh launcher runs one process per node; an MPI "
		    "case needs the local or slurm launcher",
		    s->case_id);
	if (s->container && s->container->on && l->o.cvs)
		return assay_error_at(e, ASSAY_USAGE, l->o.suite_file, l->o.path, 0,
				      "case %s: the suite's container block and the container "
				      "block of %s both ask for a container: keep one",
				      s->case_id, l->o.cluster_file);
	if (s->container && s->container->on && !assay_container_is_local(s->container))
		return assay_error_set(
		    e, ASSAY_USAGE,
		    "case %s: the ssh launcher runs podman or docker containers on "
		    "each node; %s needs the slurm launcher",
		    s->case_id, assay_ctr_runtime_names[s->container->runtime]);
	return ASSAY_OK;
}

static void opts_release(struct ssh_opts *o)
{
	for (size_t i = 0; i < o->n_hosts; i++) {
		free(o->hosts[i].host);
		free(o->hosts[i].addr);
	}
	free(o->hosts);
	free(o->user);
	free(o->identity);
	free(o->config);
	free(o->program);
	free(o->cluster_file);
	free(o->suite_file);
	free(o->path);
	strlist_clear(&o->env);
	ssh_cvs_free(o->cvs);
}

static void ssh_free(struct assay_launcher *base)
{
	struct ssh_launcher *l = (struct ssh_launcher *)base;
	/* Every master asked to exit at once, then the folder removed. */
	pid_t *pids = xcalloc(l->o.n_hosts + 1, sizeof(*pids));
	for (size_t k = 0; k < l->o.n_hosts; k++)
		pids[k] = start_control(l, k, "exit");
	for (size_t k = 0; l->ctl_dir[0] && k < l->o.n_hosts; k++) {
		exited_ok(pids[k]);
		char *sock = xasprintf("%s/h%zu", l->ctl_dir, k);
		unlink(sock);
		free(sock);
		char *log = xasprintf("%s/h%zu.log", l->ctl_dir, k);
		unlink(log);
		free(log);
	}
	free(pids);
	if (l->ctl_dir[0])
		rmdir(l->ctl_dir);
	for (size_t k = 0; l->devices && k < l->o.n_hosts; k++)
		strlist_clear(&l->devices[k]);
	free(l->devices);
	free(l->sudo);
	opts_release(&l->o);
	free(l);
}

static assay_err ssh_collect(struct assay_job *job, struct assay_error *e)
{
	(void)job;
	(void)e;
	return ASSAY_OK; /* every node's output is in the case folder already */
}

const struct assay_launcher_ops ssh_ops = {
    "ssh",       ssh_prepare, ssh_describe, ssh_submit, ssh_poll,   ssh_cancel,
    ssh_collect, ssh_release, ssh_free,     ssh_check,  ssh_resume,
};

static const char *const ssh_keys[] = {
    "type", "hosts", "cluster_file",      "user",    "identity_file",        "ssh_config",
    "port", "ssh",   "connect_timeout_s", "grace_s", "accept_new_host_keys", "master_port",
    NULL};

/* "hosts": ["h1", {"host": "h2", "vpc_ip": "10.0.0.2"}, ...] */
static int parse_hosts(struct assay_cfg *c, const json_t *opts, const char *path,
		       struct ssh_opts *o)
{
	json_t *hs;
	char p[256];
	int got = assay_cfg_member(c, opts, path, "hosts", ASSAY_CFG_OPTIONAL, JSON_ARRAY, &hs);
	if (got <= 0)
		return got;
	assay_json_path_key(p, sizeof(p), path, "hosts");
	if (!json_array_size(hs))
		return assay_cfg_fail(c, p, "expected at least one host");
	o->hosts = xcalloc(json_array_size(hs), sizeof(*o->hosts));
	size_t i;
	json_t *h;
	json_array_foreach(hs, i, h)
	{
		char ip[300];
		snprintf(ip, sizeof(ip), "%s[%zu]", p, i);
		const char *host = NULL, *addr = NULL;
		static const char *const hkeys[] = {"host", "vpc_ip", NULL};
		if (json_is_string(h) && json_string_length(h)) {
			host = json_string_value(h);
		} else if (json_is_object(h)) {
			if (assay_cfg_object(c, h, ip, hkeys) < 0 ||
			    assay_cfg_string(c, h, ip, "host", ASSAY_CFG_REQUIRED, &host) < 0 ||
			    assay_cfg_string(c, h, ip, "vpc_ip", ASSAY_CFG_OPTIONAL, &addr) < 0)
				return -1;
		} else {
			return assay_cfg_expected(
			    c, ip, "a host name or {\"host\": ..., \"vpc_ip\": ...}", h);
		}
		if (host[0] == '-')
			return assay_cfg_fail(c, ip, "a host cannot start with '-'");
		for (size_t k = 0; k < o->n_hosts; k++)
			if (!strcmp(o->hosts[k].host, host))
				return assay_cfg_fail(c, ip, "host \"%s\" is listed twice", host);
		o->hosts[o->n_hosts].host = xstrdup(host);
		o->hosts[o->n_hosts].addr = xstrdup(addr ? addr : host);
		o->n_hosts++;
	}
	return 1;
}

static int dup_string(struct assay_cfg *c, const json_t *opts, const char *path, const char *key,
		      char **out)
{
	const char *v = NULL;
	int got = assay_cfg_string(c, opts, path, key, ASSAY_CFG_OPTIONAL, &v);
	if (got > 0) {
		free(*out);
		*out = xstrdup(v);
	}
	return got;
}

static int parse_opts(struct assay_cfg *c, const json_t *opts, const char *path, struct ssh_opts *o)
{
	if (assay_cfg_object(c, opts, path, ssh_keys) < 0)
		return -1;
	const char *cluster = NULL;
	int hosts = parse_hosts(c, opts, path, o);
	if (hosts < 0 ||
	    assay_cfg_string(c, opts, path, "cluster_file", ASSAY_CFG_OPTIONAL, &cluster) < 0)
		return -1;
	char p[256];
	assay_json_path_key(p, sizeof(p), path, hosts > 0 ? "hosts" : "cluster_file");
	if ((hosts > 0) == (cluster != NULL))
		return assay_cfg_fail(c, hosts > 0 ? p : path,
				      hosts > 0 ? "give \"hosts\" or \"cluster_file\", not both"
						: "missing: \"hosts\" or \"cluster_file\"");
	if (cluster && ssh_cluster_read(c, cluster, p, o) < 0)
		return -1;
	if (dup_string(c, opts, path, "user", &o->user) < 0 ||
	    dup_string(c, opts, path, "identity_file", &o->identity) < 0 ||
	    dup_string(c, opts, path, "ssh_config", &o->config) < 0 ||
	    dup_string(c, opts, path, "ssh", &o->program) < 0 ||
	    assay_cfg_int(c, opts, path, "port", ASSAY_CFG_OPTIONAL, 1, 65535, &o->port) < 0 ||
	    assay_cfg_int(c, opts, path, "master_port", ASSAY_CFG_OPTIONAL, 1, 65535,
			  &o->master_port) < 0 ||
	    assay_cfg_number(c, opts, path, "connect_timeout_s", ASSAY_CFG_OPTIONAL, 1, 600,
			     &o->connect_timeout_s) < 0 ||
	    assay_cfg_number(c, opts, path, "grace_s", ASSAY_CFG_OPTIONAL, 0, 3600, &o->grace_s) <
		0 ||
	    assay_cfg_bool(c, opts, path, "accept_new_host_keys", ASSAY_CFG_OPTIONAL,
			   &o->accept_new) < 0)
		return -1;
	return 0;
}

int assay_launch_ssh_parse(struct assay_cfg *c, const json_t *opts, const char *path,
			   struct assay_launcher **out)
{
	struct ssh_launcher *l = xcalloc(1, sizeof(*l));
	l->o.connect_timeout_s = 10;
	l->o.grace_s = 5;
	l->o.master_port = 29500;
	if (!opts) {
		opts_release(&l->o);
		free(l);
		return assay_cfg_fail(c, path,
				      "the ssh launcher needs its hosts: {\"type\": \"ssh\", "
				      "\"hosts\": [...]} or \"cluster_file\"");
	}
	if (parse_opts(c, opts, path, &l->o) < 0) {
		opts_release(&l->o);
		free(l);
		return -1;
	}
	l->o.suite_file = c->file ? xstrdup(c->file) : NULL;
	l->o.path = xstrdup(path);
	l->base.ops = &ssh_ops;
	l->base.priv = l;
	*out = &l->base;
	return 0;
}
