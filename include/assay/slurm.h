/* The Slurm launcher's pure parts (no process is started here): the suite's
 * `launcher: {"type": "slurm", ...}` options, node-count consistency checks,
 * batch-script and srun generation, hostlist expressions, parsers for the
 * output of sbatch --parsable, squeue and scontrol show job, the Slurm state
 * -> outcome table, and detection of an existing allocation. docs/slurm.md. */
#ifndef ASSAY_SLURM_H
#define ASSAY_SLURM_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "assay/cfg.h"
#include "assay/config.h"
#include "assay/error.h"
#include "assay/util.h"

/* ---- Options: the launcher block of a suite (docs/slurm.md, "Keys") ---- */

enum assay_slurm_job_per { ASSAY_SLURM_PER_SHARD = 0, ASSAY_SLURM_PER_CASE = 1 };

#define ASSAY_SLURM_DEFAULT_MPI         "pmix"
#define ASSAY_SLURM_DEFAULT_POLL_S      10.0
#define ASSAY_SLURM_DEFAULT_MASTER_PORT 29500

struct assay_slurm_options {
	/* Placement; NULL when not set. */
	char *partition, *account, *qos, *reservation, *time;
	char *nodelist, *exclude, *constraint;
	int exclusive;               /* -1 unset, 0 or 1 */
	int gpu_gres;                /* -1 unset (= yes), 0: no --gpus-per-node, 1: request GPUs */
	long long gpus_per_node;     /* 0 unset: the platform's gpus_per_node */
	char *mpi;                   /* srun --mpi=VALUE; NULL: "pmix" */
	struct strlist mpi_launcher; /* replaces "srun --mpi=..." for assay-ep when non-empty */
	struct strlist srun_args;    /* extra srun options, e.g. --cpu-bind=none */
	struct strlist sbatch_args;  /* extra #SBATCH options, e.g. --mem=0 */
	double poll_interval_s;      /* 0 unset: ASSAY_SLURM_DEFAULT_POLL_S */
	long long master_port;       /* 0 unset: network.master_port, then 29500 */
	enum assay_slurm_job_per job_per;
	long long ntasks_per_node; /* command workloads; 0 unset: 1 (torchrun-style) */
};

void assay_slurm_options_init(struct assay_slurm_options *o);
void assay_slurm_options_release(struct assay_slurm_options *o);
/* A deep copy of from into to (to is initialized first). */
void assay_slurm_options_copy(struct assay_slurm_options *to,
			      const struct assay_slurm_options *from);
/* Read the launcher object v (at JSON path `path` of c->file). Unknown keys,
 * wrong types, a "type" other than "slurm", a bad time string or hostlist are
 * errors (-1, ASSAY_USAGE in c->err); 0 on success. */
int assay_slurm_options_parse(struct assay_cfg *c, const json_t *v, const char *path,
			      struct assay_slurm_options *o);
/* Fill the keys o leaves unset from a platform's "operator" block (the
 * registry's site defaults; the suite wins). op may be NULL. */
void assay_slurm_options_apply_operator(struct assay_slurm_options *o, const json_t *op);

/* ---- Node counts (consistency of registry, case and launcher) ---- */

struct assay_slurm_shape {
	long long nodes;
	long long ntasks_per_node;
	long long gpus_per_node; /* for --gpus-per-node; 0: omit */
};

/* The shape of an EP case of `ep` ranks on platform p under options o:
 * nodes = ceil(ep / gpus_per_node), one rank per GPU. Checks that ep fills
 * whole nodes when it spans more than one, that o->gpus_per_node (when set)
 * agrees with the registry, and that nodelist/exclude (from o) can hold the
 * job (see assay_slurm_check_hosts). ASSAY_USAGE with a message otherwise;
 * `where` (e.g. "suite.json: $.launcher") prefixes launcher-side errors. */
assay_err assay_slurm_shape_ep(const struct assay_platform *p, const char *registry_file,
			       const struct assay_slurm_options *o, const char *where, long long ep,
			       struct assay_slurm_shape *out, struct assay_error *e);
