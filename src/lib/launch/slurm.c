/* The Slurm launcher: each case runs as a batch job of its own (job_per
 * "case"), as a step handed over to its shard's job (job_per "shard"), or,
 * inside an allocation that holds its nodes, as an srun step in place. Jobs
 * go in with sbatch --parsable, are followed with squeue and scontrol show
 * job, and are stopped with scancel; docs/slurm.md. Here: preparing and
 * describing a case's job, cancelling and releasing it; the rest in the
 * slurm_*.c files named in slurm_int.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "assay/container.h"
#include "assay/launch.h"
#include "assay/slurm.h"
#include "slurm_int.h"

int assay_launch_slurm_parse(struct assay_cfg *c, const json_t *opts, const char *path,
			     struct assay_launcher **out);

static char *absolute(const char *p)
{
	if (p[0] == '/')
		return xstrdup(p);
	char cwd[4096];
	if (!getcwd(cwd, sizeof(cwd)))
		return xstrdup(p);
	while (p[0] == '.' && p[1] == '/')
		p += 2;
	return xasprintf("%s/%s", cwd, p);
}

static char *parent_dir(const char *p)
{
	const char *slash = strrchr(p, '/');
	return slash && slash != p ? xstrndup(p, (size_t)(slash - p)) : xstrdup("/");
}

static void job_free(struct assay_job *j);

static const char *group_of(const struct assay_job *j)
{
	return j->mode == PER_SHARD && j->group ? j->group : j->case_id;
}

/* A case in a container: pyxis adds srun options (the container named
 * after the job, so a shard's steps reuse the imported image); enroot and
 * apptainer wrap the program. Variables and secrets cross by name. */
static assay_err container_step(struct assay_job *j, const struct assay_container *ctr,
				struct assay_error *e)
{
	if (assay_container_is_local(ctr))
		return assay_error_set(e, ASSAY_USAGE,
				       "case %s: container runtime %s runs under the local "
				       "launcher; on Slurm use pyxis, enroot or apptainer",
				       j->case_id, assay_ctr_runtime_names[ctr->runtime]);
	struct strlist names = STRLIST_INIT;
	for (size_t i = 0; i < j->env.n; i++) {
		const char *eq = strchr(j->env.v[i], '=');
		char *n =
		    xstrndup(j->env.v[i], eq ? (size_t)(eq - j->env.v[i]) : strlen(j->env.v[i]));
		strlist_push(&names, n);
		free(n);
	}
	for (size_t i = 0; i < j->secrets.n; i++)
		if (!strlist_has(&names, j->secrets.v[i]))
			strlist_push(&names, j->secrets.v[i]);
	if (ctr->runtime == ASSAY_CTR_PYXIS) {
		assay_container_srun_opts(ctr, j->name, j->case_dir, &names, &j->srun_opts);
	} else {
		struct strlist inner = j->argv;
		memset(&j->argv, 0, sizeof(j->argv));
		assay_container_wrap_argv(ctr, j->case_dir, &names, &inner, &j->argv);
		strlist_clear(&inner);
	}
	strlist_clear(&names);
	return ASSAY_OK;
}

/* What the spec gives the job, and its folders and name parts under the
 * run folder. */
static void job_fill(struct assay_job *j, const struct assay_launch_spec *s)
{
	j->case_id = xstrdup(s->case_id);
	j->case_dir = absolute(s->dir);
	char *run_dir = parent_dir(j->case_dir);
	const char *slash = strrchr(run_dir, '/');
	j->run_id = xstrdup(slash ? slash + 1 : run_dir);
	j->attempt = s->attempt > 1 ? s->attempt : 1;
	/* A resumed run's jobs get folders (spool, step markers, raw output) and
	 * names of their own: nothing an earlier attempt left can count. */
	j->slurm_dir = j->attempt > 1 ? xasprintf("%s/slurm/a%d", run_dir, j->attempt)
				      : xasprintf("%s/slurm", run_dir);
	free(run_dir);
	j->raw = xasprintf("%s/%s", j->slurm_dir, j->case_id);
	j->status_file = xasprintf("%s/exit", j->raw);
	j->cwd = s->cwd ? absolute(s->cwd) : NULL;
	j->group = s->group ? xstrdup(s->group) : NULL;
	j->share = s->share;
	j->network = s->platform ? s->platform->network : NULL;
	j->mpi = s->mpi_ranks > 0;
	j->per_task = s->per_task_logs;
	j->timeout_s = s->timeout_s;
	j->redact = s->redact;
	j->on_output = s->on_output;
	j->on_record = s->on_record;
	j->ctx = s->ctx;
	for (size_t i = 0; i < s->argv->n; i++)
		strlist_push(&j->argv, s->argv->v[i]);
	for (size_t i = 0; s->env && i < s->env->n; i++)
		strlist_push(&j->env, s->env->v[i]);
	for (size_t i = 0; s->redact && i < s->redact->n; i++)
		if (!strlist_has(&j->secrets, s->redact->v[i].name))
			strlist_push(&j->secrets, s->redact->v[i].name);
}

