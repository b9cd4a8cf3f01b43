/* One case under the ssh launcher: one ssh per node through the host's
 * master connection, the variables and the command sent on its stdin (never
 * on a command line), every node's stdout and stderr streamed into
 * nodes/<host>.out|.err and, line by line, into the case's stdout.log and
 * stderr.log for the watcher and the parsers. On each node the command runs
 * in a session of its own, labelled with the run and case; closing its
 * stdin (a stop, a lost connection, assay gone) ends it there. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "assay/container.h"
#include "assay/slurm.h" /* assay_shell_quote */
#include "ssh_int.h"

/* The node's side. $1 the label, $2 the line that ends the script on
 * stdin, $3 the grace period in tenths of a second. The script read from
 * stdin exports the variables and sets the command ("set -- ..."). The
 * command runs in a new session with ASSAY_SSH_LABEL in its environment;
 * when stdin ends while it runs (assay stopped it, the connection or assay
 * is gone), everything labelled gets SIGTERM, then SIGKILL after the grace
 * period; what the command leaves behind when it exits gets the same. */
const char ssh_node_script[] =
    "L=$1 E=$2 G=$3 C=$4 R=$5 S=$6 s= w=\n"
    "while IFS= read -r l; do [ \"$l\" = \"$E\" ] && break; s=\"$s$l\n\"; done\n"
    "[ \"$l\" = \"$E\" ] || exit 255\n"
    "eval \"$s\"\n"
    "left() { ${S:+sudo -n} grep -qsz \"^ASSAY_SSH_LABEL=$L\\$\" /proc/[0-9]*/environ; }\n"
    "sig() { [ -n \"$w\" ] && kill -\"$1\" -- -\"$w\" 2>/dev/null; for f in $(${S:+sudo -n} grep "
    "-lsz "
    "\"^ASSAY_SSH_LABEL=$L\\$\" /proc/[0-9]*/environ); do f=${f#/proc/}; ${S:+sudo -n} kill "
    "-\"$1\" "
    "\"${f%/environ}\" 2>/dev/null; done; }\n"
    "ctr() { [ -n \"$C\" ] && ${S:+sudo -n} \"$R\" \"$@\" \"$C\" >/dev/null 2>&1; }\n"
    "end() { ctr kill --signal=TERM; sig TERM; i=0; while [ $i -lt $G ] && left; do sleep 0.1; "
    "i=$((i+1)); done; sig KILL; ctr rm -f; }\n"
    "exec 3<&0 </dev/null\n"
    "ASSAY_SSH_LABEL=$L setsid \"$@\" 3<&- &\n"
    "w=$! m=$$\n"
    "( exec <&3 3<&-; cat >/dev/null; kill -0 \"$m\" 2>/dev/null && end ) >/dev/null 2>&1 &\n"
    "t=$!\n"
    "exec 3<&-\n"
    "wait \"$w\"; rc=$?\n"
    "left && end\n"
    "[ \"$rc\" = 0 ] || ctr rm -f\n"
    "kill \"$t\" 2>/dev/null\n"
    "exit \"$rc\"\n";

static const char *const stream_ext[2] = {"out", "err"};
static const char *const stream_names[2] = {"stdout", "stderr"};

struct ssh_node {
	size_t host; /* index into the launcher's hosts */
	pid_t pid;
	int in_fd, fd[2], log[2];
	struct assay_redact_stream rs[2];
	struct sbuf line[2]; /* a line not yet complete */
	bool reaped;
	int code; /* its exit code (128 + signal when killed) */
};

struct ssh_job {
	struct ssh_launcher *l;
	char *case_id, *dir, *cwd, *label;
	struct strlist argv, env;
	double timeout_s;
	const struct assay_redactor *redact;
	assay_output_fn on_output;
	void *ctx;
	struct ssh_node *nodes;
	size_t n;
	int case_log[2];
	double start, stop_at, reaped_at, end_time;
	bool started, stopping, killed, done;
	enum assay_job_end forced;
	size_t first_bad; /* the node whose exit ended the case, or SIZE_MAX */
	char lost[512];   /* a node that dropped out: the infrastructure error */
	/* A podman/docker container on every node: its block, the name
	 * before the node's "-n<rank>", the variables it gets by name. */
	char *ctr_name, *ctr_run, *ctr_dir;
	struct assay_container ctr;
	bool cvs_exec; /* CVS no_launch/persistent: `exec` in the named container */
	struct strlist ctr_env;
	char where[160];
};

struct assay_job {
	struct ssh_job j;
};

static struct ssh_job *J(const struct assay_job *job)
{
	return (struct ssh_job *)&job->j;
}

/* Each node runs `RUNTIME run --rm --name assay-<run>-<case>-a<N>-n<rank>
 * ... IMAGE argv` (docs/containers.md; the rank keeps the names apart where
 * nodes share a runtime): the variables cross by name, their values are in
 * the runtime's environment on the node. */
