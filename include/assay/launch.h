/* Launchers: how one case's command becomes running processes, and how
 * assay follows, stops and collects them. Every launcher (local processes,
 * Slurm jobs) implements the same operations:
 *
 *   prepare  -> a job for one case, nothing started (validation, scripts)
 *   describe -> what submit would run, secrets redacted (--dry-run)
 *   submit   -> start it
 *   poll     -> wait a little, deliver new output, report whether it ended
 *   cancel   -> ask it to stop (signature match, interruption); keep polling
 *   collect  -> after the end: bring the remaining output into the case folder
 *
 * The caller (src/lib/run) owns timeouts' meaning, signatures and outcomes;
 * a launcher owns processes. Output reaches the caller already redacted. */
#ifndef ASSAY_LAUNCH_H
#define ASSAY_LAUNCH_H

#include <jansson.h>
#include <stdbool.h>
#include <sys/types.h>

#include "assay/cfg.h"
#include "assay/error.h"
#include "assay/redact.h"
#include "assay/util.h"

/* Called with each piece of captured output, redacted, in arrival order.
 * stream is "stdout" or "stderr". */
typedef void (*assay_output_fn)(void *ctx, const char *stream, const char *data, size_t len);

struct assay_proc_record; /* include/assay/contain.h */
struct assay_container;   /* include/assay/container.h */
/* Called once the case's processes (or its job) exist, before the workload
 * runs: what is needed to find it again after assay was killed. An error
 * stops the case before it runs. */
typedef assay_err (*assay_record_fn)(void *ctx, const struct assay_proc_record *r,
				     struct assay_error *e);

struct assay_launch_spec {
	const char *case_id;
	const char *dir; /* the case folder (exists): stdout.log and stderr.log go here */
	const struct strlist *argv; /* the command; argv[0] is looked up in PATH */
	const struct strlist *env;  /* NAME=VALUE set on top of assay's own environment */
	const char *cwd;            /* NULL: assay's working directory */
	double timeout_s;           /* 0: no limit */
	/* When mpi_ranks > 0, argv is the program of every rank and the launcher
	 * starts mpi_ranks of them with its MPI starter (mpirun, srun). */
	long long mpi_ranks;
	long long nodes;                     /* nodes the case spans (1 for local) */
	const struct assay_redactor *redact; /* applied to all output and descriptions */
	assay_output_fn on_output;
	void *ctx;
	/* Placement, for launchers that allocate nodes (Slurm); filled by
	 * assay_suite_place() (include/assay/suite.h), zero otherwise. */
	const char *group; /* cases of one group (an EP shard, a command suite)
			    * that run one after another may share an allocation */
	/* Cases of one share (the variants and repeats of one suite case) run
	 * in one allocation even where the launcher gives each case its own
	 * (Slurm job_per "case"); NULL: none. */
	const char *share;
	long long ranks_per_node;              /* tasks per node the case asks for */
	long long gpus_per_node;               /* GPUs per node it uses */
	const struct assay_platform *platform; /* its platform (EP suites), else NULL */
	const char *registry_file;             /* where the platform was read from */
	assay_record_fn on_record;             /* may be NULL; called with ctx */
	int attempt; /* the run's attempt (1, and 2... after --resume); 0 means 1 */
	/* The case's container (include/assay/container.h), or NULL: the
	 * launcher runs argv inside it; run_id names and labels it. */
	const struct assay_container *container;
	const char *run_id;
	/* Keep each rank's output apart (a per-rank expectation, docs/suite.md
	 * "Provenance"): Slurm writes one file per task, <node>.<task>.out|.err;
	 * the local launcher's mpirun (Open MPI) gets --output-filename
	 * <dir>/ranks. */
	bool per_task_logs;
	/* ssh launcher: the first of its hosts the job runs on (0-based); its
	 * nodes are hosts first_host .. first_host + nodes - 1. 0: from the
	 * first. An inference suite's server.first_host (docs/inference.md). */
	long long first_host;
};

enum assay_job_end {
	ASSAY_JOB_RUNNING = 0,
	ASSAY_JOB_EXITED,      /* exit_code is set */
	ASSAY_JOB_SIGNALED,    /* the command died of signal `signal` */
	ASSAY_JOB_TIMED_OUT,   /* ran past timeout_s and was stopped */
	ASSAY_JOB_CANCELLED,   /* stopped by cancel() */
	ASSAY_JOB_NOT_STARTED, /* the command could not be started (detail says why) */
};

struct assay_job_status {
	enum assay_job_end end;
	int exit_code;
	int signal;
	double elapsed_s;
	double queue_s;   /* of elapsed_s, the time spent waiting in a queue (Slurm) */
	char where[160];  /* while running: a queue state or the nodes ("PENDING (Resources)") */
	char detail[512]; /* launcher words, e.g. "cannot execute 'x': No such file or directory" */
};

