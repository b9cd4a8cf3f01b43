/* The Slurm launcher: each case runs as a batch job of its own (job_per
 * "case"), as a step handed over to its shard's job (job_per "shard"), or,
 * inside an allocation that holds its nodes, as an srun step in place. Jobs
 * go in with sbatch --parsable, are followed with squeue and scontrol show
 * job, and are stopped with scancel; docs/slurm.md. */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "assay/config.h"
#include "assay/contain.h"
#include "assay/container.h"
#include "assay/launch.h"
#include "assay/proc.h"
#include "assay/slurm.h"
#include "slurm_int.h"

extern char **environ;

int assay_launch_slurm_parse(struct assay_cfg *c, const json_t *opts, const char *path,
			     struct assay_launcher **out);

/* squeue may fail for a while (slurmctld restarting); after this long
 * without an answer the job is given up as an infrastructure failure. */
#define SQUEUE_GRACE_S 120.0
/* A cancelled job still queued or running this long after scancel (a lost
 * request on a busy controller) is cancelled again. */
#define CANCEL_AGAIN_S 10.0

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

/* ---- small helpers ---- */

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

/* Run a Slurm command; its stdout in out, its stderr's first line in why. */
static assay_err slurm_cmd(const char *const argv[], struct sbuf *out, int *code, char *why,
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

/* ---- placement: options with the registry's site defaults, and shape ---- */

static assay_err place(const struct slurm_launcher *l, const struct assay_launch_spec *s,
		       struct assay_slurm_options *o, struct assay_slurm_shape *shape,
		       struct assay_error *e)
{
	assay_slurm_options_copy(o, &l->o);
	if (s->platform)
		assay_slurm_options_apply_operator(o, s->platform->op);
	if (s->mpi_ranks > 0 && s->platform) {
		if (assay_slurm_shape_ep(s->platform, s->registry_file, o, l->where, s->mpi_ranks,
					 shape, e) != ASSAY_OK)
			return ASSAY_USAGE;
		if (s->nodes && shape->nodes != s->nodes)
			return assay_error_set(
			    e, ASSAY_USAGE,
			    "%s: case %s: EP %lld needs %lld node(s) of platform %s, "
			    "but the matrix planned %lld",
			    l->where, s->case_id, s->mpi_ranks, shape->nodes, s->platform->sku,
			    s->nodes);
		return ASSAY_OK;
	}
	long long nodes = s->nodes > 0 ? s->nodes : 1;
	long long tasks = o->ntasks_per_node ? o->ntasks_per_node : 1;
	if (s->mpi_ranks > 0)
		tasks = (s->mpi_ranks + nodes - 1) / nodes;
	if (!s->platform && o->gpus_per_node && s->gpus_per_node &&
	    o->gpus_per_node != s->gpus_per_node)
		return assay_error_set(e, ASSAY_USAGE,
				       "%s: gpus_per_node %lld disagrees with the suite's "
				       "gpus_per_node (%lld)",
				       l->where, o->gpus_per_node, s->gpus_per_node);
	if (assay_slurm_shape_nodes(s->platform, s->registry_file, o, l->where, nodes, tasks, shape,
				    e) != ASSAY_OK)
		return ASSAY_USAGE;
	if (!s->platform)
		shape->gpus_per_node = o->gpu_gres == 0 ? 0 : s->gpus_per_node;
	return ASSAY_OK;
}

static assay_err check(struct assay_launcher *base, const struct assay_launch_spec *s,
		       struct assay_error *e)
{
	struct assay_slurm_options o;
	struct assay_slurm_shape shape;
	assay_err rc = place((struct slurm_launcher *)base, s, &o, &shape, e);
	assay_slurm_options_release(&o);
	return rc;
}

/* ---- scripts ---- */

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
static assay_err job_script(const struct assay_job *j, const char *name, const char *spool,
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

static assay_err step_text(const struct assay_job *j, const char *name, size_t index,
			   struct sbuf *out, struct assay_error *e)
{
	struct parts p;
	parts_init(&p, j, name, true, "/");
	assay_err rc = assay_slurm_step_text(&p.job, &p.step, index, 0, out, e);
	parts_release(&p);
	return rc;
}

/* srun in place: argv and the variables it runs with. */
static assay_err in_place_command(const struct assay_job *j, struct strlist *argv,
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

/* ---- prepare and describe ---- */

static void job_free(struct assay_job *j);

static const char *group_of(const struct assay_job *j)
{
	return j->mode == PER_SHARD && j->group ? j->group : j->case_id;
}

/* Inside an allocation that can hold the case: run it there. */
static void choose_mode(struct slurm_launcher *l, struct assay_job *j)
{
	j->mode = l->o.job_per == ASSAY_SLURM_PER_CASE || !j->group ? PER_CASE : PER_SHARD;
	/* The variants and repeats of one case share a job whatever job_per says. */
	if (j->mode == PER_CASE && j->share) {
		free(j->group);
		j->group = xstrdup(j->share);
		j->mode = PER_SHARD;
		j->shared = true;
	}
	if (!l->alloc_known) {
		struct assay_error ae;
		l->alloc_known = true;
		if (assay_slurm_alloc_detect(environ, &l->alloc, &ae) != ASSAY_OK)
			snprintf(l->alloc_error, sizeof(l->alloc_error), "%s", ae.message);
	}
	if (l->alloc_error[0]) {
		snprintf(j->why, sizeof(j->why), "the allocation cannot be used: %s",
			 l->alloc_error);
		return;
	}
	if (!l->alloc.inside)
		return;
	struct strlist use = STRLIST_INIT;
	if (!assay_slurm_alloc_fits(&l->alloc, j->shape.nodes, j->o.nodelist, j->o.exclude, &use,
				    j->why, sizeof(j->why))) {
		strlist_clear(&use);
		return;
	}
	if (l->alloc.cpus_per_node > 0 && j->shape.ntasks_per_node > l->alloc.cpus_per_node) {
		snprintf(j->why, sizeof(j->why),
			 "the case runs %lld task(s) per node; allocation %s has %lld CPU(s) on "
			 "its smallest node",
			 j->shape.ntasks_per_node, l->alloc.job_id, l->alloc.cpus_per_node);
		strlist_clear(&use);
		return;
	}
	j->mode = IN_PLACE;
	j->hosts = use;
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

static assay_err prepare(struct assay_launcher *base, const struct assay_launch_spec *s,
			 struct assay_job **out, struct assay_error *e)
{
	struct slurm_launcher *l = (struct slurm_launcher *)base;
	if (!s->argv || !s->argv->n)
		return assay_error_set(e, ASSAY_USAGE, "%s: empty command", s->case_id);
	struct assay_job *j = xcalloc(1, sizeof(*j));
	j->l = l;
	if (place(l, s, &j->o, &j->shape, e) != ASSAY_OK) {
		job_free(j);
		return ASSAY_USAGE;
	}
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
	choose_mode(l, j);
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
	/* Everything that can be refused is refused here, before it runs. */
	struct sbuf sb = SBUF_INIT;
	assay_err rc = ASSAY_OK;
	if (j->mode == IN_PLACE) {
		struct strlist argv = STRLIST_INIT, env = STRLIST_INIT;
		rc = in_place_command(j, &argv, &env, e);
		strlist_clear(&argv);
		strlist_clear(&env);
	} else {
		char *spool = xasprintf("%s/%s.d", j->slurm_dir, j->name);
		rc = job_script(j, j->name, spool, &sb, e);
		free(spool);
		j->script = sbuf_detach(&sb, NULL);
		if (rc == ASSAY_OK && j->mode == PER_SHARD) {
			rc = step_text(j, j->name, l->group_n - 1, &sb, e);
			j->step_text = sbuf_detach(&sb, NULL);
		}
	}
	sbuf_release(&sb);
	if (rc != ASSAY_OK) {
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
		if (in_place_command(j, &argv, &env, &e) == ASSAY_OK) {
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

/* ---- batch jobs ---- */

static struct batch *batch_new(const char *name, const char *slurm_dir, const char *group,
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

static void batch_free(struct batch *b)
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

static assay_err batch_submit(struct batch *b, const char *script, const char *slurm_dir,
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
static void batch_scancel(struct batch *b)
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
static void batch_cancel(struct batch *b, const char *why)
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
		batch_scancel(b);
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
static assay_err look(struct batch *b, double interval, struct assay_error *e)
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
static void close_open(struct slurm_launcher *l)
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
			batch_cancel(b, "the run no longer needs it");
	}
	batch_free(b);
}

/* ---- submit, poll, cancel, collect ---- */

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
	assay_err rc = in_place_command(j, &argv, &env, e);
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
		close_open(l);
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
		b = batch_new(name, j->slurm_dir, j->group, true);
		struct sbuf script = SBUF_INIT;
		assay_err rc = job_script(j, name, b->spool, &script, e);
		free(name);
		if (rc == ASSAY_OK)
			rc = batch_submit(b, sbuf_str(&script), j->slurm_dir, e);
		sbuf_release(&script);
		if (rc != ASSAY_OK) {
			batch_free(b);
			return rc == ASSAY_USAGE ? ASSAY_INFRA : rc;
		}
		l->open = b;
		l->open_tries++;
	}
	j->b = b;
	j->step = ++b->steps;
	struct sbuf text = SBUF_INIT;
	assay_err rc = step_text(j, b->name, j->step - 1, &text, e);
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

static assay_err submit(struct assay_job *j, struct assay_error *e)
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
		j->b = batch_new(j->name, j->slurm_dir, NULL, false);
		rc = batch_submit(j->b, j->script, j->slurm_dir, e);
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
		batch_cancel(b, why);
	}
	double interval = poll_interval(j);
	if (j->mode == PER_CASE && access(j->status_file, F_OK) == 0)
		interval = fmin(interval, 0.5); /* the step has ended: the job is about to */
	if (b->cancelled && !b->final && b->have_info && now - b->cancel_at >= CANCEL_AGAIN_S &&
	    (!strcmp(b->info.state, "RUNNING") || !strcmp(b->info.state, "PENDING")))
		batch_scancel(b); /* the cancel did not take: once more */
	if (!shard_step_done && !b->final && now >= b->next_look) {
		enum assay_slurm_phase was = b->phase;
		if (look(b, interval, e) != ASSAY_OK)
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
	if (shard_step_done || b->final) {
		if (!j->run_start && shard_step_done && b->phase == ASSAY_SLURM_PENDING) {
			struct assay_error ignore; /* one more look: how long has it run? */
			look(b, interval, &ignore);
		}
		if (shard_step_done && !j->told_running && b->phase == ASSAY_SLURM_RUNNING &&
		    b->have_info) {
			/* The step ran and ended between two looks: say where it ran
			 * (one status more, still running), then end on the next poll. */
			fill_status(j, st);
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
			b->phase =
			    ASSAY_SLURM_RUNNING; /* it ran a step, so it is no longer pending */
			int code = read_status(j);
			if (code < 0)
				finish(j, ASSAY_JOB_EXITED, 255, 0,
				       "the step ended but wrote no exit status (%s)",
				       j->status_file);
			else
				finish(j, ASSAY_JOB_EXITED, code, 0, "exit code %d", code);
		} else if (finish_from_state(j, e) != ASSAY_OK) {
			return ASSAY_INFRA;
		}
		if (j->mode == PER_SHARD && j->st.end != ASSAY_JOB_EXITED)
			b->broken = true; /* the next case of the shard needs a new job */
	}
	fill_status(j, st);
	return ASSAY_OK;
}

static assay_err poll_job(struct assay_job *j, double wait_s, struct assay_job_status *st,
			  struct assay_error *e)
{
	if (!j->submitted || j->done) {
		fill_status(j, st);
		return ASSAY_OK;
	}
	return j->mode == IN_PLACE ? poll_in_place(j, wait_s, st, e) : poll_batch(j, wait_s, st, e);
}

static void cancel(struct assay_job *j)
{
	if (!j->submitted || j->done)
		return;
	j->cancelled = true;
	if (j->mode == IN_PLACE)
		j->l->local->ops->cancel(j->inner);
	else
		batch_cancel(j->b, "stopped by assay run (an error signature, a timeout or an "
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
		batch_cancel(j->b, "assay run stopped following it");
		j->b->broken = true;
	}
	if (j->mode == PER_CASE)
		batch_free(j->b);
	if (j->logs_open)
		node_logs_release(&j->logs);
	job_free(j);
}

static void free_launcher(struct assay_launcher *base)
{
	struct slurm_launcher *l = (struct slurm_launcher *)base;
	close_open(l);
	assay_launcher_free(l->local);
	assay_slurm_options_release(&l->o);
	assay_slurm_alloc_release(&l->alloc);
	free(l->where);
	free(l->last_group);
	free(l);
}

/* A resumed run: cancel every job of an earlier attempt still queued or
 * running: those the store recorded, and those named after the run (a
 * kill between sbatch and the record leaves one the store does not know). */
/* Every shard spool folder of the attempts before attempt gets "end": a
 * shard job of a killed attempt that reaches Slurm only after the squeue
 * below (its sbatch was still on its way) ends as soon as it starts,
 * before it runs any step. */
static void end_earlier_spools(const char *run_dir, int attempt, struct sbuf *report)
{
	size_t ended = 0;
	for (int a = 1; a < attempt; a++) {
		char *dir =
		    a > 1 ? xasprintf("%s/slurm/a%d", run_dir, a) : xasprintf("%s/slurm", run_dir);
		DIR *d = opendir(dir);
		struct dirent *de;
		while (d && (de = readdir(d))) {
			if (de->d_name[0] == '.' || !assay_ends_with(de->d_name, ".d"))
				continue;
			char *end = xasprintf("%s/%s/end", dir, de->d_name);
			struct assay_error e;
			if (access(end, F_OK) != 0 &&
			    assay_write_file_atomic(end, "", 0, &e) == ASSAY_OK)
				ended++;
			free(end);
		}
		if (d)
			closedir(d);
		free(dir);
	}
	if (ended)
		sbuf_addf(report, "%zu shard spool folder(s) of earlier attempts: ended\n", ended);
}

static void resume(struct assay_launcher *base, const char *run_id, const char *run_dir,
		   int attempt, const struct strlist *jobs, struct sbuf *report)
{
	(void)base;
	if (run_dir)
		end_earlier_spools(run_dir, attempt, report);
	const char *argv[] = {"squeue", "-h", "-o", "%i|%j|%T", NULL};
	struct sbuf out = SBUF_INIT;
	int code;
	char why[512];
	struct assay_error e;
	if (slurm_cmd(argv, &out, &code, why, sizeof(why), &e) != ASSAY_OK || code != 0) {
		for (size_t i = 0; i < jobs->n; i++) {
			/* squeue does not answer: cancel what the store knows. */
			struct batch b = {.cancelled = false};
			snprintf(b.id, sizeof(b.id), "%s", jobs->v[i]);
			batch_cancel(&b, "an earlier attempt of the run (assay run --resume)");
			sbuf_addf(report, "job %s of an earlier attempt: scancel sent\n", b.id);
		}
		sbuf_release(&out);
		return;
	}
	char *prefix = xasprintf("assay-%s-", run_id);
	for (char *line = out.buf, *nl; line && *line; line = nl ? nl + 1 : NULL) {
		nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		char *bar1 = strchr(line, '|'), *bar2 = bar1 ? strchr(bar1 + 1, '|') : NULL;
		if (!bar2)
			continue;
		*bar1 = *bar2 = '\0';
		const char *id = line, *name = bar1 + 1, *state = bar2 + 1;
		if (!strlist_has(jobs, id) && strncmp(name, prefix, strlen(prefix)))
			continue;
		if (!strcmp(state, "COMPLETED") || !strcmp(state, "CANCELLED") ||
		    !strcmp(state, "FAILED") || !strcmp(state, "TIMEOUT"))
			continue;
		struct batch b = {.cancelled = false};
		snprintf(b.id, sizeof(b.id), "%s", id);
		batch_cancel(&b, "an earlier attempt of the run (assay run --resume)");
		sbuf_addf(report, "job %s (%s, %s) of an earlier attempt: cancelled\n", id, name,
			  state);
	}
	free(prefix);
	sbuf_release(&out);
}

static const struct assay_launcher_ops slurm_ops = {
    "slurm", prepare, describe,      submit, poll_job, cancel,
    collect, release, free_launcher, check,  resume,
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