/* The shape of a command workload: `nodes` x `ntasks_per_node` as the suite
 * asks, --gpus-per-node from the platform (p may be NULL: o->gpus_per_node).
 * The same gpus_per_node and host checks as assay_slurm_shape_ep. */
assay_err assay_slurm_shape_nodes(const struct assay_platform *p, const char *registry_file,
				  const struct assay_slurm_options *o, const char *where,
				  long long nodes, long long ntasks_per_node,
				  struct assay_slurm_shape *out, struct assay_error *e);
/* A job of `nodes` nodes with --nodelist/--exclude: every host of nodelist is
 * put into the job by Slurm, so nodelist may not name more hosts than nodes,
 * and no host may be both listed and excluded. Either may be NULL. */
assay_err assay_slurm_check_hosts(long long nodes, const char *nodelist, const char *exclude,
				  const char *where, struct assay_error *e);

/* ---- Hostlists: "node[01-04,07]", "a1,b[2-3]-ib", "r[1-2]n[1-2]" ---- */

#define ASSAY_HOSTLIST_MAX 65536 /* hosts one expression may expand to */

/* Append every host of expr, in order, to out. ASSAY_USAGE with a message
 * (unbalanced bracket, reversed or malformed range, empty name, too many). */
assay_err assay_hostlist_expand(const char *expr, struct strlist *out, struct assay_error *e);
/* Number of hosts, or -1 with e filled. */
long long assay_hostlist_count(const char *expr, struct assay_error *e);

/* ---- Script generation ---- */

struct assay_slurm_env {
	const char *name;  /* [A-Za-z_][A-Za-z0-9_]* */
	const char *value; /* any bytes; shell-quoted in the script */
};

/* One srun step: a case. */
struct assay_slurm_step {
	const char *label;       /* shown in a comment, e.g. the case id */
	const char *const *argv; /* the program and its arguments */
	size_t argc;
	bool mpi;                /* an MPI program (assay-ep): srun --mpi=..., or mpi_launcher */
	const char *log_dir;     /* per-node logs: LOG_DIR/<job>-<jobid>-<node>.out|.err */
	const char *status_file; /* the step's exit status is written here; NULL: not */
	const struct assay_slurm_env *env; /* step-only variables */
	size_t n_env;
	const char *cwd; /* srun --chdir (absolute); NULL: the job's directory */
	/* srun options of the step's container (pyxis: --container-image=...),
	 * after the launcher's own; include/assay/container.h. */
	const char *const *srun_opts;
	size_t n_srun_opts;
	/* One log file per task: LOG_DIR/<job>-<jobid>-<node>.<task>.out|.err. */
	bool per_task;
};

struct assay_slurm_job {
	const char *name;                    /* --job-name */
	struct assay_slurm_shape shape;      /* --nodes, --ntasks-per-node, --gpus-per-node */
	const struct assay_slurm_options *o; /* placement and launcher settings */
	const char *log_dir; /* the batch script's own output: LOG_DIR/<job>-<jobid>.out */
	const char *workdir; /* --chdir; NULL: sbatch's current directory */
	const struct assay_slurm_env *env; /* exported by the script (never secrets) */
	size_t n_env;
	/* Secrets: names only. Their values reach the job from the environment
	 * sbatch runs in (--export=ALL); the script checks they arrived. */
	const char *const *secrets;
	size_t n_secrets;
	const json_t *network; /* the platform's "network" block, or NULL */
	bool master_addr;      /* export MASTER_ADDR/MASTER_PORT (command workloads) */
	const struct assay_slurm_step *steps;
	size_t n_steps;
	/* Spool mode (one job for a shard whose cases assay hands over one at a
	 * time): instead of steps, the script runs SPOOL/step-N.sh (N = 1, 2, ...,
	 * each the text of assay_slurm_step_text) as the files appear, marks each
	 * SPOOL/step-N.done when it has run, and ends at SPOOL/end, or after
	 * idle_s seconds without a new step (0: ASSAY_SLURM_DEFAULT_IDLE_S). */
	const char *spool;
	long long idle_s;
};