static void in_container(struct ssh_job *j, const struct assay_launch_spec *s,
			 const struct assay_container *ctr)
{
	static const char *const rank_vars[] = {"NODE_RANK", "NNODES", "MASTER_ADDR",
						"MASTER_PORT"};
	for (size_t i = 0; i < ARRAY_SIZE(rank_vars); i++)
		strlist_push(&j->ctr_env, rank_vars[i]);
	const struct strlist *lists[2] = {&j->l->o.env, s->env};
	for (size_t l = 0; l < 2; l++)
		for (size_t i = 0; lists[l] && i < lists[l]->n; i++) {
			const char *v = lists[l]->v[i], *eq = strchr(v, '=');
			char *n = xstrndup(v, eq ? (size_t)(eq - v) : strlen(v));
			if (!strlist_has(&j->ctr_env, n))
				strlist_push(&j->ctr_env, n);
			free(n);
		}
	for (size_t i = 0; s->redact && i < s->redact->n; i++)
		if (!strlist_has(&j->ctr_env, s->redact->v[i].name))
			strlist_push(&j->ctr_env, s->redact->v[i].name);
	struct sbuf name = SBUF_INIT;
	j->ctr_run = xstrdup(s->run_id ? s->run_id : "run");
	assay_container_name(j->ctr_run, s->case_id, s->attempt, &name);
	j->ctr_name = sbuf_detach(&name, NULL);
	assay_container_copy(&j->ctr, ctr);
	char cwd[4096];
	j->ctr_dir = s->dir[0] == '/' || !getcwd(cwd, sizeof(cwd))
			 ? xstrdup(s->dir)
			 : xasprintf("%s/%s", cwd, s->dir);
	for (size_t i = 0; i < s->argv->n; i++)
		strlist_push(&j->argv, s->argv->v[i]);
}

/* CVS's container block: per_run runs each node's case in a fresh
 * container of its own (as a suite's block does), no_launch and persistent
 * `exec` it in the container the file names, the label crossing by name so
 * a stop finds what runs in there. */
static void in_cvs(struct ssh_job *j, const struct assay_launch_spec *s)
{
	const struct ssh_cvs *x = j->l->o.cvs;
	in_container(j, s, &x->ctr);
	if (x->lifetime == SSH_CVS_PER_RUN)
		return;
	j->cvs_exec = true;
	free(j->ctr_name);
	j->ctr_name = NULL;
	strlist_push(&j->ctr_env, "ASSAY_SSH_LABEL");
}

/* A CVS container's command on node i: sudo where the host needs it, the
 * host's devices added to the runtime's flags. */
static void cvs_argv(const struct ssh_job *j, size_t i, const char *name, struct strlist *out)
{
	const struct ssh_launcher *l = j->l;
	size_t k = j->nodes[i].host;
	ssh_cvs_sudo(l, k, &j->ctr_env, out);
	if (j->cvs_exec) {
		strlist_push(out, assay_ctr_runtime_names[j->ctr.runtime]);
		strlist_push(out, "exec");
		for (size_t v = 0; v < j->ctr_env.n; v++) {
			strlist_push(out, "--env");
			strlist_push(out, j->ctr_env.v[v]);
		}
		strlist_push(out, l->o.cvs->name);
		for (size_t v = 0; v < j->argv.n; v++)
			strlist_push(out, j->argv.v[v]);
		return;
	}
	struct assay_container c;
	assay_container_copy(&c, &j->ctr);
	for (size_t d = 0; l->devices && d < l->devices[k].n; d++) {
		char *f = xasprintf("--device=%s", l->devices[k].v[d]);
		strlist_push(&c.options, f);
		free(f);
	}
	assay_container_run_argv(&c, name, j->ctr_run, j->case_id, j->ctr_dir, &j->ctr_env,
				 &j->argv, out);
	assay_container_release(&c);
}

/* Node i's command: argv, or the runtime's run of it in its container
 * (named into name). */
static void node_argv(const struct ssh_job *j, size_t i, struct sbuf *name, struct strlist *out)
{
	if (!j->ctr.on) {
		for (size_t k = 0; k < j->argv.n; k++)
			strlist_push(out, j->argv.v[k]);
		return;
	}
	if (j->ctr_name)
		sbuf_addf(name, "%s-n%zu", j->ctr_name, i);
	if (j->l->o.cvs) {
		cvs_argv(j, i, sbuf_str(name), out);
		return;
	}
	assay_container_run_argv(&j->ctr, sbuf_str(name), j->ctr_run, j->case_id, j->ctr_dir,
				 &j->ctr_env, &j->argv, out);
}