/* Everything that can be refused is refused here, before it runs: the srun
 * command in place; else the job script, and the step text of a shard's
 * case (step index of its group). */
static assay_err job_texts(struct assay_job *j, size_t index, struct assay_error *e)
{
	struct sbuf sb = SBUF_INIT;
	assay_err rc = ASSAY_OK;
	if (j->mode == IN_PLACE) {
		struct strlist argv = STRLIST_INIT, env = STRLIST_INIT;
		rc = slurm_in_place_command(j, &argv, &env, e);
		strlist_clear(&argv);
		strlist_clear(&env);
	} else {
		char *spool = xasprintf("%s/%s.d", j->slurm_dir, j->name);
		rc = slurm_job_script(j, j->name, spool, &sb, e);
		free(spool);
		j->script = sbuf_detach(&sb, NULL);
		if (rc == ASSAY_OK && j->mode == PER_SHARD) {
			rc = slurm_step_text(j, j->name, index, &sb, e);
			j->step_text = sbuf_detach(&sb, NULL);
		}
	}
	sbuf_release(&sb);
	return rc;
}

static assay_err prepare(struct assay_launcher *base, const struct assay_launch_spec *s,
			 struct assay_job **out, struct assay_error *e)
{
	struct slurm_launcher *l = (struct slurm_launcher *)base;
	if (!s->argv || !s->argv->n)
		return assay_error_set(e, ASSAY_USAGE, "%s: empty command", s->case_id);
	struct assay_job *j = xcalloc(1, sizeof(*j));
	j->l = l;
	if (slurm_place(l, s, &j->o, &j->shape, e) != ASSAY_OK) {
		job_free(j);
		return ASSAY_USAGE;
	}
	job_fill(j, s);
	slurm_choose_mode(l, j);
	j->name = j->attempt > 1 ? xasprintf("assay-%s-%s-a%d", j->run_id, group_of(j), j->attempt)
				 : xasprintf("assay-%s-%s", j->run_id, group_of(j));
	if (s->container && s->container->on && container_step(j, s->container, e) != ASSAY_OK) {
		job_free(j);
		return ASSAY_USAGE;
	}
	j->first_in_group = !l->last_group || strcmp(l->last_group, group_of(j));
	l->group_n = j->first_in_group ? 1 : l->group_n + 1;
	free(l->last_group);
	l->last_group = xstrdup(group_of(j));
	if (job_texts(j, l->group_n - 1, e) != ASSAY_OK) {
		assay_error_prefix(e, "case %s", j->case_id);
		job_free(j);
		return ASSAY_USAGE;
	}
	*out = j;
	return ASSAY_OK;
}

/* What the case runs: the srun line in place; else the job script (when the
 * case starts a job) and the step handed over. The runner indents the first
 * line; the others that are not file contents start with two spaces. */
