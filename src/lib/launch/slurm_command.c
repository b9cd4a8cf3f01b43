/* What a Slurm case runs, from its job: the job script (the whole case, or a
 * shard's driver), the step text handed over to a shard's job, and the srun
 * command that runs the case in place inside an allocation. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "assay/slurm.h"
#include "slurm_int.h"

/* The pieces assay_slurm_script() and friends read, for one job. */
struct parts {
	struct assay_slurm_env *env;
	const char **argv, **secrets, **srun_opts;
	struct assay_slurm_step step;
	struct assay_slurm_job job;
};

static void parts_init(struct parts *p, const struct assay_job *j, const char *name,
		       bool spool_mode, const char *spool)
{
	memset(p, 0, sizeof(*p));
	p->env = xcalloc(j->env.n + 1, sizeof(*p->env));
	for (size_t i = 0; i < j->env.n; i++) {
		char *eq = strchr(j->env.v[i], '=');
		p->env[i].name =
		    xstrndup(j->env.v[i], eq ? (size_t)(eq - j->env.v[i]) : strlen(j->env.v[i]));
		p->env[i].value = eq ? eq + 1 : NULL;
	}
	p->argv = xcalloc(j->argv.n + 1, sizeof(*p->argv));
	for (size_t i = 0; i < j->argv.n; i++)
		p->argv[i] = j->argv.v[i];
	p->secrets = xcalloc(j->secrets.n + 1, sizeof(*p->secrets));
	for (size_t i = 0; i < j->secrets.n; i++)
		p->secrets[i] = j->secrets.v[i];
	p->srun_opts = xcalloc(j->srun_opts.n + 1, sizeof(*p->srun_opts));
	for (size_t i = 0; i < j->srun_opts.n; i++)
		p->srun_opts[i] = j->srun_opts.v[i];
	p->step = (struct assay_slurm_step){
	    j->case_id, p->argv,  j->argv.n, j->mpi,       j->raw,         j->status_file,
	    p->env,     j->env.n, j->cwd,    p->srun_opts, j->srun_opts.n, j->per_task};
	p->job = (struct assay_slurm_job){.name = name,
					  .shape = j->shape,
					  .o = &j->o,
					  .log_dir = j->slurm_dir,
					  .workdir = NULL,
					  .secrets = p->secrets,
					  .n_secrets = j->secrets.n,
					  .network = j->network,
					  .master_addr = !j->mpi,
					  .steps = spool_mode ? NULL : &p->step,
					  .n_steps = spool_mode ? 0 : 1,
					  .spool = spool_mode ? spool : NULL};
}

static void parts_release(struct parts *p)
{
	for (size_t i = 0; p->env && p->env[i].name; i++)
		free((char *)p->env[i].name);
	free(p->env);
	free(p->argv);
	free(p->secrets);
	free(p->srun_opts);
}

/* The job script (the whole case, or a shard's driver) for job `name`. */
assay_err slurm_job_script(const struct assay_job *j, const char *name, const char *spool,
			   struct sbuf *out, struct assay_error *e)
{
	struct parts p;
	char cwd[4096];
	parts_init(&p, j, name, j->mode == PER_SHARD, spool);
	p.job.workdir = getcwd(cwd, sizeof(cwd)) ? cwd : NULL;
	assay_err rc = assay_slurm_script(&p.job, out, e);
	parts_release(&p);
	return rc;
}

assay_err slurm_step_text(const struct assay_job *j, const char *name, size_t index,
			  struct sbuf *out, struct assay_error *e)
{
	struct parts p;
	parts_init(&p, j, name, true, "/");
	assay_err rc = assay_slurm_step_text(&p.job, &p.step, index, 0, out, e);
	parts_release(&p);
	return rc;
}

/* srun in place: argv and the variables it runs with. */
assay_err slurm_in_place_command(const struct assay_job *j, struct strlist *argv,
				 struct strlist *env, struct assay_error *e)
{
	struct parts p;
	parts_init(&p, j, j->name, false, NULL);
	char *hosts = strlist_join(&j->hosts, ",");
	assay_err rc = assay_slurm_step_argv(&p.job, &p.step, hosts, argv, e);
	free(hosts);
	parts_release(&p);
	if (rc != ASSAY_OK)
		return rc;
	assay_slurm_network_env(j->network, env);
	if (!j->mpi && j->hosts.n) {
		char *v = xasprintf("MASTER_ADDR=%s", j->hosts.v[0]);
		strlist_push(env, v);
		free(v);
		v = xasprintf("MASTER_PORT=%lld", assay_slurm_master_port(&j->o, j->network));
		strlist_push(env, v);
		free(v);
	}
	for (size_t i = 0; i < j->env.n; i++)
		strlist_push(env, j->env.v[i]);
	return ASSAY_OK;
}