assay_err ssh_prepare(struct assay_launcher *base, const struct assay_launch_spec *s,
		      struct assay_job **out, struct assay_error *e)
{
	struct ssh_launcher *l = (struct ssh_launcher *)base;
	if (!s->argv || !s->argv->n)
		return assay_error_set(e, ASSAY_USAGE, "%s: empty command", s->case_id);
	if (base->ops->check(base, s, e) != ASSAY_OK)
		return ASSAY_USAGE;
	for (size_t i = 0; s->env && i < s->env->n; i++) {
		const char *v = s->env->v[i];
		size_t k = 0;
		while (v[k] == '_' || (v[k] >= 'A' && v[k] <= 'Z') ||
		       (v[k] >= 'a' && v[k] <= 'z') || (k && v[k] >= '0' && v[k] <= '9'))
			k++;
		if (!k || v[k] != '=')
			return assay_error_set(e, ASSAY_USAGE, "%s: not a variable: %.40s",
					       s->case_id, v);
	}
	struct assay_job *job = xcalloc(1, sizeof(*job));
	struct ssh_job *j = J(job);
	j->l = l;
	j->case_id = xstrdup(s->case_id);
	j->dir = xstrdup(s->dir);
	j->cwd = s->cwd ? xstrdup(s->cwd) : NULL;
	struct sbuf label = SBUF_INIT;
	ssh_label(s->run_id ? s->run_id : "run", s->case_id, s->attempt, &label);
	j->label = sbuf_detach(&label, NULL);
	if (s->container && s->container->on)
		in_container(j, s, s->container);
	else if (l->o.cvs)
		in_cvs(j, s);
	else
		for (size_t i = 0; i < s->argv->n; i++)
			strlist_push(&j->argv, s->argv->v[i]);
	for (size_t i = 0; s->env && i < s->env->n; i++)
		strlist_push(&j->env, s->env->v[i]);
	j->timeout_s = s->timeout_s;
	j->redact = s->redact;
	j->on_output = s->on_output;
	j->ctx = s->ctx;
	j->n = (size_t)(s->nodes > 0 ? s->nodes : 1);
	j->nodes = xcalloc(j->n, sizeof(*j->nodes));
	for (size_t i = 0; i < j->n; i++) {
		struct ssh_node *nd = &j->nodes[i];
		nd->host = (size_t)(s->first_host > 0 ? s->first_host : 0) + i;
		nd->pid = -1;
		nd->in_fd = nd->fd[0] = nd->fd[1] = nd->log[0] = nd->log[1] = -1;
	}
	j->case_log[0] = j->case_log[1] = -1;
	j->first_bad = SIZE_MAX;
	*out = job;
	return ASSAY_OK;
}

void ssh_describe(const struct assay_job *job, struct sbuf *out)
{
	const struct ssh_job *j = J(job);
	const struct ssh_opts *o = &j->l->o;
	sbuf_adds(out, "ssh to");
	for (size_t i = 0; i < j->n; i++)
		sbuf_addf(out, " %s", o->hosts[j->nodes[i].host].host);
	sbuf_addf(out,
		  " (one process per node; NNODES=%zu, NODE_RANK 0..%zu, MASTER_ADDR=%s, "
		  "MASTER_PORT=%lld; label %s-nN): ",
		  j->n, j->n - 1, o->hosts[j->nodes[0].host].addr, o->master_port, j->label);
	if (j->cwd)
		sbuf_addf(out, "cd %s && ", j->cwd);
	assay_command_line(&j->env, &j->argv, j->redact, out);
	if (j->ctr.on) {
		struct strlist argv = STRLIST_INIT;
		struct sbuf name = SBUF_INIT;
		node_argv(j, 0, &name, &argv);
		sbuf_adds(out, "\n  node 0 runs (node N: name ...-nN): ");
		assay_command_line(NULL, &argv, j->redact, out);
		strlist_clear(&argv);
		sbuf_release(&name);
	}
	sbuf_addf(out, "\n  logs: %s/stdout.log, %s/stderr.log; per node %s/nodes/HOST.out, .err",
		  j->dir, j->dir, j->dir);
	if (j->timeout_s > 0)
		sbuf_addf(out, "; timeout %g s (then SIGTERM, SIGKILL after %g s)", j->timeout_s,
			  o->grace_s);
	sbuf_addch(out, '\n');
}

/* A value for `export NAME="..."` where the node's shell expands $VAR (a
 * cluster file's env_vars, as CVS exports them). */
static void add_expanded(struct sbuf *sb, const char *v)
{
	sbuf_addch(sb, '"');
	for (; *v; v++) {
		if (*v == '"' || *v == '\\' || *v == '`')
			sbuf_addch(sb, '\\');
		sbuf_addch(sb, *v);
	}
	sbuf_addch(sb, '"');
}

/* What node i reads on its stdin: the variables, its rank, the command,
 * and the line that ends it. Secrets travel only here. */
