/* The Slurm job state -> assay outcome table (docs/slurm.md, "States and
 * outcomes"): which states mean keep polling, which end the job, and with
 * which exit code and message. A failed job never maps to ASSAY_OK. */
#include <stdio.h>
#include <string.h>

#include "assay/slurm.h"

enum kind { K_PLAIN, K_PREEMPTED, K_TIMEOUT, K_CANCELLED };

static const struct state_row {
	const char *state;
	enum assay_slurm_phase phase;
	assay_err code; /* when final */
	enum kind kind;
	const char *meaning;
} states[] = {
    {"PENDING", ASSAY_SLURM_PENDING, ASSAY_OK, K_PLAIN, "queued"},
    {"CONFIGURING", ASSAY_SLURM_PENDING, ASSAY_OK, K_PLAIN, "nodes are being set up"},
    {"REQUEUED", ASSAY_SLURM_PENDING, ASSAY_OK, K_PLAIN, "requeued"},
    {"REQUEUE_FED", ASSAY_SLURM_PENDING, ASSAY_OK, K_PLAIN, "requeued by the federation"},
    {"REQUEUE_HOLD", ASSAY_SLURM_PENDING, ASSAY_OK, K_PLAIN, "requeued and held"},
    {"RESV_DEL_HOLD", ASSAY_SLURM_PENDING, ASSAY_OK, K_PLAIN, "held: its reservation was deleted"},
    {"RUNNING", ASSAY_SLURM_RUNNING, ASSAY_OK, K_PLAIN, "running"},
    {"COMPLETING", ASSAY_SLURM_RUNNING, ASSAY_OK, K_PLAIN, "processes are ending"},
    {"SUSPENDED", ASSAY_SLURM_RUNNING, ASSAY_OK, K_PLAIN, "suspended"},
    {"STOPPED", ASSAY_SLURM_RUNNING, ASSAY_OK, K_PLAIN, "stopped (SIGSTOP)"},
    {"RESIZING", ASSAY_SLURM_RUNNING, ASSAY_OK, K_PLAIN, "changing size"},
    {"SIGNALING", ASSAY_SLURM_RUNNING, ASSAY_OK, K_PLAIN, "being signaled"},
    {"STAGE_OUT", ASSAY_SLURM_RUNNING, ASSAY_OK, K_PLAIN, "staging out data"},
    /* Requeued unless the job is not requeueable (scontrol's Requeue=0). */
    {"PREEMPTED", ASSAY_SLURM_RUNNING, ASSAY_WORKLOAD_FAILED, K_PREEMPTED,
     "preempted by another job"},
    {"COMPLETED", ASSAY_SLURM_FINAL, ASSAY_OK, K_PLAIN, "finished with exit code 0"},
    {"FAILED", ASSAY_SLURM_FINAL, ASSAY_WORKLOAD_FAILED, K_PLAIN, "the job failed"},
    {"NODE_FAIL", ASSAY_SLURM_FINAL, ASSAY_WORKLOAD_FAILED, K_PLAIN, "a node of the job failed"},
    {"OUT_OF_MEMORY", ASSAY_SLURM_FINAL, ASSAY_WORKLOAD_FAILED, K_PLAIN,
     "the job exceeded its memory limit"},
    {"BOOT_FAIL", ASSAY_SLURM_FINAL, ASSAY_WORKLOAD_FAILED, K_PLAIN,
     "Slurm could not boot the job's nodes"},
    {"SPECIAL_EXIT", ASSAY_SLURM_FINAL, ASSAY_WORKLOAD_FAILED, K_PLAIN,
     "held after a special exit code"},
    {"TIMEOUT", ASSAY_SLURM_FINAL, ASSAY_WORKLOAD_FAILED, K_TIMEOUT, "time limit reached"},
    {"DEADLINE", ASSAY_SLURM_FINAL, ASSAY_WORKLOAD_FAILED, K_TIMEOUT, "deadline reached"},
    {"CANCELLED", ASSAY_SLURM_FINAL, ASSAY_WORKLOAD_FAILED, K_CANCELLED, "cancelled"},
    {"REVOKED", ASSAY_SLURM_FINAL, ASSAY_INFRA, K_PLAIN,
     "revoked: a sibling cluster of the federation runs it"},
};

static const struct state_row *find_state(const char *state)
{
	for (size_t i = 0; i < ARRAY_SIZE(states); i++)
		if (!strcmp(states[i].state, state))
			return &states[i];
	return NULL;
}

bool assay_slurm_state_class(const char *state, enum assay_slurm_phase *phase, assay_err *code)
{
	const struct state_row *r = find_state(state);
	if (!r)
		return false;
	*phase = r->phase;
	*code = r->code;
	return true;
}