struct assay_launcher;
struct assay_job;
struct assay_platform; /* include/assay/config.h */

struct assay_launcher_ops {
	const char *name;
	assay_err (*prepare)(struct assay_launcher *l, const struct assay_launch_spec *s,
			     struct assay_job **job, struct assay_error *e);
	void (*describe)(const struct assay_job *j, struct sbuf *out);
	assay_err (*submit)(struct assay_job *j, struct assay_error *e);
	assay_err (*poll)(struct assay_job *j, double wait_s, struct assay_job_status *st,
			  struct assay_error *e);
	/* First call: polite stop (SIGTERM, scancel); a second call: stop now. */
	void (*cancel)(struct assay_job *j);
	assay_err (*collect)(struct assay_job *j, struct assay_error *e);
	void (*release)(struct assay_job *j);
	void (*free)(struct assay_launcher *l);
	/* Optional: check one case's placement when the suite is loaded, before
	 * anything runs (argv is NULL then). ASSAY_USAGE with a message that
	 * names the file. */
	assay_err (*check)(struct assay_launcher *l, const struct assay_launch_spec *s,
			   struct assay_error *e);
	/* Optional: before a resumed run starts anything, end what earlier
	 * attempts of run_id left running: the jobs the store recorded (jobs)
	 * and any the store may not know of (Slurm: jobs named after the run,
	 * and, through the run folder run_dir, any job an earlier attempt
	 * submitted too late to be seen). attempt is the new attempt's number.
	 * Appends one line per thing ended to report. */
	void (*resume)(struct assay_launcher *l, const char *run_id, const char *run_dir,
		       int attempt, const struct strlist *jobs, struct sbuf *report);
};

struct assay_launcher {
	const struct assay_launcher_ops *ops;
	void *priv;
	/* The cases of a group share an allocation: the suite runs each
	 * group's cases one after another. */
	bool groups;
};

/* The table of launcher types: a suite's `launcher` is a type name or an
 * object {"type": NAME, ...options}. Each parses its own options. */
struct assay_launcher_type {
	const char *name;
	const char *summary;
	/* Validate options (object at path) and make a launcher; -1 on error. */
	int (*parse)(struct assay_cfg *c, const json_t *opts, const char *path,
		     struct assay_launcher **out);
};
extern const struct assay_launcher_type assay_launcher_types[];
/* Parse a suite's launcher value (NULL means local with defaults). -1 on error. */
int assay_launcher_parse(struct assay_cfg *c, const json_t *v, const char *path,
			 struct assay_launcher **out);
void assay_launcher_free(struct assay_launcher *l);

/* The local launcher: each case is a new session (its own process group)
 * with stdout and stderr captured through pipes into <dir>/stdout.log and
 * <dir>/stderr.log, redacted on the way. Stopping sends SIGTERM to every
 * process of the session, then SIGKILL after grace_s; a case's leftover
 * processes are stopped the same way when its command ends. */
struct assay_local_opts {
	double grace_s;             /* default 5 */
	struct strlist mpirun;      /* MPI starter argv; default "mpirun" */
	struct strlist mpirun_args; /* extra arguments after -np N */
	bool auto_flags; /* add Open MPI's root and oversubscribe flags when needed (default on) */
};
struct assay_launcher *assay_launcher_local_new(const struct assay_local_opts *o);

/* The MPI starter's command for n ranks of argv: starter -np n [flags] argv.
 * With auto_flags and an Open MPI starter, adds --allow-run-as-root when
 * running as root and --oversubscribe when n exceeds the cores this process
 * may use. */
void assay_mpi_command(const struct assay_local_opts *o, bool openmpi, long long n,
		       const struct strlist *argv, struct strlist *out);
/* Does `starter --version` say Open MPI? */
bool assay_mpi_is_openmpi(const char *starter);
/* Cores this process may run on (distinct physical cores of its CPU set). */
long long assay_usable_cores(void);

/* A ROCm CVS cluster file as the ssh launcher reads it (docs/ssh.md): its
 * hosts (node_dict's keys, in file order) appended to hosts. ASSAY_USAGE
 * naming the file and JSON path when the launcher would refuse it. */
assay_err assay_ssh_cluster_hosts(const char *file, struct strlist *hosts, struct assay_error *e);

/* "NAME=value ... argv" with shell quoting and secrets redacted. */
void assay_command_line(const struct strlist *env, const struct strlist *argv,
			const struct assay_redactor *r, struct sbuf *out);

#endif
