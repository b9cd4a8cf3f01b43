/* Following a submitted Slurm case to its end: srun in place through the
 * local launcher, or the batch job looked at with squeue. How the case ended
 * comes from the exit status its step wrote, else from the job's Slurm state
 * (docs/slurm.md, "States and outcomes"). */
#include <dirent.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "assay/slurm.h"
#include "slurm_int.h"

/* A cancelled job still queued or running this long after scancel (a lost
 * request on a busy controller) is cancelled again. */
#define CANCEL_AGAIN_S 10.0

static void sleep_s(double s)
{
	if (s <= 0)
		return;
	struct timespec ts = {(time_t)s, (long)((s - floor(s)) * 1e9)};
	nanosleep(&ts, NULL); /* an interrupt wakes it: the caller looks at once */
}

static double poll_interval(const struct assay_job *j)
{
	return j->o.poll_interval_s > 0 ? j->o.poll_interval_s : ASSAY_SLURM_DEFAULT_POLL_S;
}

/* The step's exit status as the script wrote it; -1 when not written. */
static int read_status(const struct assay_job *j)
{
	struct assay_error e;
	char *s = assay_read_file(j->status_file, NULL, &e);
	long long v;
	int code = -1;
	if (s) {
		s[strcspn(s, "\n")] = '\0';
		if (assay_parse_long(s, &v) && v >= 0 && v < 256)
			code = (int)v;
		free(s);
	}
	return code;
}

/* Has the shard job finished this case's step? (A fresh look at the folder
 * first: on a network file system a new file may not show otherwise.) */
static bool step_done(const struct assay_job *j)
{
	DIR *d = opendir(j->b->spool);
	if (d)
		closedir(d);
	char *path = xasprintf("%s/step-%zu.done", j->b->spool, j->step);
	bool done = access(path, F_OK) == 0;
	free(path);
	return done;
}

static void finish(struct assay_job *j, enum assay_job_end end, int code, int sig, const char *fmt,
		   ...) ASSAY_PRINTF(5, 6);
static void finish(struct assay_job *j, enum assay_job_end end, int code, int sig, const char *fmt,
		   ...)
{
	j->done = true;
	j->end = assay_monotonic();
	j->st.end = end;
	j->st.exit_code = code;
	j->st.signal = sig;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(j->st.detail, sizeof(j->st.detail), fmt, ap);
	va_end(ap);
}

/* The job has ended without (or before) saying how this case's step ended:
 * its Slurm state decides (docs/slurm.md, "States and outcomes"). */
static assay_err finish_from_state(struct assay_job *j, struct assay_error *e)
{
	struct batch *b = j->b;
	int code = read_status(j);
	if (b->gone) {
		if (code >= 0) {
			finish(j, ASSAY_JOB_EXITED, code, 0,
			       "exit code %d (job %s: no longer known to Slurm)", code, b->id);
			return ASSAY_OK;
		}
		struct assay_slurm_outcome oc;
		assay_slurm_outcome(NULL, b->cancelled, &oc);
		return assay_error_set(e, ASSAY_INFRA, "job %s: %s", b->id, oc.message);
	}
	struct assay_slurm_outcome oc;
	assay_slurm_outcome(&b->info, b->cancelled, &oc);
	const char *state = b->info.state;
	if (oc.code == ASSAY_INFRA)
		return assay_error_set(e, ASSAY_INFRA, "job %s: %s", b->id, oc.message);
	if (j->timed_out)
		finish(j, ASSAY_JOB_TIMED_OUT, 0, 0, "timeout after %g s (job %s cancelled)",
		       j->timeout_s, b->id);
	else if (oc.timeout)
		finish(j, ASSAY_JOB_TIMED_OUT, 0, 0, "job %s: %s", b->id, oc.message);
	else if (oc.cancelled)
		finish(j, ASSAY_JOB_CANCELLED, 0, 0, "job %s: %s", b->id, oc.message);
	else if (!strcmp(state, "BOOT_FAIL"))
		finish(j, ASSAY_JOB_NOT_STARTED, 0, 0, "job %s: %s", b->id, oc.message);
	else if (strcmp(state, "COMPLETED") && strcmp(state, "FAILED"))
		finish(j, ASSAY_JOB_SIGNALED, 0, b->info.exit_signal > 0 ? b->info.exit_signal : 0,
		       "job %s: %s", b->id, oc.message);
	else if (code > 0)
		finish(j, ASSAY_JOB_EXITED, code, 0, "exit code %d (job %s %s)", code, b->id,
		       state);
	else if (code == 0)
		finish(j, ASSAY_JOB_EXITED, 0, 0, "exit code 0 (job %s %s)", b->id, state);
	else if (j->mode == PER_SHARD)
		finish(j, ASSAY_JOB_NOT_STARTED, 0, 0,
		       "job %s ended before the case's step ran: %s", b->id, oc.message);
	else if (b->info.exit_signal > 0)
		finish(j, ASSAY_JOB_SIGNALED, 0, b->info.exit_signal, "job %s: %s", b->id,
		       oc.message);
	else if (b->info.exit_code > 0)
		finish(j, ASSAY_JOB_EXITED, b->info.exit_code, 0, "job %s: %s", b->id, oc.message);
	else
		finish(j, ASSAY_JOB_EXITED, 0, 0, "exit code 0 (job %s %s)", b->id, state);
	return ASSAY_OK;
}