static void node_input(const struct ssh_job *j, size_t i, const char *nonce, struct sbuf *sb)
{
	const struct ssh_opts *o = &j->l->o;
	sbuf_addf(sb, "export NODE_RANK=%zu NNODES=%zu MASTER_PORT=%lld MASTER_ADDR=", i, j->n,
		  o->master_port);
	assay_shell_quote(sb, o->hosts[j->nodes[0].host].addr);
	sbuf_addch(sb, '\n');
	for (size_t k = 0; k < o->env.n; k++) {
		const char *eq = strchr(o->env.v[k], '=');
		sbuf_addf(sb, "export %.*s=", (int)(eq - o->env.v[k]), o->env.v[k]);
		add_expanded(sb, eq + 1);
		sbuf_addch(sb, '\n');
	}
	for (size_t k = 0; k < j->env.n; k++) {
		const char *eq = strchr(j->env.v[k], '=');
		sbuf_addf(sb, "export %.*s=", (int)(eq - j->env.v[k]), j->env.v[k]);
		assay_shell_quote(sb, eq + 1);
		sbuf_addch(sb, '\n');
	}
	/* The suite's secrets, from assay's environment (a local case
	 * inherits them; a node gets them here, on stdin only). */
	for (size_t k = 0; j->redact && k < j->redact->n; k++) {
		const struct assay_secret *sec = &j->redact->v[k];
		if (!sec->value)
			continue;
		sbuf_addf(sb, "export %s=", sec->name);
		assay_shell_quote(sb, sec->value);
		sbuf_addch(sb, '\n');
	}
	char here[4096];
	if (j->cwd && j->cwd[0] == '/') {
		sbuf_adds(sb, "cd -- ");
		assay_shell_quote(sb, j->cwd);
		sbuf_adds(sb, " || exit 127\n");
	} else if (getcwd(here, sizeof(here))) {
		/* assay's folder (and the suite's cwd in it) where the node
		 * shares it, as nodes share a file system; else the login folder. */
		sbuf_adds(sb, "cd -- ");
		assay_shell_quote(sb, here);
		sbuf_adds(sb, " 2>/dev/null");
		if (j->cwd) {
			sbuf_adds(sb, " && cd -- ");
			assay_shell_quote(sb, j->cwd);
			sbuf_adds(sb, " || exit 127");
		}
		sbuf_addch(sb, '\n');
	}
	sbuf_adds(sb, "set --");
	struct strlist argv = STRLIST_INIT;
	struct sbuf name = SBUF_INIT;
	node_argv(j, i, &name, &argv);
	for (size_t k = 0; k < argv.n; k++) {
		sbuf_addch(sb, ' ');
		assay_shell_quote(sb, argv.v[k]);
	}
	strlist_clear(&argv);
	sbuf_release(&name);
	sbuf_addf(sb, "\n%s\n", nonce);
}

static void make_nonce(char out[33])
{
	unsigned char b[16] = {0};
	int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		ssize_t got = read(fd, b, sizeof(b));
		(void)got;
		close(fd);
	}
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	b[0] ^= (unsigned char)ts.tv_nsec;
	b[1] ^= (unsigned char)getpid();
	for (int i = 0; i < 16; i++)
		snprintf(out + 2 * i, 3, "%02x", b[i]);
}

static int open_log(const char *path, struct assay_error *e)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		assay_error_at(e, ASSAY_INFRA, path, NULL, 0, "cannot write: %s", strerror(errno));
	return fd;
}

static assay_err open_logs(struct ssh_job *j, struct assay_error *e)
{
	for (int s = 0; s < 2; s++) {
		char *p = xasprintf("%s/%s.log", j->dir, stream_names[s]);
		j->case_log[s] = open_log(p, e);
		free(p);
		if (j->case_log[s] < 0)
			return ASSAY_INFRA;
	}
	char *nodes = xasprintf("%s/nodes", j->dir);
	int made = mkdir(nodes, 0755);
	int err = errno;
	if (made != 0 && err != EEXIST) {
		assay_error_at(e, ASSAY_INFRA, nodes, NULL, 0, "cannot make: %s", strerror(err));
		free(nodes);
		return ASSAY_INFRA;
	}
	for (size_t i = 0; i < j->n; i++)
		for (int s = 0; s < 2; s++) {
			char *p = xasprintf("%s/%s.%s", nodes, j->l->o.hosts[j->nodes[i].host].host,
					    stream_ext[s]);
			j->nodes[i].log[s] = open_log(p, e);
			free(p);
			if (j->nodes[i].log[s] < 0) {
				free(nodes);
				return ASSAY_INFRA;
			}
		}
	free(nodes);
	return ASSAY_OK;
}

