/* CVS's per-host container, a cluster file's `container` block (ROCm/cvs
 * dddd914: cvs/input/cluster_file/README.md, cluster_container.json,
 * cvs/core/orchestrators/{factory,container}.py, cvs/core/runtimes/docker.py):
 * lifetime no_launch / per_run (default) / persistent, image, name (default
 * <user>_<image with every other character '_'>), runtime.name, runtime.args
 * (list args appended to CVS's defaults, scalars overriding them) and the
 * registry login, whose password file is read on each host and given to the
 * runtime on stdin. Passwordless `sudo -n` is asked once per host and put
 * before the runtime's commands only. The rules, never CVS's code. */
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "assay/json.h"
#include "assay/slurm.h" /* assay_shell_quote */
#include "ssh_int.h"

static const char *const cvs_lifetimes[] = {"no_launch", "per_run", "persistent", NULL};
/* CVS's DEFAULT_CONTAINER_ARGS (container.py): the flags every container
 * gets before the file's own; devices are passed where the host has them. */
static const char *const default_flags[] = {"--cap-add=SYS_PTRACE",
					    "--cap-add=IPC_LOCK",
					    "--cap-add=SYS_ADMIN",
					    "--security-opt=seccomp=unconfined",
					    "--security-opt=apparmor=unconfined",
					    "--group-add=video",
					    "--ulimit=memlock=-1",
					    NULL};
static const char *const default_devices[] = {"/dev/kfd", "/dev/dri", "/dev/infiniband", NULL};
/* runtime.args list keys and their flag. */
static const char *const list_keys[][2] = {{"devices", "--device="},
					   {"cap_add", "--cap-add="},
					   {"security_opt", "--security-opt="},
					   {"group_add", "--group-add="},
					   {"ulimit", "--ulimit="}};

/* A list of strings, possibly empty (CVS's `[]`), each as FLAG=VALUE into
 * out (or, flag NULL, the value). */
static int arg_list(struct assay_cfg *c, const json_t *args, const char *path, const char *key,
		    const char *flag, struct strlist *out)
{
	json_t *v;
	int got = assay_cfg_member(c, args, path, key, ASSAY_CFG_OPTIONAL, JSON_ARRAY, &v);
	if (got <= 0)
		return got;
	char p[300];
	assay_json_path_key(p, sizeof(p), path, key);
	size_t i;
	json_t *it;
	json_array_foreach(v, i, it)
	{
		if (!json_is_string(it) || !json_string_length(it)) {
			char q[320];
			snprintf(q, sizeof(q), "%s[%zu]", p, i);
			return assay_cfg_expected(c, q, "a non-empty string", it);
		}
		char *s = xasprintf("%s%s", flag ? flag : "", json_string_value(it));
		strlist_push(out, s);
		free(s);
	}
	return 1;
}

static int read_registry(struct assay_cfg *c, const json_t *args, const char *path,
			 struct ssh_cvs *x)
{
	json_t *r;
	int got = assay_cfg_member(c, args, path, "registry", ASSAY_CFG_OPTIONAL, JSON_OBJECT, &r);
	if (got <= 0)
		return got;
	char p[300];
	assay_json_path_key(p, sizeof(p), path, "registry");
	static const char *const keys[] = {"username", "password_file", "server", NULL};
	json_t *srv = json_object_get(r, "server");
	if (assay_cfg_object(c, r, p, keys) < 0 ||
	    ssh_cluster_string(c, r, p, "username", ASSAY_CFG_REQUIRED, &x->reg_user) < 0 ||
	    ssh_cluster_string(c, r, p, "password_file", ASSAY_CFG_REQUIRED, &x->reg_file) < 0)
		return -1;
	if (srv && !json_is_string(srv)) {
		char q[320];
		assay_json_path_key(q, sizeof(q), p, "server");
		return assay_cfg_expected(c, q, "a string (\"\" for Docker Hub)", srv);
	}
	x->reg_server = xstrdup(srv ? json_string_value(srv) : "");
	return 1;
}

