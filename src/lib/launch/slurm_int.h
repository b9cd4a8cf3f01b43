/* Shared by the Slurm launcher's files: collecting a case's per-node logs
 * (slurm_logs.c) for the launcher (slurm.c). Not a public header. */
#ifndef ASSAY_SLURM_INT_H
#define ASSAY_SLURM_INT_H

#include <stdbool.h>

#include "assay/launch.h"
#include "assay/redact.h"
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

/* Remove every file of dir (not recursive), then dir. */

#endif
