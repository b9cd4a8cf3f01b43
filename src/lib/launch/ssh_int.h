/* The ssh launcher's insides (docs/ssh.md), shared by ssh.c (options, the
 * master connections, helper commands on a host, resume) and ssh_job.c (one
 * case: a process per node, its output, its stops). */
#ifndef ASSAY_SSH_INT_H
#define ASSAY_SSH_INT_H

#include <stdbool.h>
#include <sys/types.h>

#include "assay/container.h"
#include "assay/launch.h"
#include "assay/util.h"

struct ssh_host {
	char *host; /* what ssh connects to (a name, an address, an ssh_config Host) */
	char *addr; /* the address the other nodes reach it by (CVS's vpc_ip) */
};

/* CVS's per-host container (a cluster file's `orchestrator: container` and
 * its `container` block, docs/ssh.md): per_run cases run in a fresh
 * container each (the suite-container path), no_launch and persistent ones
 * in the container `name` that runs on every host. */
enum ssh_cvs_lifetime { SSH_CVS_NO_LAUNCH = 0, SSH_CVS_PER_RUN, SSH_CVS_PERSISTENT };
struct ssh_cvs {
	enum ssh_cvs_lifetime lifetime;
	char *name;
	struct assay_container ctr; /* runtime, image, volumes; options: the args' flags */
	char *reg_user, *reg_file, *reg_server; /* registry login, or reg_user NULL */
};

struct ssh_opts {
	struct ssh_host *hosts;
	size_t n_hosts;
	char *user, *identity, *config, *program;
	struct strlist env; /* NAME=VALUE exported before the command (CVS env_vars) */
	long long port;     /* 0: ssh's own (or the config's) */
	long long master_port;
	double connect_timeout_s, grace_s;
	bool accept_new;         /* StrictHostKeyChecking accept-new instead of yes */
	char *cluster_file;      /* where hosts came from, for messages; or NULL */
	struct ssh_cvs *cvs;     /* the cluster file's container block, or NULL */
	char *suite_file, *path; /* where the launcher block is, for messages */
};

struct ssh_launcher {
	struct assay_launcher base;
	struct ssh_opts o;
	char ctl_dir[64]; /* the master connections' sockets, "" until made */
	/* Per host, once per run (CVS container block): passwordless sudo
	 * (-1 not asked yet), CVS's default devices present there, the
	 * registry login and the lifetime's setup done. */
	signed char *sudo;
	struct strlist *devices;
	bool ready;
};

/* ssh's argv to host k (through its master when one runs), with the
 * options extra (NULL-terminated, or NULL) before the host: append the
 * remote command after it. */
void ssh_argv(const struct ssh_launcher *l, size_t k, const char *const extra[],
	      struct strlist *out);
/* Make sure host k has a master connection: ASSAY_INFRA naming the host
 * and what ssh said (unreachable, key refused, host key changed ...). The
 * hosts in want[0..n) are connected in parallel. */
assay_err ssh_masters(struct ssh_launcher *l, const size_t *want, size_t n, struct assay_error *e);
/* Is host k's master still connected? */
bool ssh_master_alive(const struct ssh_launcher *l, size_t k);
/* On host k, send sig ("TERM", "KILL") to every process whose environment
 * holds ASSAY_SSH_LABEL=<prefix>...; returns how many (-1: ssh failed). */
long ssh_sweep(const struct ssh_launcher *l, size_t k, const char *sig, const char *prefix);
/* Run script on host k (`sh -c script name args...`); its output appended
 * to output (may be NULL). Returns its output's lines (-1: ssh failed). */
long ssh_host_script(const struct ssh_launcher *l, size_t k, const char *script, const char *name,
		     const char *const args[], struct sbuf *output);
/* The label of a case's processes: assay-<run>-<case>-a<attempt> (a node
 * adds -n<rank>); with case_id NULL, the run's prefix assay-<run>-. */
void ssh_label(const char *run_id, const char *case_id, int attempt, struct sbuf *out);

/* ssh_cluster.c: a cluster file's string member (required or not) with
 * {user-id} resolved, no placeholder left; *out owned. 0 when absent. */
int ssh_cluster_string(struct assay_cfg *c, const json_t *obj, const char *path, const char *key,
		       int flags, char **out);
/* ssh_cvs.c: the cluster file's container block at $.container. */
int ssh_cvs_parse(struct assay_cfg *c, const json_t *doc, struct ssh_opts *o);
void ssh_cvs_free(struct ssh_cvs *cvs);
/* Once per run, before the first case, on every host of the file (as
 * CVS's setup): passwordless sudo and the default devices asked; the
 * registry login; no_launch/persistent: the container checked on every
 * host (persistent: started on each when it runs on none). ASSAY_INFRA
 * naming the host. */
assay_err ssh_cvs_ready(struct ssh_launcher *l, struct assay_error *e);
/* Host k's devices, one line each: "DEV passed" or "DEV left out: ...". */
void ssh_cvs_devices_note(const struct ssh_launcher *l, size_t k, struct sbuf *out);
/* "sudo -n" words before a runtime command on host k (none without sudo);
 * names: the variables the command must keep (sudo resets the rest). */
void ssh_cvs_sudo(const struct ssh_launcher *l, size_t k, const struct strlist *names,
		  struct strlist *out);

/* The script every node runs (its argv[0] and arguments follow it). */
extern const char ssh_node_script[];

extern const struct assay_launcher_ops ssh_ops;
/* ssh_job.c */
assay_err ssh_prepare(struct assay_launcher *base, const struct assay_launch_spec *s,
		      struct assay_job **out, struct assay_error *e);
void ssh_describe(const struct assay_job *job, struct sbuf *out);
assay_err ssh_submit(struct assay_job *job, struct assay_error *e);
assay_err ssh_poll(struct assay_job *job, double wait_s, struct assay_job_status *st,
		   struct assay_error *e);
void ssh_cancel(struct assay_job *job);
void ssh_release(struct assay_job *job);

#endif