/* Scalars override CVS's defaults (network host, ipc host, privileged). */
static int read_scalars(struct assay_cfg *c, const json_t *args, const char *path,
			struct strlist *opts)
{
	static const char *const scalars[] = {"network", "ipc"};
	for (size_t i = 0; i < 2; i++) {
		const char *v = "host";
		if (args && assay_cfg_string(c, args, path, scalars[i], ASSAY_CFG_OPTIONAL, &v) < 0)
			return -1;
		char *s = xasprintf("--%s=%s", scalars[i], v);
		strlist_push(opts, s);
		free(s);
	}
	bool priv = true;
	if (args && assay_cfg_bool(c, args, path, "privileged", ASSAY_CFG_OPTIONAL, &priv) < 0)
		return -1;
	if (priv)
		strlist_push(opts, "--privileged");
	return 0;
}

static int read_args(struct assay_cfg *c, const json_t *rt, struct ssh_cvs *x)
{
	const char *path = "$.container.runtime.args";
	json_t *args = NULL;
	if (rt && assay_cfg_member(c, rt, "$.container.runtime", "args", ASSAY_CFG_OPTIONAL,
				   JSON_OBJECT, &args) < 0)
		return -1;
	const char *it;
	json_t *v;
	json_object_foreach(args, it, v)
	{
		static const char *const known[] = {
		    "network", "ipc",          "privileged", "volumes", "devices",
		    "cap_add", "security_opt", "group_add",  "ulimit",  "registry"};
		bool ok = it[0] == '_';
		for (size_t i = 0; i < ARRAY_SIZE(known) && !ok; i++)
			ok = !strcmp(it, known[i]);
		if (!ok)
			return assay_cfg_fail(c, path,
					      "unknown key \"%s\" (CVS's runtime args: network, "
					      "ipc, privileged, volumes, devices, cap_add, "
					      "security_opt, group_add, ulimit, registry)",
					      it);
	}
	if (read_scalars(c, args, path, &x->ctr.options) < 0)
		return -1;
	for (size_t i = 0; default_flags[i]; i++)
		strlist_push(&x->ctr.options, default_flags[i]);
	for (size_t i = 0; args && i < ARRAY_SIZE(list_keys); i++)
		if (arg_list(c, args, path, list_keys[i][0], list_keys[i][1], &x->ctr.options) < 0)
			return -1;
	if (args && (arg_list(c, args, path, "volumes", NULL, &x->ctr.mounts) < 0 ||
		     read_registry(c, args, path, x) < 0))
		return -1;
	return 0;
}