static void describe(const struct assay_job *j, struct sbuf *out)
{
	struct sbuf d = SBUF_INIT;
	if (j->mode == IN_PLACE) {
		struct strlist argv = STRLIST_INIT, env = STRLIST_INIT;
		struct assay_error e;
		if (slurm_in_place_command(j, &argv, &env, &e) == ASSAY_OK) {
			if (j->cwd)
				sbuf_addf(&d, "cd %s && ", j->cwd);
			assay_command_line(&env, &argv, NULL, &d);
			sbuf_addch(&d, '\n');
		}
		strlist_clear(&argv);
		strlist_clear(&env);
		char *hosts = strlist_join(&j->hosts, ",");
		sbuf_addf(&d, "  a step of Slurm allocation %s on %s (in place: no new job)\n",
			  j->l->alloc.job_id, hosts);
		free(hosts);
	} else {
		if (j->mode == PER_CASE || j->first_in_group)
			sbuf_addf(&d, "sbatch --parsable %s/%s.sh\n", j->slurm_dir, j->name);
		else
			sbuf_addf(&d, "a step of job %s (%s)\n", j->name,
				  j->shared ? "one job for the variants of a case"
					    : "one job per shard");
		if (j->why[0])
			sbuf_addf(&d, "  a new job, not in place: %s\n", j->why);
		if (j->mode == PER_CASE || j->first_in_group)
			sbuf_addf(&d, "  --- %s/%s.sh\n%s  ---\n", j->slurm_dir, j->name,
				  j->script);
		if (j->mode == PER_SHARD)
			sbuf_addf(&d, "  --- handed over as %s/%s.d/step-N.sh\n%s  ---\n",
				  j->slurm_dir, j->name, j->step_text);
	}
	sbuf_addf(&d, "  logs: %s/nodes/ (per node), %s/stdout.log, %s/stderr.log", j->case_dir,
		  j->case_dir, j->case_dir);
	if (j->timeout_s > 0)
		sbuf_addf(&d, "; timeout %g s (then %s)", j->timeout_s,
			  j->mode == IN_PLACE ? "SIGTERM to srun" : "scancel");
	sbuf_addch(&d, '\n');
	char *red = assay_redactor_str(j->redact, sbuf_str(&d));
	sbuf_adds(out, red);
	free(red);
	sbuf_release(&d);
}

static void cancel(struct assay_job *j)
{
	if (!j->submitted || j->done)
		return;
	j->cancelled = true;
	if (j->mode == IN_PLACE)
		j->l->local->ops->cancel(j->inner);
	else
		slurm_batch_cancel(j->b,
				   "stopped by assay run (an error signature, a timeout or an "
				   "interrupt)");
}

static assay_err collect(struct assay_job *j, struct assay_error *e)
{
	(void)e;
	if (j->logs_open)
		node_logs_remove_raw(&j->logs);
	return ASSAY_OK;
}

static void job_free(struct assay_job *j)
{
	free(j->case_id);
	free(j->case_dir);
	free(j->run_id);
	free(j->slurm_dir);
	free(j->raw);
	free(j->status_file);
	free(j->cwd);
	free(j->group);
	free(j->name);
	free(j->script);
	free(j->step_text);
	assay_slurm_options_release(&j->o);
	strlist_clear(&j->argv);
	strlist_clear(&j->env);
	strlist_clear(&j->secrets);
	strlist_clear(&j->hosts);
	strlist_clear(&j->srun_opts);
	free(j);
}

static void release(struct assay_job *j)
{
	if (!j)
		return;
	if (j->inner)
		j->l->local->ops->release(j->inner);
	if (j->b && j->submitted && !j->done) {
		/* Error paths: never leave a job of the case running. */
		slurm_batch_cancel(j->b, "assay run stopped following it");
		j->b->broken = true;
	}
	if (j->mode == PER_CASE)
		slurm_batch_free(j->b);
	if (j->logs_open)
		node_logs_release(&j->logs);
	job_free(j);
}

static void free_launcher(struct assay_launcher *base)
{
	struct slurm_launcher *l = (struct slurm_launcher *)base;
	slurm_shard_close(l);
	assay_launcher_free(l->local);
	assay_slurm_options_release(&l->o);
	assay_slurm_alloc_release(&l->alloc);
	free(l->where);
	free(l->last_group);
	free(l);
}

static const struct assay_launcher_ops slurm_ops = {
    "slurm", prepare, describe,      slurm_submit, slurm_poll,   cancel,
    collect, release, free_launcher, slurm_check,  slurm_resume,
};

int assay_launch_slurm_parse(struct assay_cfg *c, const json_t *opts, const char *path,
			     struct assay_launcher **out)
{
	struct slurm_launcher *l = xcalloc(1, sizeof(*l));
	assay_slurm_options_init(&l->o);
	if (opts && assay_slurm_options_parse(c, opts, path, &l->o) < 0) {
		assay_slurm_options_release(&l->o);
		free(l);
		return -1;
	}
	l->base.ops = &slurm_ops;
	l->base.priv = l;
	l->base.groups = l->o.job_per == ASSAY_SLURM_PER_SHARD;
	l->where = xasprintf("%s: %s", c->file, path);
	l->local = assay_launcher_local_new(NULL);
	*out = &l->base;
	return 0;
}