static void hms(long long s, char *buf, size_t size)
{
	if (s < 0)
		snprintf(buf, size, "unlimited");
	else if (s >= 86400)
		snprintf(buf, size, "%lld-%02lld:%02lld:%02lld", s / 86400, s / 3600 % 24,
			 s / 60 % 60, s % 60);
	else
		snprintf(buf, size, "%02lld:%02lld:%02lld", s / 3600, s / 60 % 60, s % 60);
}

/* " (Reason)" when Slurm gave a reason worth showing. */
static void reason_suffix(const struct assay_slurm_jobinfo *j, struct sbuf *sb)
{
	if (j->reason[0] && strcmp(j->reason, "None"))
		sbuf_addf(sb, " (%s)", j->reason);
}

static void exit_suffix(const struct assay_slurm_jobinfo *j, struct sbuf *sb)
{
	if (j->exit_signal > 0)
		sbuf_addf(sb, ", killed by signal %d", j->exit_signal);
	else if (j->exit_code > 0)
		sbuf_addf(sb, ", exit code %d", j->exit_code);
}

/* A cancelled job: by assay (its flag, or the comment assay's scontrol
 * update left, with the reason after it) or by someone else. */
static void cancel_message(const struct assay_slurm_jobinfo *j, bool assay_cancelled,
			   struct assay_slurm_outcome *out, struct sbuf *sb)
{
	out->cancelled = true;
	out->cancelled_by_assay =
	    assay_cancelled ||
	    (j->comment && assay_starts_with(j->comment, ASSAY_SLURM_CANCEL_COMMENT));
	if (out->cancelled_by_assay) {
		sbuf_adds(sb, " by assay");
		const char *c = j->comment;
		if (c && assay_starts_with(c, ASSAY_SLURM_CANCEL_COMMENT)) {
			c += strlen(ASSAY_SLURM_CANCEL_COMMENT);
			while (*c == ':' || *c == ' ')
				c++;
			if (*c)
				sbuf_addf(sb, ": %s", c);
		}
	} else {
		sbuf_adds(sb, " by someone else (not assay: a user, an administrator or "
			      "Slurm itself)");
		reason_suffix(j, sb);
	}
}

void assay_slurm_outcome(const struct assay_slurm_jobinfo *j, bool assay_cancelled,
			 struct assay_slurm_outcome *out)
{
	memset(out, 0, sizeof(*out));
	out->phase = ASSAY_SLURM_FINAL;
	if (!j) {
		out->code = ASSAY_INFRA;
		snprintf(out->message, sizeof(out->message),
			 "the job is no longer known to Slurm and assay did not see it end "
			 "(purged after MinJobAge: poll more often)");
		return;
	}
	const struct state_row *r = find_state(j->state);
	if (!r) {
		out->code = ASSAY_INFRA;
		snprintf(out->message, sizeof(out->message),
			 "job %s: unknown Slurm job state \"%s\"", j->id, j->state);
		return;
	}
	struct sbuf sb = SBUF_INIT;
	out->phase = r->phase;
	out->code = r->phase == ASSAY_SLURM_FINAL ? r->code : ASSAY_OK;
	sbuf_adds(&sb, r->state);
	switch (r->kind) {
	case K_PREEMPTED:
		if (j->requeue == 0) {
			out->phase = ASSAY_SLURM_FINAL;
			out->code = r->code;
			sbuf_adds(&sb, ": preempted by another job and not requeueable");
		} else {
			sbuf_adds(&sb, ": preempted; waiting for Slurm to requeue it");
		}
		break;
	case K_TIMEOUT: {
		out->timeout = true;
		char lim[32];
		if (j->time_limit_s >= 0 && !strcmp(r->state, "TIMEOUT")) {
			hms(j->time_limit_s, lim, sizeof(lim));
			sbuf_addf(&sb, ": time limit %s reached", lim);
		} else {
			sbuf_addf(&sb, ": %s", r->meaning);
		}
		break;
	}
	case K_CANCELLED: cancel_message(j, assay_cancelled, out, &sb); break;
	case K_PLAIN:
		if (r->phase == ASSAY_SLURM_FINAL && r->code != ASSAY_OK) {
			reason_suffix(j, &sb);
			sbuf_addf(&sb, ": %s", r->meaning);
			exit_suffix(j, &sb);
		} else if (r->phase == ASSAY_SLURM_PENDING) {
			reason_suffix(j, &sb);
		} else if (r->phase == ASSAY_SLURM_RUNNING && j->nodelist) {
			sbuf_addf(&sb, " on %s", j->nodelist);
		}
		break;
	}
	snprintf(out->message, sizeof(out->message), "%s", sbuf_str(&sb));
	sbuf_release(&sb);
}
