/* Submitting a Slurm case: in place through the local launcher (srun), as a
 * batch job of its own, or as a step handed over to its shard's job; from
 * then on its logs are followed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "assay/contain.h"
#include "assay/proc.h"
#include "assay/slurm.h"
#include "slurm_int.h"

static void in_place_output(void *ctx, const char *stream, const char *data, size_t len)
{
	struct assay_job *j = ctx;
	bool err = !strcmp(stream, "stderr");
	if (!j->push_failed && node_logs_push(&j->logs, err ? "srun.err" : "srun.out", err, data,
					      len, &j->push_error) != ASSAY_OK)
		j->push_failed = true;
}

/* In place: the local launcher records srun's processes; add the
 * allocation they run in. */
static assay_err in_place_record(void *ctx, const struct assay_proc_record *r,
				 struct assay_error *e)
{
	struct assay_job *j = ctx;
	if (!j->on_record)
		return ASSAY_OK;
	struct assay_proc_record mine = *r;
	mine.slurm_job = j->l->alloc.job_id[0] ? j->l->alloc.job_id : NULL;
	return j->on_record(j->ctx, &mine, e);
}

static assay_err submit_in_place(struct assay_job *j, struct assay_error *e)
{
	struct strlist argv = STRLIST_INIT, env = STRLIST_INIT;
	assay_err rc = slurm_in_place_command(j, &argv, &env, e);
	if (rc == ASSAY_OK) {
		struct assay_launch_spec spec = {.case_id = j->case_id,
						 .dir = j->raw,
						 .argv = &argv,
						 .env = &env,
						 .cwd = j->cwd,
						 .timeout_s = j->timeout_s,
						 .nodes = j->shape.nodes,
						 .redact = j->redact,
						 .on_output = in_place_output,
						 .ctx = j,
						 .on_record = in_place_record,
						 .attempt = j->attempt};
		const struct assay_launcher_ops *ops = j->l->local->ops;
		rc = ops->prepare(j->l->local, &spec, &j->inner, e);
		if (rc == ASSAY_OK)
			rc = ops->submit(j->inner, e);
	}
	strlist_clear(&argv);
	strlist_clear(&env);
	return rc;
}

static assay_err submit_shard(struct assay_job *j, struct assay_error *e)
{
	struct slurm_launcher *l = j->l;
	struct batch *b = l->open;
	if (b && (strcmp(b->group, j->group) || b->final || b->cancelled || b->broken)) {
		bool same = !strcmp(b->group, j->group);
		slurm_shard_close(l);
		b = NULL;
		if (!same)
			l->open_tries = 0;
	} else if (!b) {
		l->open_tries = 0;
	}
	if (!b) {
		/* A shard whose job ended early gets a new one: -2, -3, ... */
		char *name = l->open_tries ? xasprintf("%s-%u", j->name, l->open_tries + 1)
					   : xstrdup(j->name);
		b = slurm_batch_new(name, j->slurm_dir, j->group, true);
		struct sbuf script = SBUF_INIT;
		assay_err rc = slurm_job_script(j, name, b->spool, &script, e);
		free(name);
		if (rc == ASSAY_OK)
			rc = slurm_batch_submit(b, sbuf_str(&script), j->slurm_dir, e);
		sbuf_release(&script);
		if (rc != ASSAY_OK) {
			slurm_batch_free(b);
			return rc == ASSAY_USAGE ? ASSAY_INFRA : rc;
		}
		l->open = b;
		l->open_tries++;
	}
	j->b = b;
	j->step = ++b->steps;
	struct sbuf text = SBUF_INIT;
	assay_err rc = slurm_step_text(j, b->name, j->step - 1, &text, e);
	if (rc == ASSAY_OK) {
		char *path = xasprintf("%s/step-%zu.sh", b->spool, j->step);
		rc = assay_write_file_atomic(path, text.buf, text.len, e);
		free(path);
	}
	sbuf_release(&text);
	if (b->phase == ASSAY_SLURM_RUNNING)
		j->run_start = assay_monotonic();
	return rc;
}

assay_err slurm_submit(struct assay_job *j, struct assay_error *e)
{
	j->start = assay_monotonic();
	assay_remove_flat_dir(j->raw); /* what an earlier attempt left */
	if (assay_mkdirs(j->raw, e) != ASSAY_OK)
		return ASSAY_INFRA;
	if (node_logs_open(&j->logs, j->raw, j->case_dir, j->redact, j->on_output, j->ctx, e) !=
	    ASSAY_OK)
		return ASSAY_INFRA;
	j->logs_open = true;
	assay_err rc;
	if (j->mode == IN_PLACE) {
		rc = submit_in_place(j, e);
	} else if (j->mode == PER_CASE) {
		j->b = slurm_batch_new(j->name, j->slurm_dir, NULL, false);
		rc = slurm_batch_submit(j->b, j->script, j->slurm_dir, e);
	} else {
		rc = submit_shard(j, e);
	}
	if (rc != ASSAY_OK)
		return rc;
	j->submitted = true;
	if (j->b && j->on_record) {
		/* The job a later attempt must cancel if this assay is killed. */
		char host[256];
		if (gethostname(host, sizeof(host)) != 0)
			snprintf(host, sizeof(host), "localhost");
		host[sizeof(host) - 1] = '\0';
		struct assay_proc_record r = {host, NULL, 0, 0, "slurm", NULL, j->b->id, NULL};
		if ((rc = j->on_record(j->ctx, &r, e)) != ASSAY_OK)
			return rc;
	}
	if (j->b) {
		node_logs_set_job(&j->logs, j->b->id);
		node_logs_add_shared(&j->logs, &j->b->out, "batch.out");
	} else {
		node_logs_set_job(&j->logs, j->l->alloc.job_id);
	}
	return ASSAY_OK;
}