#define ASSAY_SLURM_DEFAULT_IDLE_S 600

/* Whether s can be an #SBATCH value: no control character, '"' or '\'. */
bool assay_slurm_sbatch_safe(const char *s);
/* Append s to sb as one shell word ('...' with ' written as '\''). */
void assay_shell_quote(struct sbuf *sb, const char *s);
/* The batch script. ASSAY_USAGE when a value cannot be carried safely (a
 * control character in an #SBATCH value, '%' or '\' in a log path, a bad
 * variable name, a secret also given a value); nothing is appended then. */
assay_err assay_slurm_script(const struct assay_slurm_job *j, struct sbuf *out,
			     struct assay_error *e);
/* The text of step `index` (0-based; of `total`, 0 when not known) as the
 * script runs it: for a spool-mode job's SPOOL/step-N.sh. The same checks. */
assay_err assay_slurm_step_text(const struct assay_slurm_job *j, const struct assay_slurm_step *s,
				size_t index, size_t total, struct sbuf *out,
				struct assay_error *e);
/* The srun (or mpi_launcher) command line of one step, as argv (no shell),
 * for running inside an existing allocation; nodelist (may be NULL) pins
 * the step to those hosts. */
assay_err assay_slurm_step_argv(const struct assay_slurm_job *j, const struct assay_slurm_step *s,
				const char *nodelist, struct strlist *argv, struct assay_error *e);
/* The variables the network block sets (NCCL_SOCKET_IFNAME, GLOO_SOCKET_IFNAME,
 * NCCL_IB_HCA, ...), as "NAME=value" strings in a fixed order. */
void assay_slurm_network_env(const json_t *network, struct strlist *out);
/* MASTER_PORT: o->master_port, else network.master_port, else 29500. */
long long assay_slurm_master_port(const struct assay_slurm_options *o, const json_t *network);

/* ---- Parsing Slurm's output ---- */

/* Slurm time strings: "M", "M:S", "H:M:S", "D-H", "D-H:M", "D-H:M:S";
 * "UNLIMITED", "INFINITE" and "NOT_SET" give -1. false when malformed. */
bool assay_slurm_time_parse(const char *s, long long *seconds);

/* sbatch --parsable prints "JOBID" or "JOBID;CLUSTER". */
assay_err assay_slurm_parse_sbatch(const char *out, char *job_id, size_t id_size, char *cluster,
				   size_t cluster_size, struct assay_error *e);

/* What assay knows about one job at one poll. */
struct assay_slurm_jobinfo {
	char id[32];
	char state[32]; /* JobState / %T, e.g. "COMPLETED" */
	char reason[128];
	char *name, *comment, *nodelist, *std_out, *std_err; /* NULL when not shown */
	long long nodes;                                     /* -1 unknown */
	int exit_code;                                       /* -1 unknown */
	int exit_signal;                                     /* -1 unknown */
	long long restarts;                                  /* -1 unknown */
	int requeue;            /* -1 unknown, else the job's Requeue flag */
	long long time_limit_s; /* -1 unknown or unlimited */
	long long run_time_s;   /* -1 unknown */
};
void assay_slurm_jobinfo_release(struct assay_slurm_jobinfo *j);

/* The squeue format assay polls with, fields separated by '|', comment last
 * (it may hold '|'): squeue -h -t all -j IDS -o ASSAY_SLURM_SQUEUE_FORMAT */
#define ASSAY_SLURM_SQUEUE_FORMAT "%i|%T|%r|%D|%M|%l|%N|%k"
/* Parse the lines of that output; *jobs gets *n entries. Blank lines are
 * skipped; a malformed line is ASSAY_INFRA naming the line. */
assay_err assay_slurm_parse_squeue(const char *out, struct assay_slurm_jobinfo **jobs, size_t *n,
				   struct assay_error *e);
void assay_slurm_jobinfo_free_array(struct assay_slurm_jobinfo *jobs, size_t n);
/* Whether squeue's or scontrol's stderr says the job id is unknown to Slurm
 * ("Invalid job id specified": purged after MinJobAge, or never existed). */
