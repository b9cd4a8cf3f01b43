/* A Slurm case's batch job: written and submitted with sbatch --parsable,
 * followed with squeue (scontrol show job for an end or a preemption), and
 * stopped with scontrol update and scancel. A shard's job that takes more
 * steps ends when its spool folder gets "end"; docs/slurm.md. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/proc.h"
#include "assay/slurm.h"
#include "slurm_int.h"

/* squeue may fail for a while (slurmctld restarting); after this long
 * without an answer the job is given up as an infrastructure failure. */
#define SQUEUE_GRACE_S 120.0

/* Run a Slurm command; its stdout in out, its stderr's first line in why. */
assay_err slurm_cmd(const char *const argv[], struct sbuf *out, int *code, char *why,
		    size_t why_size, struct assay_error *e)
{
	struct sbuf err = SBUF_INIT;
	assay_err rc = assay_proc_output(argv, NULL, out, &err, code, e);
	const char *s = sbuf_str(&err);
	while (*s == '\n' || *s == ' ')
		s++;
	size_t n = strcspn(s, "\n");
	snprintf(why, why_size, "%.*s", (int)(n < 400 ? n : 400), s);
	sbuf_release(&err);
	return rc;
}

struct batch *slurm_batch_new(const char *name, const char *slurm_dir, const char *group,
			      bool spool)
{
	struct batch *b = xcalloc(1, sizeof(*b));
	b->name = xstrdup(name);
	b->script = xasprintf("%s/%s.sh", slurm_dir, name);
	b->spool = spool ? xasprintf("%s/%s.d", slurm_dir, name) : NULL;
	b->group = group ? xstrdup(group) : NULL;
	b->out.fd = -1;
	b->phase = ASSAY_SLURM_PENDING;
	return b;
}

void slurm_batch_free(struct batch *b)
{
	if (!b)
		return;
	free(b->name);
	free(b->script);
	free(b->spool);
	free(b->group);
	assay_tail_release(&b->out);
	assay_slurm_jobinfo_release(&b->info);
	free(b);
}

assay_err slurm_batch_submit(struct batch *b, const char *script, const char *slurm_dir,
			     struct assay_error *e)
{
	if (assay_write_file_atomic(b->script, script, strlen(script), e) != ASSAY_OK ||
	    (b->spool && assay_mkdirs(b->spool, e) != ASSAY_OK))
		return ASSAY_INFRA;
	const char *argv[] = {"sbatch", "--parsable", b->script, NULL};
	struct sbuf out = SBUF_INIT;
	int code;
	char why[512];
	assay_err rc = slurm_cmd(argv, &out, &code, why, sizeof(why), e);
	if (rc == ASSAY_OK && code != 0)
		rc = assay_error_set(e, ASSAY_INFRA, "sbatch --parsable %s failed (exit %d): %s",
				     b->script, code, why[0] ? why : "no message");
	if (rc == ASSAY_OK &&
	    assay_slurm_parse_sbatch(sbuf_str(&out), b->id, sizeof(b->id), NULL, 0, e) != ASSAY_OK)
		rc = ASSAY_INFRA;
	sbuf_release(&out);
	if (rc != ASSAY_OK)
		return rc;
	char *path = xasprintf("%s/%s-%s.out", slurm_dir, b->name, b->id);
	assay_tail_init(&b->out, path);
	free(path);
	double now = assay_monotonic();
	b->answered_at = now;
	b->next_look = now;
	return ASSAY_OK;
}

/* scancel (again): a cancelled job that still shows as queued or running
 * CANCEL_AGAIN_S later (the request was lost on a busy controller) gets the
 * request once more. */
void slurm_batch_scancel(struct batch *b)
{
	struct sbuf out = SBUF_INIT;
	struct assay_error e;
	int code;
	char msg[512];
	const char *scancel[] = {"scancel", b->id, NULL};
	slurm_cmd(scancel, &out, &code, msg, sizeof(msg), &e);
	sbuf_release(&out);
	b->cancel_at = assay_monotonic();
}

/* Mark the job record (so that it says who cancelled it), then scancel; a
 * second call kills (scancel --full --signal=KILL). */
void slurm_batch_cancel(struct batch *b, const char *why)
{
	if (!b->id[0] || b->final)
		return;
	struct sbuf out = SBUF_INIT;
	struct assay_error e;
	int code;
	char msg[512];
	if (!b->cancelled) {
		b->cancelled = true;
		char *jobid = xasprintf("JobId=%s", b->id);
		char *comment = xasprintf("Comment=%s: %s", ASSAY_SLURM_CANCEL_COMMENT, why);
		const char *update[] = {"scontrol", "update", jobid, comment, NULL};
		slurm_cmd(update, &out, &code, msg, sizeof(msg), &e);
		free(jobid);
		free(comment);
		slurm_batch_scancel(b);
	} else if (!b->killed) {
		b->killed = true;
		const char *kill[] = {"scancel", "--full", "--signal=KILL", b->id, NULL};
		slurm_cmd(kill, &out, &code, msg, sizeof(msg), &e);
	}
	sbuf_release(&out);
	b->next_look = assay_monotonic(); /* see it end soon */
}

