/* Shared by the Slurm launcher's files: its jobs and their batch jobs
 * (prepared in slurm.c, placed in slurm_place.c, scripted in slurm_command.c,
 * submitted in slurm_submit.c, followed in slurm_poll.c and slurm_batch.c,
 * cleaned up after in slurm_resume.c), and a case's per-node logs
 * (slurm_logs.c). Not a public header. */
#ifndef ASSAY_SLURM_INT_H
#define ASSAY_SLURM_INT_H

#include <stdbool.h>

#include "assay/launch.h"
#include "assay/redact.h"
#include "assay/slurm.h"
#include "assay/watch.h"

/* One input of a case's output: a file Slurm writes in the raw folder, the
 * job's batch output (shared by the cases of a shard), or output pushed by
 * the launcher itself (srun's own messages when it runs in place). */
struct log_source {
	char *name;                /* also the name of its copy */
	int stream;                /* 0 stdout, 1 stderr */
	struct assay_tail tail;    /* a file of the raw folder (path NULL otherwise) */
	struct assay_tail *shared; /* the batch output, owned by the job */
	struct assay_redact_stream rs;
	struct sbuf pending; /* redacted bytes after the last line end */
	int copy_fd;
};

/* A case's logs: Slurm writes LOG_DIR/<job>-<jobid>-<node>.out and .err (and
 * srun.err, launcher.out/.err) into the raw folder; each file's new bytes are
 * redacted, copied to <case>/nodes/, and its whole lines appended to
 * <case>/stdout.log (.out files) or stderr.log (.err files) and handed to the
 * runner, which watches them for error signatures. */
struct node_logs {
	char *raw;
	char *copies;
	int merged[2];
	const struct assay_redactor *redact;
	assay_output_fn on_output;
	void *ctx;
	struct log_source *v;
	size_t n, alloc;
	double scanned_at;
	char job_id[40]; /* "-<jobid>-": cut from the names of the copies */
};

assay_err node_logs_open(struct node_logs *n, const char *raw, const char *case_dir,
			 const struct assay_redactor *redact, assay_output_fn on_output, void *ctx,
			 struct assay_error *e);
/* The job (or allocation) whose files these are: a copy of
 * "<job>-<jobid>-<node>.out" is called "<node>.out". */
void node_logs_set_job(struct node_logs *n, const char *job_id);
/* Follow the job's batch output too (its new bytes go to stderr). */
void node_logs_add_shared(struct node_logs *n, struct assay_tail *t, const char *name);
/* Output that does not come from a file. */
assay_err node_logs_push(struct node_logs *n, const char *name, int stream, const char *data,
			 size_t len, struct assay_error *e);
/* Take what the files gained; look for new files about once a second. With
 * final, take everything (files opened afresh) and end every partial line. */
assay_err node_logs_poll(struct node_logs *n, bool final, struct assay_error *e);
/* Remove the raw folder: what Slurm wrote unredacted, once copied. */
void node_logs_remove_raw(const struct node_logs *n);
void node_logs_release(struct node_logs *n);

/* A batch job: one case's, or a shard's that takes its cases as steps. */
struct batch {
	char *name, *script, *spool, *group;
	char id[32];
	size_t steps;          /* steps handed over so far */
	struct assay_tail out; /* the batch script's own output */
	bool final, gone, cancelled, killed, broken;
	double cancel_at; /* when the last scancel was sent */
	enum assay_slurm_phase phase;
	struct assay_slurm_jobinfo info; /* the last look (scontrol's details when final) */
	bool have_info;
	double next_look, answered_at;
};

struct slurm_launcher {
	struct assay_launcher base;
	struct assay_slurm_options o;
	char *where;                  /* "FILE: $.launcher" */
	struct assay_launcher *local; /* runs srun in place */
	bool alloc_known;
	struct assay_slurm_alloc alloc;
	char alloc_error[512];
	struct batch *open;  /* the shard job that takes more steps */
	unsigned open_tries; /* jobs submitted for the open job's group */
	char *last_group;    /* of the last case prepared */
	size_t group_n;      /* cases prepared in a row with that group */
};

enum mode { IN_PLACE, PER_CASE, PER_SHARD };