bool assay_slurm_job_unknown(const char *stderr_text);
/* Parse `scontrol show job ID` (multi-line form, not -o). Free-text fields
 * (JobName, Comment, Command, WorkDir, StdOut, StdErr, StdIn) end their line. */
assay_err assay_slurm_parse_scontrol(const char *out, struct assay_slurm_jobinfo *j,
				     struct assay_error *e);

/* ---- States and outcomes ---- */

enum assay_slurm_phase {
	ASSAY_SLURM_PENDING, /* queued, held, requeued, configuring: keep polling */
	ASSAY_SLURM_RUNNING, /* running, completing, suspended: keep polling */
	ASSAY_SLURM_FINAL,   /* ended: outcome below */
};

/* Comment assay sets (scontrol update JobId=N Comment=...) right before its
 * own scancel, so that the job record itself says who cancelled it. */
#define ASSAY_SLURM_CANCEL_COMMENT "assay-cancel"

struct assay_slurm_outcome {
	enum assay_slurm_phase phase;
	/* When final: ASSAY_OK for COMPLETED (the results are parsed next),
	 * ASSAY_WORKLOAD_FAILED, or ASSAY_INFRA (job lost, unknown state). */
	assay_err code;
	bool timeout;            /* TIMEOUT or DEADLINE */
	bool cancelled;          /* CANCELLED */
	bool cancelled_by_assay; /* ... and assay cancelled it */
	char message[512];       /* e.g. "TIMEOUT: time limit 00:01:00 reached" */
};

/* Map one poll to an outcome. j NULL means the job is no longer known to
 * Slurm (purged after MinJobAge, or never existed). assay_cancelled says
 * whether assay recorded its own scancel of this job; a Comment starting with
 * ASSAY_SLURM_CANCEL_COMMENT says the same from the job record. PREEMPTED is
 * final only when j->requeue is 0, which scontrol shows and squeue does not:
 * a poller that sees PREEMPTED in squeue asks scontrol show job. */
void assay_slurm_outcome(const struct assay_slurm_jobinfo *j, bool assay_cancelled,
			 struct assay_slurm_outcome *out);
/* The table row of a state name: phase and final code. false when unknown. */
bool assay_slurm_state_class(const char *state, enum assay_slurm_phase *phase, assay_err *code);

/* ---- An existing allocation (salloc, sbatch, srun) ---- */

struct assay_slurm_alloc {
	bool inside; /* SLURM_JOB_ID is set */
	char job_id[32];
	bool in_step;            /* SLURM_STEP_ID is set: assay itself runs in a step */
	long long nodes;         /* hosts in the allocation */
	char *nodelist;          /* SLURM_JOB_NODELIST (or SLURM_NODELIST) */
	struct strlist hosts;    /* expanded, in Slurm's order */
	long long cpus_per_node; /* the fewest CPUs of any of its nodes (SLURM_JOB_CPUS_PER_NODE);
				    -1 unknown */
};

/* Read SLURM_JOB_ID, SLURM_JOB_NUM_NODES (or SLURM_NNODES), SLURM_JOB_NODELIST
 * (or SLURM_NODELIST) and SLURM_STEP_ID from envp (e.g. environ). Not being in
 * an allocation is not an error; inconsistent variables are ASSAY_USAGE. */
assay_err assay_slurm_alloc_detect(char *const envp[], struct assay_slurm_alloc *a,
				   struct assay_error *e);
void assay_slurm_alloc_release(struct assay_slurm_alloc *a);
/* Whether a job of `nodes` nodes (with optional nodelist/exclude) can run as
 * a step of allocation a. On true, `use` (may be NULL) gets the hosts to pin
 * the step to (the first fitting ones); on false, why says why not. */
bool assay_slurm_alloc_fits(const struct assay_slurm_alloc *a, long long nodes,
			    const char *nodelist, const char *exclude, struct strlist *use,
			    char *why, size_t why_size);

#endif