static void fill_status(struct assay_job *j, struct assay_job_status *st)
{
	*st = j->st;
	if (!j->done)
		st->end = ASSAY_JOB_RUNNING;
	double now = j->done ? j->end : assay_monotonic();
	st->elapsed_s = j->submitted ? now - j->start : 0;
	st->where[0] = '\0';
	st->queue_s = 0;
	if (!j->b || !j->submitted)
		return;
	/* Time in the queue: from submission (or the hand-over) until the job
	 * was seen running. */
	st->queue_s = (j->run_start > 0 ? j->run_start : now) - j->start;
	if (st->queue_s < 0)
		st->queue_s = 0;
	if (j->done || !j->b->have_info)
		return;
	const struct assay_slurm_jobinfo *i = &j->b->info;
	if (j->b->phase == ASSAY_SLURM_PENDING)
		snprintf(st->where, sizeof(st->where), "job %s %s%s%s%s", j->b->id, i->state,
			 i->reason[0] ? " (" : "", i->reason, i->reason[0] ? ")" : "");
	else if (j->b->phase == ASSAY_SLURM_RUNNING) {
		snprintf(st->where, sizeof(st->where), "job %s %s on %s", j->b->id, i->state,
			 i->nodelist && i->nodelist[0] ? i->nodelist : "?");
		j->told_running = true;
	}
}

/* The job is seen running: when did it start? (now less what Slurm says it
 * has run, never before it was submitted). */
static void seen_running(struct assay_job *j)
{
	double now = assay_monotonic();
	double rs = now;
	if (j->b->have_info && j->b->info.run_time_s >= 0 && j->mode == PER_CASE)
		rs = now - (double)j->b->info.run_time_s;
	j->run_start = rs > j->start ? rs : j->start;
}

static assay_err poll_in_place(struct assay_job *j, double wait_s, struct assay_job_status *st,
			       struct assay_error *e)
{
	const struct assay_launcher_ops *ops = j->l->local->ops;
	struct assay_job_status ist;
	if (ops->poll(j->inner, wait_s, &ist, e) != ASSAY_OK)
		return ASSAY_INFRA;
	bool ended = ist.end != ASSAY_JOB_RUNNING;
	if (node_logs_poll(&j->logs, ended, e) != ASSAY_OK)
		return ASSAY_INFRA;
	if (j->push_failed) {
		*e = j->push_error;
		return ASSAY_INFRA;
	}
	if (ended) {
		j->done = true;
		j->end = assay_monotonic();
		j->st = ist;
	}
	fill_status(j, st);
	return ASSAY_OK;
}

/* The job has ended, or the shard's job has run the case's step: how the
 * case ended, unless the status about to be filled must first say where the
 * step ran (then the case ends on the next poll). */