/* CVS's default name: <user>_<image, every character but [A-Za-z0-9_] '_'>. */
static char *default_name(const char *image)
{
	const struct passwd *pw = getpwuid(getuid());
	char *n = xasprintf("%s_%s", pw ? pw->pw_name : "root", image);
	for (char *p = n; *p; p++)
		if (!(*p == '_' || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9')))
			*p = '_';
	return n;
}

static int read_runtime(struct assay_cfg *c, const json_t *blk, json_t **rt, struct ssh_cvs *x)
{
	const char *name = "docker";
	if (assay_cfg_member(c, blk, "$.container", "runtime", ASSAY_CFG_OPTIONAL, JSON_OBJECT,
			     rt) < 0 ||
	    (*rt && assay_cfg_string(c, *rt, "$.container.runtime", "name", ASSAY_CFG_OPTIONAL,
				     &name) < 0))
		return -1;
	if (!strcmp(name, "docker") || !strcmp(name, "podman")) {
		x->ctr.runtime = !strcmp(name, "docker") ? ASSAY_CTR_DOCKER : ASSAY_CTR_PODMAN;
		return 0;
	}
	return assay_cfg_fail(c, "$.container.runtime.name",
			      "\"%s\": the ssh launcher runs CVS's containers with docker (or "
			      "podman); CVS's enroot runtime is a stub",
			      name);
}

static int read_block(struct assay_cfg *c, const json_t *blk, struct ssh_cvs *x)
{
	static const char *const gone[] = {"enabled", "launch"};
	for (size_t i = 0; i < 2; i++)
		if (json_object_get(blk, gone[i]))
			return assay_cfg_fail(
			    c, gone[i][0] == 'e' ? "$.container.enabled" : "$.container.launch",
			    "removed from CVS: delete it and set "
			    "\"lifetime\" (no_launch, per_run or persistent)");
	if (json_object_get(blk, "image_tar"))
		return assay_cfg_fail(c, "$.container.image_tar",
				      "not run by assay: load the image on every host, or "
				      "give an image the hosts can pull");
	const char *life = "per_run";
	json_t *rt = NULL;
	if (assay_cfg_enum(c, blk, "$.container", "lifetime", ASSAY_CFG_OPTIONAL, cvs_lifetimes,
			   &life) < 0 ||
	    ssh_cluster_string(c, blk, "$.container", "image", ASSAY_CFG_REQUIRED, &x->ctr.image) <
		0 ||
	    ssh_cluster_string(c, blk, "$.container", "name", ASSAY_CFG_OPTIONAL, &x->name) < 0 ||
	    read_runtime(c, blk, &rt, x) < 0)
		return -1;
	for (size_t i = 0; cvs_lifetimes[i]; i++)
		if (!strcmp(life, cvs_lifetimes[i]))
			x->lifetime = (enum ssh_cvs_lifetime)i;
	x->ctr.on = true;
	x->ctr.pull = ASSAY_CTR_PULL_MISSING;
	if (!x->name)
		x->name = default_name(x->ctr.image);
	return read_args(c, rt, x);
}

int ssh_cvs_parse(struct assay_cfg *c, const json_t *doc, struct ssh_opts *o)
{
	json_t *blk;
	if (assay_cfg_member(c, doc, "$", "container", ASSAY_CFG_REQUIRED, JSON_OBJECT, &blk) < 0)
		return -1;
	o->cvs = xcalloc(1, sizeof(*o->cvs));
	return read_block(c, blk, o->cvs);
}

void ssh_cvs_free(struct ssh_cvs *x)
{
	if (!x)
		return;
	free(x->name);
	free(x->reg_user);
	free(x->reg_file);
	free(x->reg_server);
	assay_container_release(&x->ctr);
	free(x);
}

void ssh_cvs_sudo(const struct ssh_launcher *l, size_t k, const struct strlist *names,
		  struct strlist *out)
{
	if (!l->sudo || l->sudo[k] != 1)
		return;
	strlist_push(out, "sudo");
	strlist_push(out, "-n");
	if (!names || !names->n)
		return;
	struct sbuf keep = SBUF_INIT;
	sbuf_adds(&keep, "--preserve-env=");
	for (size_t i = 0; i < names->n; i++)
		sbuf_addf(&keep, "%s%s", i ? "," : "", names->v[i]);
	strlist_push(out, sbuf_str(&keep));
	sbuf_release(&keep);
}

/* On a host: "sudo" when passwordless sudo works there (CVS's `sudo -n
 * true`), then each of CVS's default devices the host has ($@). */
static const char probe_script[] =
    "sudo -n true >/dev/null 2>&1 && echo sudo; for d in \"$@\" /dev/infiniband/*; do "
    "[ -e \"$d\" ] && echo \"$d\"; done; exit 0";
/* On a host: the registry login, the password file read there and given to
 * the runtime on stdin ($1 runtime, $2 user, $3 file, $4 server, $5 "sudo"
 * or ""); "ok", or the runtime's last words. */
static const char login_script[] =
    "L='\"$0\" login --username \"$1\" --password-stdin ${3:+\"$3\"} <\"$2\"'; "
    "if [ -n \"$5\" ]; then o=$(sudo -n sh -c \"$L\" \"$1\" \"$2\" \"$3\" \"$4\" 2>&1); "
    "else o=$(sh -c \"$L\" \"$1\" \"$2\" \"$3\" \"$4\" 2>&1); fi && echo ok || "
    "printf '%s\\n' \"$o\" | tail -n 1; exit 0";
/* On a host: "running" when container $2 runs there, "absent" when not,
 * else what the runtime said ($1 runtime, $3 "sudo" or ""). */
static const char state_script[] =
    "o=$(${3:+sudo -n} \"$1\" ps --filter \"name=^$2\\$\" --filter status=running --format "
    "'{{.Names}}' 2>&1) || { printf '%s\\n' \"$o\" | tail -n 1; exit 0; }; "
    "printf '%s\\n' \"$o\" | grep -qx \"$2\" && echo running || echo absent; exit 0";

static void chomp(struct sbuf *sb)
{
	while (sb->len && (sb->buf[sb->len - 1] == '\n' || sb->buf[sb->len - 1] == '\r'))
		sb->buf[--sb->len] = '\0';
}

/* Host k: sudo and devices asked; the registry login. */
static assay_err host_ready(struct ssh_launcher *l, size_t k, struct assay_error *e)
{
	const struct ssh_cvs *x = l->o.cvs;
	const char *host = l->o.hosts[k].host;
	struct sbuf out = SBUF_INIT;
	const char *pargs[] = {default_devices[0], default_devices[1], default_devices[2], NULL};
	if (ssh_host_script(l, k, probe_script, "assay-cvs-probe", pargs, &out) < 0) {
		sbuf_release(&out);
		return assay_error_set(e, ASSAY_INFRA, "ssh: host %s: could not be probed", host);
	}
	l->sudo[k] = 0;
	for (char *line = out.buf, *nl; line && *line; line = nl ? nl + 1 : NULL) {
		nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		if (!strcmp(line, "sudo"))
			l->sudo[k] = 1;
		else if (!strlist_has(&l->devices[k], line))
			strlist_push(&l->devices[k], line);
	}
	sbuf_release(&out);
	if (!x->reg_user)
		return ASSAY_OK;
	const char *largs[] = {assay_ctr_runtime_names[x->ctr.runtime],
			       x->reg_user,
			       x->reg_file,
			       x->reg_server,
			       l->sudo[k] ? "sudo" : "",
			       NULL};
	ssh_host_script(l, k, login_script, "assay-cvs-login", largs, &out);
	chomp(&out);
	assay_err rc = ASSAY_OK;
	if (strcmp(sbuf_str(&out), "ok"))
		rc = assay_error_set(e, ASSAY_INFRA,
				     "container: host %s: registry login as %s with the password "
				     "in %s failed: %s",
				     host, x->reg_user, x->reg_file,
				     out.len ? sbuf_str(&out) : "ssh failed");
	sbuf_release(&out);
	return rc;
}

/* Start the persistent container on host k: CVS force-removes a stale
 * one of the name first, then `run -d ... IMAGE sleep infinity`. */
static assay_err start_persistent(struct ssh_launcher *l, size_t k, struct assay_error *e)
{
	const struct ssh_cvs *x = l->o.cvs;
	struct strlist cmd = STRLIST_INIT;
	ssh_cvs_sudo(l, k, NULL, &cmd);
	strlist_push(&cmd, assay_ctr_runtime_names[x->ctr.runtime]);
	strlist_push(&cmd, "run");
	strlist_push(&cmd, "-d");
	strlist_push(&cmd, "--name");
	strlist_push(&cmd, x->name);
	strlist_push(&cmd, "--pull=missing");
	for (size_t i = 0; i < x->ctr.options.n; i++)
		strlist_push(&cmd, x->ctr.options.v[i]);
	for (size_t i = 0; i < l->devices[k].n; i++) {
		char *d = xasprintf("--device=%s", l->devices[k].v[i]);
		strlist_push(&cmd, d);
		free(d);
	}
	for (size_t i = 0; i < x->ctr.mounts.n; i++) {
		strlist_push(&cmd, "-v");
		strlist_push(&cmd, x->ctr.mounts.v[i]);
	}
	strlist_push(&cmd, x->ctr.image);
	strlist_push(&cmd, "sleep");
	strlist_push(&cmd, "infinity");
	struct sbuf script = SBUF_INIT, out = SBUF_INIT;
	sbuf_adds(&script, "${1:+sudo -n} \"$2\" rm -f \"$3\" >/dev/null 2>&1; o=$(");
	for (size_t i = 0; i < cmd.n; i++) {
		assay_shell_quote(&script, cmd.v[i]);
		sbuf_addch(&script, ' ');
	}
	sbuf_adds(&script, "2>&1) && echo ok || printf '%s\\n' \"$o\" | tail -n 1; exit 0");
	const char *args[] = {l->sudo[k] ? "sudo" : "", assay_ctr_runtime_names[x->ctr.runtime],
			      x->name, NULL};
	ssh_host_script(l, k, sbuf_str(&script), "assay-cvs-start", args, &out);
	chomp(&out);
	assay_err rc = ASSAY_OK;
	if (strcmp(sbuf_str(&out), "ok"))
		rc = assay_error_set(e, ASSAY_INFRA,
				     "container: host %s: could not start the persistent "
				     "container %s: %s",
				     l->o.hosts[k].host, x->name, out.len ? out.buf : "ssh failed");
	strlist_clear(&cmd);
	sbuf_release(&script);
	sbuf_release(&out);
	return rc;
}

/* The names of the hosts whose state is (or is not) want, for a message. */
static void hosts_where(const struct ssh_launcher *l, char *const *state, const char *want, bool is,
			struct sbuf *out)
{
	for (size_t k = 0; k < l->o.n_hosts; k++)
		if (!strcmp(state[k], want) == is)
			sbuf_addf(out, "%s%s", out->len ? ", " : "", l->o.hosts[k].host);
}

/* no_launch: running on every host. persistent: running on every host
 * (attach), on none (start it on each), on some: CVS's hard error. */
static assay_err lifetime_ready(struct ssh_launcher *l, struct assay_error *e)
{
	const struct ssh_cvs *x = l->o.cvs;
	char **state = xcalloc(l->o.n_hosts, sizeof(*state));
	size_t running = 0;
	assay_err rc = ASSAY_OK;
	for (size_t k = 0; k < l->o.n_hosts && rc == ASSAY_OK; k++) {
		struct sbuf out = SBUF_INIT;
		const char *args[] = {assay_ctr_runtime_names[x->ctr.runtime], x->name,
				      l->sudo[k] ? "sudo" : "", NULL};
		ssh_host_script(l, k, state_script, "assay-cvs-state", args, &out);
		chomp(&out);
		state[k] = sbuf_detach(&out, NULL);
		if (!strcmp(state[k], "running"))
			running++;
		else if (strcmp(state[k], "absent"))
			rc = assay_error_set(e, ASSAY_INFRA,
					     "container: host %s: cannot tell whether %s runs "
					     "there: %s",
					     l->o.hosts[k].host, x->name,
					     state[k][0] ? state[k] : "ssh failed");
	}
	struct sbuf on = SBUF_INIT, off = SBUF_INIT;
	if (rc == ASSAY_OK && running < l->o.n_hosts) {
		hosts_where(l, state, "running", true, &on);
		hosts_where(l, state, "running", false, &off);
	}
	if (rc == ASSAY_OK && running < l->o.n_hosts && x->lifetime == SSH_CVS_NO_LAUNCH)
		rc = assay_error_set(e, ASSAY_INFRA,
				     "container: %s is not running on %s (lifetime no_launch: "
				     "start it there yourself; assay never does)",
				     x->name, off.buf);
	else if (rc == ASSAY_OK && running && running < l->o.n_hosts)
		rc = assay_error_set(e, ASSAY_INFRA,
				     "container: the persistent container %s runs on %s but not on "
				     "%s: remove it on every host or start it on the others",
				     x->name, on.buf, off.buf);
	else if (rc == ASSAY_OK && !running)
		for (size_t k = 0; k < l->o.n_hosts && rc == ASSAY_OK; k++)
			rc = start_persistent(l, k, e);
	sbuf_release(&on);
	sbuf_release(&off);
	for (size_t k = 0; k < l->o.n_hosts; k++)
		free(state[k]);
	free(state);
	return rc;
}

assay_err ssh_cvs_ready(struct ssh_launcher *l, struct assay_error *e)
{
	if (!l->o.cvs || l->ready)
		return ASSAY_OK;
	size_t n = l->o.n_hosts;
	size_t *all = xcalloc(n, sizeof(*all));
	for (size_t k = 0; k < n; k++)
		all[k] = k;
	assay_err rc = ssh_masters(l, all, n, e);
	free(all);
	if (rc != ASSAY_OK)
		return rc;
	if (!l->sudo) { /* a failed setup is asked again by the next case */
		l->sudo = xcalloc(n, sizeof(*l->sudo));
		l->devices = xcalloc(n, sizeof(*l->devices));
	}
	for (size_t k = 0; k < n && rc == ASSAY_OK; k++)
		rc = host_ready(l, k, e);
	if (rc == ASSAY_OK && l->o.cvs->lifetime != SSH_CVS_PER_RUN)
		rc = lifetime_ready(l, e);
	l->ready = rc == ASSAY_OK;
	return rc;
}

void ssh_cvs_devices_note(const struct ssh_launcher *l, size_t k, struct sbuf *out)
{
	for (size_t i = 0; default_devices[i]; i++)
		if (!strlist_has(&l->devices[k], default_devices[i]))
			sbuf_addf(out,
				  "%s left out: not on this host (a CVS default device; "
				  "docker would refuse it)\n",
				  default_devices[i]);
	for (size_t i = 0; i < l->devices[k].n; i++)
		sbuf_addf(out, "%s passed\n", l->devices[k].v[i]);
}