struct assay_job {
	struct slurm_launcher *l;
	enum mode mode;
	char *case_id, *case_dir, *run_id, *slurm_dir, *raw, *status_file, *cwd, *group, *name;
	const char *share; /* the spec's: set only while preparing */
	bool shared;       /* job_per "case", but in one job with its variants */
	struct assay_slurm_options o;
	struct assay_slurm_shape shape;
	const json_t *network;
	bool mpi, first_in_group, per_task;
	struct strlist argv, env, secrets, hosts;
	struct strlist srun_opts; /* the container's (pyxis), or empty */
	double timeout_s;
	const struct assay_redactor *redact;
	assay_output_fn on_output;
	assay_record_fn on_record;
	void *ctx;
	int attempt;   /* the run's attempt: its files and job names are its own */
	char why[512]; /* why not in place, inside an allocation */
	char *script, *step_text;

	struct batch *b;         /* owned when PER_CASE */
	size_t step;             /* PER_SHARD: N of SPOOL/step-N.sh */
	struct assay_job *inner; /* IN_PLACE: the local job running srun */
	struct node_logs logs;
	bool logs_open, submitted, done, timed_out, cancelled;
	bool told_running; /* a status has said where it runs */
	double start, run_start, end;
	struct assay_job_status st;
	struct assay_error push_error;
	bool push_failed;
};

/* slurm_batch.c */

/* Run a Slurm command; its stdout in out, its stderr's first line in why. */
assay_err slurm_cmd(const char *const argv[], struct sbuf *out, int *code, char *why,
		    size_t why_size, struct assay_error *e);
struct batch *slurm_batch_new(const char *name, const char *slurm_dir, const char *group,
			      bool spool);
void slurm_batch_free(struct batch *b);
/* Write the script and submit it: b->id, and its output followed. */
assay_err slurm_batch_submit(struct batch *b, const char *script, const char *slurm_dir,
			     struct assay_error *e);
/* scancel once more (a request lost on a busy controller). */
void slurm_batch_scancel(struct batch *b);
/* Say why in the job record and scancel; a second call kills. */
void slurm_batch_cancel(struct batch *b, const char *why);
/* One look at the job with squeue; `gone` when Slurm no longer knows it. */
assay_err slurm_batch_look(struct batch *b, double interval, struct assay_error *e);
/* Done with the shard job that takes more steps (l->open). */
void slurm_shard_close(struct slurm_launcher *l);

/* slurm_place.c */

/* The case's options (the launcher's, with the registry's site defaults)
 * and shape; a case that cannot be placed is refused. */
assay_err slurm_place(const struct slurm_launcher *l, const struct assay_launch_spec *s,
		      struct assay_slurm_options *o, struct assay_slurm_shape *shape,
		      struct assay_error *e);
assay_err slurm_check(struct assay_launcher *base, const struct assay_launch_spec *s,
		      struct assay_error *e);
/* In place inside an allocation that can hold the case, else a job (j->why
 * says why not in place). */
void slurm_choose_mode(struct slurm_launcher *l, struct assay_job *j);

/* slurm_command.c */

/* The job script (the whole case, or a shard's driver) for job `name`. */
assay_err slurm_job_script(const struct assay_job *j, const char *name, const char *spool,
			   struct sbuf *out, struct assay_error *e);
/* The text of step `index` handed over to a shard's job. */
assay_err slurm_step_text(const struct assay_job *j, const char *name, size_t index,
			  struct sbuf *out, struct assay_error *e);
/* srun in place: argv and the variables it runs with. */
assay_err slurm_in_place_command(const struct assay_job *j, struct strlist *argv,
				 struct strlist *env, struct assay_error *e);

/* slurm_submit.c, slurm_poll.c, slurm_resume.c: the launcher's operations */

assay_err slurm_submit(struct assay_job *j, struct assay_error *e);
assay_err slurm_poll(struct assay_job *j, double wait_s, struct assay_job_status *st,
		     struct assay_error *e);
void slurm_resume(struct assay_launcher *base, const char *run_id, const char *run_dir, int attempt,
		  const struct strlist *jobs, struct sbuf *report);

#endif