static assay_err poll_end(struct assay_job *j, bool shard_step_done, double interval,
			  struct assay_error *e)
{
	struct batch *b = j->b;
	if (!j->run_start && shard_step_done && b->phase == ASSAY_SLURM_PENDING) {
		struct assay_error ignore; /* one more look: how long has it run? */
		slurm_batch_look(b, interval, &ignore);
	}
	if (shard_step_done && !j->told_running && b->phase == ASSAY_SLURM_RUNNING &&
	    b->have_info) {
		/* The step ran and ended between two looks: say where it ran
		 * (one status more, still running), then end on the next poll. */
		return ASSAY_OK;
	}
	if (node_logs_poll(&j->logs, true, e) != ASSAY_OK)
		return ASSAY_INFRA;
	if (!j->run_start && b->have_info && b->info.run_time_s >= 0 &&
	    strcmp(b->info.state, "PENDING") && (j->mode == PER_CASE || b->steps == 1)) {
		/* Ended before a look saw it run: Slurm says how long it ran. */
		double rs = assay_monotonic() - (double)b->info.run_time_s;
		j->run_start = rs > j->start ? rs : j->start;
	}
	if (shard_step_done) {
		b->phase = ASSAY_SLURM_RUNNING; /* it ran a step, so it is no longer pending */
		int code = read_status(j);
		if (code < 0)
			finish(j, ASSAY_JOB_EXITED, 255, 0,
			       "the step ended but wrote no exit status (%s)", j->status_file);
		else
			finish(j, ASSAY_JOB_EXITED, code, 0, "exit code %d", code);
	} else if (finish_from_state(j, e) != ASSAY_OK) {
		return ASSAY_INFRA;
	}
	if (j->mode == PER_SHARD && j->st.end != ASSAY_JOB_EXITED)
		b->broken = true; /* the next case of the shard needs a new job */
	return ASSAY_OK;
}

static assay_err poll_batch(struct assay_job *j, double wait_s, struct assay_job_status *st,
			    struct assay_error *e)
{
	struct batch *b = j->b;
	sleep_s(wait_s);
	if (node_logs_poll(&j->logs, false, e) != ASSAY_OK)
		return ASSAY_INFRA;
	double now = assay_monotonic();
	bool shard_step_done = j->mode == PER_SHARD && step_done(j);
	if (!shard_step_done && j->timeout_s > 0 && j->run_start > 0 && !j->timed_out &&
	    now - j->run_start >= j->timeout_s) {
		j->timed_out = true;
		char why[64];
		snprintf(why, sizeof(why), "timeout after %g s", j->timeout_s);
		slurm_batch_cancel(b, why);
	}
	double interval = poll_interval(j);
	if (j->mode == PER_CASE && access(j->status_file, F_OK) == 0)
		interval = fmin(interval, 0.5); /* the step has ended: the job is about to */
	if (b->cancelled && !b->final && b->have_info && now - b->cancel_at >= CANCEL_AGAIN_S &&
	    (!strcmp(b->info.state, "RUNNING") || !strcmp(b->info.state, "PENDING")))
		slurm_batch_scancel(b); /* the cancel did not take: once more */
	if (!shard_step_done && !b->final && now >= b->next_look) {
		enum assay_slurm_phase was = b->phase;
		if (slurm_batch_look(b, interval, e) != ASSAY_OK)
			return ASSAY_INFRA;
		if (b->phase == ASSAY_SLURM_RUNNING && !j->run_start)
			seen_running(j);
		if (was == ASSAY_SLURM_RUNNING && b->phase == ASSAY_SLURM_PENDING) {
			/* Requeued: the step runs again from the start. */
			j->run_start = 0;
			if (j->mode == PER_CASE)
				unlink(j->status_file);
		}
		shard_step_done = j->mode == PER_SHARD && step_done(j);
	}
	if ((shard_step_done || b->final) && poll_end(j, shard_step_done, interval, e) != ASSAY_OK)
		return ASSAY_INFRA;
	fill_status(j, st);
	return ASSAY_OK;
}

assay_err slurm_poll(struct assay_job *j, double wait_s, struct assay_job_status *st,
		     struct assay_error *e)
{
	if (!j->submitted || j->done) {
		fill_status(j, st);
		return ASSAY_OK;
	}
	return j->mode == IN_PLACE ? poll_in_place(j, wait_s, st, e) : poll_batch(j, wait_s, st, e);
}