static void set_info(struct batch *b, struct assay_slurm_jobinfo *from)
{
	assay_slurm_jobinfo_release(&b->info);
	b->info = *from;
	memset(from, 0, sizeof(*from));
	b->have_info = true;
}

/* scontrol show job: the details of a job that ended or was preempted. */
static void details(struct batch *b)
{
	const char *argv[] = {"scontrol", "show", "job", b->id, NULL};
	struct sbuf out = SBUF_INIT;
	struct assay_error e;
	int code;
	char why[512];
	struct assay_slurm_jobinfo info;
	memset(&info, 0, sizeof(info));
	if (slurm_cmd(argv, &out, &code, why, sizeof(why), &e) == ASSAY_OK && code == 0 &&
	    assay_slurm_parse_scontrol(sbuf_str(&out), &info, &e) == ASSAY_OK)
		set_info(b, &info);
	else
		assay_slurm_jobinfo_release(&info);
	sbuf_release(&out);
}

/* One look at the job with squeue (and scontrol for an end or a
 * preemption). A job Slurm no longer knows is `gone`. */
assay_err slurm_batch_look(struct batch *b, double interval, struct assay_error *e)
{
	const char *argv[] = {
	    "squeue", "-h", "-t", "all", "-j", b->id, "-o", ASSAY_SLURM_SQUEUE_FORMAT, NULL};
	struct sbuf out = SBUF_INIT;
	int code;
	char why[512];
	double now = assay_monotonic();
	b->next_look = now + (b->cancelled ? fmin(interval, 1.0) : interval);
	assay_err rc = slurm_cmd(argv, &out, &code, why, sizeof(why), e);
	struct assay_slurm_jobinfo *jobs = NULL;
	size_t n = 0;
	if (rc == ASSAY_OK && code != 0) {
		sbuf_release(&out);
		if (!assay_slurm_job_unknown(why) || !b->have_info) {
			/* Unknown at once, or squeue not answering: retry for a while. */
			if (now - b->answered_at < SQUEUE_GRACE_S)
				return ASSAY_OK;
			return assay_error_set(e, ASSAY_INFRA,
					       "squeue -j %s: no answer for %.0f s: %s", b->id,
					       now - b->answered_at, why);
		}
		b->gone = b->final = true;
		return ASSAY_OK;
	}
	if (rc == ASSAY_OK)
		rc = assay_slurm_parse_squeue(sbuf_str(&out), &jobs, &n, e);
	sbuf_release(&out);
	if (rc != ASSAY_OK)
		return rc;
	b->answered_at = now;
	struct assay_slurm_jobinfo *mine = NULL;
	for (size_t i = 0; i < n; i++)
		if (!strcmp(jobs[i].id, b->id))
			mine = &jobs[i];
	if (!mine) {
		if (b->have_info)
			b->gone = b->final = true;
		assay_slurm_jobinfo_free_array(jobs, n);
		return ASSAY_OK;
	}
	set_info(b, mine);
	assay_slurm_jobinfo_free_array(jobs, n);
	struct assay_slurm_outcome oc;
	assay_slurm_outcome(&b->info, b->cancelled, &oc);
	if (oc.phase == ASSAY_SLURM_FINAL || !strcmp(b->info.state, "PREEMPTED")) {
		details(b);
		assay_slurm_outcome(&b->info, b->cancelled, &oc);
	}
	b->phase = oc.phase;
	b->final = oc.phase == ASSAY_SLURM_FINAL;
	return ASSAY_OK;
}

/* The shard job is done with: it ends when it sees SPOOL/end; one that never
 * started a step is cancelled. */
void slurm_shard_close(struct slurm_launcher *l)
{
	struct batch *b = l->open;
	if (!b)
		return;
	l->open = NULL;
	if (b->spool && b->id[0] && !b->final) {
		char *end = xasprintf("%s/end", b->spool);
		struct assay_error e;
		assay_write_file_atomic(end, "", 0, &e);
		free(end);
		if (b->phase == ASSAY_SLURM_PENDING && !b->cancelled)
			slurm_batch_cancel(b, "the run no longer needs it");
	}
	slurm_batch_free(b);
}