/* Start node i's ssh and hand it its input. */
static assay_err start_node(struct ssh_job *j, size_t i, struct assay_error *e)
{
	struct ssh_node *nd = &j->nodes[i];
	char nonce[33];
	make_nonce(nonce);
	struct sbuf cmd = SBUF_INIT;
	sbuf_adds(&cmd, "exec sh -c ");
	assay_shell_quote(&cmd, ssh_node_script);
	sbuf_addf(&cmd, " assay-ssh-node %s-n%zu %s %lld", j->label, i, nonce,
		  (long long)ceil(j->l->o.grace_s * 10));
	bool sudo = j->l->sudo && j->l->sudo[nd->host] == 1;
	if (j->ctr_name)
		sbuf_addf(&cmd, " %s-n%zu %s%s", j->ctr_name, i,
			  assay_ctr_runtime_names[j->ctr.runtime], sudo ? " sudo" : "");
	else if (sudo)
		sbuf_adds(&cmd, " '' '' sudo");
	struct strlist argv = STRLIST_INIT;
	ssh_argv(j->l, nd->host, NULL, &argv);
	strlist_push(&argv, sbuf_str(&cmd));
	sbuf_release(&cmd);
	ALLOC_GROW(argv.v, argv.n + 1, argv.alloc);
	argv.v[argv.n] = NULL;
	int in[2], out[2], err[2];
	if (pipe2(in, O_CLOEXEC) || pipe2(out, O_CLOEXEC) || pipe2(err, O_CLOEXEC)) {
		strlist_clear(&argv);
		return assay_error_set(e, ASSAY_INFRA, "pipe: %s", strerror(errno));
	}
	pid_t pid = fork();
	if (pid == 0) {
		setsid(); /* Ctrl-C reaches assay, which stops the nodes itself */
		dup2(in[0], 0);
		dup2(out[1], 1);
		dup2(err[1], 2);
		signal(SIGPIPE, SIG_DFL);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		execvp(argv.v[0], argv.v);
		dprintf(2, "cannot execute %s: %s\n", argv.v[0], strerror(errno));
		_exit(127);
	}
	strlist_clear(&argv);
	close(in[0]);
	close(out[1]);
	close(err[1]);
	if (pid < 0) {
		close(in[1]);
		close(out[0]);
		close(err[0]);
		return assay_error_set(e, ASSAY_INFRA, "fork: %s", strerror(errno));
	}
	nd->pid = pid;
	nd->fd[0] = out[0];
	nd->fd[1] = err[0];
	nd->in_fd = in[1];
	for (int s = 0; s < 2; s++) {
		fcntl(nd->fd[s], F_SETFL, fcntl(nd->fd[s], F_GETFL) | O_NONBLOCK);
		assay_redact_stream_init(&nd->rs[s], j->redact);
	}
	struct sbuf input = SBUF_INIT;
	node_input(j, i, nonce, &input);
	/* A few KiB: the pipe holds them; a dead ssh makes this fail (EPIPE),
	 * and then its exit tells why. */
	size_t off = 0;
	while (off < input.len) {
		ssize_t w = write(nd->in_fd, input.buf + off, input.len - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;
		off += (size_t)w;
	}
	sbuf_release(&input);
	return ASSAY_OK;
}

/* On a node: the image's digest as assay records it locally (the repo
 * digest, else the image id); nothing when the node does not have it yet. */
static const char digest_script[] = "${3:+sudo -n} \"$1\" image inspect --format '{{if "
				    ".RepoDigests}}{{index .RepoDigests 0}}{{else}}"
				    "{{.Id}}{{end}}' \"$2\" 2>/dev/null | head -n 1; exit 0";

/* Image provenance per node: each node's digest in nodes/<host>.image; a
 * node whose image differs from the first one's is the infrastructure's
 * failure, before anything runs. */
static assay_err check_images(struct ssh_job *j, struct assay_error *e)
{
	char *first = NULL;
	size_t first_i = 0;
	assay_err rc = ASSAY_OK;
	for (size_t i = 0; i < j->n && rc == ASSAY_OK; i++) {
		const char *host = j->l->o.hosts[j->nodes[i].host].host;
		struct sbuf d = SBUF_INIT;
		bool sudo = j->l->sudo && j->l->sudo[j->nodes[i].host] == 1;
		const char *args[] = {assay_ctr_runtime_names[j->ctr.runtime], j->ctr.image,
				      sudo ? "sudo" : "", NULL};
		ssh_host_script(j->l, j->nodes[i].host, digest_script, "assay-ssh-image", args, &d);
		while (d.len && (d.buf[d.len - 1] == '\n' || d.buf[d.len - 1] == '\r'))
			d.buf[--d.len] = '\0';
		if (d.len) {
			char *p = xasprintf("%s/nodes/%s.image", j->dir, host);
			sbuf_addch(&d, '\n');
			rc = assay_write_file_atomic(p, d.buf, d.len, e);
			d.buf[--d.len] = '\0';
			free(p);
		}
		if (rc == ASSAY_OK && d.len && !first) {
			first = sbuf_detach(&d, NULL);
			first_i = i;
		} else if (rc == ASSAY_OK && d.len && strcmp(first, d.buf)) {
			rc = assay_error_set(
			    e, ASSAY_INFRA,
			    "provenance: image %s differs between nodes: node %zu (%s) "
			    "has %s, node %zu (%s) has %s",
			    j->ctr.image, i, host, d.buf, first_i,
			    j->l->o.hosts[j->nodes[first_i].host].host, first);
		}
		sbuf_release(&d);
	}
	free(first);
	return rc;
}

/* nodes/<host>.devices: which of CVS's default devices each node passes. */
static assay_err note_devices(struct ssh_job *j, struct assay_error *e)
{
	assay_err rc = ASSAY_OK;
	for (size_t i = 0; i < j->n && rc == ASSAY_OK; i++) {
		struct sbuf note = SBUF_INIT;
		ssh_cvs_devices_note(j->l, j->nodes[i].host, &note);
		char *p =
		    xasprintf("%s/nodes/%s.devices", j->dir, j->l->o.hosts[j->nodes[i].host].host);
		rc = assay_write_file_atomic(p, note.buf ? note.buf : "", note.len, e);
		free(p);
		sbuf_release(&note);
	}
	return rc;
}

assay_err ssh_submit(struct assay_job *job, struct assay_error *e)
{
	struct ssh_job *j = J(job);
	if (open_logs(j, e) != ASSAY_OK)
		return ASSAY_INFRA;
	size_t *hosts = xcalloc(j->n, sizeof(*hosts));
	for (size_t i = 0; i < j->n; i++)
		hosts[i] = j->nodes[i].host;
	assay_err rc = ssh_masters(j->l, hosts, j->n, e);
	free(hosts);
	if (rc == ASSAY_OK)
		rc = ssh_cvs_ready(j->l, e);
	if (rc == ASSAY_OK && j->l->o.cvs)
		rc = note_devices(j, e);
	if (rc == ASSAY_OK && j->ctr.on)
		rc = check_images(j, e);
	if (rc != ASSAY_OK)
		return rc;
	j->start = assay_monotonic();
	j->started = true;
	snprintf(j->where, sizeof(j->where), "on");
	for (size_t i = 0; i < j->n; i++) {
		size_t len = strlen(j->where);
		snprintf(j->where + len, sizeof(j->where) - len, " %s",
			 j->l->o.hosts[j->nodes[i].host].host);
	}
	for (size_t i = 0; i < j->n; i++)
		if ((rc = start_node(j, i, e)) != ASSAY_OK)
			return rc; /* release() ends the nodes already started */
	return ASSAY_OK;
}

static assay_err write_all(int fd, const char *buf, size_t len, const char *what,
			   struct assay_error *e)
{
	size_t off = 0;
	while (off < len) {
		ssize_t n = write(fd, buf + off, len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return assay_error_set(e, ASSAY_INFRA, "cannot write %s: %s", what,
					       strerror(errno));
		off += (size_t)n;
	}
	return ASSAY_OK;
}

/* Node output, redacted: all of it into the node's file, whole lines into
 * the case's log and to the watcher (so nodes never split a line). */
static assay_err deliver(struct ssh_job *j, struct ssh_node *nd, int s, const char *data,
			 size_t len, bool eof, struct assay_error *e)
{
	struct sbuf red = SBUF_INIT;
	if (len)
		assay_redact_stream_feed(&nd->rs[s], data, len, &red);
	if (eof)
		assay_redact_stream_flush(&nd->rs[s], &red);
	assay_err rc = write_all(nd->log[s], red.buf, red.len, "a node log", e);
	sbuf_add(&nd->line[s], red.buf, red.len);
	sbuf_release(&red);
	char *nl = nd->line[s].len ? memrchr(nd->line[s].buf, '\n', nd->line[s].len) : NULL;
	size_t whole = nl ? (size_t)(nl - nd->line[s].buf) + 1 : 0;
	if (eof)
		whole = nd->line[s].len;
	if (rc == ASSAY_OK && whole) {
		rc = write_all(j->case_log[s], nd->line[s].buf, whole, stream_names[s], e);
		if (j->on_output)
			j->on_output(j->ctx, stream_names[s], nd->line[s].buf, whole);
		nd->line[s].len -= whole;
		memmove(nd->line[s].buf, nd->line[s].buf + whole, nd->line[s].len + 1);
	}
	return rc;
}

static assay_err drain(struct ssh_job *j, struct ssh_node *nd, int s, bool last,
		       struct assay_error *e)
{
	char buf[65536];
	for (int rounds = 0; rounds < 16 && nd->fd[s] >= 0; rounds++) {
		ssize_t n = read(nd->fd[s], buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) && !last)
			break;
		if (n <= 0) {
			close(nd->fd[s]);
			nd->fd[s] = -1;
			return deliver(j, nd, s, NULL, 0, true, e);
		}
		assay_err rc = deliver(j, nd, s, buf, (size_t)n, false, e);
		if (rc != ASSAY_OK)
			return rc;
	}
	return ASSAY_OK;
}

/* Stop every node: its stdin closes, and the node ends the command
 * (SIGTERM, SIGKILL after the grace period). */
static void stop_all(struct ssh_job *j)
{
	if (j->stopping)
		return;
	j->stopping = true;
	j->stop_at = assay_monotonic();
	for (size_t i = 0; i < j->n; i++)
		if (j->nodes[i].in_fd >= 0) {
			close(j->nodes[i].in_fd);
			j->nodes[i].in_fd = -1;
		}
}

/* Now: SIGKILL to everything labelled on each host still running, and to
 * the local ssh processes. */
static void kill_now(struct ssh_job *j)
{
	stop_all(j);
	j->killed = true;
	for (size_t i = 0; i < j->n; i++) {
		struct ssh_node *nd = &j->nodes[i];
		if (nd->pid > 0 && !nd->reaped) {
			char *label = xasprintf("%s-n%zu", j->label, i);
			ssh_sweep(j->l, nd->host, "KILL", label);
			free(label);
			kill(nd->pid, SIGKILL);
		}
	}
}

/* Node i's ssh ended with code: a lost connection (ssh's 255 with its
 * master gone) is the infrastructure's; another failure ends the case. */
static void node_ended(struct ssh_job *j, size_t i)
{
	struct ssh_node *nd = &j->nodes[i];
	const struct ssh_host *h = &j->l->o.hosts[nd->host];
	if (nd->code == 255 && !j->lost[0] && !ssh_master_alive(j->l, nd->host)) {
		snprintf(j->lost, sizeof(j->lost),
			 "ssh: host %s (node %zu) dropped out: the connection was lost while the "
			 "case ran",
			 h->host, i);
		stop_all(j);
		return;
	}
	if (nd->code != 0 && j->first_bad == SIZE_MAX && !j->stopping) {
		j->first_bad = i;
		stop_all(j); /* the others cannot finish without it */
	}
}

static void reap_all(struct ssh_job *j)
{
	for (size_t i = 0; i < j->n; i++) {
		struct ssh_node *nd = &j->nodes[i];
		if (nd->pid <= 0 || nd->reaped)
			continue;
		int status;
		pid_t r;
		do
			r = waitpid(nd->pid, &status, WNOHANG);
		while (r < 0 && errno == EINTR);
		if (r == 0)
			continue;
		nd->reaped = true;
		nd->code = r < 0               ? 255
			   : WIFEXITED(status) ? WEXITSTATUS(status)
					       : 128 + WTERMSIG(status);
		node_ended(j, i);
	}
}

static bool all_ended(const struct ssh_job *j, bool *fds_open)
{
	bool all = true;
	*fds_open = false;
	for (size_t i = 0; i < j->n; i++) {
		all = all && (j->nodes[i].pid <= 0 || j->nodes[i].reaped);
		*fds_open = *fds_open || j->nodes[i].fd[0] >= 0 || j->nodes[i].fd[1] >= 0;
	}
	return all;
}

static assay_err wait_output(struct ssh_job *j, double wait_s, struct assay_error *e)
{
	double now = assay_monotonic();
	double wait = wait_s;
	if (j->timeout_s > 0 && !j->stopping)
		wait = fmin(wait, j->start + j->timeout_s - now);
	if (j->stopping || j->reaped_at)
		wait = fmin(wait, 0.02);
	if (wait < 0)
		wait = 0;
	struct pollfd *pfd = xcalloc(2 * j->n + 1, sizeof(*pfd));
	nfds_t np = 0;
	for (size_t i = 0; i < j->n; i++)
		for (int s = 0; s < 2; s++)
			if (j->nodes[i].fd[s] >= 0)
				pfd[np++] = (struct pollfd){j->nodes[i].fd[s], POLLIN, 0};
	int ms = (int)ceil(wait * 1000);
	int r = np ? poll(pfd, np, ms) : 0;
	int err = errno;
	free(pfd);
	if (!np && ms > 0) {
		struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
		nanosleep(&ts, NULL);
	}
	if (r < 0 && err != EINTR)
		return assay_error_set(e, ASSAY_INFRA, "poll: %s", strerror(err));
	return ASSAY_OK;
}

static void fill_status(const struct ssh_job *j, struct assay_job_status *st)
{
	memset(st, 0, sizeof(*st));
	double now = j->done ? j->end_time : assay_monotonic();
	st->elapsed_s = j->started ? now - j->start : 0;
	if (!j->done) {
		st->end = ASSAY_JOB_RUNNING;
		snprintf(st->where, sizeof(st->where), "%s", j->where);
		return;
	}
	if (j->first_bad != SIZE_MAX) {
		const struct ssh_node *nd = &j->nodes[j->first_bad];
		st->end = ASSAY_JOB_EXITED;
		st->exit_code = nd->code;
		snprintf(st->detail, sizeof(st->detail), "exit code %d on node %zu (%s)", nd->code,
			 j->first_bad, j->l->o.hosts[nd->host].host);
	} else if (j->forced) {
		st->end = j->forced;
		if (j->forced == ASSAY_JOB_TIMED_OUT)
			snprintf(st->detail, sizeof(st->detail), "timeout after %g s",
				 j->timeout_s);
		else
			snprintf(st->detail, sizeof(st->detail), "cancelled");
	} else {
		st->end = ASSAY_JOB_EXITED;
	}
}

/* After every ssh ended: the last output; a pipe still open 5 s later
 * (a master that does not let go) is closed. */
static assay_err finish(struct ssh_job *j, double now, struct assay_error *e)
{
	bool fds_open;
	if (!all_ended(j, &fds_open))
		return ASSAY_OK;
	if (!j->reaped_at)
		j->reaped_at = now;
	for (size_t i = 0; i < j->n && (!fds_open || now - j->reaped_at > 5); i++)
		for (int s = 0; s < 2; s++)
			if (j->nodes[i].fd[s] >= 0) {
				assay_err rc = drain(j, &j->nodes[i], s, false, e);
				if (rc == ASSAY_OK && j->nodes[i].fd[s] >= 0) {
					close(j->nodes[i].fd[s]);
					j->nodes[i].fd[s] = -1;
					rc = deliver(j, &j->nodes[i], s, NULL, 0, true, e);
				}
				if (rc != ASSAY_OK)
					return rc;
			}
	all_ended(j, &fds_open);
	if (!fds_open) {
		j->done = true;
		j->end_time = now;
		for (size_t i = 0; i < j->n; i++)
			if (j->nodes[i].in_fd >= 0) {
				close(j->nodes[i].in_fd);
				j->nodes[i].in_fd = -1;
			}
	}
	return ASSAY_OK;
}

assay_err ssh_poll(struct assay_job *job, double wait_s, struct assay_job_status *st,
		   struct assay_error *e)
{
	struct ssh_job *j = J(job);
	if (!j->started || j->done) {
		fill_status(j, st);
		return j->done && j->lost[0] ? assay_error_set(e, ASSAY_INFRA, "%s", j->lost)
					     : ASSAY_OK;
	}
	if (wait_output(j, wait_s, e) != ASSAY_OK)
		return ASSAY_INFRA;
	for (size_t i = 0; i < j->n; i++)
		for (int s = 0; s < 2; s++) {
			assay_err rc = drain(j, &j->nodes[i], s, false, e);
			if (rc != ASSAY_OK)
				return rc;
		}
	reap_all(j);
	double now = assay_monotonic();
	if (j->timeout_s > 0 && !j->stopping && now - j->start >= j->timeout_s) {
		if (!j->forced)
			j->forced = ASSAY_JOB_TIMED_OUT;
		stop_all(j);
	}
	/* The nodes end the command themselves after the grace period; one
	 * that does not answer by then (and a connection's timeout) is killed. */
	if (j->stopping && !j->killed &&
	    now - j->stop_at > j->l->o.grace_s + j->l->o.connect_timeout_s + 5)
		kill_now(j);
	assay_err rc = finish(j, now, e);
	if (rc != ASSAY_OK)
		return rc;
	fill_status(j, st);
	if (j->done && j->lost[0])
		return assay_error_set(e, ASSAY_INFRA, "%s", j->lost);
	return ASSAY_OK;
}

void ssh_cancel(struct assay_job *job)
{
	struct ssh_job *j = J(job);
	if (!j->started || j->done)
		return;
	if (!j->stopping) {
		if (!j->forced)
			j->forced = ASSAY_JOB_CANCELLED;
		stop_all(j);
	} else if (!j->killed) {
		kill_now(j);
	}
}

void ssh_release(struct assay_job *job)
{
	if (!job)
		return;
	struct ssh_job *j = J(job);
	if (j->started && !j->done) {
		/* Error paths: nothing of the case stays on any node. */
		kill_now(j);
		for (size_t i = 0; i < j->n; i++)
			if (j->nodes[i].pid > 0 && !j->nodes[i].reaped)
				while (waitpid(j->nodes[i].pid, NULL, 0) < 0 && errno == EINTR)
					;
	}
	for (size_t i = 0; i < j->n; i++) {
		struct ssh_node *nd = &j->nodes[i];
		if (nd->in_fd >= 0)
			close(nd->in_fd);
		for (int s = 0; s < 2; s++) {
			if (nd->fd[s] >= 0)
				close(nd->fd[s]);
			if (nd->log[s] >= 0)
				close(nd->log[s]);
			if (nd->pid > 0)
				assay_redact_stream_release(&nd->rs[s]);
			sbuf_release(&nd->line[s]);
		}
	}
	for (int s = 0; s < 2; s++)
		if (j->case_log[s] >= 0)
			close(j->case_log[s]);
	free(j->nodes);
	free(j->case_id);
	free(j->dir);
	free(j->cwd);
	free(j->label);
	free(j->ctr_name);
	free(j->ctr_run);
	free(j->ctr_dir);
	if (j->ctr_name || j->ctr.on)
		assay_container_release(&j->ctr);
	strlist_clear(&j->ctr_env);
	strlist_clear(&j->argv);
	strlist_clear(&j->env);
	free(job);
}
